"""柒佰 (Qibai): open, male. 敏锐 · 联动 · 风度 (CHARACTERS.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import prompts as P
from ..cards import BLUE, LOCK, RED
from ..functions.lock import KEEN
from ..state import Step
from ..steps import continuation
from . import Passive, Triggered, is_female, register
from .effects import give_card

if TYPE_CHECKING:
    from ..game import Game


MINRUI = Passive(KEEN)  # engine/functions/lock.py lets him lock in other players' turns


def _uses_lock(game: Game, owner: int, ctx: dict[str, Any]) -> bool:
    return ctx["user"] == owner and ctx["function"] == LOCK


def _liandong(game: Game, owner: int, ctx: dict[str, Any], opt: P.Option) -> None:
    """联动: draw 2, then give 1 hand card to another player."""
    game.draw(owner, 2)
    give_card(game, owner)


# Forced: the text has no "may" (WDZ 聯動 "抽二張牌…", CHARACTERS.md "draw 2 cards, then give 1").
LIANDONG = Triggered("联动", "played", _uses_lock, _liandong, forced=True)


def _partners(game: Game, owner: int) -> list[int]:
    """Female characters who may win with him: not already winners, and dead ones only if the dead
    share wins (RULES.md §8.3)."""
    s = game.state
    declaring = s.declaring or {"winners": []}
    return [p.index for p in s.seats
            if p.index != owner and p.index not in declaring["winners"] and is_female(game, p.index)
            and (game.standing(p.index) or s.config.dead_share_win)]


def _declares(game: Game, owner: int, ctx: dict[str, Any]) -> bool:
    declaring = game.state.declaring
    return declaring is not None and declaring["declarer"] == owner and bool(_partners(game, owner))


def _fengdu(game: Game, owner: int, ctx: dict[str, Any], opt: P.Option) -> None:
    """风度 is not optional ("choose one female character"): he chooses which woman wins with him."""
    options = [P.option("use", seat=seat, name="风度") for seat in _partners(game, owner)]
    game.ask(owner, P.SKILL, options, options[0].id, then="qibai.fengdu")


@continuation("qibai.fengdu")
def _fengdu_chosen(game: Game, st: Step, opt: P.Option) -> None:
    """She wins with him alone: her faction does not (RULES.md §8.3)."""
    declaring = game.state.declaring
    assert declaring is not None and opt.target_seat is not None and st.seat is not None
    declaring["winners"].append(opt.target_seat)
    game.log("co_winner", seat=opt.target_seat, by=st.seat)


FENGDU = Triggered("风度", "declaring", _declares, _fengdu, forced=True)


def _task(game: Game, seat: int, ctx: dict[str, Any]) -> bool:
    """At least 5 true (red or blue) messages in front of him."""
    return game.colour_count(seat, RED) + game.colour_count(seat, BLUE) >= 5


CHARACTER = register("qibai", (MINRUI, LIANDONG, FENGDU), task=_task)
