"""老鬼 (Old Ghost): hidden, female. 就计 · 城府 · 遗志 (CHARACTERS.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import prompts as P
from ..cards import LOCK, PROBE, RED
from ..state import Step
from ..steps import step
from . import Passive, Triggered, register
from .fuping import still_dying

if TYPE_CHECKING:
    from ..game import Game


def _targeted(game: Game, owner: int, ctx: dict[str, Any]) -> bool:
    """"成为…的目标时": once the 试探 or 锁定 aimed at her has resolved, not 识破'd (RULES.md §6.5).
    Flipping is the skill's cost, so it needs the card face-down (docs/rules-notes.md, Characters)."""
    return ctx["target"] == owner and ctx["function"] in (PROBE, LOCK) and not game.state.seats[owner].face_up


def _jiuji(game: Game, owner: int, ctx: dict[str, Any], opt: P.Option) -> None:
    """就计: flip, then draw 2 (shared with 老枪)."""
    game.draw(owner, 2)


JIUJI = Triggered("就计", "resolved", _targeted, _jiuji, flip=True)

CHENGFU = Passive("城府")  # engine/functions/probe.py asks its owner how to answer


def _dying_self(game: Game, owner: int, ctx: dict[str, Any]) -> bool:
    return ctx["seat"] == owner and still_dying(game, owner) and bool(game.state.seats[owner].hand) \
        and bool(game.others_standing(owner))


def _yizhi_targets(game: Game, owner: int, ctx: dict[str, Any]) -> list[P.Option]:
    return [P.option("use", seat=seat, name="遗志") for seat in game.others_standing(owner)]


def _yizhi(game: Game, owner: int, ctx: dict[str, Any], opt: P.Option) -> None:
    """遗志: the whole hand goes face-down to one player; 3 drawn at random become his messages."""
    assert opt.target_seat is not None
    hand = game.state.seats[owner].hand
    game.state.seats[owner].hand = []
    game.log("hand_given", seat=owner, to=opt.target_seat, count=len(hand))
    key = f"yizhi:{len(game.events)}"
    game.state.table[key] = hand
    game.push("laogui.yizhi_rest", opt.target_seat, by=owner, key=key)
    for _ in range(min(3, len(hand))):
        game.push("laogui.yizhi_take", opt.target_seat, by=owner, key=key)


@step("laogui.yizhi_take")
def _take(game: Game, st: Step) -> None:
    pool = game.state.table[st.data["key"]]
    if pool and st.seat is not None and game.state.seats[st.seat].in_game and not game.over:
        game.obtain(st.seat, pool.pop(game.state.rng.randrange(len(pool))), by=st.data["by"])


@step("laogui.yizhi_rest")
def _rest(game: Game, st: Step) -> None:
    """CHARACTERS.md 遗志 [DECISION]: the cards he did not draw stay in his hand (they were handed to
    him); only he sees which they are. If he is out of the game by now they are discarded."""
    s = game.state
    rest = s.table.pop(st.data["key"])
    receiver = st.seat
    if receiver is None or not s.seats[receiver].in_game or game.over:
        s.discard.extend(rest)
        return
    s.seats[receiver].hand.extend(rest)
    game.log("cards_kept", {"cards": [game.face(c) for c in rest]}, seen_by=(receiver,), seat=receiver,
             source=st.data["by"], count=len(rest))
    game.push("check_end")  # a task about the hand may now be met


YIZHI = Triggered("遗志", "dying", _dying_self, _yizhi, targets=_yizhi_targets)


def _task(game: Game, seat: int, ctx: dict[str, Any]) -> bool:
    """When you die, your hand holds at least 3 red cards (judged at the death)."""
    return ctx.get("victim") == seat and sum(1 for c in game.state.seats[seat].hand if game.card(c).colour == RED) >= 3


CHARACTER = register("laogui", (JIUJI, CHENGFU, YIZHI), task=_task, task_at="death")
