"""The fast frame path: shared views, view patches, unchecked outbound packing and its debug check."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from bots import make_bot
from engine import Game, GameConfig, view
from engine.view import views
from net import protocol as P
from net.client import Client, play_as_bot
from net.server import GameServer
from net.table import Session, Table

LONG = {"play": 60.0, "send": 60.0, "response": 60.0, "receive": 60.0, "probe_discard": 60.0}


def test_views_equal_one_view_per_seat_and_share_the_public_part() -> None:
    game = Game.new(GameConfig(players=6, identities="3v3"), 7)
    rng = random.Random(7)
    seats: list[int | None] = [*range(6), None]
    for _ in range(150):
        if game.over:
            break
        together = views(game, seats)
        assert together == {seat: view(game, seat) for seat in seats}
        mine, other, public = together[0]["seats"], together[2]["seats"], together[None]["seats"]
        assert isinstance(mine, list) and isinstance(other, list) and isinstance(public, list)
        assert mine[1] is other[1]  # built once
        assert mine[0] is not public[0]  # a seat's own entry is its own
        prompt = rng.choice(game.pending())
        game.choose(prompt.seat, prompt.id, rng.choice(prompt.options).id)


def test_a_patch_turns_the_last_view_into_the_next_and_leaves_the_old_one_alone() -> None:
    game = Game.new(GameConfig(players=6, identities="3v3"), 11)
    rng = random.Random(11)
    last: dict[int | None, dict[str, Any]] = {}
    patched = 0
    for _ in range(200):
        if game.over:
            break
        for seat, v in views(game, [*range(6), None]).items():
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


def test_a_shared_memo_gives_every_seat_the_same_changes_and_reuses_shared_ones() -> None:
    """One memo per fan-out: each seat's changes equal its own diff, and a change to a part the
    views share (another seat's public entry, the waiting list) is the very same list for all."""
    game = Game.new(GameConfig(players=6, identities="3v3"), 13)
    rng = random.Random(13)
    seats: list[int | None] = [*range(6), None]
    last = views(game, seats)
    reused = 0
    for _ in range(150):
        if game.over:
            break
        prompt = rng.choice(game.pending())
        game.choose(prompt.seat, prompt.id, rng.choice(prompt.options).id)
        now = views(game, seats)
        memo: dict[Any, Any] = {}
        found = {seat: P.diff_view(last[seat], now[seat], memo) for seat in seats}
        for seat in seats:
            assert found[seat] == P.diff_view(last[seat], now[seat])
        ids = [id(change) for changes in found.values() if changes for change in changes]
        reused += len(ids) - len(set(ids))
        last = now
    assert reused > 100


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


class RecordingTable(Table):
    """A real table that also keeps every game-state frame it built, as built."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.built: list[dict[str, Any]] = []

    def frames_for(self, session: Session) -> list[dict[str, Any]]:
        frames = super().frames_for(session)
        self.built += frames
        return frames


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
        assert {frame["type"] for frame in table.built} == {"lobby", "update", "patch"}
        for frame in table.built:
            assert P.validate_server_message(P.decode(P.encode(frame))) == frame
        patches = [n for n, f in zip(table.frame_sizes, table.built, strict=True) if f["type"] == "patch"]
        updates = [n for n, f in zip(table.frame_sizes, table.built, strict=True) if f["type"] == "update"]
        assert len(patches) > len(updates) and sum(patches) / len(patches) < sum(updates) / len(updates)
        # What each client rebuilt from patches is what a fresh full view says now.
        for client in [*clients, spectator]:
            full = view(game, client.seat)
            table._annotate(full, table.clock())  # no prompts are open: no deadlines differ
            assert client.view == full
        for client in [*clients, spectator]:
            await client.close()
    finally:
        await server.close()


async def test_a_choice_reaching_an_idle_table_is_applied_in_the_connections_callback(tmp_path: Any) -> None:
    """No task switch between a choice's bytes and the table: posted to a parked table, it is
    applied and its frames are sent before `post` returns; the journal is still fsynced after."""
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
            while table.game is None or not table._idle:
                await asyncio.sleep(0.01)
        game = table.game
        prompt = game.pending()[0]
        session = next(s for s in table.sessions if s.seat == prompt.seat)
        synced: list[int] = []
        journal = table.journal
        assert journal is not None
        original_sync = journal.sync

        def sync() -> None:
            synced.append(len(game.events))
            original_sync()

        journal.sync = sync  # type: ignore[method-assign]
        before = len(game.events)
        table.post(("choose", session, {"prompt_id": prompt.id, "option": prompt.default}))
        assert len(game.events) > before and session.since == len(game.events)  # applied and sent
        assert not synced  # the fsync is the task's, after the frames
        async with asyncio.timeout(10):
            while not synced:
                await asyncio.sleep(0.01)
            for client in clients:  # every seat gets the new state
                while client.view is None or client.view["log_length"] != len(game.events):
                    await client.recv()
        for client in clients:
            await client.close()
    finally:
        await server.close()
