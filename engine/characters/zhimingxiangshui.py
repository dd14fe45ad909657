"""致命香水 (Deadly Perfume): open, female. 攻守兼备 · 临危受命; no secret task (CHARACTERS.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import prompts as P
from ..cards import LOCK, LURE
from ..state import Step
from ..steps import continuation
from . import Triggered, register
from .effects import put_back
from .fuping import still_dying

if TYPE_CHECKING:
    from ..game import Game

NO_IDENTITY = ""  # the dead player's identity card went to her: he has none left to reveal


def _uses_lock_or_lure(game: Game, owner: int, ctx: dict[str, Any]) -> bool:
    return ctx["user"] == owner and ctx["function"] in (LOCK, LURE)


def _gongshou(game: Game, owner: int, ctx: dict[str, Any], opt: P.Option) -> None:
    """攻守兼备: draw 2, then put 1 hand card back on top of the draw pile."""
    game.draw(owner, 2)
    put_back(game, owner)


# Forced: the text has no "may" (WDZ 攻守兼備 "抽二張牌…", CHARACTERS.md "draw 2 cards, then put 1 back").
GONGSHOU = Triggered("攻守兼备", "played", _uses_lock_or_lure, _gongshou, forced=True)


def _other_dies_unrevealed(game: Game, owner: int, ctx: dict[str, Any]) -> bool:
    seat = ctx["seat"]
    return seat != owner and still_dying(game, seat) and not game.state.seats[seat].revealed


def _linwei(game: Game, owner: int, ctx: dict[str, Any], opt: P.Option) -> None:
    """临危受命: her identity card leaves the game face-down and she takes his; then a message in
    front of any player ("任一", the dying one included: it does not undo his death, RULES.md §8.1)
    is swapped with the top card of the draw pile."""
    s = game.state
    victim = ctx["seat"]
    s.seats[owner].identity = s.seats[victim].identity
    s.seats[victim].identity = NO_IDENTITY
    game.log("identity_taken", {"identity": s.seats[owner].identity}, seen_by=(owner,), seat=owner, source=victim)
    options = [P.option("swap", None, seat, card) for seat in game.in_game() for card in s.seats[seat].messages]
    if options and (s.pile or s.discard):  # no top card at all (RULES.md §4): nothing to swap with
        game.ask(owner, P.SKILL, options, options[0].id, then="zhimingxiangshui.swap")


@continuation("zhimingxiangshui.swap")
def _swapped(game: Game, st: Step, opt: P.Option) -> None:
    """The message goes on top of the pile; the card that was there becomes his message."""
    assert st.seat is not None and opt.target_seat is not None and opt.target_card is not None
    messages = game.state.seats[opt.target_seat].messages
    top = game.take_from_pile(1)
    if opt.target_card not in messages or not top:
        game.state.pile.extend(top)
        return
    messages.remove(opt.target_card)
    game.state.pile.append(opt.target_card)
    game.log("message_swapped", seat=opt.target_seat, card=game.face(opt.target_card), by=st.seat)
    game.obtain(opt.target_seat, top[0], by=st.seat)


LINWEI = Triggered("临危受命", "dying", _other_dies_unrevealed, _linwei)

CHARACTER = register("zhimingxiangshui", (GONGSHOU, LINWEI))
