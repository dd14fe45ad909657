"""烧毁: any time outside the special phases; one black message in front of any player goes to
the discard pile (RULES.md §9.3). Others may use it in any response window, the current player
also in his play phase."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..cards import BLACK
from ..state import StackItem
from . import Target

if TYPE_CHECKING:
    from ..game import Game


def targets(game: Game, user: int, moment: str) -> list[Target] | None:
    deck = game.deck
    found: list[Target] = []
    for player in game.state.seats:  # every black message in front of a seat in the game
        if player.messages and player.alive and not player.lost:
            for card in player.messages:
                if deck[card].colour == BLACK:
                    found.append((player.index, card))
    return found


def resolve(game: Game, item: StackItem) -> None:
    assert item.target_seat is not None and item.target_card is not None
    burn(game, item.target_seat, item.target_card, item.user)


def burn(game: Game, seat: int, card: int, by: int) -> None:
    """烧毁情报 (RULES.md §6.5): a message in front of a player goes to the discard pile — by this card
    or by a skill. Nothing happens if it is no longer there."""
    owner = game.state.seats[seat]
    if card not in owner.messages:
        return
    owner.messages.remove(card)
    game.state.discard.append(card)
    game.log("burned", seat=seat, card=game.face(card), by=by)
