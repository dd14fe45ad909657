"""破译: in the arrive window, when the message is in front of you; you look at it privately."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..state import STEP_ARRIVE, StackItem
from . import NO_TARGET, Target

if TYPE_CHECKING:
    from ..game import Game


def targets(game: Game, user: int, moment: str) -> list[Target] | None:
    m = game.state.message
    if moment != STEP_ARRIVE or m is None or m.position != user:
        return None
    return [NO_TARGET]


def resolve(game: Game, item: StackItem) -> None:
    m = game.state.message
    if m is None or m.position != item.user or not game.state.seats[item.user].in_game:
        return  # it no longer lies in front of him (截上截, 转移 resolved first), or he left the game
    m.seen_by.add(item.user)
    game.log("decrypted", {"card": game.face(m.card)}, seen_by=(item.user,), seat=item.user)
    game.fire("decrypted", user=item.user)
