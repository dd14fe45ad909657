"""Frames of a replay: what a seat saw between events (its hand, the travelling message, the
stack, its open prompt, and which seats were on 托管 then), so a replay can show them at every
step and not only at the end. No event records 托管, so the frames do.

Both writers use it: the server keeps frames for every seat while it has a journal (`Table`),
and a player's client keeps its own seat's from the updates it received
(`fengsheng_tui.replay_recorder`). A frame is checked against the view's schema on reading.
"""

from __future__ import annotations

from typing import Any

from engine import Game
from engine.view import merge, public_view, seat_part

from .protocol import VIEW, Int, ListOf, Record, Str

#: The keys of a view a frame keeps (besides `at`, the prompt's id and kind, and `auto`).
FRAME_KEYS = ("hand", "message", "stack")
#: One frame: what the seat saw once `at` events had reached it. `auto`: the seats on 托管 then
#: (absent in replays written before it was kept: none).
FRAME = Record({"at": Int(0, 10_000_000), **{key: VIEW.fields[key] for key in FRAME_KEYS},
                "prompt": Record({"id": Int(), "kind": Str(64)}, nullable=True),
                "auto": ListOf(Int(0, 63), 64)}, required=frozenset({"at"}))


def frame_of(view: dict[str, Any], at: int, auto: list[int] | None = None) -> dict[str, Any]:
    """The frame of `view` after `at` events; the seats on 托管 are `auto`, else those the view's
    seat entries mark (a client's view carries the table's `auto` marks, an engine view none)."""
    prompt = view.get("prompt")
    if auto is None:
        auto = [i for i, seat in enumerate(view.get("seats") or []) if isinstance(seat, dict) and seat.get("auto") is True]
    return {"at": at, **{key: view.get(key) for key in FRAME_KEYS},
            "prompt": {"id": prompt.get("id"), "kind": prompt.get("kind")} if isinstance(prompt, dict) else None,
            "auto": sorted(auto)}


def add_frame(frames: list[dict[str, Any]], frame: dict[str, Any]) -> None:
    """Append `frame` unless the seat saw the same as in the last one (then that one still holds)."""
    last = frames[-1] if frames else None
    if last is None or any(last.get(key) != frame.get(key) for key in (*FRAME_KEYS, "prompt", "auto")):
        frames.append(frame)


class FrameLog:
    """Every seat's frames (and the spectator's, key None) of one game, taken after each batch."""

    def __init__(self, players: int) -> None:
        self.frames: dict[int | None, list[dict[str, Any]]] = {seat: [] for seat in [*range(players), None]}

    def take(self, game: Game, auto: list[int] | None = None) -> None:
        """A frame for every seat now; `auto`: the seats on 托管 (the table knows, the game not)."""
        public = public_view(game)
        at = len(game.events)
        for seat, frames in self.frames.items():
            add_frame(frames, frame_of(merge(public, seat_part(game, seat, public)), at, auto or []))
