"""试探: in your play phase, handed face-down to another player who must answer truthfully.
Only the answer is public; the card then leaves the game face-down (CARDS.md 试探).
老鬼's 城府 lets its owner choose the answer instead (CHARACTERS.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import prompts as P
from ..state import StackItem, Step
from ..steps import continuation
from . import OWN_PLAY, Target

if TYPE_CHECKING:
    from ..game import Game

CONCEAL_SKILL = "城府"


def targets(game: Game, user: int, moment: str) -> list[Target] | None:
    if moment != OWN_PLAY:
        return None
    return [(seat, None) for seat in game.others_in_game(user)]


def resolve(game: Game, item: StackItem) -> None:
    assert item.target_seat is not None
    target = game.state.seats[item.target_seat]
    probe = game.card(item.card).probe
    assert probe is not None
    if not target.in_game:
        return
    yes = target.identity == probe.identity
    if game.has_skill(target.index, CONCEAL_SKILL):
        options = [P.option("answer_yes"), P.option("answer_no")]
        default = options[0 if yes else 1].id
        game.ask(target.index, P.SKILL, options, default, then="probe.answer", card=item.card, user=item.user)
        return
    answer(game, item.card, item.user, target.index, yes)


def answer(game: Game, card: int, user: int, seat: int, yes: bool) -> None:
    probe = game.card(card).probe
    assert probe is not None
    if not yes:
        game.log("probe_answer", seat=seat, answer="say", line=probe.on_no_say)
    elif probe.on_yes == "draw":
        game.log("probe_answer", seat=seat, answer="draw")
        game.draw(seat, game.state.config.probe_draw)
    elif game.state.seats[seat].hand:
        game.log("probe_answer", seat=seat, answer="discard")
        options = [P.option("discard", c) for c in game.state.seats[seat].hand]
        game.ask(seat, P.PROBE_DISCARD, options, options[0].id, then="probe.discard", user=user)
    else:
        game.log("probe_answer", seat=seat, answer="discard_none")


@continuation("probe.answer")
def _answered(game: Game, st: Step, opt: P.Option) -> None:
    assert st.seat is not None
    game.log("probe_concealed", {"answer": opt.verb}, seen_by=(st.seat,), seat=st.seat)
    answer(game, st.data["card"], st.data["user"], st.seat, opt.verb == "answer_yes")


@continuation("probe.discard")
def _discarded(game: Game, st: Step, opt: P.Option) -> None:
    assert st.seat is not None and opt.card is not None
    game.state.seats[st.seat].hand.remove(opt.card)
    game.state.discard.append(opt.card)
    game.log("probe_discarded", {"card": game.face(opt.card)}, seen_by=(st.seat,), seat=st.seat)  # face-down: RULES.md §4
