"""老金 (Old Jin): hidden, male. 弃卒保帅 · 釜底抽薪 (CHARACTERS.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import prompts as P
from ..cards import BLACK, BLUE, RED
from ..state import Step
from ..steps import continuation, step
from . import Triggered, cover, register

if TYPE_CHECKING:
    from ..game import Game

# The task "手牌集齐三张红色卡牌和蓝色卡牌": 3 red AND 3 blue cards in hand (CHARACTERS.md notes).
TASK_RED = 3
TASK_BLUE = 3
QIZU_DRAW = 5
QIZU_RETURN = 2


def _own_cancelled(game: Game, owner: int, ctx: dict[str, Any]) -> bool:
    return ctx["user"] == owner and not game.state.seats[owner].face_up


def _qizu(game: Game, owner: int, ctx: dict[str, Any], opt: P.Option) -> None:
    """弃卒保帅: draw 5, then put 2 hand cards back on top of the pile, the first chosen on top."""
    game.draw(owner, QIZU_DRAW)
    _ask_return(game, owner, QIZU_RETURN)


def _ask_return(game: Game, owner: int, left: int) -> None:
    hand = game.state.seats[owner].hand
    if left <= 0 or not hand:
        return
    options = [P.option("return", c) for c in hand]
    game.ask(owner, P.SKILL, options, options[0].id, then="laojin.return", left=left)


@continuation("laojin.return")
def _returned(game: Game, st: Step, opt: P.Option) -> None:
    assert st.seat is not None and opt.card is not None
    s = game.state
    s.seats[st.seat].hand.remove(opt.card)
    # The first card chosen ends on top; the second goes right under it.
    s.pile.insert(len(s.pile) - (QIZU_RETURN - st.data["left"]), opt.card)
    game.log("returned_to_pile", {"card": game.face(opt.card)}, seen_by=(st.seat,), seat=st.seat)
    _ask_return(game, st.seat, st.data["left"] - 1)


QIZU = Triggered("弃卒保帅", "cancelled", _own_cancelled, _qizu, flip=True)


def _blacks(game: Game, seat: int) -> list[int]:
    return [c for c in game.state.seats[seat].hand if game.card(c).colour == BLACK]


def _obtained_black(game: Game, owner: int, ctx: dict[str, Any]) -> bool:
    """A player already holding 3 black messages is dying and acts no more."""
    return (ctx["seat"] == owner and game.card(ctx["card"]).colour == BLACK
            and game.colour_count(owner, BLACK) < 3 and bool(_blacks(game, owner)))


def _futi_targets(game: Game, owner: int, ctx: dict[str, Any]) -> list[P.Option]:
    """The black card from hand he puts in front of himself is the skill's cost."""
    return [P.option("use", c, name="釜底抽薪") for c in _blacks(game, owner)]


def _futi(game: Game, owner: int, ctx: dict[str, Any], opt: P.Option) -> None:
    """釜底抽薪: one more black message for himself, cover, then one hand card to each of any
    number of other players."""
    assert opt.card is not None
    game.state.seats[owner].hand.remove(opt.card)
    game.push("laojin.place", owner, given=[])
    cover(game, owner)
    game.obtain(owner, opt.card, by=owner)


@step("laojin.place")
def _ask_place(game: Game, st: Step) -> None:
    """Asked as a step, so the options are those left after any death the last placement caused."""
    owner, given = st.seat, st.data["given"]
    assert owner is not None
    hand = game.state.seats[owner].hand
    targets = [t for t in game.others_standing(owner) if t not in given]
    if game.over or not game.state.seats[owner].in_game or not hand or not targets:
        return
    done = P.option("done")
    options = [done, *(P.option("place", c, t) for t in targets for c in hand)]
    game.ask(owner, P.SKILL, options, done.id, then="laojin.place", given=given)


@continuation("laojin.place")
def _placed(game: Game, st: Step, opt: P.Option) -> None:
    """Each placement lands before the next choice, so a death it causes is carried out first."""
    owner = st.seat
    if opt.verb == "done" or owner is None:
        return
    assert opt.card is not None and opt.target_seat is not None
    game.state.seats[owner].hand.remove(opt.card)
    game.push("laojin.place", owner, given=[*st.data["given"], opt.target_seat])
    game.obtain(opt.target_seat, opt.card, by=owner)


FUTI = Triggered("釜底抽薪", "obtained", _obtained_black, _futi, targets=_futi_targets)


def task(game: Game, seat: int, ctx: dict[str, Any]) -> bool:
    """Hold 3 red cards and 3 blue cards in hand at the same time."""
    hand = [game.card(c).colour for c in game.state.seats[seat].hand]
    return hand.count(RED) >= TASK_RED and hand.count(BLUE) >= TASK_BLUE


CHARACTER = register("laojin", (QIZU, FUTI), task=task)
