"""真伪莫辨: in your play phase; as many cards as players still in the game come face-down from
the pile, and from you in turn order each player takes one at random as a message. Deaths and
victory are checked after each (CARDS.md 真伪莫辨)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..state import StackItem
from . import NO_TARGET, OWN_PLAY, Target

if TYPE_CHECKING:
    from ..game import Game


def targets(game: Game, user: int, moment: str) -> list[Target] | None:
    if moment != OWN_PLAY:
        return None
    return [NO_TARGET]


def resolve(game: Game, item: StackItem) -> None:
    s = game.state
    order = [seat for seat in game.order_from(item.user) if s.seats[seat].in_game]
    revealed = game.take_from_pile(len(order))
    game.log("truth_or_false", count=len(revealed))
    for seat in order:
        if not revealed or game.over:
            break
        if not s.seats[seat].in_game:
            continue
        card = revealed.pop(s.rng.randrange(len(revealed)))
        game.obtain(seat, card, by=item.user)
    s.discard.extend(revealed)
