"""What every event's sentence shares: the event, its values as text, and the template key."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..words import Words


@dataclass
class Sentence:
    """One event on its way to a sentence: a family's `prepare` fills `values` and may change
    `kind` to the template that says it (`played` → `played_as`, `probe_answer` → `probe_answer_say`)."""

    words: Words
    ev: Mapping[str, Any]
    seats: Sequence[Mapping[str, Any]]
    me: int | None
    kind: str
    values: dict[str, object] = field(default_factory=dict)
    #: Appended to the formatted sentence (a 试探's whole question after its answer).
    suffix: str = ""

    @property
    def colon(self) -> str:
        return self.words.colon

    def seat(self, seat: object) -> str:
        return self.words.seat_name(self.seats, seat, self.me)

    def arrow(self, key: str) -> str:
        """` → Bob` for the seat under `key`, nothing when the event names none."""
        seat = self.ev.get(key)
        return f" → {self.seat(seat)}" if isinstance(seat, int) else ""

    def card_text(self) -> str:
        card = self.ev.get("card")
        return self.words.card(card) if isinstance(card, dict) else ""
