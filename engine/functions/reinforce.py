"""增援 (later edition): in your own play phase; draw as many cards as your black messages + 1."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..cards import BLACK
from ..state import StackItem
from . import NO_TARGET, OWN_PLAY, Target

if TYPE_CHECKING:
    from ..game import Game


def targets(game: Game, user: int, moment: str) -> list[Target] | None:
    if moment != OWN_PLAY:
        return None
    return [NO_TARGET]


def resolve(game: Game, item: StackItem) -> None:
    if not game.state.seats[item.user].in_game:
        return
    game.draw(item.user, game.colour_count(item.user, BLACK) + 1)
