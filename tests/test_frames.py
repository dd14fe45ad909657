"""The fast frame path: shared views, view patches, unchecked outbound packing and its debug check."""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import itertools
import random
import threading
from typing import Any

import msgpack
import pytest

from bots import make_bot
from engine import Game, GameConfig, events_for, view
from engine.prompts import RESPONSE
from engine.state import CHARACTER_PICK
from engine.view import (
    SEAT_KEYS,
    entry_facts,
    merge,
    own_facts,
    own_facts_again,
    public_view,
    public_view_again,
    seat_part,
    table_facts,
)
from net import protocol as P
from net.client import Client, play_as_bot
from net.fanout import FanOut
from net.server import GameServer
from net.table import SeatSlot, Session, Table

LONG = {"play": 60.0, "send": 60.0, "response": 60.0, "receive": 60.0, "probe_discard": 60.0}


def test_the_public_view_is_what_every_seat_shares_and_a_spectator_sees() -> None:
    game = Game.new(GameConfig(players=6, identities="3v3"), 7)
    rng = random.Random(7)
    for _ in range(150):
        if game.over:
            break
        public = public_view(game)
        assert view(game, None) == public
        for seat in range(6):
            mine = view(game, seat)
            part = seat_part(game, seat, public)
            assert mine == merge(public, part)
            # Outside the seat keys and the seat's own entry, a seat sees what everyone sees.
            others = {k: v for k, v in mine.items() if k not in SEAT_KEYS}
            assert isinstance(others["seats"], list)
            others["seats"] = [e for i, e in enumerate(others["seats"]) if i != seat]
            assert others == {
                k: [e for i, e in enumerate(v) if i != seat] if k == "seats" else v  # type: ignore[attr-defined]
                for k, v in public.items() if k not in SEAT_KEYS
            }
        prompt = rng.choice(game.pending())
        game.choose(prompt.seat, prompt.id, rng.choice(prompt.options).id)


@pytest.mark.parametrize(("players", "identities", "characters", "seed", "views", "pin"), [
    # Re-pinned when decoy offers and the turn windows came (a different game, not a different projection).
    # Re-pinned when the view gained `ending` (nil until the game is over): with it removed, the
    # views hash to the old pins e4a164ec4639ce65 and 9b56ab7cef373585.
    # Re-pinned when stack items gained `cancelled` (issue 16): without it the views hash to the
    # previous pins b0fa74b7582540c8 and 2f683ca30f9fa01a.
    # Re-pinned when 攻守兼备, 联动, 风度 and 搜取 became forced (rules3: a different game).
    # Re-pinned when a 识破'd card left the stack at once and 锁定/调虎离山 could aim at a seat already
    # locked/lured (rules5: a different game; stack items lost `cancelled`, never true any more).
    (9, "default", True, 4, 12410, "1b6aa0ceabf8e2cc"),
    (6, "3v3", False, 5, 2842, "a5f9f7192745a1c4"),
])
def test_every_view_of_a_whole_game_is_pinned(players: int, identities: str, characters: bool, seed: int,
                                             views: int, pin: str) -> None:
    """The bytes of every seat's and the spectator's view after every decision: pinned from the
    projection before it was split into the public view and each seat's part, so a faster
    projection must stay the same projection. (Re-pinned when a rule changed the game itself:
    issue 11: windows applying their answers in 顺位, the death procedure, cards in limbo.)"""
    game = Game.new(GameConfig(players=players, identities=identities, characters=characters), seed)
    rng = random.Random(seed)
    digest = hashlib.sha256()
    count = 0
    while not game.over:
        for seat in [*range(players), None]:
            digest.update(msgpack.packb(view(game, seat)))
            count += 1
        prompt = rng.choice(game.pending())
        game.choose(prompt.seat, prompt.id, rng.choice(prompt.options).id)
    assert (count, digest.hexdigest()[:16]) == (views, pin)


