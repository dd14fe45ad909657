"""Effects several characters share: placing a black message from the hand in front of a player
(英雄本色, 连击, 笑里藏刀) and taking a random card from a player's hand (阴谋, 阳谋).

Kept here so each character module states only when its skill applies, not how cards move.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import prompts as P
from ..cards import BLACK
from ..state import Step
from ..steps import continuation

if TYPE_CHECKING:
    from ..game import Game

PLACE = "place"


def black_cards(game: Game, seat: int) -> list[int]:
    return [c for c in game.state.seats[seat].hand if game.card(c).colour == BLACK]


def offer_black_placement(game: Game, owner: int, targets: list[int], skill: str) -> None:
    """Ask `owner` whether to place a black card from his hand in front of one of `targets`."""
    blacks = black_cards(game, owner)
    targets = [t for t in targets if game.state.seats[t].in_game]
    if not blacks or not targets:
        return
    decline = P.option("decline", name=skill)
    options = [P.option(PLACE, card, seat, name=skill) for card in blacks for seat in targets]
    game.ask(owner, P.SKILL, [decline, *options], decline.id, then="placing.black", skill=skill)


@continuation("placing.black")
def _placed(game: Game, st: Step, opt: P.Option) -> None:
    owner = st.seat
    if opt.verb != PLACE or owner is None or opt.card is None or opt.target_seat is None:
        return
    if opt.card not in game.state.seats[owner].hand or not game.state.seats[opt.target_seat].in_game:
        return
    game.state.seats[owner].hand.remove(opt.card)
    game.obtain(opt.target_seat, opt.card, by=owner)


def take_random_card(game: Game, taker: int, victim: int) -> None:
    """抽手牌: a random card of the victim's hand, drawn blind; only the two of them see it."""
    hand = game.state.seats[victim].hand
    if not hand or taker == victim:
        return
    card = hand.pop(game.state.rng.randrange(len(hand)))
    game.state.seats[taker].hand.append(card)
    game.log("hand_card_taken", {"card": game.face(card)}, seen_by=(taker, victim), seat=taker, source=victim)
    game.push("check_end")  # a task about the hand may now be met


def hand_holders(game: Game, owner: int) -> list[int]:
    """Other players in the game who hold at least one card."""
    return [seat for seat in game.others_in_game(owner) if game.state.seats[seat].hand]
