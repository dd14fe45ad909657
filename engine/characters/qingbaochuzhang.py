"""情报处长 (Intelligence Chief): open, male. 隔墙有耳 · 偷龙转凤 (CHARACTERS.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import prompts as P
from ..cards import PROBE, RED, TEXT
from . import Triggered, register
from .effects import put_back

if TYPE_CHECKING:
    from ..game import Game

def _i_probe(game: Game, owner: int, ctx: dict[str, Any]) -> bool:
    """"使用试探时": on playing it, even if it is then 识破'd (RULES.md §6.3)."""
    return ctx["user"] == owner and ctx["function"] == PROBE and ctx["skill"] is None


def _geqiang_youer(game: Game, owner: int, ctx: dict[str, Any], opt: P.Option) -> None:
    """隔墙有耳: draw 2, then one hand card goes back on top of the pile (his choice)."""
    game.draw(owner, 2)
    put_back(game, owner)


GEQIANG_YOUER = Triggered("隔墙有耳", "played", _i_probe, _geqiang_youer)


def _arrives_at_me(game: Game, owner: int, ctx: dict[str, Any]) -> bool:
    s = game.state
    return (ctx["seat"] == owner and s.message is not None and s.message.position == owner
            and bool(s.seats[owner].hand) and bool(s.pile or s.discard))


def _toulong_targets(game: Game, owner: int, ctx: dict[str, Any]) -> list[P.Option]:
    return [P.option("use", card, name="偷龙转凤") for card in game.state.seats[owner].hand]


def _toulong_zhuanfeng(game: Game, owner: int, ctx: dict[str, Any], opt: P.Option) -> None:
    """偷龙转凤: discard a card; the arrived message and the top of the pile change places.

    [I] The new card travels on the old message's route (method, direction); nobody has seen it,
    so it lies face-down unless it is a 文本 card. The old message goes face-down onto the pile."""
    s = game.state
    m = s.message
    assert opt.card is not None and m is not None
    taken = game.take_from_pile(1)
    if not taken:
        return
    top = taken[0]
    s.seats[owner].hand.remove(opt.card)
    s.discard.append(opt.card)
    game.log("discarded", {"card": game.face(opt.card)}, seen_by=(owner,), seat=owner)
    old = m.card
    s.pile.append(old)
    m.card = top
    m.face_up = game.card(top).method == TEXT
    m.seen_by = set()
    game.log("message_swapped", seat=owner, card=game.face(top) if m.face_up else None)


TOULONG_ZHUANFENG = Triggered("偷龙转凤", "arrived", _arrives_at_me, _toulong_zhuanfeng, targets=_toulong_targets)


def _task(game: Game, seat: int, ctx: dict[str, Any]) -> bool:
    return game.colour_count(seat, RED) >= 3


CHARACTER = register("qingbaochuzhang", (GEQIANG_YOUER, TOULONG_ZHUANFENG), task=_task)
