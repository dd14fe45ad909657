"""Bots: players that decide from a seat's view only (the dict `engine.view` builds), never the game.

A bot is an object with `observe(events)` (the seat's projected events, in order) and
`decide(view) -> option id` for the open prompt in `view["prompt"]`. This package must not import
`engine.game` or `engine.state`; a test enforces it.
"""

from __future__ import annotations

from typing import Protocol

from .basic import BasicBot
from .hard import HardBot
from .normal import NormalBot
from .random_bot import RandomBot


class Bot(Protocol):
    level: str
    seat: int

    def observe(self, events: list[dict]) -> None: ...

    def decide(self, view: dict) -> str: ...


LEVELS: dict[str, type] = {"random": RandomBot, "basic": BasicBot, "normal": NormalBot, "hard": HardBot}


def make_bot(level: str, seat: int, seed: int, think: float | None = None) -> Bot:
    """A bot of `level`; `think` is the hard level's time per decision in seconds (default 1)."""
    try:
        cls = LEVELS[level]
    except KeyError:
        raise ValueError(f"unknown bot level {level!r}; choose one of {', '.join(LEVELS)}") from None
    bot: Bot = cls(seat, seed, budget=think) if think is not None and cls is HardBot else cls(seat, seed)
    return bot
