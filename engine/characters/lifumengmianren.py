"""礼服蒙面人 (Masked Man in Tuxedo): open, male. 英雄 · 救美 (CHARACTERS.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import prompts as P
from ..cards import BLACK
from ..functions.burn import burn
from . import Triggered, is_female, register
from .effects import reveal_identity
from .fuping import still_dying

if TYPE_CHECKING:
    from ..game import Game


def _obtains_black(game: Game, owner: int, ctx: dict[str, Any]) -> bool:
    return ctx["seat"] == owner and game.card(ctx["card"]).colour == BLACK


def _yingxiong(game: Game, owner: int, ctx: dict[str, Any], opt: P.Option) -> None:
    """英雄: draw 2."""
    game.draw(owner, 2)


YINGXIONG = Triggered("英雄", "obtained", _obtains_black, _yingxiong)


def _woman_dies(game: Game, owner: int, ctx: dict[str, Any]) -> bool:
    """[I] once only: his identity card can be shown only once."""
    seat = ctx["seat"]
    return not game.state.seats[owner].revealed and is_female(game, seat) and still_dying(game, seat)


def _jiumei(game: Game, owner: int, ctx: dict[str, Any], opt: P.Option) -> None:
    """救美: show his identity, burn every black message in front of him and of her: she did not die,
    so no other trigger of her death runs (it is asked first for that reason)."""
    reveal_identity(game, owner)
    for seat in dict.fromkeys((owner, ctx["seat"])):
        for card in [c for c in game.state.seats[seat].messages if game.card(c).colour == BLACK]:
            burn(game, seat, card, owner)
    game.save(ctx["seat"])


JIUMEI = Triggered("救美", "dying", _woman_dies, _jiumei, saves=True)


def _task(game: Game, seat: int, ctx: dict[str, Any]) -> bool:
    """A female character declares victory while he is still in the game (a dying player is dead)."""
    return ctx["declarer"] != seat and is_female(game, ctx["declarer"]) and game.standing(seat)


CHARACTER = register("lifumengmianren", (YINGXIONG, JIUMEI), task=_task, task_at="declaring")
