"""职业杀手 (Professional Killer): open, male. 预谋 · 连击 (CHARACTERS.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import prompts as P
from ..cards import BLACK, LOCK, LURE
from . import Passive, Triggered, card_as, register
from .effects import offer_black_placement

if TYPE_CHECKING:
    from ..game import Game

YUMOU = Passive("预谋")


@card_as
def _lure_as_lock(game: Game, seat: int, card: int) -> list[str]:
    """预谋: his 调虎离山 cards may be played as 锁定 (with 锁定's own timing and targets)."""
    return [LOCK] if game.card(card).function == LURE and game.has_skill(seat, YUMOU.name) else []


def _my_black_message_obtained(game: Game, owner: int, ctx: dict[str, Any]) -> bool:
    """"你传出的": the message he sent, received by anyone (a placed black card does not chain)."""
    return ctx["sent"] and ctx["by"] == owner and game.card(ctx["card"]).colour == BLACK


def _lianji(game: Game, owner: int, ctx: dict[str, Any], opt: P.Option) -> None:
    """连击: the draw is not optional; placing one more black card on the same player is."""
    game.draw(owner, 1)
    offer_black_placement(game, owner, [ctx["seat"]], "连击")


LIANJI = Triggered("连击", "obtained", _my_black_message_obtained, _lianji, forced=True)


def _task(game: Game, seat: int, ctx: dict[str, Any]) -> bool:
    """He is the killer (RULES.md §8.1) of another player who is not the first to die."""
    victim = ctx.get("victim")
    return ctx.get("killer") == seat and victim is not None and victim != seat and bool(game.died_before(victim))


CHARACTER = register("zhiyeshashou", (YUMOU, LIANJI), task=_task, task_at="death")