def test_a_patch_turns_the_last_view_into_the_next_and_leaves_the_old_one_alone() -> None:
    game = Game.new(GameConfig(players=6, identities="3v3"), 11)
    rng = random.Random(11)
    last: dict[int | None, dict[str, Any]] = {}
    patched = 0
    for _ in range(200):
        if game.over:
            break
        for seat in [*range(6), None]:
            v = view(game, seat)
            if seat in last:
                before = P.decode(P.encode(last[seat]))
                changes = P.diff_view(last[seat], v)
                if changes is not None:
                    # Over the wire and back, as a client gets it.
                    wire = P.decode(P.encode(P.patch(changes, [])))
                    assert P.apply_patch(before, wire["changes"]) == v
                    assert before == P.decode(P.encode(last[seat])), "the old view must not change"
                    patched += 1
            last[seat] = v
        prompt = rng.choice(game.pending())
        game.choose(prompt.seat, prompt.id, rng.choice(prompt.options).id)
    assert patched > 500


@pytest.mark.parametrize(("players", "identities", "characters", "seeds"), [
    (9, "default", True, range(1, 7)), (6, "3v3", False, range(1, 3)),
])
def test_the_facts_of_a_whole_table_are_each_seats_own(players: int, identities: str, characters: bool,
                                                       seeds: range) -> None:
    """`table_facts`, read once per flush for every seat, is each seat's `entry_facts` and
    `own_facts` at every step: through the character pick, face-down characters, revealed
    identities, a message only some seats have seen and a 试探 on the stack."""
    seen: set[str] = set()
    for seed in seeds:
        game = Game.new(GameConfig(players=players, identities=identities, characters=characters), seed)
        rng = random.Random(seed)
        while not game.over:
            entries, owns = table_facts(game)
            assert entries == [entry_facts(game, seat) for seat in range(players)]
            assert owns == [own_facts(game, seat) for seat in range(players)]
            s = game.state
            face_ups, revealeds = [p.face_up for p in s.seats], [p.revealed for p in s.seats]
            seen |= {name for name, hit in (
                ("pick", s.node == CHARACTER_PICK and any(p.character for p in s.seats)),
                ("face-down", any(p.character and not p.face_up for p in s.seats)),
                ("revealed", any(p.revealed and p.in_game for p in s.seats)),
                ("secret message", any(facts[6] is not None for facts in owns)),
                ("probe", any(facts[7] is not None for facts in owns)),
            ) if hit}
            if characters and s.node != CHARACTER_PICK and len(game.events) % 7 == 0:
                # Every way a character may lie (face-up or down, its seat revealed or not), as
                # random games seldom show a revealed seat's face-down character.
                for seat, (face_up, revealed) in zip(range(players), itertools.cycle(
                        itertools.product((True, False), repeat=2))):
                    s.seats[seat].face_up, s.seats[seat].revealed = face_up, revealed
                assert table_facts(game) == ([entry_facts(game, seat) for seat in range(players)],
                                             [own_facts(game, seat) for seat in range(players)])
                for seat, p in enumerate(s.seats):
                    p.face_up, p.revealed = face_ups[seat], revealeds[seat]
            prompt = rng.choice(game.pending())
            game.choose(prompt.seat, prompt.id, rng.choice(prompt.options).id)
    assert seen == ({"pick", "face-down", "revealed", "secret message", "probe"} if characters
                    else {"secret message", "probe"})


def _state_but_answers(game: Game) -> list[object]:
    """Everything of a game's state but its prompts, the answers its window has collected and the
    count of decisions, each field as a comparable value (the RNG by its state)."""
    s = game.state
    out: list[object] = [len(game.events), game.over]
    for f in dataclasses.fields(s):
        if f.name == "decisions":
            continue
        value = getattr(s, f.name)
        if f.name == "rng":
            value = value.getstate()
        elif f.name == "window" and value is not None:
            value = dataclasses.replace(value, passed=set(), answers={})
        out.append(value)
    return out


