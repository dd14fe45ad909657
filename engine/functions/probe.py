"""试探: in your play phase, handed face-down to another player who must answer truthfully.
Only the answer is public; the card then leaves the game face-down (CARDS.md 试探)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..state import StackItem
from . import OWN_PLAY, Target

if TYPE_CHECKING:
    from ..game import Game


def targets(game: Game, user: int, moment: str) -> list[Target] | None:
    if moment != OWN_PLAY:
        return None
    return [(seat, None) for seat in game.others_in_game(user)]


def resolve(game: Game, item: StackItem) -> None:
    s = game.state
    assert item.target_seat is not None
    target = s.seats[item.target_seat]
    probe = game.card(item.card).probe
    assert probe is not None
    if not target.in_game:
        return
    if target.identity != probe.identity:
        game.log("probe_answer", seat=target.index, answer="say", line=probe.on_no_say)
    elif probe.on_yes == "draw":
        game.log("probe_answer", seat=target.index, answer="draw")
        game.draw(target.index, s.config.probe_draw)
    elif target.hand:
        game.log("probe_answer", seat=target.index, answer="discard")
        s.probe = item
    else:
        game.log("probe_answer", seat=target.index, answer="discard_none")
