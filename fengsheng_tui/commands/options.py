"""Argument types shared by the subcommands: a bad value is refused by argparse with one line that
names the flag and the values it takes (exit code 2), never a traceback or a table that never starts.

Each type imports what it checks against only when called, so building the parser stays cheap.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import NoReturn


def players(text: str) -> int:
    from engine.config import MAX_PLAYERS, MIN_PLAYERS

    value = _int(text)
    if not MIN_PLAYERS <= value <= MAX_PLAYERS:
        raise argparse.ArgumentTypeError(f"{value} players: choose {MIN_PLAYERS} to {MAX_PLAYERS}")
    return value


def port(text: str) -> int:
    value = _int(text)
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{value} is not a TCP port: choose 1 to 65535 (0 picks a free one)")
    return value


def listen(text: str) -> str:
    """`PORT` or `ADDRESS:PORT` (the doors' `--ssh`), checked here, parsed by the door."""
    address, sep, number = text.rpartition(":")
    port(number)
    if sep and not address:
        raise argparse.ArgumentTypeError(f"{text!r}: give PORT or ADDRESS:PORT")
    return text


def bot_level(text: str) -> str:
    from bots import LEVELS

    if text not in LEVELS:
        raise argparse.ArgumentTypeError(f"no bot level {text!r}: choose {', '.join(LEVELS)}")
    return text


def deck(text: str) -> str:
    from engine.cards import deck_variants

    if text not in deck_variants():
        raise argparse.ArgumentTypeError(f"no deck {text!r}: choose {', '.join(deck_variants())}")
    return text


def seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 <= value <= 3600:
        raise argparse.ArgumentTypeError(f"{text} seconds: choose 0 to 3600")
    return value


def count(low: int, high: int) -> Callable[[str], int]:
    """A whole number from `low` to `high` (a type for one flag)."""

    def parse(text: str) -> int:
        value = _int(text)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{value}: choose {low} to {high}")
        return value

    parse.__name__ = f"count {low}..{high}"
    return parse


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line on stderr (`fengsheng host: --players: …`), exit 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")
