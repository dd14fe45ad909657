"""戴笠 (Dai Li): open, male. 笑里藏刀 · 运筹帷幄 (CHARACTERS.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import prompts as P
from ..cards import BLUE, RED
from . import Triggered, register
from .effects import PLACE, black_cards

if TYPE_CHECKING:
    from ..game import Game

TRUE = (RED, BLUE)


def _other_obtains_my_true_message(game: Game, owner: int, ctx: dict[str, Any]) -> bool:
    """"传出的": the message he sent this turn, received by another player (not one placed by a skill)."""
    return (ctx["sent"] and ctx["by"] == owner and ctx["seat"] != owner
            and game.card(ctx["card"]).colour in TRUE and bool(black_cards(game, owner)))


def _xiaoli_targets(game: Game, owner: int, ctx: dict[str, Any]) -> list[P.Option]:
    if not game.state.seats[ctx["seat"]].in_game:
        return []
    return [P.option(PLACE, card, ctx["seat"], name="笑里藏刀") for card in black_cards(game, owner)]


def _xiaoli_cangdao(game: Game, owner: int, ctx: dict[str, Any], opt: P.Option) -> None:
    """笑里藏刀: the chosen black card from his hand lands in front of the receiver (he is its killer)."""
    assert opt.card is not None and opt.target_seat is not None
    game.state.seats[owner].hand.remove(opt.card)
    game.obtain(opt.target_seat, opt.card, by=owner)


XIAOLI_CANGDAO = Triggered("笑里藏刀", "obtained", _other_obtains_my_true_message, _xiaoli_cangdao,
                           targets=_xiaoli_targets)


def _obtains_true(game: Game, owner: int, ctx: dict[str, Any]) -> bool:
    """Any true message landing in his area, however it came (received, placed, moved)."""
    return ctx["seat"] == owner and game.card(ctx["card"]).colour in TRUE


def _yunchou_weiwo(game: Game, owner: int, ctx: dict[str, Any], opt: P.Option) -> None:
    game.draw(owner, 1)


YUNCHOU_WEIWO = Triggered("运筹帷幄", "obtained", _obtains_true, _yunchou_weiwo)


def _task(game: Game, seat: int, ctx: dict[str, Any]) -> bool:
    return game.colour_count(seat, BLUE) >= 3


CHARACTER = register("daili", (XIAOLI_CANGDAO, YUNCHOU_WEIWO), task=_task)
