"""大美女 (Great Beauty): open, female. 精明 · 爱情 (CHARACTERS.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import prompts as P
from ..cards import BLACK
from ..functions import Target
from ..functions.burn import burn
from ..state import StackItem, Step
from ..steps import continuation
from . import Active, Triggered, is_male, register
from .effects import ANY_TIME, black_messages, put_back, reveal_identity

if TYPE_CHECKING:
    from ..game import Game

# ---------------------------------------------------------------------- 精明

def _own_draw_phase(game: Game, owner: int, ctx: dict[str, Any]) -> bool:
    return ctx["seat"] == owner


def _jingming(game: Game, owner: int, ctx: dict[str, Any], opt: P.Option) -> None:
    """精明: the draw phase gives 3 cards instead of 2 (the engine dealt 2), then one goes back on top."""
    game.draw(owner, 1)
    put_back(game, owner)


JINGMING = Triggered("精明", "draw_phase", _own_draw_phase, _jingming, forced=True)


# ---------------------------------------------------------------------- 爱情

def _aiqing_targets(game: Game, owner: int, moment: str) -> list[Target] | None:
    """The first black message to burn; [I] once only: the identity card can be shown only once."""
    if game.state.seats[owner].revealed or any(i.user == owner and i.skill == "爱情" for i in game.state.stack):
        return None
    return black_messages(game) or None


def _aiqing(game: Game, item: StackItem) -> None:
    """爱情: show the identity card, then burn 2 black messages (the chosen one, then a second)."""
    owner = item.user
    reveal_identity(game, owner)
    left = 2
    seat, card = item.target_seat, item.target_card
    if seat is not None and card is not None and card in game.state.seats[seat].messages:
        burn(game, seat, card, owner)
        left -= 1
    _ask_burn(game, owner, left)


def _ask_burn(game: Game, owner: int, left: int) -> None:
    found = black_messages(game)
    if left <= 0 or not found:
        return
    options = [P.option("burn", None, seat, card) for seat, card in found]
    game.ask(owner, P.SKILL, options, options[0].id, then="dameinv.burn", left=left)


@continuation("dameinv.burn")
def _burn_chosen(game: Game, st: Step, opt: P.Option) -> None:
    assert st.seat is not None and opt.target_seat is not None and opt.target_card is not None
    burn(game, opt.target_seat, opt.target_card, st.seat)
    _ask_burn(game, st.seat, st.data["left"] - 1)


AIQING = Active("爱情", ANY_TIME, _aiqing_targets, _aiqing, stack=True)


# ---------------------------------------------------------------------- secret task

def _task(game: Game, seat: int, ctx: dict[str, Any]) -> bool:
    """A male character declares victory while she, still in the game, holds at most 1 black message."""
    declarer = ctx["declarer"]
    return (declarer != seat and is_male(game, declarer) and game.standing(seat)
            and game.colour_count(seat, BLACK) <= 1)


CHARACTER = register("dameinv", (JINGMING, AIQING), task=_task, task_at="declaring")
