"""大美女 (Great Beauty): open, female. 精明 · 爱情 (CHARACTERS.md).

Also home of two small effects other characters share: putting a hand card back on top of the
draw pile (精明, 致命香水's 攻守兼备) and revealing one's identity card (爱情, 礼服蒙面人's 救美).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import prompts as P
from ..cards import BLACK
from ..functions import OWN_PLAY, Target
from ..state import STEP_ARRIVE, STEP_PLAY, STEP_TRANSMIT, StackItem, Step
from ..steps import continuation
from . import Active, Triggered, is_male, register

if TYPE_CHECKING:
    from ..game import Game

ANY_TIME = frozenset({OWN_PLAY, STEP_PLAY, STEP_TRANSMIT, STEP_ARRIVE})  # "active:any": outside special phases


# ---------------------------------------------------------------------- shared small effects

def put_back(game: Game, seat: int) -> None:
    """Ask `seat` for one hand card to put face-down on top of the draw pile."""
    hand = game.state.seats[seat].hand
    if not hand:
        return
    options = [P.option("put_back", c) for c in hand]
    game.ask(seat, P.SKILL, options, options[-1].id, then="dameinv.put_back")


@continuation("dameinv.put_back")
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


def burn(game: Game, seat: int, card: int, by: int) -> None:
    """烧毁 by a skill: the message goes to the discard pile (RULES.md §6.5)."""
    game.state.seats[seat].messages.remove(card)
    game.state.discard.append(card)
    game.log("burned", seat=seat, card=game.face(card), by=by)


# ---------------------------------------------------------------------- 精明

def _own_draw_phase(game: Game, owner: int, ctx: dict[str, Any]) -> bool:
    return ctx["seat"] == owner


def _jingming(game: Game, owner: int, ctx: dict[str, Any], opt: P.Option) -> None:
    """精明: the draw phase gives 3 cards instead of 2 (the engine dealt 2), then one goes back on top."""
    game.draw(owner, 1)
    put_back(game, owner)


JINGMING = Triggered("精明", "draw_phase", _own_draw_phase, _jingming, forced=True)


# ---------------------------------------------------------------------- 爱情

def _aiqing_targets(game: Game, owner: int, moment: str) -> list[Target] | None:
    """The first black message to burn; [I] once only: the identity card can be shown only once."""
    if game.state.seats[owner].revealed or any(i.user == owner and i.skill == "爱情" for i in game.state.stack):
        return None
    return black_messages(game) or None


def _aiqing(game: Game, item: StackItem) -> None:
    """爱情: show the identity card, then burn 2 black messages (the chosen one, then a second)."""
    owner = item.user
    reveal_identity(game, owner)
    left = 2
    seat, card = item.target_seat, item.target_card
    if seat is not None and card is not None and card in game.state.seats[seat].messages:
        burn(game, seat, card, owner)
        left -= 1
    _ask_burn(game, owner, left)


def _ask_burn(game: Game, owner: int, left: int) -> None:
    found = black_messages(game)
    if left <= 0 or not found:
        return
    options = [P.option("burn", None, seat, card) for seat, card in found]
    game.ask(owner, P.SKILL, options, options[0].id, then="dameinv.burn", left=left)


@continuation("dameinv.burn")
def _burn_chosen(game: Game, st: Step, opt: P.Option) -> None:
    assert st.seat is not None and opt.target_seat is not None and opt.target_card is not None
    burn(game, opt.target_seat, opt.target_card, st.seat)
    _ask_burn(game, st.seat, st.data["left"] - 1)


AIQING = Active("爱情", ANY_TIME, _aiqing_targets, _aiqing, stack=True)


# ---------------------------------------------------------------------- secret task

def _task(game: Game, seat: int, ctx: dict[str, Any]) -> bool:
    """A male character declares victory while she, still in the game, holds at most 1 black message."""
    declarer = ctx["declarer"]
    return (declarer != seat and is_male(game, declarer) and game.state.seats[seat].in_game
            and game.colour_count(seat, BLACK) <= 1)


CHARACTER = register("dameinv", (JINGMING, AIQING), task=_task, task_at="declaring")
