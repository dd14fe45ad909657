"""黑玫瑰 (Black Rose): hidden, female. 血染玫瑰 (CHARACTERS.md).

Also holds the shared step "place black messages from hand in front of one player" (黄雀在后 uses it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import prompts as P
from ..cards import BLACK, BLUE, RED
from ..functions import Target
from ..state import StackItem, Step
from ..steps import continuation, step
from . import Active, register
from .effects import ANY_TIME

if TYPE_CHECKING:
    from ..game import Game

ROSE_BLACK_TOP = 3  # black messages she may place when the revealed card is black
ROSE_OTHERWISE = 1


def place_blacks(game: Game, owner: int, target: int, limit: int) -> None:
    """Up to `limit` black cards from the owner's hand become the target's messages, one at a time."""
    game.push("place_blacks", owner, target=target, left=limit)


@step("place_blacks")
def _ask_black(game: Game, st: Step) -> None:
    """Asked as a step, so each choice comes after the previous message's deaths were carried out."""
    owner, target = st.seat, st.data["target"]
    assert owner is not None
    s = game.state
    blacks = [c for c in s.seats[owner].hand if game.card(c).colour == BLACK]
    if game.over or st.data["left"] <= 0 or not blacks or not s.seats[owner].in_game \
            or not s.seats[target].in_game:
        return
    done = P.option("done")
    options = [done, *(P.option("place", c, target) for c in blacks)]
    game.ask(owner, P.SKILL, options, done.id, then="place_blacks", target=target, left=st.data["left"])


@continuation("place_blacks")
def _placed(game: Game, st: Step, opt: P.Option) -> None:
    owner = st.seat
    if opt.verb == "done" or owner is None:
        return
    assert opt.card is not None
    game.state.seats[owner].hand.remove(opt.card)
    game.push("place_blacks", owner, target=st.data["target"], left=st.data["left"] - 1)
    game.obtain(st.data["target"], opt.card, by=owner)


def _rose_targets(game: Game, seat: int, moment: str) -> list[Target] | None:
    """Face-down only: flipping is the cost."""
    if game.state.seats[seat].face_up:
        return None
    return [(t, None) for t in game.others_in_game(seat)] or None


def _rose(game: Game, item: StackItem) -> None:
    """血染玫瑰: the top card of the pile is shown (it stays there); black allows 3 placements, else 1."""
    s = game.state
    assert item.target_seat is not None
    if not s.pile:
        game.reshuffle()  # RULES.md §4: an empty pile is at once the shuffled discard pile
    top = s.pile[-1] if s.pile else None
    if top is not None:
        game.log("top_card_shown", seat=item.user, card=game.face(top))
    black = top is not None and game.card(top).colour == BLACK
    place_blacks(game, item.user, item.target_seat, ROSE_BLACK_TOP if black else ROSE_OTHERWISE)


ROSE = Active("血染玫瑰", ANY_TIME, _rose_targets, _rose, flip=True, stack=True)


def task(game: Game, seat: int, ctx: dict[str, Any]) -> bool:
    """Personally cause the death of a player who already holds 3 or more true messages."""
    victim = ctx.get("victim")
    if victim is None or ctx.get("killer") != seat:
        return False
    return game.colour_count(victim, RED) + game.colour_count(victim, BLUE) >= 3


CHARACTER = register("heimeigui", (ROSE,), task=task, task_at="death")
