"""小白 (Xiao Bai): open, both genders. 乔装 · 收买 · 败露 (CHARACTERS.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import prompts as P
from ..config import LATENT, MILITARY
from ..functions import Target
from ..state import StackItem, Step
from ..steps import continuation, step
from . import Active, Passive, Triggered, register
from .effects import ANY_TIME

if TYPE_CHECKING:
    from ..game import Game

QIAOZHUANG = Passive("乔装")  # the framework gives 小白 both genders (characters.BOTH)

BRIBE_CARDS = 4
EXPOSED_AT = 6


def _shoumai_targets(game: Game, user: int, moment: str) -> list[Target] | None:
    """[I] Only someone with a message to take, and only with 4 cards to give."""
    if len(game.state.seats[user].hand) < BRIBE_CARDS:
        return None
    return [(seat, None) for seat in game.others_in_game(user) if game.state.seats[seat].messages] or None


def _shoumai(game: Game, item: StackItem) -> None:
    """收买 (on the stack): he picks 4 hand cards one by one for the target, then one of its messages."""
    s = game.state
    assert item.target_seat is not None
    if not s.seats[item.target_seat].in_game or len(s.seats[item.user].hand) < BRIBE_CARDS:
        game.log("no_effect", seat=item.user, skill="收买")
        return
    game.push("xiaobai.take", item.user, target=item.target_seat)
    _ask_give(game, item.user, item.target_seat, BRIBE_CARDS)


def _ask_give(game: Game, owner: int, target: int, left: int) -> None:
    options = [P.option("give", card) for card in game.state.seats[owner].hand]
    game.ask(owner, P.SKILL, options, options[0].id, then="xiaobai.give", target=target, left=left)


@continuation("xiaobai.give")
def _given(game: Game, st: Step, opt: P.Option) -> None:
    s = game.state
    owner, target = st.seat, st.data["target"]
    assert owner is not None and opt.card is not None
    s.seats[owner].hand.remove(opt.card)
    s.seats[target].hand.append(opt.card)
    game.log("card_given", {"card": game.face(opt.card)}, seen_by=(owner, target), seat=owner, to=target)
    if st.data["left"] > 1 and s.seats[owner].hand:
        _ask_give(game, owner, target, st.data["left"] - 1)
    else:
        game.push("check_end")  # the receiver's hand grew: a task about the hand may be met


@step("xiaobai.take")
def _take(game: Game, st: Step) -> None:
    s = game.state
    owner, target = st.seat, st.data["target"]
    assert owner is not None
    if game.over or not s.seats[owner].in_game or not s.seats[target].messages:
        return
    options = [P.option("take", message=card) for card in s.seats[target].messages]
    game.ask(owner, P.SKILL, options, options[0].id, then="xiaobai.take", target=target)


@continuation("xiaobai.take")
def _taken(game: Game, st: Step, opt: P.Option) -> None:
    """The message moves into his own area: he obtains it (and is its killer's culprit himself)."""
    s = game.state
    owner, target = st.seat, st.data["target"]
    assert owner is not None and opt.target_card is not None
    s.seats[target].messages.remove(opt.target_card)
    game.log("message_taken", seat=owner, source=target, card=game.face(opt.target_card))
    game.obtain(owner, opt.target_card, by=owner)


SHOUMAI = Active("收买", ANY_TIME, _shoumai_targets, _shoumai, stack=True)


def _six_messages(game: Game, owner: int, ctx: dict[str, Any]) -> bool:
    return ctx["seat"] == owner and len(game.state.seats[owner].messages) >= EXPOSED_AT


def _bailu(game: Game, owner: int, ctx: dict[str, Any], opt: P.Option) -> None:
    """败露: forced; he loses (not a death) before deaths and victories are checked."""
    game.lose(owner)


BAILU = Triggered("败露", "obtained", _six_messages, _bailu, forced=True, early=True)


def _side_out(game: Game, identity: str) -> bool:
    members = [p.index for p in game.state.seats if p.identity == identity]
    return bool(members) and not any(game.standing(seat) for seat in members)


def _first_to_die(game: Game, seat: int, ctx: dict[str, Any]) -> bool:
    """Judged at a death: he is the first player to die."""
    return ctx.get("victim") == seat and not game.died_before(seat)


def _task(game: Game, seat: int, ctx: dict[str, Any]) -> bool:
    """Judged after every change: 潜伏战线 or 军情处 has every member out of the game (出局: dead or
    lost; a dying one counts as dead), whether a death or a loss did it."""
    return _side_out(game, LATENT) or _side_out(game, MILITARY)


CHARACTER = register("xiaobai", (QIAOZHUANG, SHOUMAI, BAILU), task=_task, death_task=_first_to_die)
