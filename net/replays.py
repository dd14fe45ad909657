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
from engine.view import own_facts_again, public_message, public_stack, table_facts

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
        #: The game, its stamp, every seat's own facts and the public message and stack at the
        #: last take; per seat the hand it held then (card ids) and as shown.
        self._facts: tuple[Game, int, list[tuple[object, ...]], Any, list[dict[str, object]]] | None = None
        self._hands: dict[int, tuple[object, list[dict[str, object]]]] = {}

    def take(self, game: Game, auto: list[int] | None = None, owns: list[tuple[object, ...]] | None = None) -> None:
        """A frame for every seat now; `auto`: the seats on 托管 (the table knows, the game not);
        `owns`: every seat's own facts now, when the caller has them (the fan-out's flush).

        Each frame is `frame_of(view(game, seat))`, built from what it shows alone: the seat's
        `own_facts` (its hand, the message and stack if it sees them otherwise than the public,
        its prompt) and the public message and stack. A table with a journal takes one every
        flush, and building every seat's whole view for it cost more than the flush itself."""
        at = len(game.events)
        shown_auto = sorted(auto or [])
        then = self._facts
        if then is not None and then[0] is game and then[1] == game.stamp:
            # Only prompts can have changed since (`Game.stamp`), which are read below.
            owns, message, stack = owns or own_facts_again(game, then[2]), then[3], then[4]
        else:
            owns, message, stack = owns or table_facts(game)[1], public_message(game), public_stack(game)
        self._facts = (game, game.stamp, owns, message, stack)
        hands = self._hands
        prompts = game.prompts
        for seat, frames in self.frames.items():
            if seat is None:
                hand: list[dict[str, object]] = []
                prompt = None
                seen_message: Any = message
                seen_stack: Any = stack
            else:
                facts = owns[seat]
                held = facts[1]
                last = hands.get(seat)
                if last is not None and last[0] == held:
                    hand = last[1]
                else:
                    hand = [game.face(card) for card in held]  # type: ignore[attr-defined]
                    hands[seat] = (held, hand)
                open_prompt = prompts.get(seat)
                prompt = None if open_prompt is None else {"id": open_prompt.id, "kind": open_prompt.kind}
                seen_message = message if facts[6] is None else facts[6]
                seen_stack = stack if facts[7] is None else list(facts[7])  # type: ignore[call-overload]
            last_frame = frames[-1] if frames else None
            # `add_frame`, with the hand compared by identity first (it is kept while it stays).
            if last_frame is None or (last_frame["hand"] is not hand and last_frame["hand"] != hand) \
                    or last_frame["message"] != seen_message or last_frame["stack"] != seen_stack \
                    or last_frame["prompt"] != prompt or last_frame["auto"] != shown_auto:
                frames.append({"at": at, "hand": hand, "message": seen_message, "stack": seen_stack,
                               "prompt": prompt, "auto": shown_auto})
