"""The fan-out of a table's game: one moment's views, as frames, to every connection present.

`FanOut` is owned by its `Table` and called one way: the table hands it the game and its timers
when something changed (`send`, with the table's replay frames to take when it keeps a journal),
or asks for one connection's frames (`frames_for`, a reconnect) or a seat's whole view
(`snapshot`); it reads the table's seats, clock and stand-ins (whether the table fast-forwards)
and never calls back.

Everything a seat is sent about the game is built here, from `engine.view` (the public view and
the seat's part, whose merge is `view(game, seat)`) and `engine.view.events_for` only, plus public
table facts (who is online, who is a bot or on 托管, the table clock and every prompted seat's
deadline on it, whether the table is paused or fast-forwards).

What a flush costs (bench/net_bench.py, "server CPU per fan-out") is kept down three ways:
- The public view is built, annotated, diffed and its changes packed once per flush; a seat's
  entry in it is the last flush's while what it shows stays the same (`engine.view.entry_facts`
  and the table facts annotated on it; only its hand size moved: the last one with the new count).
  Every seat's entry facts and own facts are read in one pass per flush (`table_facts`); at the
  last flush's `Game.stamp` (a pass in a window still open) they and the public view are the last
  flush's, with only the prompts and who is waiting read again.
- A seat's part is built again only when what it shows of the game changed (`own_facts`, its
  prompt's deadline); otherwise the last one stays, laid next to a new public view
  (`seat_part_again`) only where a whole view or a diff of the part needs it, and the seat's patch is the public one (less its own entry's identity and
  character, which it sees as they are): the seats in that case, and spectators, with the same
  events are sent the very same bytes.
- A patch body is spliced from changes and events packed once (msgpack items concatenate): the
  bytes are those `P.encode(P.patch(...))` would give. The public changes a seat whose part stayed
  takes are joined once per kind of seat (`_SkipKey`), and the new events are projected and
  packed once for all the seats that see the same secrets in them (`Event.shows_secret`).
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import itemgetter
from typing import Any

import msgpack

from engine import Game, events_for
from engine.events import Event
from engine.view import (
    OWN_ENTRY_KEYS,
    SEAT_KEYS,
    SeatPart,
    merge,
    own_facts,
    own_facts_again,
    public_view,
    public_view_again,
    seat_entry,
    seat_part,
    seat_part_again,
    table_facts,
)
from net import protocol as P
from net.clock import TableClock
from net.replays import FrameLog
from net.seats import Seats, Session, seat_bot
from net.standins import StandIns

#: Events per update frame when a whole log is sent (reconnect), keeping frames far below MAX_FRAME.
EVENTS_PER_FRAME = 200
#: The path of the table clock in a view: every flush moves it, so it is kept apart from the
#: other public changes (a connection that was sent nothing holds an older clock, not an older view).
CLOCK = ["clock"]
#: The path of the seats' list: a change there replaces every seat's entry.
_SEATS = ["seats"]
_path = itemgetter(0)
_OWN_ENTRY_KEYS = frozenset(OWN_ENTRY_KEYS)
#: The fields of a seat's part built from one of its `own_facts` each (by its index there), in
#: the order of `SEAT_KEYS`; the others are the seat, the message, the stack and the prompt.
_FIELD_FACTS = ((1, "hand"), (2, "identity"), (3, "character_choices"), (4, "task"))

_pack = msgpack.Packer(use_bin_type=True, autoreset=True)
#: A patch body is a map of `type`, `changes` and `events` (the schema's order, as `P.patch`
#: builds it): its bytes are these, with each array's header and members spliced in.
_PATCH_HEAD = b"\x83" + _pack.pack("type") + _pack.pack("patch") + _pack.pack("changes")
_EVENTS_KEY = _pack.pack("events")


@dataclass(slots=True)
class _Kept:
    """A seat's part as built from `facts` (its prompt with `deadline`), next to the public view
    `public`; never changed once made. Next to a later public view the part is laid anew
    (`laid`): its message, stack and own entry are the public view's where the seat sees no more."""

    facts: tuple[object, ...]
    deadline: float | None
    part: SeatPart
    public: dict[str, Any]

    def laid(self, public: dict[str, Any]) -> SeatPart:
        """The part next to `public`, a public view of a moment at which `facts` held."""
        return self.part if public is self.public else seat_part_again(self.part, self.facts, public)


