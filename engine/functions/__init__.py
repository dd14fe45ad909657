"""One module per function card (CARDS.md Part A): when it may be used, on what, and what it does.

Each module defines:
- `targets(game, user, moment) -> list[Target] | None`: the legal targets for `user` now, or None
  when the card cannot be used at this moment at all. `moment` is `OWN_PLAY` (the current
  player's play prompt, empty stack) or a window step (`play`, `transmit`, `arrive`, `turn_start`,
  `turn_end`).
- `resolve(game, item)`: its effect, when it leaves the stack without being cancelled.
"""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING, Protocol

from ..cards import (
    BURN,
    DECRYPT,
    GAMBLE,
    INTERCEPT,
    LOCK,
    LURE,
    PROBE,
    REINFORCE,
    SEE_THROUGH,
    SEND_BACK,
    SWITCH,
    TRANSFER,
    TRUTH_OR_FALSE,
    WEIGH,
)

if TYPE_CHECKING:
    from ..game import Game
    from ..state import StackItem

OWN_PLAY = "own_play"
#: Cards with no printed timing (CARDS.md: ANY): the only ones a seat may use in a turn-start or
#: turn-end window before anything is on the stack, so only they make holding cards count then.
ANY_MOMENT = frozenset({BURN})

# (seat, message card): who or what a card is aimed at; (None, None) when it takes no target.
Target = tuple[int | None, int | None]
NO_TARGET: Target = (None, None)


def own_play_untargeted(game: Game, user: int, moment: str) -> list[Target] | None:
    """`targets` of a card used only in its user's own play phase, on no one (真伪莫辨, 增援, 权衡)."""
    return [NO_TARGET] if moment == OWN_PLAY else None


class FunctionRule(Protocol):
    def targets(self, game: Game, user: int, moment: str) -> list[Target] | None: ...

    def resolve(self, game: Game, item: StackItem) -> None: ...


def _load() -> dict[str, ModuleType]:
    from . import (
        burn,
        decrypt,
        gamble,
        intercept,
        lock,
        lure,
        probe,
        reinforce,
        see_through,
        send_back,
        switch,
        transfer,
        truth_or_false,
        weigh,
    )

    return {
        LOCK: lock,
        LURE: lure,
        INTERCEPT: intercept,
        SEND_BACK: send_back,
        DECRYPT: decrypt,
        BURN: burn,
        SEE_THROUGH: see_through,
        PROBE: probe,
        TRUTH_OR_FALSE: truth_or_false,
        TRANSFER: transfer,
        SWITCH: switch,
        REINFORCE: reinforce,
        GAMBLE: gamble,
        WEIGH: weigh,
    }


RULES: dict[str, ModuleType] = _load()