@pytest.mark.parametrize(("players", "identities", "characters", "seeds"), [
    (9, "default", True, range(1, 5)), (6, "3v3", False, range(1, 4)), (5, "default", True, range(5, 8)),
])
def test_what_a_flush_keeps_at_the_same_stamp_is_what_it_would_read_afresh(
        players: int, identities: str, characters: bool, seeds: range) -> None:
    """`Game.stamp` stays put only across choices that change nothing but prompts and a window's
    answers (a pass in a window others still owe), and then what a flush kept from the last one
    (`own_facts_again`, `public_view_again`) equals `table_facts` and `public_view` read afresh,
    at every such moment of whole games, with and without characters."""
    kept = moved = 0
    for seed in seeds:
        game = Game.new(GameConfig(players=players, identities=identities, characters=characters), seed)
        rng = random.Random(seed)
        while not game.over:
            stamp, state = game.stamp, _state_but_answers(game)
            entries, owns = table_facts(game)
            public = public_view(game)
            prompt = rng.choice(game.pending())
            game.choose(prompt.seat, prompt.id, rng.choice(prompt.options).id)
            if game.stamp != stamp:
                moved += 1
                continue
            kept += 1
            assert _state_but_answers(game) == state, "the state changed but the stamp did not"
            assert (entries, own_facts_again(game, owns)) == table_facts(game)
            again = public_view_again(game, public, public["seats"])  # type: ignore[arg-type]
            assert again == public_view(game)
            assert all(again[key] is public[key] for key in public if key != "waiting")
    assert kept > 100 and moved > 100


class Sink:
    """A connection that keeps the frames a table writes to it, undecoded."""

    check_outbound = False

    def __init__(self) -> None:
        self.frames: list[bytes] = []

    def send_frame(self, frame: bytes) -> bool:
        self.frames.append(frame)
        return True

    def send(self, msg: dict[str, Any]) -> bool:
        return self.send_frame(P.encode_frame(msg))


@pytest.mark.parametrize(("players", "characters", "seed"), [(9, True, 1), (9, True, 2), (6, False, 3), (5, True, 4)])
def test_every_flush_patches_each_connection_to_exactly_its_snapshot(players: int, characters: bool, seed: int) -> None:
    """The public changes are found once per flush and each seat's part apart; applied in order by
    a client, they give every seat and the spectator exactly the view the table would send whole,
    up to the clock: a connection for which only the clock moved is sent nothing, and gets the
    clock with its next frame, even when the clock stood still since. A pass that leaves its
    response window open reaches the passer alone."""
    time = [0.0]

    async def play() -> tuple[int, int, int]:
        table = Table("t", players=players, characters=characters, seed=seed, timers=LONG,
                      clock=lambda: time[0])
        for n in range(players):
            table.slots.append(SeatSlot(name=f"p{n}", token=f"token{n}"))
        table.seats.reindex()
        table._start_game()
        sinks: dict[int | None, Sink] = {}
        for seat in [*range(players), None]:
            sink = sinks[seat] = Sink()
            session = Session(sink, f"p{seat}", False)  # type: ignore[arg-type]
            session.seat = seat
            if seat is not None:
                table.slots[seat].session = session
            table.sessions.add(session)
        rng = random.Random(seed)
        views: dict[int | None, dict[str, Any]] = {}
        patches = quiet = secret_passes = 0
        game = table.game
        assert game is not None
        sent_events = 0
        for step in itertools.count():
            if step % 3:  # every third flush finds the clock where the last one left it
                time[0] += 0.25
            before = len(game.events)
            held = {seat: len(sink.frames) for seat, sink in sinks.items()}  # a secret pass's frame
            table._send_frames()
            for seat, sink in sinks.items():
                sent = len(sink.frames) > held[seat]
                quiet += not sent
                events: list[dict[str, Any]] = []
                for frame in sink.frames:
                    body = frame[P.HEADER_SIZE:]
                    msg = P.validate_server_message(P.decode(body))
                    # A spliced patch is byte for byte what packing the message whole gives.
                    assert P.encode(msg, check=False) == body
                    events += msg["events"]
                    if msg["type"] == "patch":
                        views[seat] = P.apply_patch(views[seat], msg["changes"])
                        patches += 1
                    else:
                        views[seat] = msg["view"]
                # Each seat's events are its own projection (events shared between seats alike).
                assert events == P.decode(P.encode({"e": events_for(game, seat, sent_events)}))["e"]
                now = table.snapshot(seat)
                if sent:
                    assert views[seat] == now
                else:
                    assert views[seat]["clock"] < now["clock"] or views[seat] == now
                    assert {**views[seat], "clock": 0} == {**now, "clock": 0}
            sent_events = len(game.events)
            if game.over:
                return patches, quiet, secret_passes
            prompt = rng.choice(game.pending())
            option = rng.choice(prompt.options).id
            for sink in sinks.values():
                sink.frames.clear()
            table._apply(prompt.seat, prompt.id, option, "test")
            window = game.state.window
            # A window's own answer (a skill offer asked while its card resolves is no answer to it).
            if len(game.events) == before and window is not None and prompt.id >= window.first_prompt \
                    and prompt.kind == RESPONSE and game.prompts.get(prompt.seat) is None and game.prompts:
                table._send_frames()
                sent = {seat for seat, sink in sinks.items() if sink.frames}
                assert sent == {prompt.seat}, f"a pass reached {sent}"
                secret_passes += 1

    patches, quiet, secret_passes = asyncio.run(play())
    assert patches > 300 and quiet > 50 and secret_passes > 10


