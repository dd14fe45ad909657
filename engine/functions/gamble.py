"""博弈 (later edition): in your own play phase; the top card of the pile becomes a message in
front of the chosen player (yourself included), face-up; you count as its sender for a death
(docs/rules-notes.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..state import StackItem
from . import OWN_PLAY, Target

if TYPE_CHECKING:
    from ..game import Game


def targets(game: Game, user: int, moment: str) -> list[Target] | None:
    if moment != OWN_PLAY:
        return None
    return [(seat, None) for seat in game.order_from(user) if game.state.seats[seat].in_game]


def resolve(game: Game, item: StackItem) -> None:
    target = item.target_seat
    assert target is not None
    if not game.state.seats[target].in_game:
        return
    taken = game.take_from_pile(1)
    game.log("gambled", seat=item.user, to=target, count=len(taken))
    for card in taken:
        game.obtain(target, card, by=item.user)
