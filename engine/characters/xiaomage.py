"""小马哥 (Brother Mark): open, male. 英雄本色 (CHARACTERS.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import prompts as P
from ..cards import BLACK
from ..config import LATENT, MILITARY
from . import Triggered, register
from .effects import offer_black_placement

if TYPE_CHECKING:
    from ..game import Game


def _obtains_black(game: Game, owner: int, ctx: dict[str, Any]) -> bool:
    return ctx["seat"] == owner and game.card(ctx["card"]).colour == BLACK


def _yingxiong_bense(game: Game, owner: int, ctx: dict[str, Any], opt: P.Option) -> None:
    """英雄本色: the draw is not optional; placing a black card afterwards is (any player, himself too)."""
    game.draw(owner, 1)
    offer_black_placement(game, owner, game.in_game(), "英雄本色")


YINGXIONG_BENSE = Triggered("英雄本色", "obtained", _obtains_black, _yingxiong_bense, forced=True)


def both_sides_dead(game: Game) -> bool:
    """At least one 潜伏战线 and one 军情处 player have died (losing is not dying: RULES.md §8.2)."""
    dead = {game.state.seats[seat].identity for seat in game.state.deaths}
    return LATENT in dead and MILITARY in dead


def _task(game: Game, seat: int, ctx: dict[str, Any]) -> bool:
    return both_sides_dead(game)


CHARACTER = register("xiaomage", (YINGXIONG_BENSE,), task=_task)
