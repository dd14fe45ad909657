"""怪盗九九 (Phantom Thief 99): open, male. 阴谋 · 阳谋 (CHARACTERS.md)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .. import prompts as P
from ..cards import BLACK
from . import Triggered, register
from .effects import hand_holders, take_random_card

if TYPE_CHECKING:
    from ..game import Game

TASK_HAND = 9  # WDZ; FOOP says 10


def _targets(name: str) -> Callable[[Game, int, dict[str, Any]], list[P.Option]]:
    """Any other player holding a card may be robbed."""

    def targets(game: Game, owner: int, ctx: dict[str, Any]) -> list[P.Option]:
        return [P.option("use", seat=seat, name=name) for seat in hand_holders(game, owner)]

    return targets


def _take(game: Game, owner: int, ctx: dict[str, Any], opt: P.Option) -> None:
    assert opt.target_seat is not None
    take_random_card(game, owner, opt.target_seat)


def _other_gets_my_black(game: Game, owner: int, ctx: dict[str, Any]) -> bool:
    return (ctx["sent"] and ctx["by"] == owner and ctx["seat"] != owner
            and game.card(ctx["card"]).colour == BLACK and bool(hand_holders(game, owner)))


YINMOU = Triggered("阴谋", "obtained", _other_gets_my_black, _take, targets=_targets("阴谋"))


def _i_get_others_black(game: Game, owner: int, ctx: dict[str, Any]) -> bool:
    """CHARACTERS.md notes: a black message someone else sent that he receives."""
    return (ctx["sent"] and ctx["seat"] == owner and ctx["by"] != owner
            and game.card(ctx["card"]).colour == BLACK and bool(hand_holders(game, owner)))


YANGMOU = Triggered("阳谋", "obtained", _i_get_others_black, _take, targets=_targets("阳谋"))


def _task(game: Game, seat: int, ctx: dict[str, Any]) -> bool:
    return len(game.state.seats[seat].hand) >= TASK_HAND


CHARACTER = register("guaidaojiujiu", (YINMOU, YANGMOU), task=_task)
