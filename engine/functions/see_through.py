"""识破: in reply to the item on top of the stack (识破 included); that card is cancelled.
[DECISION] it targets cards (and skills that count as a card, such as 警觉), not other skills.
When 识破 resolves, its target is the item right below it: everything played later has resolved.
The cancelled card leaves the stack at once for the discard pile (RULES.md §6.3, CARDS.md 识破:
"the target card has no effect and goes to the discard pile"; a 试探 leaves the game face-down), so
nothing can answer it any more and a reshuffle from then on takes it in."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..cards import FUNCTIONS
from ..state import StackItem
from . import OWN_PLAY, Target

if TYPE_CHECKING:
    from ..game import Game


def targets(game: Game, user: int, moment: str) -> list[Target] | None:
    s = game.state
    if moment == OWN_PLAY or not s.stack:
        return None
    top = s.stack[-1]
    if top.function not in FUNCTIONS:
        return None
    return [(top.user, None)]  # never the card id: the top may be a face-down 试探


def resolve(game: Game, item: StackItem) -> None:
    stack = game.state.stack
    if not stack:
        return
    target = stack.pop()
    face = game.public_face(target)
    game.log("cancelled", card=face, by=item.user)
    game.used(target)
    game.log("no_effect", card=face, seat=target.user)
    game.fire("cancelled", user=target.user, function=target.function, by=item.user)