def test_diff_falls_back_to_a_full_view() -> None:
    assert P.diff_view({"a": 1}, {"a": 1, "b": 2}) is None
    many = {str(i): i for i in range(P.MAX_PATCH_CHANGES + 1)}
    assert P.diff_view(many, {k: v + 1 for k, v in many.items()}) is None
    assert P.diff_view({"a": [1, 2]}, {"a": [1, 2, 3]}) == [[["a"], [1, 2, 3]]]
    assert P.diff_view({"a": {"b": [1, {"c": 2}]}}, {"a": {"b": [1, {"c": 3}]}}) == [[["a", "b", 1, "c"], 3]]


@pytest.mark.parametrize(
    "changes",
    [
        [[["missing"], 1]],
        [[["seats", 5, "hand_count"], 1]],
        [[["seats", "0"], 1]],
        [[["pile", "x"], 1]],
        [[[], 1]],
        [[["pile"]]],
        ["pile"],
        [[["seats", 0, "a", "b", "c", "d", "e", "f", "g"], 1]],
    ],
)
def test_a_patch_naming_nothing_is_refused(changes: list[Any]) -> None:
    base = {"pile": 3, "seats": [{"hand_count": 2}]}
    with pytest.raises(P.ProtocolError) as info:
        P.apply_patch(base, changes)
    assert info.value.code == P.BAD_MESSAGE
    assert base == {"pile": 3, "seats": [{"hand_count": 2}]}


def test_trusted_encoding_skips_the_walk_and_checked_encoding_does_not() -> None:
    bad = {"type": "update", "view": {"x": float("nan")}, "events": []}
    body = P.encode(bad, check=False)  # msgpack packs NaN; only the walk refuses it...
    with pytest.raises(P.ProtocolError):
        P.encode(bad)
    with pytest.raises(P.ProtocolError):  # ...and every receiver does
        P.decode(body)


class RecordingFanOut(FanOut):
    """A real fan-out that also keeps every frame it wrote, decoded."""

    def __init__(self, table: Table) -> None:
        super().__init__(table.name, table.seats, table.timing, table.standins)
        self.built: list[dict[str, Any]] = []

    def write(self, session: Session, frames: list[bytes]) -> None:
        self.built += [P.decode(frame[P.HEADER_SIZE:]) for frame in frames]
        super().write(session, frames)


