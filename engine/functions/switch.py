"""调包 (later edition): in the transmit window; this card takes the travelling message's place,
face-up, keeping the transmission method and route, and the old message goes to the discard pile
(CARDS.md Part B; docs/rules-notes.md). The old message's face is shown only to those who had seen it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..state import STEP_TRANSMIT, StackItem
from . import NO_TARGET, Target

if TYPE_CHECKING:
    from ..game import Game


def targets(game: Game, user: int, moment: str) -> list[Target] | None:
    if moment != STEP_TRANSMIT or game.state.message is None:
        return None
    return [NO_TARGET]


def resolve(game: Game, item: StackItem) -> None:
    s = game.state
    m = s.message
    if m is None or item not in s.resolving:
        return
    old = m.card
    s.resolving.remove(item)  # it lies on the table while it resolves: it becomes the message instead
    s.discard.append(old)
    face: dict[str, object] = {"old": game.face(old)}
    secret, public = ({}, face) if m.face_up else (face, {})
    game.log("switched", secret, seen_by=tuple(sorted(m.seen_by)), seat=item.user, card=game.face(item.card),
             **public)
    m.card = item.card
    m.face_up = True
    m.seen_by = set(game.in_game())
