"""峨眉峰 (Emei Peak): hidden, male. 截上截 · 计中计 (CHARACTERS.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import prompts as P
from ..cards import BLACK, BLUE
from ..functions import NO_TARGET, Target
from ..functions.burn import burn
from ..state import STEP_ARRIVE, STEP_TRANSMIT, StackItem
from . import Active, Triggered, register

if TYPE_CHECKING:
    from ..game import Game


def _jieshangjie_targets(game: Game, owner: int, moment: str) -> list[Target] | None:
    """In another player's turn while a message travels (transmit or arrive window), face-down only;
    not by a seat the message skips (调虎离山 [DECISION]: he takes no part in it)."""
    s = game.state
    m = s.message
    if s.seats[owner].face_up or s.current == owner or m is None or m.sender == owner or owner in m.skipped:
        return None
    return [NO_TARGET]


def _jieshangjie(game: Game, item: StackItem) -> None:
    """截上截: the message comes to him and he must take it, even from under a 截获 or a 退回."""
    m = game.state.message
    if m is None or not game.state.seats[item.user].in_game or item.user in m.skipped:
        return
    m.intercepted_by = item.user
    m.position = item.user
    m.forced = True
    m.sent_back = False
    m.returning = False
    game.log("intercepted", seat=item.user, skill="截上截")


JIESHANGJIE = Active("截上截", frozenset({STEP_TRANSMIT, STEP_ARRIVE}), _jieshangjie_targets, _jieshangjie,
                     flip=True, stack=True)


def _blacks_of(game: Game, seat: int) -> list[int]:
    return [c for c in game.state.seats[seat].messages if game.card(c).colour == BLACK]


def _own_true_obtained(game: Game, owner: int, ctx: dict[str, Any]) -> bool:
    return (bool(ctx.get("sent")) and ctx["by"] == owner and game.card(ctx["card"]).colour != BLACK
            and game.state.seats[ctx["seat"]].in_game and bool(_blacks_of(game, ctx["seat"])))


def _jizhongji_targets(game: Game, owner: int, ctx: dict[str, Any]) -> list[P.Option]:
    seat = ctx["seat"]
    return [P.option("use", None, seat, card, name="计中计") for card in _blacks_of(game, seat)]


def _jizhongji(game: Game, owner: int, ctx: dict[str, Any], opt: P.Option) -> None:
    """计中计: burn one black message in front of the player who obtained his true message."""
    assert opt.target_seat is not None and opt.target_card is not None
    if opt.target_card in game.state.seats[opt.target_seat].messages:
        burn(game, opt.target_seat, opt.target_card, owner)


JIZHONGJI = Triggered("计中计", "obtained", _own_true_obtained, _jizhongji, targets=_jizhongji_targets)


def _task(game: Game, seat: int, ctx: dict[str, Any]) -> bool:
    """At least 3 blue messages in front of him."""
    return game.colour_count(seat, BLUE) >= 3


CHARACTER = register("emeifeng", (JIESHANGJIE, JIZHONGJI), task=_task)