class RecordingTable(Table):
    """A real table that also keeps every frame it built, as built (the lobby's and the game's)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fanout = self.recorder = RecordingFanOut(self)


async def test_a_whole_game_with_outbound_checks_on_and_patched_client_views() -> None:
    table = RecordingTable("t", players=4, identities="novice", timers=LONG, auto_start=True, seed=5, bot_delay=0)
    table.frame_sizes = []
    server = GameServer("127.0.0.1", 0, rate=5000.0, burst=5000, check_outbound=True)
    server.add_table(table)
    await server.start()
    try:
        spectator = Client()
        await spectator.connect("127.0.0.1", server.port, "watcher", spectate=True)
        clients = []
        for n in range(4):
            client = Client()
            await client.connect("127.0.0.1", server.port, f"p{n}")
            clients.append(client)
        assert all(conn.check_outbound for conn in server._conns)
        async with asyncio.timeout(60):
            await asyncio.gather(*(
                play_as_bot(c, lambda s: make_bot("random", s, s), until_over=True) for c in clients
            ))
            while spectator.view is None or not spectator.view["over"]:
                await spectator.recv()
        game = table.game
        assert game is not None and game.over
        assert {frame["type"] for frame in table.recorder.built} == {"lobby", "update", "patch"}
        for frame in table.recorder.built:
            assert P.validate_server_message(P.decode(P.encode(frame))) == frame
        patches = [n for n, f in zip(table.frame_sizes, table.recorder.built, strict=True) if f["type"] == "patch"]
        updates = [n for n, f in zip(table.frame_sizes, table.recorder.built, strict=True) if f["type"] == "update"]
        assert len(patches) > len(updates) and sum(patches) / len(patches) < sum(updates) / len(updates)
        # What each client rebuilt from patches is what a fresh full view says now.
        for client in [*clients, spectator]:
            now = table.snapshot(client.seat)
            assert client.view is not None and client.view["clock"] <= now["clock"]
            assert {**client.view, "clock": 0} == {**now, "clock": 0}  # only the clock moved on
        for client in [*clients, spectator]:
            await client.close()
    finally:
        await server.close()


async def test_a_choice_reaching_an_idle_table_is_applied_in_the_connections_callback(tmp_path: Any) -> None:
    """No task switch between a choice's bytes and the table: posted to a parked table (its last
    batch's fsync done), it is applied and its frames are sent before `post` returns; the journal is still fsynced after them."""
    table = Table("t", players=4, identities="novice", timers=LONG, auto_start=True, seed=3, data_dir=tmp_path)
    server = GameServer("127.0.0.1", 0)
    server.add_table(table)
    await server.start()
    try:
        clients = []
        for n in range(4):
            client = Client()
            await client.connect("127.0.0.1", server.port, f"p{n}")
            clients.append(client)
        async with asyncio.timeout(10):  # parked, the last batch's fsync done
            while table.game is None or not table._idle or table._syncing is not None and not table._syncing.done():
                await asyncio.sleep(0.01)
        game = table.game
        prompt = game.pending()[0]
        session = next(s for s in table.sessions if s.seat == prompt.seat)
        synced: list[int] = []
        journal = table.journal
        assert journal is not None
        original_sync = journal.sync

        def sync() -> None:  # in the fsync thread: how far the frames had gone when it began
            synced.append(session.since)
            original_sync()

        journal.sync = sync  # type: ignore[method-assign]
        before = len(game.events)
        table.post(("choose", session, {"prompt_id": prompt.id, "option": prompt.default}))
        assert len(game.events) > before and session.since == len(game.events)  # applied and sent
        async with asyncio.timeout(10):
            while not synced:
                await asyncio.sleep(0.01)
        assert synced[0] == len(game.events)  # the fsync came after the frames
        async with asyncio.timeout(10):
            for client in clients:  # every seat gets the new state
                while client.view is None or client.view["log_length"] != len(game.events):
                    await client.recv()
        for client in clients:
            await client.close()
    finally:
        await server.close()


async def test_a_batch_waits_for_the_last_batchs_fsync(tmp_path: Any) -> None:
    """The fsync runs in a thread after the frames (nothing wakes the table when it is done), but
    the next choice is applied only once it has returned: a power cut loses at most one batch."""
    table = Table("t", players=4, identities="novice", timers=LONG, auto_start=True, seed=3, data_dir=tmp_path)
    server = GameServer("127.0.0.1", 0)
    server.add_table(table)
    await server.start()
    try:
        clients = []
        for n in range(4):
            client = Client()
            await client.connect("127.0.0.1", server.port, f"p{n}")
            clients.append(client)
        async with asyncio.timeout(10):  # parked, the last batch's fsync done
            while table.game is None or not table._idle or table._syncing is not None and not table._syncing.done():
                await asyncio.sleep(0.01)
        game = table.game
        journal = table.journal
        assert journal is not None
        original_sync = journal.sync
        release = threading.Event()
        syncs: list[int] = []

        def sync() -> None:
            syncs.append(len(game.events))
            release.wait(10)
            original_sync()

        journal.sync = sync  # type: ignore[method-assign]

        def choose() -> int:
            prompt = game.pending()[0]
            session = next(s for s in table.sessions if s.seat == prompt.seat)
            table.post(("choose", session, {"prompt_id": prompt.id, "option": prompt.default}))
            return prompt.id

        def open_prompt(prompt_id: int) -> bool:
            return any(p.id == prompt_id for p in game.prompts.values())

        first = choose()
        applied = len(game.events)
        assert not open_prompt(first)  # applied at once, its fsync now held in its thread
        async with asyncio.timeout(10):
            while not syncs:
                await asyncio.sleep(0.01)
        second = choose()
        await asyncio.sleep(0.2)
        assert len(game.events) == applied and open_prompt(second)  # waits for the fsync
        release.set()
        async with asyncio.timeout(10):
            while open_prompt(second):
                await asyncio.sleep(0.01)
            while len(syncs) < 2:
                await asyncio.sleep(0.01)
        assert syncs == [applied, len(game.events)]
        for client in clients:
            await client.close()
    finally:
        release.set()
        await server.close()


