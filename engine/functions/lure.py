"""调虎离山: in the transmit window; the target takes no part in this message's transmission.
Not yourself, not the sender, not a locked player (CARDS.md 调虎离山, FOOP), nor the player who
intercepted the message: 截获 makes him behave as locked (CARDS.md 锁定 notes)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..state import STEP_TRANSMIT, StackItem
from . import Target

if TYPE_CHECKING:
    from ..game import Game


def targets(game: Game, user: int, moment: str) -> list[Target] | None:
    s = game.state
    m = s.message
    if moment != STEP_TRANSMIT or m is None:
        return None
    return [
        (seat, None)
        for seat in game.others_in_game(user)
        if seat != m.sender and seat not in s.locked and seat != m.intercepted_by
    ]  # one the message skips already too (CARDS.md lists no such limit): it is used (攻守兼备), to no effect


def resolve(game: Game, item: StackItem) -> None:
    """A target that became one it may not have while the card waited (locked by a 锁定 answering
    it, or the interceptor of the message, or out of the game) is not lured: the card does nothing."""
    s = game.state
    m = s.message
    target = item.target_seat
    assert target is not None
    if m is None or target in s.locked or target == m.intercepted_by or not s.seats[target].in_game:
        return
    if target in m.skipped:
        return  # lured already: nothing more to do
    m.skipped.add(target)
    game.log("lured", seat=target, by=item.user)
    if m.position == target and m.intercepted_by is None:
        game.route_message()
