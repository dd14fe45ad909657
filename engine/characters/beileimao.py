"""贝雷帽 (Beret): open, male. 换日 · 偷天 (CHARACTERS.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import prompts as P
from ..cards import BLACK, BLUE, LOCK, RED
from . import Passive, Triggered, card_as, register

if TYPE_CHECKING:
    from ..game import Game

HUANRI = Passive("换日")

# CHARACTERS.md notes: "三张红色卡牌和蓝色卡牌" read as at least 3 red AND at least 3 blue in hand.
TASK_RED = 3
TASK_BLUE = 3


@card_as
def _black_as_lock(game: Game, seat: int, card: int) -> list[str]:
    """换日: any black card in his hand may be played as 锁定 (with 锁定's timing and targets)."""
    c = game.card(card)
    return [LOCK] if c.colour == BLACK and c.function != LOCK and game.has_skill(seat, HUANRI.name) else []


def _true_messages(game: Game, seat: int) -> list[int]:
    return [c for c in game.state.seats[seat].messages if game.card(c).colour in (RED, BLUE)]


def _my_black_message_obtained(game: Game, owner: int, ctx: dict[str, Any]) -> bool:
    """"你传出的": the message he sent, received by anyone who has a true message to move."""
    return (ctx["sent"] and ctx["by"] == owner and game.card(ctx["card"]).colour == BLACK
            and bool(_true_messages(game, ctx["seat"])))


def _toutian_targets(game: Game, owner: int, ctx: dict[str, Any]) -> list[P.Option]:
    return [P.option("use", None, seat, card, name="偷天")
            for card in _true_messages(game, ctx["seat"]) for seat in game.in_game()]


def _toutian(game: Game, owner: int, ctx: dict[str, Any], opt: P.Option) -> None:
    """偷天: one true message in front of the receiver goes into the chosen player's hand."""
    s = game.state
    assert opt.target_card is not None and opt.target_seat is not None
    s.seats[ctx["seat"]].messages.remove(opt.target_card)
    s.seats[opt.target_seat].hand.append(opt.target_card)
    game.log("message_to_hand", seat=opt.target_seat, source=ctx["seat"], card=game.face(opt.target_card))
    game.push("check_end")  # a task about the hand may now be met


TOUTIAN = Triggered("偷天", "obtained", _my_black_message_obtained, _toutian, targets=_toutian_targets)


def _task(game: Game, seat: int, ctx: dict[str, Any]) -> bool:
    hand = [game.card(c).colour for c in game.state.seats[seat].hand]
    return hand.count(RED) >= TASK_RED and hand.count(BLUE) >= TASK_BLUE


CHARACTER = register("beileimao", (HUANRI, TOUTIAN), task=_task)
