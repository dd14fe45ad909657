"""刀锋 (Blade): open, male. 亮剑 · 嗜血 (CHARACTERS.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import prompts as P
from ..cards import LOCK, PROBE, SEND_BACK
from ..config import LATENT, MILITARY
from . import Passive, Triggered, card_as, register
from .effects import give_card
from .fuping import still_dying

if TYPE_CHECKING:
    from ..game import Game

LIANGJIAN = Passive("亮剑")


@card_as
def _as_lock(game: Game, seat: int, card: int) -> list[str]:
    """亮剑: his 试探 and 退回 may be played as 锁定 (then they are 锁定 in every respect)."""
    if game.card(card).function in (PROBE, SEND_BACK) and game.has_skill(seat, LIANGJIAN.name):
        return [LOCK]
    return []


def _other_dies(game: Game, owner: int, ctx: dict[str, Any]) -> bool:
    return ctx["seat"] != owner and still_dying(game, ctx["seat"])


def _shixue(game: Game, owner: int, ctx: dict[str, Any], opt: P.Option) -> None:
    """嗜血: draw 4, then give 1 hand card to another player."""
    game.draw(owner, 4)
    give_card(game, owner)


SHIXUE = Triggered("嗜血", "dying", _other_dies, _shixue)


def _task(game: Game, seat: int, ctx: dict[str, Any]) -> bool:
    """At least one 潜伏战线 and at least one 军情处 player are dead (losing is not dying)."""
    dead = {game.state.seats[x].identity for x in game.state.deaths}
    return LATENT in dead and MILITARY in dead


CHARACTER = register("daofeng", (LIANGJIAN, SHIXUE), task=_task)
