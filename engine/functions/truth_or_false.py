"""真伪莫辨: in your play phase; as many cards as players still in the game come face-down from
the pile, and from you in turn order each player takes one at random as a message. Deaths and
victory are checked after each (CARDS.md 真伪莫辨)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..state import StackItem, Step
from ..steps import step
from . import own_play_untargeted

if TYPE_CHECKING:
    from ..game import Game


targets = own_play_untargeted


def resolve(game: Game, item: StackItem) -> None:
    s = game.state
    order = [seat for seat in game.order_from(item.user) if s.seats[seat].in_game]
    key = f"truth_or_false:{len(game.events)}"
    s.table[key] = game.take_from_pile(len(order))
    game.log("truth_or_false", count=len(s.table[key]))
    game.push("truth_or_false.rest", key=key)
    for seat in reversed(order):
        game.push("truth_or_false.take", seat, by=item.user, key=key)


@step("truth_or_false.take")
def _take(game: Game, st: Step) -> None:
    pool = game.state.table[st.data["key"]]
    assert st.seat is not None
    if not pool or game.over or not game.state.seats[st.seat].in_game:
        return
    card = pool.pop(game.state.rng.randrange(len(pool)))
    game.obtain(st.seat, card, by=st.data["by"])


@step("truth_or_false.rest")
def _rest(game: Game, st: Step) -> None:
    game.state.discard.extend(game.state.table.pop(st.data["key"]))
