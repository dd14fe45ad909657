"""权衡 (later edition): in your own play phase; discard your whole hand (face-up, to the discard
pile), then draw as many cards as you discarded. The table sees the discarded faces only when the
discard pile is face-up."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..state import StackItem
from . import own_play_untargeted

if TYPE_CHECKING:
    from ..game import Game


targets = own_play_untargeted


def resolve(game: Game, item: StackItem) -> None:
    player = game.state.seats[item.user]
    if not player.in_game:
        return
    hand, player.hand = player.hand, []
    game.state.discard.extend(hand)
    if game.state.config.discard_face_up:
        game.log("weighed", seat=item.user, count=len(hand), cards=[game.face(c) for c in hand])
    else:
        game.log("weighed", seat=item.user, count=len(hand))
    game.draw(item.user, len(hand))
