"""老枪 (Old Gun): hidden, male. 就计 · 合谋 (CHARACTERS.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..cards import RED
from ..functions import Target
from ..state import StackItem
from . import Active, cover, register
from .effects import ANY_TIME
from .laogui import JIUJI

if TYPE_CHECKING:
    from ..game import Game

HEMOU = "合谋"


def reveal_identity(game: Game, seat: int) -> None:
    """亮出身份牌: the identity card lies face-up for the rest of the game."""
    player = game.state.seats[seat]
    player.revealed = True
    game.log("identity_shown", seat=seat, identity=player.identity)


def _hemou_targets(game: Game, seat: int, moment: str) -> list[Target] | None:
    """Only while his identity is hidden (showing it is the cost), one 合谋 at a time, on a face-up
    character: a covered card cannot be covered again (RULES.md §1.2)."""
    s = game.state
    if s.seats[seat].revealed or any(i.skill == HEMOU and i.user == seat for i in s.stack):
        return None
    return [(t, None) for t in game.others_in_game(seat)
            if s.seats[t].character is not None and s.seats[t].face_up] or None


def _hemou(game: Game, item: StackItem) -> None:
    reveal_identity(game, item.user)
    assert item.target_seat is not None
    if game.state.seats[item.target_seat].in_game:
        cover(game, item.target_seat)


HEMOU_SKILL = Active(HEMOU, ANY_TIME, _hemou_targets, _hemou, stack=True)


def task(game: Game, seat: int, ctx: dict[str, Any]) -> bool:
    """Obtain 3 or more red messages."""
    return game.colour_count(seat, RED) >= 3


CHARACTER = register("laoqiang", (JIUJI, HEMOU_SKILL), task=task)
