"""闪灵 (Shining): hidden, female. 狙击 (CHARACTERS.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import prompts as P
from ..cards import BLUE, RED
from ..functions import Target
from ..state import StackItem, Step
from ..steps import continuation
from . import Active, register
from .heimeigui import ANY_TIME

if TYPE_CHECKING:
    from ..game import Game

SNIPE_MAX = 3


def _snipe_targets(game: Game, seat: int, moment: str) -> list[Target] | None:
    """Another player with at least one message; face-down only: flipping is the cost."""
    s = game.state
    if s.seats[seat].face_up:
        return None
    return [(t, None) for t in game.others_in_game(seat) if s.seats[t].messages] or None


def _snipe(game: Game, item: StackItem) -> None:
    """狙击: burn up to 3 of the target's messages, chosen one by one (at least one)."""
    assert item.target_seat is not None
    _ask_burn(game, item.user, item.target_seat, SNIPE_MAX)


def _ask_burn(game: Game, owner: int, target: int, left: int) -> None:
    messages = game.state.seats[target].messages
    if left <= 0 or not messages or not game.state.seats[target].in_game:
        return
    burns = [P.option("burn", seat=target, message=c) for c in messages]
    options = burns if left == SNIPE_MAX else [P.option("done"), *burns]
    game.ask(owner, P.SKILL, options, options[0].id, then="shanling.burn", target=target, left=left)


@continuation("shanling.burn")
def _burned(game: Game, st: Step, opt: P.Option) -> None:
    owner, target = st.seat, st.data["target"]
    if opt.verb == "done" or owner is None:
        return
    assert opt.target_card is not None
    game.state.seats[target].messages.remove(opt.target_card)
    game.state.discard.append(opt.target_card)
    game.log("burned", seat=target, card=game.face(opt.target_card), by=owner)
    _ask_burn(game, owner, target, st.data["left"] - 1)


SNIPE = Active("狙击", ANY_TIME, _snipe_targets, _snipe, flip=True, stack=True)


def task(game: Game, seat: int, ctx: dict[str, Any]) -> bool:
    """Personally cause the death of a player who has no true (red or blue) messages."""
    victim = ctx.get("victim")
    if victim is None or ctx.get("killer") != seat:
        return False
    return game.colour_count(victim, RED) + game.colour_count(victim, BLUE) == 0


CHARACTER = register("shanling", (SNIPE,), task=task, task_at="death")
