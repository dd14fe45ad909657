"""The fan-out of a table's game: one moment's views, as frames, to every connection present.

`FanOut` is owned by its `Table` and called one way: the table hands it the game and its timers
when something changed (`send`), or asks for one connection's frames (`frames_for`, a reconnect)
or a seat's whole view (`snapshot`); it reads the table's seats, clock and stand-ins (whether the
table fast-forwards) and never calls back.

Everything a seat is sent about the game is built here, from `engine.view` (the public view and
the seat's part, whose merge is `view(game, seat)`) and `engine.view.events_for` only, plus public
table facts (who is online, who is a bot or on 托管, the table clock and every prompted seat's
deadline on it, whether the table is paused or fast-forwards).
"""

from __future__ import annotations

from typing import Any

from engine import Game, events_for
from engine.view import SEAT_KEYS, SeatPart, merge, public_view, seat_part
from net import protocol as P
from net.clock import TableClock
from net.seats import Seats, Session
from net.standins import StandIns

#: Events per update frame when a whole log is sent (reconnect), keeping frames far below MAX_FRAME.
EVENTS_PER_FRAME = 200


class _Flush:
    """One moment's public view, annotated, and its changes from each earlier public view that a
    connection holds, found once: as a rule the last flush's, or an older one for a connection
    that was sent nothing since (only the clock had moved for it)."""

    def __init__(self, public: dict[str, Any]) -> None:
        self.public = public
        self._found: dict[int, tuple[dict[str, Any], list[list[Any]] | None]] = {}

    def shared_changes(self, old: dict[str, Any]) -> list[list[Any]] | None:
        """The changes from `old` to this public view under keys every viewer shares (the seat
        keys are each seat's own); None if a full view is the better frame."""
        found = self._found.get(id(old))
        if found is None:
            changes = P.diff_view(old, self.public)
            if changes is not None:
                changes = [c for c in changes if c[0][0] not in SEAT_KEYS]
                if any(len(c[0]) < 2 and c[0][0] == "seats" for c in changes):
                    changes = None  # the seats replaced whole: no seat's own entry could stay
            found = self._found[id(old)] = (old, changes)  # `old` kept, so its id stays its own
        return found[1]


