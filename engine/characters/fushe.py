"""蝮蛇 (Viper): open, male. 声东击西 · 弹药无限 (CHARACTERS.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..cards import LURE
from ..functions import NO_TARGET, Target, lure
from ..state import STEP_TRANSMIT, StackItem
from . import Active, register
from .effects import ANY_TIME

if TYPE_CHECKING:
    from ..game import Game



def _lure_targets(game: Game, user: int, moment: str) -> list[Target] | None:
    """声东击西 counts as 调虎离山, so it has that card's timing (the transmit window) and targets."""
    return lure.targets(game, user, moment)


SHENGDONG_JIXI = Active("声东击西", frozenset({STEP_TRANSMIT}), _lure_targets, counts_as=LURE, cover=True)


def _empty_handed(game: Game, user: int, moment: str) -> list[Target] | None:
    """弹药无限 turns the card back face-up: only while covered, and only with an empty hand."""
    player = game.state.seats[user]
    return None if player.face_up or player.hand else [NO_TARGET]


def _danyao_wuxian(game: Game, item: StackItem) -> None:
    game.draw(item.user, 1)


DANYAO_WUXIAN = Active("弹药无限", ANY_TIME, _empty_handed, _danyao_wuxian, flip=True)


def _task(game: Game, seat: int, ctx: dict[str, Any]) -> bool:
    """A victory declared while nobody has died is his instead: the declaration fails (its co-winners too).
    A player whose death is under way has died (RULES.md §8.1)."""
    s = game.state
    declaring = s.declaring
    if s.deaths or s.dying or declaring is None or ctx.get("declarer") == seat or not game.standing(seat):
        return False
    game.log("declaration_void", seat=declaring["declarer"], by=seat)
    game.log("task_completed", seat=seat, character="fushe")
    declaring.update(declarer=seat, winners=[seat], reason="secret_task")
    return True


CHARACTER = register("fushe", (SHENGDONG_JIXI, DANYAO_WUXIAN), task=_task, task_at="declaring", task_voids=True)
