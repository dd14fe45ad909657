"""黄雀 (Oriole): hidden, female. 潜藏伏击 · 黄雀在后 (CHARACTERS.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import prompts as P
from ..cards import BLACK
from ..config import LATENT, MILITARY
from ..functions import Target
from ..state import StackItem
from . import Active, Triggered, register
from .fuping import still_dying
from .heimeigui import ANY_TIME, place_blacks
from .laoqiang import reveal_identity

if TYPE_CHECKING:
    from ..game import Game

HUANGQUE_BLACKS = 2


def _ambush_targets(game: Game, seat: int, moment: str) -> list[Target] | None:
    """Any message in front of another player; face-down only: flipping is the cost."""
    s = game.state
    if s.seats[seat].face_up:
        return None
    return [(t, c) for t in game.others_in_game(seat) for c in s.seats[t].messages] or None


def _ambush(game: Game, item: StackItem) -> None:
    """潜藏伏击: the message goes back on top of the draw pile (face-down again)."""
    seat, card = item.target_seat, item.target_card
    assert seat is not None and card is not None
    owner = game.state.seats[seat]
    if card not in owner.messages:
        return
    owner.messages.remove(card)
    game.state.pile.append(card)
    game.log("message_to_pile", seat=seat, card=game.face(card), by=item.user)


AMBUSH = Active("潜藏伏击", ANY_TIME, _ambush_targets, _ambush, flip=True, stack=True)


def _other_dies(game: Game, owner: int, ctx: dict[str, Any]) -> bool:
    """A death still under way (not one 救美 stopped); showing the identity card is the cost, so only
    while it is hidden; she needs a black card."""
    s = game.state
    return ctx["seat"] != owner and still_dying(game, ctx["seat"]) and not s.seats[owner].revealed \
        and any(game.card(c).colour == BLACK for c in s.seats[owner].hand) and bool(_receivers(game, owner))


def _receivers(game: Game, owner: int) -> list[int]:
    """Another living player who is not dying himself."""
    return [t for t in game.others_in_game(owner) if t not in game.state.dying]


def _after_targets(game: Game, owner: int, ctx: dict[str, Any]) -> list[P.Option]:
    return [P.option("use", seat=t, name="黄雀在后") for t in _receivers(game, owner)]


def _after(game: Game, owner: int, ctx: dict[str, Any], opt: P.Option) -> None:
    """黄雀在后: show the identity, then up to 2 black cards from hand become the target's messages."""
    assert opt.target_seat is not None
    reveal_identity(game, owner)
    place_blacks(game, owner, opt.target_seat, HUANGQUE_BLACKS)


AFTER = Triggered("黄雀在后", "dying", _other_dies, _after, targets=_after_targets)


def task(game: Game, seat: int, ctx: dict[str, Any]) -> bool:
    """At least one 潜伏战线 player and at least one 军情处 player are dead."""
    dead = {p.identity for p in game.state.seats if not p.alive}
    return LATENT in dead and MILITARY in dead


CHARACTER = register("huangque", (AMBUSH, AFTER), task=task)
