"""锁定: during your own turn, in your play phase or the transmit window of your own message;
the target must accept this turn's message if it reaches him (CARDS.md 锁定).
柒佰's 敏锐 lifts "own turn only": in others' turns he may lock in their play and transmit windows."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..state import STEP_PLAY, STEP_TRANSMIT, StackItem
from . import OWN_PLAY, Target

if TYPE_CHECKING:
    from ..game import Game

KEEN = "敏锐"


def targets(game: Game, user: int, moment: str) -> list[Target] | None:
    s = game.state
    if user != s.current:
        if not game.has_skill(user, KEEN) or moment not in (STEP_PLAY, STEP_TRANSMIT):
            return None
    elif moment == STEP_TRANSMIT:
        if s.message is None or s.message.sender != user:
            return None
    elif moment != OWN_PLAY:
        return None
    # "One other player" (CARDS.md 锁定): one already locked this turn too; it locks him no more,
    # but it is used (攻守兼备, 联动 answer it) and aimed at him (就计).
    return [(seat, None) for seat in game.others_in_game(user)]


def resolve(game: Game, item: StackItem) -> None:
    assert item.target_seat is not None
    game.state.locked.add(item.target_seat)
    game.log("locked", seat=item.target_seat, by=item.user)
