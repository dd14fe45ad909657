"""Stepping through a saved per-seat replay: the seat's own events plus its final view.

A replay holds only what that seat was shown, so stepping can only rebuild public facts (turns,
messages in front of each seat, deaths) and our own hand at the end; nothing else is invented.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any


def load_replay(path: Path) -> dict[str, Any]:
    """Read a `.replay` file written by the server (msgpack map: seat, config, events, final)."""
    from net.journal import read_replay

    replay = read_replay(path)
    if not isinstance(replay.get("events"), list) or not isinstance(replay.get("final"), dict):
        raise ValueError(f"{path} is not a fengsheng replay (no events or final view)")
    return replay


def view_at(replay: dict[str, Any], step: int) -> dict[str, Any]:
    """The table as the seat knew it after `step` events (the final view after the last one)."""
    events: list[dict[str, Any]] = replay["events"]
    final: dict[str, Any] = replay["final"]
    if step >= len(events):
        return copy.deepcopy(final)
    view = copy.deepcopy(final)
    view.update(prompt=None, waiting=[], message=None, stack=[], window=None, over=False, winners=[],
                declarer=None, win_reason=None, hand=[], turn=0, phase="turn_start",
                # Before the first turn the ▶ is on the first player of the deal, not the final view's.
                current=next((ev.get("seat") for ev in events if ev.get("kind") in ("first_player", "turn_start")),
                             None))
    for seat in view["seats"]:
        seat.update(alive=True, lost=False, messages=[], counts={"red": 0, "blue": 0, "black": 0},
                    locked=False, skipped=False, hand_count=0)
        if seat.get("index") != replay.get("seat"):
            seat["identity"] = None
    seats = view["seats"]
    for ev in events[:step]:
        kind = ev.get("kind")
        who = ev.get("seat")
        target = seats[who] if isinstance(who, int) and 0 <= who < len(seats) else None
        if kind == "turn_start":
            view["turn"], view["current"] = ev.get("turn", 0), who
        elif kind in ("dealt", "drew") and target is not None:
            target["hand_count"] += int(ev.get("count", 0))
        elif kind in ("received", "obtained") and target is not None:
            colour = (ev.get("card") or {}).get("colour")
            if colour in target["counts"]:
                target["counts"][colour] += 1
        elif kind == "burned" and target is not None:
            colour = (ev.get("card") or {}).get("colour")
            if target["counts"].get(colour):
                target["counts"][colour] -= 1
        elif kind in ("died", "lost") and target is not None:
            target["alive" if kind == "died" else "lost"] = kind != "died"
            target["identity"] = ev.get("identity")
            target["counts"] = {"red": 0, "blue": 0, "black": 0}
    return view
