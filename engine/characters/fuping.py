"""浮萍 (Duckweed): hidden, female. 先机 · 后著 (CHARACTERS.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import prompts as P
from ..functions import Target
from ..state import StackItem, Step
from ..steps import continuation
from . import Active, Triggered, register
from .effects import ANY_TIME

if TYPE_CHECKING:
    from ..game import Game


def still_dying(game: Game, seat: int) -> bool:
    """A death trigger answers only a death still under way (救美 may have saved her meanwhile)."""
    s = game.state
    return seat in s.dying and s.seats[seat].in_game


def _xianji_targets(game: Game, owner: int, moment: str) -> list[Target] | None:
    """[I] a flip skill is used by flipping the card: only while it lies face-down."""
    if game.state.seats[owner].face_up:
        return None
    return [(seat, None) for seat in game.others_in_game(owner) if game.state.seats[seat].hand] or None


def _xianji(game: Game, item: StackItem) -> None:
    """先机: take 3 random cards from his hand (fewer if he has fewer); then he draws 1."""
    owner, target = item.user, item.target_seat
    assert target is not None
    s = game.state
    if not s.seats[target].in_game or not s.seats[owner].in_game:
        return
    hand = s.seats[target].hand
    taken = [hand.pop(s.rng.randrange(len(hand))) for _ in range(min(3, len(hand)))]
    s.seats[owner].hand.extend(taken)
    game.log("cards_taken", {"cards": [game.face(c) for c in taken]}, seen_by=(owner, target),
             seat=owner, source=target, count=len(taken))
    game.draw(target, 1)


XIANJI = Active("先机", ANY_TIME, _xianji_targets, _xianji, flip=True, stack=True)


def _dying_self(game: Game, owner: int, ctx: dict[str, Any]) -> bool:
    return ctx["seat"] == owner and still_dying(game, owner) and bool(_houzhu_targets(game, owner, ctx))


def _houzhu_targets(game: Game, owner: int, ctx: dict[str, Any]) -> list[P.Option]:
    return [P.option("use", seat=seat, name="后著") for seat in game.others_in_game(owner)
            if game.state.seats[seat].hand]


def _houzhu(game: Game, owner: int, ctx: dict[str, Any], opt: P.Option) -> None:
    """后著: look at his hand, then place one of its cards in front of a player as a message."""
    source = opt.target_seat
    assert source is not None
    hand = game.state.seats[source].hand
    game.log("hand_seen", {"cards": [game.face(c) for c in hand]}, seen_by=(owner,), seat=owner, source=source)
    options = [P.option("place", c, to) for c in hand for to in game.others_standing(owner)]
    if not options:
        return
    game.ask(owner, P.SKILL, options, options[0].id, then="fuping.houzhu", source=source)


@continuation("fuping.houzhu")
def _placed(game: Game, st: Step, opt: P.Option) -> None:
    """[I] the killer of a player this message kills is 浮萍 (RULES.md §8.1 (b))."""
    assert st.seat is not None and opt.card is not None and opt.target_seat is not None
    hand = game.state.seats[st.data["source"]].hand
    if opt.card not in hand:
        return
    hand.remove(opt.card)
    game.obtain(opt.target_seat, opt.card, by=st.seat)


HOUZHU = Triggered("后著", "dying", _dying_self, _houzhu, targets=_houzhu_targets)


def _task(game: Game, seat: int, ctx: dict[str, Any]) -> bool:
    """She is the second (or a later) player to die: someone died before her."""
    return ctx.get("victim") == seat and bool(game.died_before(seat))


CHARACTER = register("fuping", (XIANJI, HOUZHU), task=_task, task_at="death")
