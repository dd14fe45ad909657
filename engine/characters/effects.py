"""Effects several characters share, in one place: placing a black message from the hand in front
of a player (英雄本色, 连击, 笑里藏刀), taking a random card from a player's hand (阴谋, 阳谋), putting
a hand card back on top of the pile (精明, 攻守兼备, 隔墙有耳), giving a hand card away (联动, 嗜血),
and showing one's identity card (爱情, 救美, 合谋, 黄雀在后). Burning is 烧毁's own `burn`.

Kept here so each character module states only when its skill applies, not how cards move.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import prompts as P
from ..cards import BLACK
from ..functions import OWN_PLAY, Target
from ..state import STEP_ARRIVE, STEP_PLAY, STEP_TRANSMIT, STEP_TURN_END, STEP_TURN_START, Step
from ..steps import continuation

if TYPE_CHECKING:
    from ..game import Game

PLACE = "place"
# "active:any": any time outside the special phases, the turn-start and turn-end windows included
ANY_TIME = frozenset({OWN_PLAY, STEP_PLAY, STEP_TRANSMIT, STEP_ARRIVE, STEP_TURN_START, STEP_TURN_END})


def black_cards(game: Game, seat: int) -> list[int]:
    return [c for c in game.state.seats[seat].hand if game.card(c).colour == BLACK]


def offer_black_placement(game: Game, owner: int, targets: list[int], skill: str) -> None:
    """Ask `owner` whether to place a black card from his hand in front of one of `targets`."""
    blacks = black_cards(game, owner)
    targets = [t for t in targets if game.standing(t)]  # not a dying player: he is dead already
    if not blacks or not targets:
        return
    decline = P.option("decline", name=skill)
    options = [P.option(PLACE, card, seat, name=skill) for card in blacks for seat in targets]
    game.ask(owner, P.SKILL, [decline, *options], decline.id, then="effects.place_black", skill=skill)


@continuation("effects.place_black")
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


def put_back(game: Game, seat: int) -> None:
    """Ask `seat` for one hand card to put face-down on top of the draw pile."""
    hand = game.state.seats[seat].hand
    if not hand:
        return
    options = [P.option("put_back", c) for c in hand]
    game.ask(seat, P.SKILL, options, options[-1].id, then="effects.put_back")


@continuation("effects.put_back")
def _put_back(game: Game, st: Step, opt: P.Option) -> None:
    assert st.seat is not None and opt.card is not None
    game.state.seats[st.seat].hand.remove(opt.card)
    game.state.pile.append(opt.card)
    game.log("put_back", {"card": game.face(opt.card)}, seen_by=(st.seat,), seat=st.seat, count=1)


def reveal_identity(game: Game, seat: int) -> None:
    """亮出身份牌: the identity card turns face-up for good."""
    player = game.state.seats[seat]
    player.revealed = True
    game.log("identity_revealed", seat=seat, identity=player.identity)


def black_messages(game: Game) -> list[Target]:
    """Every black message in front of a player still in the game, as (seat, card)."""
    return [(seat, card) for seat in game.in_game() for card in game.state.seats[seat].messages
            if game.card(card).colour == BLACK]


def give_card(game: Game, seat: int) -> None:
    """Ask `seat` which hand card goes face-down to which other player (联动, 嗜血)."""
    options = [P.option("give", c, to) for c in game.state.seats[seat].hand for to in game.others_standing(seat)]
    if options:
        game.ask(seat, P.SKILL, options, options[0].id, then="effects.give")


@continuation("effects.give")
def _given(game: Game, st: Step, opt: P.Option) -> None:
    assert st.seat is not None and opt.card is not None and opt.target_seat is not None
    game.state.seats[st.seat].hand.remove(opt.card)
    game.state.seats[opt.target_seat].hand.append(opt.card)
    game.log("card_given", {"card": game.face(opt.card)}, seen_by=(st.seat, opt.target_seat),
             seat=st.seat, to=opt.target_seat, count=1)
