"""福尔摩斯 (Holmes): open, male. 揭露 · 真相 (CHARACTERS.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import prompts as P
from ..cards import BLACK, PROBE, RED, SECRET
from ..functions import Target
from ..state import STEP_ARRIVE, STEP_TRANSMIT, StackItem
from . import Active, Triggered, register
from .effects import black_cards

if TYPE_CHECKING:
    from ..game import Game


def _jielu_targets(game: Game, user: int, moment: str) -> list[Target] | None:
    """One option per black hand card he may discard (carried as the option's card), while a 密电
    travels face-down."""
    m = game.state.message
    if m is None or m.method != SECRET or m.face_up or m.intercepted_by is not None:
        return None
    return [(None, card) for card in black_cards(game, user)] or None


def _jielu(game: Game, item: StackItem) -> None:
    """揭露: the discarded card is shown to be black; the 密电 turns face-up; black → draw 2."""
    s = game.state
    card = item.target_card
    m = s.message
    assert card is not None and m is not None
    s.seats[item.user].hand.remove(card)
    s.discard.append(card)
    game.log("discarded", seat=item.user, card=game.face(card))
    m.face_up = True
    game.log("message_revealed", seat=item.user, card=game.face(m.card))
    if game.card(m.card).colour == BLACK:
        game.draw(item.user, 2)


JIELU = Active("揭露", frozenset({STEP_TRANSMIT, STEP_ARRIVE}), _jielu_targets, _jielu)


def _someone_probes(game: Game, owner: int, ctx: dict[str, Any]) -> bool:
    """Any 试探 but one he already sees (his own, or one handed to him)."""
    return (ctx["function"] == PROBE and ctx["skill"] is None and owner not in (ctx["user"], ctx["target"])
            and bool(game.state.seats[owner].hand))


def _zhenxiang_targets(game: Game, owner: int, ctx: dict[str, Any]) -> list[P.Option]:
    return [P.option("use", card, name="真相") for card in game.state.seats[owner].hand]


def _zhenxiang(game: Game, owner: int, ctx: dict[str, Any], opt: P.Option) -> None:
    """真相: discard the chosen card face-down, then read the 试探 before it resolves."""
    s = game.state
    assert opt.card is not None
    s.seats[owner].hand.remove(opt.card)
    s.discard.append(opt.card)
    game.log("discarded", {"card": game.face(opt.card)}, seen_by=(owner,), seat=owner)
    probe = next((i for i in reversed(s.stack) if i.function == PROBE and i.user == ctx["user"] and i.card >= 0),
                 None)
    if probe is not None:
        game.log("probe_read", {"card": game.face(probe.card)}, seen_by=(owner,), seat=owner, user=ctx["user"])


ZHENXIANG = Triggered("真相", "played", _someone_probes, _zhenxiang, targets=_zhenxiang_targets)


def _task(game: Game, seat: int, ctx: dict[str, Any]) -> bool:
    return game.colour_count(seat, RED) >= 3


CHARACTER = register("fuermosi", (JIELU, ZHENXIANG), task=_task)