@dataclass(slots=True)
class Held:
    """The view a connection holds, as what it was built from: the public view, the seat's part
    (`_Kept`; None for a spectator) and the clock it was sent (older than the public view's when
    the connection was last sent nothing because only the clock moved)."""

    public: dict[str, Any]
    kept: _Kept | None
    clock: Any


#: Which public changes a seat's patch leaves out: those of the message if the seat sees it (now
#: or in the view it holds) as the public does not, the stack's likewise, and the changes in its
#: own entry under the keys it sees otherwise (identity, character), or every change in its own
#: entry when its part's entry is diffed instead; by the seat's index, -1 when there are none.
#: None for a spectator, who is sent them all.
_SkipKey = tuple[bool, bool, int, bool] | None


class _Shared:
    """The changes from an earlier public view to this flush's, the clock apart; each packed once,
    and sorted by what a seat's patch may have to leave out of them (its own values instead)."""

    __slots__ = ("changes", "packed", "seat_keys", "message", "stack", "entries", "own_entries",
                 "whole_entries", "_spliced")

    def __init__(self, changes: list[list[Any]]) -> None:
        self.changes = changes
        self.packed = [_pack.pack(change) for change in changes]
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
        #: Per `_SkipKey`: how many changes a patch takes, and those packed, joined.
        self._spliced: dict[_SkipKey, tuple[int, bytes]] = {}
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

    def skip_key(self, seat: int, message: bool, stack: bool, whole_entry: bool) -> _SkipKey:
        """The `_SkipKey` of `seat`'s patch: leaving out the message's changes, the stack's, and
        those of its whole entry (else those under the keys it sees otherwise; `FanOut._patch`
        makes this key itself for a kept part)."""
        entry = (self.entries if whole_entry else self.own_entries).get(seat)
        return message, stack, -1 if entry is None else seat, whole_entry

    def skipped(self, key: _SkipKey) -> list[int]:
        """The indexes of the changes a patch with `key` leaves out."""
        if key is None:
            return []
        message, stack, seat, whole_entry = key
        return [*self.seat_keys, *(self.message if message else ()), *(self.stack if stack else ()),
                *(self.entries if whole_entry else self.own_entries).get(seat, ())]

    def spliced(self, key: _SkipKey) -> tuple[int, bytes]:
        """How many of these changes a patch with `key` takes, and those packed, joined: once per
        key, for every seat alike."""
        found = self._spliced.get(key)
        if found is None:
            left = set(self.skipped(key))
            packed = self.packed if not left else [c for i, c in enumerate(self.packed) if i not in left]
            found = self._spliced[key] = (len(packed), b"".join(packed))
        return found


#: A seat's events when there are none new, and those packed.
_NO_EVENTS: tuple[list[dict[str, object]], bytes] = ([], _pack.pack([]))
#: A seat's own changes when its part is the one it holds (never appended to).
_NO_CHANGES: list[list[Any]] = []


