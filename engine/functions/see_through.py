"""识破: in reply to the function card on top of the stack (识破 included); that card is cancelled."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..state import StackItem
from . import OWN_PLAY, Target

if TYPE_CHECKING:
    from ..game import Game


def targets(game: Game, user: int, moment: str) -> list[Target] | None:
    s = game.state
    if moment == OWN_PLAY or not s.stack:
        return None
    top = s.stack[-1]
    return [(top.user, top.card)]


def resolve(game: Game, item: StackItem) -> None:
    for target in game.state.stack:
        if target.card == item.target_card:
            target.cancelled = True
            game.log("cancelled", card=game.public_face(target), by=item.user)
