"""The fan-out of a table's game: one moment's views, as frames, to every connection present.

`FanOut` is owned by its `Table` and called one way: the table hands it the game and its timers
when something changed (`send`), or asks for one connection's frames (`frames_for`, a reconnect)
or a seat's whole view (`snapshot`); it reads the table's seats, clock and stand-ins (whether the
table fast-forwards) and never calls back.

Everything a seat is sent about the game is built here, from `engine.view` (the public view and
the seat's part, whose merge is `view(game, seat)`) and `engine.view.events_for` only, plus public
table facts (who is online, who is a bot or on 托管, the table clock and every prompted seat's
deadline on it, whether the table is paused or fast-forwards).

What a flush costs (bench/net_bench.py, "server CPU per fan-out") is kept down three ways:
- The public view is built, annotated, diffed and its changes packed once per flush; a seat's
  entry in it is the last flush's while what it shows stays the same (`engine.view.entry_facts`
  and the table facts annotated on it).
- A seat's part is built again only when what it shows of the game changed (`own_facts`, its
  prompt's deadline); otherwise the last one is laid next to the new public view
  (`seat_part_again`), and the seat's patch is the public one (less its own entry's identity and
  character, which it sees as they are): the seats in that case, and spectators, with the same
  events are sent the very same bytes.
- A patch body is spliced from changes and events packed once (msgpack items concatenate): the
  bytes are those `P.encode(P.patch(...))` would give.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgpack

from engine import Game, events_for
from engine.view import (
    OWN_ENTRY_KEYS,
    SEAT_KEYS,
    SeatPart,
    entry_facts,
    merge,
    own_facts,
    public_view,
    seat_entry,
    seat_part,
    seat_part_again,
)
from net import protocol as P
from net.clock import TableClock
from net.seats import Seats, Session
from net.standins import StandIns

#: Events per update frame when a whole log is sent (reconnect), keeping frames far below MAX_FRAME.
EVENTS_PER_FRAME = 200
#: The path of the table clock in a view: every flush moves it, so it is kept apart from the
#: other public changes (a connection that was sent nothing holds an older clock, not an older view).
CLOCK = ["clock"]
_OWN_ENTRY_KEYS = frozenset(OWN_ENTRY_KEYS)

_pack = msgpack.Packer(use_bin_type=True, autoreset=True)
#: A patch body is a map of `type`, `changes` and `events` (the schema's order, as `P.patch`
#: builds it): its bytes are these, with each array's header and members spliced in.
_PATCH_HEAD = b"\x83" + _pack.pack("type") + _pack.pack("patch") + _pack.pack("changes")
_EVENTS_KEY = _pack.pack("events")


@dataclass(slots=True)
class Held:
    """The view a connection holds, as what it was built from: the public view and the seat's
    part (with the part's facts and its prompt's deadline), and the clock it was sent (older than
    the public view's when the connection was last sent nothing because only the clock moved)."""

    public: dict[str, Any]
    part: SeatPart
    facts: tuple[object, ...] | None
    deadline: float | None
    clock: Any


@dataclass(slots=True)
class _Kept:
    """A seat's part as last built or laid next to a public view, and what it was built from."""

    facts: tuple[object, ...]
    deadline: float | None
    public: dict[str, Any]
    part: SeatPart


class _Shared:
    """The changes from an earlier public view to this flush's, the clock apart; each packed once,
    and sorted by what a seat's patch may have to leave out of them (its own values instead)."""

    __slots__ = ("changes", "packed", "joined", "seat_keys", "message", "stack", "entries", "own_entries",
                 "whole_entries")

    def __init__(self, changes: list[list[Any]]) -> None:
        self.changes = changes
        self.packed = [_pack.pack(change) for change in changes]
        #: Every change: a spectator's patch, and a seat's whose own values did not change.
        self.joined = b"".join(self.packed)
        #: Indexes of the changes under a seat key but the message and the stack (a spectator's
        #: own values: a seat has its own); under the message; under the stack.
        self.seat_keys: list[int] = []
        self.message: list[int] = []
        self.stack: list[int] = []
        #: Per seat, the indexes of the changes in its entry; of those under the keys its own
        #: entry shows otherwise (identity, character); the seats whose entry was replaced whole.
        self.entries: dict[int, list[int]] = {}
        self.own_entries: dict[int, list[int]] = {}
        self.whole_entries: set[int] = set()
        for i, change in enumerate(changes):
            path = change[0]
            top = path[0]
            if top == "seats":
                self.entries.setdefault(path[1], []).append(i)
                if len(path) == 2:
                    self.whole_entries.add(path[1])
                elif path[2] in _OWN_ENTRY_KEYS:
                    self.own_entries.setdefault(path[1], []).append(i)
            elif top == "message":
                self.message.append(i)
            elif top == "stack":
                self.stack.append(i)
            elif top in SEAT_KEYS:
                self.seat_keys.append(i)


class _Flush:
    """One moment's public view, annotated, and its changes from each earlier public view that a
    connection holds, found once: as a rule the last flush's, which every connection shares.
    Also the packed clock change and each distinct event list and frame body, packed once."""

    def __init__(self, public: dict[str, Any]) -> None:
        self.public = public
        self.clock = public["clock"]
        self.packed_clock = _pack.pack([CLOCK, self.clock])
        self._found: dict[int, tuple[dict[str, Any], _Shared | None]] = {}
        self._events: list[tuple[list[dict[str, object]], bytes]] = []
        #: Frames of kept parts: (id of the public view held, its clock, id of the events' bytes) -> frame.
        self.frames: dict[tuple[int, Any, int], bytes] = {}

    def shared_changes(self, old: dict[str, Any]) -> _Shared | None:
        """The changes from `old` to this public view but the clock's; None if a full view is
        the better frame."""
        found = self._found.get(id(old))
        if found is None:
            changes = P.diff_view(old, self.public)
            shared = None
            if changes is not None:
                changes = [c for c in changes if c[0] != CLOCK]
                # The seats replaced whole: no seat's own entry could stay.
                if not any(len(c[0]) < 2 and c[0][0] == "seats" for c in changes):
                    shared = _Shared(changes)
            found = self._found[id(old)] = (old, shared)  # `old` kept, so its id stays its own
        return found[1]

    def packed_events(self, events: list[dict[str, object]]) -> bytes:
        """The packed list of `events`, the same bytes object for every equal list."""
        for known, packed in self._events:
            if known == events:
                return packed
        packed = _pack.pack(events)
        self._events.append((events, packed))
        return packed


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
        #: The game the kept entries and parts are of; per seat its annotated public entry with
        #: what it was built from, and its part (`_Kept`).
        self._kept_game: Game | None = None
        self._entries: dict[int, tuple[tuple[object, ...], tuple[bool, bool, bool], dict[str, Any]]] = {}
        self._parts: dict[int, _Kept] = {}

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
        part, facts, deadline = self._seat_part(game, seat, flush.public)
        events = events_for(game, seat, session.since)
        session.since = len(game.events)
        held = session.base
        if held is not None and len(events) <= EVENTS_PER_FRAME:
            spliced = self._patch(session, flush, held, part, facts, deadline, events)
            if spliced is not None:
                return spliced
        session.base = Held(flush.public, part, facts, deadline, flush.clock)
        v = merge(flush.public, part)
        chunks = [events[i : i + EVENTS_PER_FRAME] for i in range(0, len(events), EVENTS_PER_FRAME)] or [[]]
        return [self.encode(session, P.update(v, chunk)) for chunk in chunks]

    def snapshot(self, game: Game, timers: dict[str, float], seat: int | None) -> dict[str, Any]:
        """The whole view `seat` would be sent now, annotated (what a patched client view must
        equal), built afresh: nothing kept from earlier flushes."""
        public = self._new_flush(game, timers, keep=False).public
        return merge(public, self._seat_part(game, seat, public, keep=False)[0])

    def _patch(self, session: Session, flush: _Flush, held: Held, part: SeatPart, facts: tuple[object, ...] | None,
               deadline: float | None, events: list[dict[str, object]]) -> list[bytes] | None:
        """The `patch` from the view `held` to this one ([] when only the clock moved: then the
        connection keeps its clock and takes this view as its base); None when a full view is the
        better frame.

        A patch is the public changes, less those a seat sees otherwise than a spectator (its own
        values, its own entry's identity and character), plus the changes of those: none when its
        part was built from the same facts as the part it holds."""
        shared = flush.shared_changes(held.public)
        if shared is None:
            return None
        seat = part.seat
        own: list[list[Any]] = []
        skip: list[int] = []
        if seat is not None:
            old, known = held.part, held.facts
            if known is None or facts is None or old.entry is None or part.entry is None:
                return None
            skip += shared.seat_keys
            public_message, public_stack = facts[6] is None and known[6] is None, facts[7] is None and known[7] is None
            if not public_message:
                skip += shared.message
            if not public_stack:
                skip += shared.stack
            if facts != known or deadline != held.deadline:
                new = part.fields
                if public_message or public_stack:  # those changed as the public view's did
                    new = dict(new)
                    if public_message:
                        new["message"] = old.fields["message"]
                    if public_stack:
                        new["stack"] = old.fields["stack"]
                fields = P.diff_view(old.fields, new)
                if fields is None:
                    return None
                own = fields
            if seat in shared.whole_entries or facts[2] != known[2] or facts[4] != known[4]:
                entry = P.diff_view(old.entry, part.entry, ("seats", seat))
                if entry is None:
                    return None
                own += entry
                skip += shared.entries.get(seat, ())
            else:
                skip += shared.own_entries.get(seat, ())
        clock_moved = held.clock != flush.clock
        count = len(shared.changes) - len(skip) + len(own) + clock_moved
        if count > P.MAX_PATCH_CHANGES:
            return None
        if count == clock_moved and not events:
            session.base = Held(flush.public, part, facts, deadline, held.clock)
            return []
        session.base = Held(flush.public, part, facts, deadline, flush.clock)
        if session.conn.check_outbound:
            left = set(skip)
            changes = [c for i, c in enumerate(shared.changes) if i not in left] + own
            if clock_moved:
                changes.append([CLOCK, flush.clock])
            return [self.encode(session, P.patch(changes, events))]
        packed_events = flush.packed_events(events)
        if own or skip:
            left = set(skip)
            public = b"".join(c for i, c in enumerate(shared.packed) if i not in left) if skip else shared.joined
            return [self._frame(count, b"".join((public, *map(_pack.pack, own))), clock_moved, flush, packed_events)]
        key = (id(held.public), held.clock, id(packed_events))
        frame = flush.frames.get(key)
        if frame is None:
            frame = flush.frames[key] = self._frame(count, shared.joined, clock_moved, flush, packed_events)
        return [frame]

    def _frame(self, count: int, changes: bytes, clock_moved: bool, flush: _Flush, events: bytes) -> bytes:
        """A patch frame spliced from its packed parts (`count` changes, the clock's among them)."""
        body = b"".join((_PATCH_HEAD, _pack.pack_array_header(count), changes,
                         flush.packed_clock if clock_moved else b"", _EVENTS_KEY, events))
        if len(body) > P.MAX_FRAME:
            raise P.ProtocolError(P.TOO_LARGE, f"message is {len(body)} bytes, the cap is {P.MAX_FRAME}")
        return P.HEADER.pack(len(body)) + body

    def _new_flush(self, game: Game, timers: dict[str, float], keep: bool = True) -> _Flush:
        """This moment's public view, annotated with the public table facts; with `keep`, each
        seat's entry is the last one built while its facts and table facts stay the same."""
        if not keep:
            public: dict[str, Any] = public_view(game)
            for entry in public["seats"]:
                self._annotate_entry(entry)
        else:
            if game is not self._kept_game:
                self._kept_game = game
                self._entries.clear()
                self._parts.clear()
            entries = []
            kept = self._entries
            for index, slot in enumerate(self.seats.slots[: len(game.state.seats)]):
                facts = entry_facts(game, index)
                table_facts = (slot.online, slot.bot is not None or slot.remote_bot, slot.auto)
                last = kept.get(index)
                if last is not None and last[0] == facts and last[1] == table_facts:
                    entries.append(last[2])
                    continue
                entry = seat_entry(game, facts)
                entry["online"], entry["bot"], entry["auto"] = table_facts
                kept[index] = (facts, table_facts, entry)
                entries.append(entry)
            public = public_view(game, entries)
        public["table"] = self.table
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

    def _seat_part(self, game: Game, seat: int | None, public: dict[str, Any], keep: bool = True,
                   ) -> tuple[SeatPart, tuple[object, ...] | None, float | None]:
        """`engine.view.seat_part`, annotated, with its facts and its prompt's deadline: the
        seat's own entry is the public one, annotated, with the seat's own identity and character;
        its prompt gains its deadline. With `keep`, the last part while its facts and deadline stay
        the same, laid next to `public`."""
        if seat is None:
            return seat_part(game, None, public), None, None
        facts = own_facts(game, seat)
        prompt_id = facts[5]
        deadline = None if prompt_id is None else self.timing.deadline(prompt_id)  # type: ignore[arg-type]
        last = self._parts.get(seat) if keep else None
        if last is not None and last.facts == facts and last.deadline == deadline:
            if last.public is not public:
                last.part = seat_part_again(last.part, facts, public)
                last.public = public
            return last.part, facts, deadline
        part = seat_part(game, seat, public, facts, None if last is None else (last.facts, last.part))
        prompt: Any = part.fields["prompt"]
        if prompt is not None:
            prompt["deadline"] = deadline
        if keep:
            self._parts[seat] = _Kept(facts, deadline, public, part)
        return part, facts, deadline
