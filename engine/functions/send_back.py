"""退回: in the arrive window, when the message is in front of you; it travels the other way.
For 直达 it goes back to the sender, who must accept (RULES.md §5.3). A locked player may play it,
but it has no effect (CARDS.md 退回, RULES.md §5.3: "no effect if its user is locked")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..state import STEP_ARRIVE, StackItem
from . import NO_TARGET, Target

if TYPE_CHECKING:
    from ..game import Game


def targets(game: Game, user: int, moment: str) -> list[Target] | None:
    m = game.state.message
    if moment != STEP_ARRIVE or m is None or m.position != user or m.forced or m.sent_back:
        return None
    return [NO_TARGET]


def may_redirect(game: Game, user: int, moment: str) -> bool:
    """The message is in front of `user` at the arrive step and he may still turn it away
    (not locked, not forced on him, not already sent back): 转移 (later edition) is refused otherwise."""
    s = game.state
    m = s.message
    if moment != STEP_ARRIVE or m is None or m.position != user:
        return False
    return not (user in s.locked or m.forced or m.sent_back)


def resolve(game: Game, item: StackItem) -> None:
    s = game.state
    m = s.message
    if m is None or m.position != item.user or not s.seats[item.user].in_game:
        return  # the message is no longer in front of him, or he left the game first
    if item.user in s.locked:
        game.log("no_effect", card=game.public_face(item), seat=item.user, reason="locked")
        return
    m.sent_back = True
    game.log("sent_back", seat=item.user)
