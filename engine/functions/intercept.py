"""截获: in the transmit window of another player's message; it comes to you and you must accept it.
[I] the loop ends at once; a 截获 that resolves after the message was already intercepted does nothing.
[DECISION] (CARDS.md 调虎离山) a seat the message skips takes no part in it: he cannot 截获 it, and a
截获 of his that resolves after he was lured does nothing."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..state import STEP_TRANSMIT, StackItem
from . import NO_TARGET, Target

if TYPE_CHECKING:
    from ..game import Game


def targets(game: Game, user: int, moment: str) -> list[Target] | None:
    m = game.state.message
    if moment != STEP_TRANSMIT or m is None or m.sender == user or m.intercepted_by is not None \
            or user in m.skipped:
        return None
    return [NO_TARGET]


def resolve(game: Game, item: StackItem) -> None:
    m = game.state.message
    if m is None or m.intercepted_by is not None or not game.state.seats[item.user].in_game \
            or item.user in m.skipped:
        return
    m.intercepted_by = item.user
    m.position = item.user
    m.forced = True
    game.log("intercepted", seat=item.user)
