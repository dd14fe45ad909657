"""The fan-out of a table's game: one moment's views, as frames, to every connection present.

`FanOut` is owned by its `Table` and called one way: the table hands it the game and its timers
when something changed (`send`), or asks for one connection's frames (`frames_for`, a reconnect)
or a seat's whole view (`snapshot`); it reads the table's seats and clock and never calls back.

Everything a seat is sent about the game is built here, from `engine.view` (the public view and
the seat's part, whose merge is `view(game, seat)`) and `engine.view.events_for` only, plus public
table facts (who is online, who is a bot, the table clock and every prompted seat's deadline on it).

Cost per flush (bench/net_bench.py, "server CPU per fan-out"): the public view is built, annotated,
diffed and its changes packed once; per connection only its seat's part is built and diffed, and
its `patch` is spliced from the packed public changes, its own changes and its events (msgpack
items concatenate), so the bytes are those `P.encode(P.patch(...))` would give.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgpack

from engine import Game, events_for
from engine.view import SEAT_KEYS, SeatPart, merge, public_view, seat_part
from net import protocol as P
from net.clock import TableClock
from net.seats import Seats, Session

#: Events per update frame when a whole log is sent (reconnect), keeping frames far below MAX_FRAME.
EVENTS_PER_FRAME = 200
#: The path of the table clock in a view: every flush moves it, so it is kept apart from the
#: other public changes (a connection that was sent nothing holds an older clock, not an older view).
CLOCK = ["clock"]

_pack = msgpack.Packer(use_bin_type=True, autoreset=True)
#: A patch body is a map of `type`, `changes` and `events` (the schema's order, as `P.patch`
#: builds it): its bytes are these, with each array's header and members spliced in.
_PATCH_HEAD = b"\x83" + _pack.pack("type") + _pack.pack("patch") + _pack.pack("changes")
_EVENTS_KEY = _pack.pack("events")


@dataclass(slots=True)
class Held:
    """The view a connection holds, as what it was built from: the public view and the seat's
    part, and the clock it was sent (older than the public view's when the connection was last
    sent nothing because only the clock moved)."""

    public: dict[str, Any]
    part: SeatPart
    clock: Any


class _Shared:
    """The changes from an earlier public view to this flush's under keys every viewer shares
    (the seat keys are each seat's own), the clock apart; each packed once."""

    __slots__ = ("changes", "packed", "seats")

    def __init__(self, changes: list[list[Any]]) -> None:
        self.changes = changes
        self.packed = [_pack.pack(change) for change in changes]
        #: The seat whose entry each change is in (None: outside the seats); a seat's own entry
        #: is its part's, so those changes are left out of its patch.
        self.seats = [c[0][1] if c[0][0] == "seats" else None for c in changes]


class _Flush:
    """One moment's public view, annotated, and its changes from each earlier public view that a
    connection holds, found once: as a rule the last flush's, which every connection shares."""

    def __init__(self, public: dict[str, Any]) -> None:
        self.public = public
        self.clock = public["clock"]
        self.packed_clock = _pack.pack([CLOCK, self.clock])
        self._found: dict[int, tuple[dict[str, Any], _Shared | None]] = {}

    def shared_changes(self, old: dict[str, Any]) -> _Shared | None:
        """The changes from `old` to this public view but the clock's; None if a full view is
        the better frame."""
        found = self._found.get(id(old))
        if found is None:
            changes = P.diff_view(old, self.public)
            shared = None
            if changes is not None:
                changes = [c for c in changes if c[0][0] not in SEAT_KEYS and c[0] != CLOCK]
                # The seats replaced whole: no seat's own entry could stay.
                if not any(len(c[0]) < 2 and c[0][0] == "seats" for c in changes):
                    shared = _Shared(changes)
            found = self._found[id(old)] = (old, shared)  # `old` kept, so its id stays its own
        return found[1]


class FanOut:
    """Builds and writes the game-state frames of one table (`update`, `patch`)."""

    def __init__(self, table: str, seats: Seats, timing: TableClock) -> None:
        self.table = table
        self.seats = seats
        self.timing = timing
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
                    self.write(session, frames)
        finally:
            self._flush = None

    def write(self, session: Session, frames: list[bytes]) -> None:
        """Send frames (header and body each) in one write: every frame about the table, the
        lobby's and the game's, leaves through here."""
        sizes = self.frame_sizes
        if sizes is not None:
            sizes += [len(frame) - P.HEADER_SIZE for frame in frames]
        session.conn.send_frame(frames[0] if len(frames) == 1 else b"".join(frames))

    def encode(self, session: Session, msg: dict[str, Any]) -> bytes:
        """A frame the table built itself, encoded (unchecked unless the connection asks)."""
        return P.encode_frame(msg, check=session.conn.check_outbound)

    # ------------------------------------------------------------------ the one outgoing projection

    def frames_for(self, session: Session, game: Game, timers: dict[str, float]) -> list[bytes]:
        """Every game-state frame a connection is sent now: its seat's view and its unseen events.

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
        held = session.base
        if held is not None and len(events) <= EVENTS_PER_FRAME:
            spliced = self._patch(session, flush, held, part, events)
            if spliced is not None:
                return spliced
        session.base = Held(flush.public, part, flush.clock)
        v = merge(flush.public, part)
        chunks = [events[i : i + EVENTS_PER_FRAME] for i in range(0, len(events), EVENTS_PER_FRAME)] or [[]]
        return [self.encode(session, P.update(v, chunk)) for chunk in chunks]

    def snapshot(self, game: Game, timers: dict[str, float], seat: int | None) -> dict[str, Any]:
        """The whole view `seat` would be sent now, annotated (what a patched client view must equal)."""
        public = self._new_flush(game, timers).public
        return merge(public, self._seat_part(game, seat, public))

    def _patch(self, session: Session, flush: _Flush, held: Held, part: SeatPart,
               events: list[dict[str, object]]) -> list[bytes] | None:
        """The `patch` from the view `held` to this one ([] when only the clock moved: then the
        connection keeps its clock and takes this view as its base); None when a full view is the
        better frame."""
        shared = flush.shared_changes(held.public)
        if shared is None:
            return None
        old = held.part
        own = P.diff_view(old.fields, part.fields)
        if own is None:
            return None
        seat = part.seat
        if part.entry is not None:
            if old.entry is None:
                return None
            entry = P.diff_view(old.entry, part.entry, ("seats", seat))
            if entry is None:
                return None
            own += entry
        shared_seats = shared.seats
        if seat is None or seat not in shared_seats:
            public = shared.packed
        else:
            public = [c for c, s in zip(shared.packed, shared_seats, strict=True) if s != seat]
        clock_moved = held.clock != flush.clock
        count = len(public) + len(own) + clock_moved
        if count > P.MAX_PATCH_CHANGES:
            return None
        if count == clock_moved and not events:
            session.base = Held(flush.public, part, held.clock)
            return []
        session.base = Held(flush.public, part, flush.clock)
        if session.conn.check_outbound:
            changes = [c for c, s in zip(shared.changes, shared_seats, strict=True) if s is None or s != seat]
            changes += [[CLOCK, flush.clock]] if clock_moved else []
            return [self.encode(session, P.patch(changes + own, events))]
        body = b"".join((
            _PATCH_HEAD, _pack.pack_array_header(count), *public, flush.packed_clock if clock_moved else b"",
            *map(_pack.pack, own), _EVENTS_KEY, _pack.pack(events),
        ))
        if len(body) > P.MAX_FRAME:
            return None
        return [P.HEADER.pack(len(body)) + body]

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
        return _Flush(public)

    def _annotate_entry(self, entry: dict[str, Any]) -> None:
        slot = self.seats.slots[entry["index"]]
        entry["online"] = slot.online
        entry["bot"] = slot.bot is not None or slot.remote_bot

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