class _Flush:
    """One moment's public view, annotated, and its changes from each earlier public view that a
    connection holds, found once: as a rule the last flush's, which every connection shares.
    Also the packed clock change, each prompt's deadline, each distinct projection of the new
    events and each frame of a kept part, each built once."""

    def __init__(self, game: Game, public: dict[str, Any], deadlines: dict[int, float],
                 own: list[tuple[object, ...]] | None) -> None:
        self.game = game
        self.public = public
        #: Each seat's `own_facts` at this moment (`table_facts`); None for a snapshot, which
        #: finds them afresh.
        self.own = own
        self.clock = public["clock"]
        self.length = len(game.events)
        self.deadlines = deadlines
        self.packed_clock = _pack.pack([CLOCK, self.clock])
        self.found: dict[int, tuple[dict[str, Any], _Shared | None]] = {}
        self._events: dict[tuple[int, tuple[bool, ...]], tuple[list[dict[str, object]], bytes]] = {}
        #: Per first event, when none of the new events has a secret part: their projection, every seat's.
        self.plain: dict[int, tuple[list[dict[str, object]], bytes]] = {}
        #: Per first event: the new events with a secret part (the others show every seat alike).
        self._secret: dict[int, list[Event]] = {}
        #: Frames of kept parts: (id of the changes, the skip key, clock moved, id of the events' bytes) -> frame.
        self.frames: dict[tuple[int, _SkipKey, bool, int], bytes] = {}

    def shared_changes(self, old: dict[str, Any]) -> _Shared | None:
        """The changes from `old` to this public view but the clock's; None if a full view is
        the better frame."""
        found = self.found.get(id(old))
        if found is None:
            changes = P.diff_view(old, self.public, likely_differ=True)
            shared = None
            if changes is not None:
                clock = [CLOCK, self.clock]  # the one change under the clock, if it moved
                if clock in changes:
                    changes.remove(clock)
                # The seats replaced whole: no seat's own entry could stay.
                if _SEATS not in map(_path, changes):
                    shared = _Shared(changes)
            found = self.found[id(old)] = (old, shared)  # `old` kept, so its id stays its own
        return found[1]

    def events_for(self, seat: int | None, since: int) -> tuple[list[dict[str, object]], bytes]:
        """`engine.events_for(game, seat, since)` and its packed bytes: built once for all the
        seats whose projections of those events are alike (`Event.shows_secret`, all that a
        projection reads of the seat), the same objects for each of them."""
        if since >= self.length:
            return _NO_EVENTS
        secret = self._secret.get(since)
        if secret is None:
            secret = self._secret[since] = [e for e in self.game.events[since:] if e.secret]
        if not secret:  # every seat sees these events alike
            events = events_for(self.game, seat, since)
            plain = self.plain[since] = (events, _pack.pack(events))
            return plain
        key = (since, tuple([e.shows_secret(seat) for e in secret]))
        found = self._events.get(key)
        if found is None:
            events = events_for(self.game, seat, since)
            found = self._events[key] = (events, _pack.pack(events))
        return found


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
        self._entries: dict[int, tuple[tuple[object, ...], tuple[bool, bool | str, bool], dict[str, Any]]] = {}
        self._parts: dict[int, _Kept] = {}
        #: The last flush's `table_facts` and public view of the kept game, with its stamp then.
        self._facts: tuple[int, list[tuple[object, ...]], list[tuple[object, ...]], dict[str, Any]] | None = None

    def send(self, game: Game, timers: dict[str, float], replay: FrameLog | None = None,
             auto: list[int] | None = None) -> None:
        """Each connection's frames, in one write per connection; `replay`, a table's replay
        frames (with a journal), takes every seat's from the same facts (`auto`: the seats on 托管).

        The public view is built, annotated and diffed once for the whole flush (`_Flush`); per
        connection only its seat's part. Each connection is written as soon as its frames are
        built: with two cores, the seats woken first decode on the other core while the server
        builds the rest (measured: holding every write back until all frames were built was slower).
        """
        sessions = list(self.seats.sessions)
        self._flush = flush = self._new_flush(game, timers)
        if replay is not None:
            replay.take(game, auto, flush.own)
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
        kept = None
        if seat is not None:
            own = flush.own
            facts = own[seat] if own is not None else own_facts(game, seat)
            prompt_id: Any = facts[5]
            if prompt_id is None:
                deadline = None
            else:
                deadline = flush.deadlines.get(prompt_id)
                if deadline is None:
                    deadline = self.timing.deadline(prompt_id)
            kept = self._parts.get(seat)
            if kept is None or kept.deadline != deadline or kept.facts != facts:
                kept = self._new_part(game, seat, flush, facts, deadline, kept)
        since = session.since
        if since >= flush.length:
            events, packed_events = _NO_EVENTS
        else:
            events, packed_events = flush.plain.get(since) or flush.events_for(seat, since)
        session.since = flush.length
        held = session.base
        if held is not None and len(events) <= EVENTS_PER_FRAME:
            spliced = self._patch(session, flush, held, kept, events, packed_events)
            if spliced is not None:
                return spliced
        session.base = Held(flush.public, kept, flush.clock)
        part = seat_part(game, None, flush.public) if kept is None else kept.laid(flush.public)
        v = merge(flush.public, part)
        chunks = [events[i : i + EVENTS_PER_FRAME] for i in range(0, len(events), EVENTS_PER_FRAME)] or [[]]
        return [self.encode(session, P.update(v, chunk)) for chunk in chunks]

    def snapshot(self, game: Game, timers: dict[str, float], seat: int | None) -> dict[str, Any]:
        """The whole view `seat` would be sent now, annotated (what a patched client view must
        equal), built afresh: nothing kept from earlier flushes."""
        flush = self._new_flush(game, timers, keep=False)
        part = seat_part(game, None, flush.public)
        if seat is not None:
            facts = own_facts(game, seat)
            prompt_id: Any = facts[5]
            deadline = None if prompt_id is None else self.timing.deadline(prompt_id)
            part = self._new_part(game, seat, flush, facts, deadline, None, keep=False).part
        return merge(flush.public, part)

    def _patch(self, session: Session, flush: _Flush, held: Held, kept: _Kept | None,
               events: list[dict[str, object]], packed_events: bytes) -> list[bytes] | None:
        """The `patch` from the view `held` to this one ([] when only the clock moved: then the
        connection keeps its clock and takes this view as its base); None when a full view is the
        better frame.

        A patch is the public changes, less those a seat sees otherwise than a spectator (its own
        values, its own entry's identity and character), plus the changes of those: none when its
        part is the one it holds (`_Kept`, built once from the same facts and deadline), and then
        the patch is spliced once per flush for every seat alike (`_Shared.spliced`)."""
        found = flush.found.get(id(held.public))
        shared = flush.shared_changes(held.public) if found is None else found[1]
        if shared is None:
            return None
        own: list[list[Any]] = _NO_CHANGES
        key: _SkipKey = None
        if kept is not None:
            old = held.kept
            if old is None:
                return None
            seat = kept.part.seat
            if old is kept and seat not in shared.whole_entries:
                facts = kept.facts
                key = (facts[6] is not None, facts[7] is not None, seat if seat in shared.own_entries else -1, False)
            else:
                diffed = self._own_changes(flush, held, old, kept, shared)
                if diffed is None:
                    return None
                key, own = diffed
        spliced = shared._spliced.get(key)
        count, body = shared.spliced(key) if spliced is None else spliced
        clock = flush.clock
        clock_moved = held.clock != clock
        if own:
            count += len(own)
        if not count and not events:
            held.public, held.kept = flush.public, kept
            return []  # nothing but the clock moved, if that: the connection keeps its clock
        count += clock_moved
        if count > P.MAX_PATCH_CHANGES:
            return None
        held.public, held.kept = flush.public, kept
        held.clock = clock
        if session.conn.check_outbound:
            left = set(shared.skipped(key))
            changes = [c for i, c in enumerate(shared.changes) if i not in left] + own
            if clock_moved:
                changes.append([CLOCK, flush.clock])
            return [self.encode(session, P.patch(changes, events))]
        if own:
            return [self._frame(count, b"".join((body, *map(_pack.pack, own))), clock_moved, flush, packed_events)]
        frame_key = (id(shared), key, clock_moved, id(packed_events))
        frame = flush.frames.get(frame_key)
        if frame is None:
            frame = flush.frames[frame_key] = self._frame(count, body, clock_moved, flush, packed_events)
        return [frame]

    @staticmethod
    def _own_changes(flush: _Flush, held: Held, old: _Kept, kept: _Kept, shared: _Shared,
                     ) -> tuple[_SkipKey, list[list[Any]]] | None:
        """For a seat whose part is not the one it holds (or whose own entry the public changes
        replace whole): which public changes its patch leaves out, and its own part's changes, from
        the part it holds next to the public view it holds to the new one next to this flush's;
        None when a full view is the better frame. The message and stack, where the seat saw and
        sees them as the public does, change as the public view's do."""
        seat, facts, known = kept.part.seat, kept.facts, old.facts
        assert seat is not None
        public_message, public_stack = facts[6] is None and known[6] is None, facts[7] is None and known[7] is None
        own: list[list[Any]] = []
        if kept.part is not old.part:
            before: dict[str, Any] = old.part.fields
            after: dict[str, Any] = kept.part.fields
            # `seat_part` builds each of these from its own facts alone: where they are equal, so
            # are the fields (the seat never changes, and the prompt goes by its id and deadline).
            if facts[1:5] != known[1:5]:
                for index, name in _FIELD_FACTS:
                    if facts[index] != known[index] and not P.diff_value(before[name], after[name], [name], own):
                        return None
            if not public_message:
                was = held.public["message"] if known[6] is None else before["message"]
                now = flush.public["message"] if facts[6] is None else after["message"]
                if was is not now and not P.diff_value(was, now, ["message"], own):
                    return None
            if not public_stack:
                was = held.public["stack"] if known[7] is None else before["stack"]
                now = flush.public["stack"] if facts[7] is None else after["stack"]
                if was is not now and not P.diff_value(was, now, ["stack"], own):
                    return None
            was, now = before["prompt"], after["prompt"]
            if was is not now:
                if was is None or now is None or was["id"] != now["id"]:
                    own.append([["prompt"], now])  # another prompt: nothing of the last one to keep
                elif not P.diff_value(was, now, ["prompt"], own):
                    return None
        whole_entry = seat in shared.whole_entries or facts[2] != known[2] or facts[4] != known[4]
        if whole_entry:
            was_entry, now_entry = old.laid(held.public).entry, kept.laid(flush.public).entry
            assert was_entry is not None and now_entry is not None
            entry = P.diff_view(was_entry, now_entry, ("seats", seat))
            if entry is None:
                return None
            own += entry
        return shared.skip_key(seat, not public_message, not public_stack, whole_entry), own

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
        own = None
        if not keep:
            public: dict[str, Any] = public_view(game)
            for entry in public["seats"]:
                self._annotate_entry(entry)
        else:
            if game is not self._kept_game:
                self._kept_game = game
                self._entries.clear()
                self._parts.clear()
                self._facts = None
            entries = []
            kept = self._entries
            then = self._facts
            public_then: dict[str, Any] | None = None
            if then is not None and then[0] == game.stamp:
                # Only prompts can have changed since (`Game.stamp`): a pass in a window still open.
                all_entry_facts, own, public_then = then[1], own_facts_again(game, then[2]), then[3]
            else:
                all_entry_facts, own = table_facts(game)
            for index, slot in enumerate(self.seats.slots[: len(game.state.seats)]):
                facts = all_entry_facts[index]
                slot_facts = (slot.online, seat_bot(slot), slot.auto)
                last = kept.get(index)
                if last is not None and last[1] == slot_facts:
                    known = last[0]
                    if known == facts:
                        entries.append(last[2])
                        continue
                    if known[5:] == facts[5:] and known[:4] == facts[:4]:
                        # Only the hand's size moved (a draw, a card played): `seat_entry` shows
                        # it as it is, and all else as the last entry does.
                        entry = {**last[2], "hand_count": facts[4]}
                        kept[index] = (facts, slot_facts, entry)
                        entries.append(entry)
                        continue
                entry = seat_entry(game, facts)
                entry["online"], entry["bot"], entry["auto"] = slot_facts
                kept[index] = (facts, slot_facts, entry)
                entries.append(entry)
            public = public_view(game, entries) if public_then is None else public_view_again(game, public_then, entries)
            self._facts = (game.stamp, all_entry_facts, own, public)
        public["table"] = self.table
        deadlines = self.timing.show_deadlines(public["waiting"])
        public["timers"] = dict(timers)
        public["clock"] = self.timing.view_clock()
        public["paused"] = self.timing.paused_by
        public["fast_forward"] = self.standins.hurry(game, self.seats.slots, self.seats.sessions)
        return _Flush(game, public, deadlines, own)

    def _annotate_entry(self, entry: dict[str, Any]) -> None:
        slot = self.seats.slots[entry["index"]]
        entry["online"] = slot.online
        entry["bot"] = seat_bot(slot)
        entry["auto"] = slot.auto

    def _new_part(self, game: Game, seat: int, flush: _Flush, facts: tuple[object, ...], deadline: float | None,
                  last: _Kept | None, keep: bool = True) -> _Kept:
        """`engine.view.seat_part` from `facts` (`own_facts`), annotated: the seat's own entry is
        the public one, annotated, with the seat's own identity and character; its prompt gains
        its `deadline`. With `keep`, it is the seat's part while its facts and deadline stay the
        same (`frames_for`); `last`, the seat's earlier part, lends the objects of equal facts."""
        part = seat_part(game, seat, flush.public, facts, None if last is None else (last.facts, last.part))
        prompt: Any = part.fields["prompt"]
        if prompt is not None:
            prompt["deadline"] = deadline
        made = _Kept(facts, deadline, part, flush.public)
        if keep:
            self._parts[seat] = made
        return made
