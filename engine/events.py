"""The event log. Each event has a public part and, optionally, a secret part for some seats.

`project` is the only way an event reaches a seat, so a secret cannot leak through the log.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class Event:
    """Never changed once logged; not frozen only because a frozen init costs three times as much
    and the engine logs hundreds of events a game."""

    seq: int
    kind: str
    data: dict[str, object]
    secret: dict[str, object] = field(default_factory=dict)
    seen_by: frozenset[int] = frozenset()

    def project(self, seat: int | None) -> dict[str, object]:
        out: dict[str, object] = {"seq": self.seq, "kind": self.kind, **self.data}
        if self.shows_secret(seat):
            out.update(self.secret)
        return out

    def shows_secret(self, seat: int | None) -> bool:
        """Whether `seat`'s projection carries the secret part (never when there is none): all
        that `project` reads of the seat, so seats alike in this get equal projections."""
        return bool(self.secret) and seat is not None and seat in self.seen_by
