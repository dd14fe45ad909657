"""译电员 (Cipher Clerk): hidden, female. 速译 · 洞悉 (CHARACTERS.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import prompts as P
from ..cards import BLUE
from ..functions import NO_TARGET, Target
from ..state import STEP_ARRIVE, STEP_TRANSMIT, StackItem
from . import Active, Triggered, cover, register

if TYPE_CHECKING:
    from ..game import Game


def _suyi_targets(game: Game, seat: int, moment: str) -> list[Target] | None:
    """While a message travels (its transmit and arrive windows), face-down only: flipping is the cost."""
    if game.state.message is None or game.state.seats[seat].face_up:
        return None
    return [NO_TARGET]


def _suyi(game: Game, item: StackItem) -> None:
    """速译: look at the travelling message privately, then draw 1."""
    m = game.state.message
    if not game.state.seats[item.user].in_game:
        return  # she left the game while it waited on the stack
    if m is not None:
        m.seen_by.add(item.user)
        game.log("message_inspected", {"card": game.face(m.card)}, seen_by=(item.user,), seat=item.user)
    game.draw(item.user, 1)


SUYI = Active("速译", frozenset({STEP_TRANSMIT, STEP_ARRIVE}), _suyi_targets, _suyi, flip=True, stack=True)


def _decrypted(game: Game, owner: int, ctx: dict[str, Any]) -> bool:
    return game.state.seats[owner].face_up


def _dongxi(game: Game, owner: int, ctx: dict[str, Any], opt: P.Option) -> None:
    """洞悉: cover herself again, so that 速译 can be used once more."""
    cover(game, owner)


DONGXI = Triggered("洞悉", "decrypted", _decrypted, _dongxi)


def task(game: Game, seat: int, ctx: dict[str, Any]) -> bool:
    """Obtain 3 or more blue messages."""
    return game.colour_count(seat, BLUE) >= 3


CHARACTER = register("yidianyuan", (SUYI, DONGXI), task=task)
