"""六姐 (Sixth Sister): open, female. 拷问 · 搜取 (CHARACTERS.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import prompts as P
from ..cards import PROBE
from ..state import Step
from ..steps import continuation
from . import Triggered, register
from .fuping import still_dying

if TYPE_CHECKING:
    from ..game import Game


def _probes(game: Game, owner: int, ctx: dict[str, Any]) -> bool:
    target = ctx["target"]
    return (ctx["user"] == owner and ctx["function"] == PROBE and target is not None
            and bool(game.state.seats[target].hand))


def _kaowen(game: Game, owner: int, ctx: dict[str, Any], opt: P.Option) -> None:
    """拷问: take one random card from the probed player's hand."""
    s = game.state
    hand = s.seats[ctx["target"]].hand
    card = hand.pop(s.rng.randrange(len(hand)))
    s.seats[owner].hand.append(card)
    game.log("cards_taken", {"cards": [game.face(card)]}, seen_by=(owner, ctx["target"]),
             seat=owner, source=ctx["target"], count=1)


KAOWEN = Triggered("拷问", "played", _probes, _kaowen)


def _dies(game: Game, owner: int, ctx: dict[str, Any]) -> bool:
    """"任一玩家死亡时": any player, herself included (RULES.md §8.1; docs/rules-notes.md)."""
    seat = ctx["seat"]
    return still_dying(game, seat) and bool(game.state.seats[seat].hand)


def _souqu(game: Game, owner: int, ctx: dict[str, Any], opt: P.Option) -> None:
    """搜取: look at one random card of the dying player's hand; keep it, make it a message, or leave it."""
    s = game.state
    victim = ctx["seat"]
    hand = s.seats[victim].hand
    card = hand[s.rng.randrange(len(hand))]
    game.log("card_seen", {"card": game.face(card)}, seen_by=(owner,), seat=owner, source=victim)
    options = [P.option("to_hand", card), P.option("to_message", card), P.option("leave", card)]
    game.ask(owner, P.SKILL, options, options[0].id, then="liujie.souqu", source=victim)


@continuation("liujie.souqu")
def _searched(game: Game, st: Step, opt: P.Option) -> None:
    owner = st.seat
    assert owner is not None and opt.card is not None
    hand = game.state.seats[st.data["source"]].hand
    if opt.verb == "leave" or opt.card not in hand:
        return
    hand.remove(opt.card)
    if opt.verb == "to_hand":
        game.state.seats[owner].hand.append(opt.card)
        game.log("cards_taken", {"cards": [game.face(opt.card)]}, seen_by=(owner,),
                 seat=owner, source=st.data["source"], count=1)
    else:
        game.obtain(owner, opt.card, by=owner)


# The look is not optional ("look at one random card…; you may then…"): what she does with it is.
SOUQU = Triggered("搜取", "dying", _dies, _souqu, forced=True)


def _task(game: Game, seat: int, ctx: dict[str, Any]) -> bool:
    """At least 6 messages of any colour in front of her."""
    return len(game.state.seats[seat].messages) >= 6


CHARACTER = register("liujie", (KAOWEN, SOUQU), task=_task)
