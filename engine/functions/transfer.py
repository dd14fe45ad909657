"""转移 (later edition): in the arrive window, when the message is in front of you; it moves to
another player, who must receive it (CARDS.md Part B). Like 退回 it is refused when you are locked
or the message is already forced on you: you must receive it then (docs/rules-notes.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..state import StackItem
from . import Target
from .send_back import may_redirect

if TYPE_CHECKING:
    from ..game import Game


def targets(game: Game, user: int, moment: str) -> list[Target] | None:
    if not may_redirect(game, user, moment):
        return None
    return [(seat, None) for seat in game.others_in_game(user)]


def resolve(game: Game, item: StackItem) -> None:
    s = game.state
    m = s.message
    target = item.target_seat
    assert target is not None
    if m is None or m.position != item.user or m.forced or item.user in s.locked:
        return
    if not s.seats[target].in_game:
        return
    m.position = target
    m.forced = True
    game.log("transferred", seat=item.user, to=target)
