"""钢铁特工 (Iron Agent): hidden, male. 警觉 · 掩护 (CHARACTERS.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..cards import BLACK, RED, SEE_THROUGH
from ..functions import Target
from ..functions import see_through as see_through_rule
from ..state import STEP_ARRIVE, STEP_PLAY, STEP_TRANSMIT, TURN_STEPS, StackItem
from . import Active, cover, register
from .heimeigui import ANY_TIME

if TYPE_CHECKING:
    from ..game import Game


def _alert_targets(game: Game, seat: int, moment: str) -> list[Target] | None:
    """Whatever a 识破 could answer now; face-down only: flipping is the cost."""
    if game.state.seats[seat].face_up:
        return None
    return see_through_rule.targets(game, seat, moment)


# 警觉 counts as 识破: it goes on the stack, resolves by the 识破 rule and may itself be 识破'd.
ALERT = Active("警觉", frozenset({STEP_PLAY, STEP_TRANSMIT, STEP_ARRIVE, *TURN_STEPS}), _alert_targets, flip=True,
               stack=True, counts_as=SEE_THROUGH)


def _cover_targets(game: Game, seat: int, moment: str) -> list[Target] | None:
    s = game.state
    return [(t, c) for t in game.others_in_game(seat) for c in s.seats[t].messages
            if game.card(c).colour == BLACK] or None


def _cover(game: Game, item: StackItem) -> None:
    """掩护: the black message becomes his own (he obtains it), then he covers his character."""
    seat, card = item.target_seat, item.target_card
    assert seat is not None and card is not None
    owner = game.state.seats[seat]
    if card not in owner.messages or not game.state.seats[item.user].in_game:
        return
    owner.messages.remove(card)
    game.log("message_taken", seat=seat, card=game.face(card), by=item.user)
    cover(game, item.user)
    game.obtain(item.user, card, by=item.user)


COVER = Active("掩护", ANY_TIME, _cover_targets, _cover, stack=True)


def task(game: Game, seat: int, ctx: dict[str, Any]) -> bool:
    """Obtain 3 or more red messages."""
    return game.colour_count(seat, RED) >= 3


CHARACTER = register("gangtietegong", (ALERT, COVER), task=task)
