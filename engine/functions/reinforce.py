"""增援 (later edition): in your own play phase; draw as many cards as your black messages + 1."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..cards import BLACK
from ..state import StackItem
from . import own_play_untargeted

if TYPE_CHECKING:
    from ..game import Game


targets = own_play_untargeted


def resolve(game: Game, item: StackItem) -> None:
    if not game.state.seats[item.user].in_game:
        return
    game.draw(item.user, game.colour_count(item.user, BLACK) + 1)
