"""Deterministic table states for snapshots: real engine games run to chosen moments.

The view dicts are the real projection (`engine.view`); only the server's countdown field
(`deadline`, seconds left) is added, and the app's clock is frozen so it never moves.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from bots import make_bot
from engine import Game, GameConfig, events_for, view

NAMES = ("老王", "Alice", "小李", "Bob")


def play_until(seed: int, stop: Callable[[Game], bool], players: int = 4, max_moves: int = 5000) -> Game:
    """Random bots play every seat until `stop(game)` holds (or the game ends)."""
    names = NAMES if players == 4 else tuple(f"P{i + 1}" for i in range(players))
    game = Game.new(GameConfig(players=players, identities="novice" if players == 4 else "3v3", names=names), seed)
    bots = {s: make_bot("random", s, seed * 7 + s) for s in range(players)}
    for _ in range(max_moves):
        if game.over or stop(game):
            return game
        prompt = min(game.pending(), key=lambda p: game.priority_key(p.seat))
        game.choose(prompt.seat, prompt.id, bots[prompt.seat].decide(view(game, prompt.seat)))
    return game


def update(game: Game, seat: int, deadline: float = 12.0) -> dict[str, Any]:
    """The update a server would send `seat`, with every prompted seat showing `deadline` seconds
    (the table clock at 0)."""
    v = view(game, seat)
    v["clock"] = 0.0
    for entry in v["waiting"]:  # type: ignore[attr-defined]
        entry["deadline"] = deadline
    if v["prompt"] is not None:
        v["prompt"]["deadline"] = deadline  # type: ignore[index]
    return {"type": "update", "view": v, "events": events_for(game, seat, 0)}


def frames_of(game: Game, seat: int | None) -> list[dict[str, Any]]:
    """The frames a server with a journal keeps for `seat` (`net.replays.FrameLog`): the game
    played again from its record, taken after every choice."""
    from net.replays import FrameLog

    record = game.record()
    again = Game.new(GameConfig.from_dict(record["config"]), int(record["seed"]))  # type: ignore[arg-type]
    log = FrameLog(len(again.state.seats))
    log.take(again)
    for choice in record["choices"]:  # type: ignore[attr-defined]
        again.choose(int(choice[0]), int(choice[1]), str(choice[2]))
        log.take(again)
    return log.frames[seat]


def welcome(seat: int) -> dict[str, Any]:
    return {"type": "welcome", "seat": seat, "token": "t", "table": "snap", "host": True}


class ScriptedSession:
    """Replays fixed server messages, then stays connected; records what the app sends."""

    def __init__(self, messages: list[dict[str, Any]]) -> None:
        self.script = messages
        self.sent: list[tuple[str, tuple[Any, ...]]] = []
        self.token: str | None = "t"
        self._closed = asyncio.Event()

    async def connect(self) -> None:
        """Nothing to connect to."""

    async def messages(self) -> AsyncIterator[dict[str, Any]]:
        for msg in self.script:
            yield msg
        await self._closed.wait()

    async def choose(self, prompt_id: int, option: str) -> None:
        self.sent.append(("choose", (prompt_id, option)))

    async def chat(self, text: str) -> None:
        self.sent.append(("chat", (text,)))

    async def op(self, command: str, **args: Any) -> None:
        self.sent.append(("op", (command, args)))

    async def ready(self, is_ready: bool) -> None:
        self.sent.append(("ready", (is_ready,)))

    async def close(self) -> None:
        self._closed.set()


def play_with_characters(seed: int, stop: Callable[[Game], bool], players: int = 5) -> Game:
    """Like `play_until`, in a game with characters (picked by the bots too)."""
    names = ("老王", "Alice", "小李", "Bob", "小红", "Carol", "老张", "Dave", "小美")[:players]
    game = Game.new(GameConfig(players=players, identities="default", names=names, characters=True), seed)
    bots = {s: make_bot("random", s, seed * 7 + s) for s in range(players)}
    for _ in range(5000):
        if game.over or stop(game):
            return game
        prompt = min(game.pending(), key=lambda p: game.priority_key(p.seat))
        game.choose(prompt.seat, prompt.id, bots[prompt.seat].decide(view(game, prompt.seat)))
    return game


async def play_to_end(
    messages: AsyncIterator[dict[str, Any]], choose: Callable[[int, str], Awaitable[None]]
) -> dict[str, Any]:
    """Answer every prompt with its default until the game is over; the final view."""
    answered: set[int] = set()
    async for msg in messages:
        if msg["type"] != "update":
            continue
        view = msg["view"]
        if view["over"]:
            return view
        prompt = view["prompt"]
        if prompt is not None and prompt["id"] not in answered:
            answered.add(prompt["id"])
            await choose(prompt["id"], prompt["default"])
    raise AssertionError("the connection ended before the game was over")