async def test_a_batch_that_journals_nothing_fsyncs_nothing(tmp_path: Any) -> None:
    """A seat leaving mid-game changes every view (it shows offline) but no journal record: its
    frames go out and no fsync follows; a choice's batch is fsynced after its frames."""
    table = Table("t", players=4, identities="novice", timers=LONG, auto_start=True, seed=3, data_dir=tmp_path)
    server = GameServer("127.0.0.1", 0)
    server.add_table(table)
    await server.start()
    try:
        clients = []
        for n in range(4):
            client = Client()
            await client.connect("127.0.0.1", server.port, f"p{n}")
            clients.append(client)
        async with asyncio.timeout(10):
            while table.game is None or not table._idle or table._syncing is not None and not table._syncing.done():
                await asyncio.sleep(0.01)
        game = table.game
        journal = table.journal
        assert journal is not None
        original_sync = journal.sync
        synced: list[int] = []

        def sync() -> None:
            synced.append(len(game.events))
            original_sync()

        journal.sync = sync  # type: ignore[method-assign]
        prompt = game.pending()[0]
        leaving = next(c for c in clients if c.seat != prompt.seat)
        await leaving.close()
        others = [c for c in clients if c is not leaving]
        async with asyncio.timeout(10):
            for client in others:  # every seat still there sees it offline
                while client.view is None or client.view["seats"][leaving.seat]["online"]:
                    await client.recv()
        await asyncio.sleep(0.1)
        assert synced == []
        session = next(s for s in table.sessions if s.seat == prompt.seat)
        table.post(("choose", session, {"prompt_id": prompt.id, "option": prompt.default}))
        async with asyncio.timeout(10):
            while not synced:
                await asyncio.sleep(0.01)
        assert synced == [len(game.events)]
        for client in others:
            await client.close()
    finally:
        await server.close()


def test_a_patched_view_is_checked_through_what_the_patch_put_in_as_wholly() -> None:
    """`check_patched` judges a patched view as `check_view` does, walking only the changed values:
    over the patches of a real game, and the same patches with each value swapped for a wrong one."""
    game = Game.new(GameConfig(players=9, identities="default", characters=True), 12)
    rng = random.Random(12)
    wrong: list[Any] = ["x", 7, None, [1], {"k": "v"}, True, -1.5]
    last: dict[int | None, dict[str, Any]] = {}
    checked = refused = 0
    for _ in range(250):
        if game.over:
            break
        for seat in (0, 4, None):
            v = P.decode(P.encode(view(game, seat)))
            changes = P.diff_view(last[seat], v) if seat in last else None
            last[seat] = v
            if not changes:
                continue
            before = P.decode(P.encode({"v": v}))["v"]
            P.check_patched(P.apply_patch(before, changes), changes)
            checked += 1
            for i, (path, _) in enumerate(changes):
                bad = [list(c) for c in changes]
                bad[i] = [path, rng.choice(wrong)]
                patched = P.apply_patch(before, bad)
                try:
                    P.check_view(patched)
                    whole = None
                except P.ProtocolError as exc:
                    whole = exc.code
                try:
                    P.check_patched(patched, bad)
                    walked = None
                except P.ProtocolError as exc:
                    walked = exc.code
                assert walked == whole, (path, bad[i][1])
                refused += whole is not None
        prompt = rng.choice(game.pending())
        game.choose(prompt.seat, prompt.id, rng.choice(prompt.options).id)
    assert checked > 100 and refused > 100