class FanOut:
    """Builds and writes the game-state frames of one table (`update`, `patch`)."""

    def __init__(self, table: str, seats: Seats, timing: TableClock, standins: StandIns) -> None:
        self.table = table
        self.seats = seats
        self.timing = timing
        self.standins = standins
        #: Body sizes of the frames sent, when a benchmark (or a test) sets this to a list.
        self.frame_sizes: list[int] | None = None
        #: During a `send`: its public view, annotated and diffed once for every connection.
        self._flush: _Flush | None = None

    def send(self, game: Game, timers: dict[str, float]) -> None:
        """Each connection's frames, in one write per connection.

        The public view is built, annotated and diffed once for the whole flush (`_Flush`); per
        connection only its seat's part. Each connection is written as soon as its frames are
        built: with two cores, the seats woken first decode on the other core while the server
        builds the rest (measured: holding every write back until all frames were built was slower).
        """
        sessions = list(self.seats.sessions)
        self._flush = self._new_flush(game, timers)
        try:
            for session in sessions:
                frames = self.frames_for(session, game, timers)
                if frames:
                    self.send_all(session, frames)
        finally:
            self._flush = None

    def send_all(self, session: Session, frames: list[dict[str, Any]]) -> None:
        """Frames built by the table itself, encoded (unchecked unless the connection asks) and
        sent in one write."""
        session.conn.send_frame(self.encode_all(session, frames))

    def encode_all(self, session: Session, frames: list[dict[str, Any]]) -> bytes:
        check = session.conn.check_outbound
        sizes = self.frame_sizes
        out = []
        for msg in frames:
            frame = P.encode_frame(msg, check=check)
            if sizes is not None:
                sizes.append(len(frame) - P.HEADER_SIZE)
            out.append(frame)
        return out[0] if len(out) == 1 else b"".join(out)

    # ------------------------------------------------------------------ the one outgoing projection

    def frames_for(self, session: Session, game: Game, timers: dict[str, float]) -> list[dict[str, Any]]:
        """Every game-state frame a connection is sent: its seat's view and its unseen events.

        Spectators get seat None: the public view. Once a connection holds a full view, it is sent
        only what changed since (`patch`): the public changes, found once per flush, then its own
        part's; and nothing at all when only the clock moved (a pass in a response window reaches
        the passer alone, and the others' countdowns run on).
        """
        flush = self._flush or self._new_flush(game, timers)
        seat = session.seat
        part = self._seat_part(game, seat, flush.public)
        events = events_for(game, seat, session.since)
        session.since = len(game.events)
        base = session.base
        changes = self._changes(flush, base, part) if base is not None and len(events) <= EVENTS_PER_FRAME else None
        if changes is not None and not events and all(change[0] == ["clock"] for change in changes):
            return []  # `base` stays what this connection holds
        session.base = (flush.public, part)
        if changes is not None:
            return [P.patch(changes, events)]
        v = merge(flush.public, part)
        chunks = [events[i : i + EVENTS_PER_FRAME] for i in range(0, len(events), EVENTS_PER_FRAME)] or [[]]
        return [P.update(v, chunk) for chunk in chunks]

    def snapshot(self, game: Game, timers: dict[str, float], seat: int | None) -> dict[str, Any]:
        """The whole view `seat` would be sent now, annotated (what a patched client view must equal)."""
        public = self._new_flush(game, timers).public
        return merge(public, self._seat_part(game, seat, public))

    def _new_flush(self, game: Game, timers: dict[str, float]) -> _Flush:
        """This moment's public view, annotated with the public table facts."""
        public: dict[str, Any] = public_view(game)
        public["table"] = self.table
        for entry in public["seats"]:
            self._annotate_entry(entry)
        for entry in public["waiting"]:
            entry["deadline"] = self.timing.deadline(int(entry["prompt_id"]))
        public["timers"] = dict(timers)
        public["clock"] = self.timing.view_clock()
        public["paused"] = self.timing.paused_by
        public["fast_forward"] = self.standins.hurry(game, self.seats.slots, self.seats.sessions)
        return _Flush(public)

    def _annotate_entry(self, entry: dict[str, Any]) -> None:
        slot = self.seats.slots[entry["index"]]
        entry["online"] = slot.online
        entry["bot"] = slot.bot is not None or slot.remote_bot
        entry["auto"] = slot.auto

    def _seat_part(self, game: Game, seat: int | None, public: dict[str, Any]) -> SeatPart:
        """`engine.view.seat_part`, annotated: the seat's own entry like the public ones, its
        prompt with its deadline."""
        part = seat_part(game, seat, public)
        if part.entry is not None:
            self._annotate_entry(part.entry)
        prompt: Any = part.fields["prompt"]
        if prompt is not None:
            prompt["deadline"] = self.timing.deadline(int(prompt["id"]))
        return part

    def _changes(self, flush: _Flush, base: tuple[dict[str, Any], SeatPart], part: SeatPart) -> list[list[Any]] | None:
        """The changes from a connection's last view (`base`: the public view and part it was
        built from) to this one; None when a full view is the better frame."""
        old_public, old_part = base
        public = flush.shared_changes(old_public)
        own = P.diff_view(old_part.fields, part.fields)
        if public is None or own is None:
            return None
        seat = part.seat
        changes = [c for c in public if c[0][0] != "seats" or c[0][1] != seat]
        changes += own
        if part.entry is not None:
            if old_part.entry is None:
                return None
            entry = P.diff_view(old_part.entry, part.entry, ("seats", seat))
            if entry is None:
                return None
            changes += entry
        return changes if len(changes) <= P.MAX_PATCH_CHANGES else None
