"""The game server over real TCP on 127.0.0.1: seats and tokens, choices, timers, reconnect, chat, ops."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bots import make_bot
from engine import Game, events_for
from net import protocol as P
from net.client import Client, ClientError, play_as_bot
from net.journal import read_journal, read_replay
from net.server import GameServer
from net.table import Table

LONG = {"play": 60.0, "send": 60.0, "response": 60.0, "receive": 60.0, "probe_discard": 60.0}


async def started(table: Table, **options: Any) -> GameServer:
    server = GameServer("127.0.0.1", 0, **options)
    server.add_table(table)
    await server.start()
    return server


async def until(client: Client, pred: Callable[[dict[str, Any]], bool], timeout: float = 5.0) -> dict[str, Any]:
    """Read messages until one satisfies `pred`; fail on close or timeout."""
    async with asyncio.timeout(timeout):
        while True:
            msg = await client.recv()
            assert msg is not None, "connection closed while waiting"
            if pred(msg):
                return msg


def is_update(msg: dict[str, Any]) -> bool:
    return msg["type"] == "update"


def has_prompt(msg: dict[str, Any]) -> bool:
    return msg["type"] == "update" and msg["view"]["prompt"] is not None


async def join(port: int, name: str, **kw: Any) -> Client:
    client = Client()
    await client.connect("127.0.0.1", port, name, **kw)
    return client


async def test_seats_get_tokens_and_a_new_connection_reclaims_a_seat_by_token() -> None:
    table = Table("t", players=4, timers=LONG, bot_delay=0, auto_start=True, seed=3)
    server = await started(table)
    try:
        clients = [await join(server.port, f"p{i}") for i in range(4)]
        tokens = [c.token for c in clients]
        assert len(set(tokens)) == 4 and all(t and len(t) >= 16 for t in tokens)
        assert [c.seat for c in clients] == [0, 1, 2, 3]
        first = await until(clients[1], is_update)
        assert first["view"]["seat"] == 1 and len(first["view"]["hand"]) >= 3
        assert all(s["online"] for s in first["view"]["seats"])

        await clients[1].close()
        offline = await until(clients[0], lambda m: is_update(m) and not m["view"]["seats"][1]["online"])
        assert offline["view"]["seats"][1]["online"] is False

        again = Client()
        welcome = await again.connect("127.0.0.1", server.port, "p1-phone", token=tokens[1])
        assert welcome["seat"] == 1 and welcome["token"] == tokens[1]
        snapshot = await until(again, is_update)
        # The snapshot carries the whole log from the deal on, and this seat's hand.
        assert snapshot["events"][0]["seq"] == 0
        assert snapshot["view"]["hand"] == [table.game.face(c) for c in table.game.state.seats[1].hand]
        back = await until(clients[0], lambda m: is_update(m) and m["view"]["seats"][1]["online"])
        assert back["view"]["seats"][1]["online"] is True

        # While that connection is live the token takes nothing (tests/test_fair_connections.py
        # covers the rest); once it is gone, the next one reclaims the seat.
        with pytest.raises(ClientError) as taken:
            await join(server.port, "p1-laptop", token=tokens[1])
        assert taken.value.code == P.SEAT_TAKEN
        await again.close()
        await until(clients[0], lambda m: is_update(m) and not m["view"]["seats"][1]["online"])
        third = await join(server.port, "p1-laptop", token=tokens[1])
        assert third.seat == 1
        await third.close()
        for c in (clients[0], clients[2], clients[3], again):
            await c.close()
    finally:
        await server.close()


async def test_a_seat_cannot_be_taken_without_its_token() -> None:
    table = Table("t", players=4, timers=LONG, bot_delay=0, auto_start=True, seed=5)
    server = await started(table)
    try:
        clients = [await join(server.port, f"p{i}") for i in range(4)]
        with pytest.raises(ClientError) as refused:
            await join(server.port, "thief", token="not-a-token-of-this-table")
        assert refused.value.code == P.AUTH
        with pytest.raises(ClientError) as full:
            await join(server.port, "late")
        assert full.value.code == P.FULL

        # A choice naming another seat's prompt is refused for the sender only; nothing changes.
        owner_msg = None
        for c in clients:
            msg = await until(c, is_update)
            if msg["view"]["prompt"] is not None:
                owner_msg = (c, msg)
        assert owner_msg is not None
        owner, msg = owner_msg
        prompt = msg["view"]["prompt"]
        thief = next(c for c in clients if c is not owner)
        before = table.game.state_hash()
        await thief.choose(prompt["id"], prompt["options"][0]["id"])
        err = await until(thief, lambda m: m["type"] == "error")
        assert err["code"] == P.NOT_YOUR_SEAT and err["ref"] == prompt["id"]
        assert table.game.state_hash() == before
        for c in clients:
            await c.close()
    finally:
        await server.close()


async def test_stale_replayed_and_illegal_choices_get_typed_errors_and_change_nothing() -> None:
    table = Table("t", players=4, timers=LONG, bot_delay=0, seed=11)
    for _ in range(3):
        table.add_bot()
    table.auto_start = True
    server = await started(table)
    try:
        me = await join(server.port, "me")
        msg = await until(me, has_prompt)
        prompt = msg["view"]["prompt"]
        assert 0 < P.time_left(msg["view"], prompt) <= 60
        before = table.game.state_hash()
        await me.choose(prompt["id"], "no-such-option")
        err = await until(me, lambda m: m["type"] == "error")
        assert err["code"] == P.ILLEGAL_OPTION and table.game.state_hash() == before
        await me.choose(prompt["id"] + 1000, prompt["default"])
        err = await until(me, lambda m: m["type"] == "error")
        assert err["code"] == P.STALE_PROMPT and table.game.state_hash() == before

        await me.choose(prompt["id"], prompt["default"])
        await until(me, lambda m: is_update(m) and m["view"]["log_length"] > msg["view"]["log_length"]
                    or (is_update(m) and (m["view"]["prompt"] or {}).get("id") != prompt["id"]))
        await me.choose(prompt["id"], prompt["default"])  # the same reply, replayed
        err = await until(me, lambda m: m["type"] == "error")
        assert err["code"] == P.STALE_PROMPT and err["ref"] == prompt["id"]
        await asyncio.sleep(0.05)
        assert [c for c in table.game.choices if c[:2] == (me.seat, prompt["id"])] == [
            (me.seat, prompt["id"], prompt["default"])
        ], "the replayed reply must not be applied twice"
        await me.close()
    finally:
        await server.close()


async def test_expired_prompts_take_the_engine_default_and_every_countdown_is_public() -> None:
    timers = {k: 0.3 for k in LONG}
    table = Table("t", players=4, timers=timers, bot_delay=0, auto_start=True, seed=2)
    server = await started(table)
    try:
        idle = [await join(server.port, f"idle{i}") for i in range(4)]
        msg = await until(idle[0], lambda m: is_update(m) and m["view"]["waiting"])
        waiting = msg["view"]["waiting"]
        # Both on the millisecond clock of the views: 0.33 - 0.03 is 0.30000000000000004.
        assert all(0 < P.time_left(msg["view"], w) <= 0.3 + 1e-9 for w in waiting)
        open_prompts = {p.id: p for p in table.game.pending()}
        await asyncio.sleep(1.5)
        assert table.timeouts >= 3
        for prompt in open_prompts.values():  # each seat whose prompt ran out is told, itself alone
            client = next(c for c in idle if c.seat == prompt.seat)
            notice = await until(client, lambda m, ref=prompt.id: m["type"] == "error" and m["ref"] == ref)
            assert notice["code"] == P.TIMED_OUT
        applied = {(seat, pid): opt for seat, pid, opt in table.game.choices}
        for pid, prompt in open_prompts.items():
            assert applied[(prompt.seat, pid)] == prompt.default
        for c in idle:
            await c.close()
    finally:
        await server.close()


async def test_dropped_seat_goes_offline_then_a_bot_plays_it_until_the_owner_returns() -> None:
    table = Table(
        "t", players=4, timers=LONG, bot_delay=0.02, offline_timeout=0.2, standin_grace=0.4,
        auto_start=True, seed=9,  # a game long enough for the owner to play again after his return
    )
    table.add_bot()
    table.add_bot()
    server = await started(table)
    try:
        leaver = await join(server.port, "leaver")
        watcher = await join(server.port, "watcher")
        seat = leaver.seat
        assert seat is not None
        watching = asyncio.create_task(
            play_as_bot(watcher, lambda s: make_bot("random", s, 1), delay=0.01)
        )
        await until(leaver, is_update)
        token = leaver.token
        await leaver.close()
        await asyncio.sleep(1.0)
        view = watcher.view
        assert view is not None
        assert view["seats"][seat]["online"] is False
        assert view["seats"][seat]["bot"] is True, "a stand-in bot should play the dropped seat"
        played_for_me = [c for c in table.game.choices if c[0] == seat]
        assert played_for_me, "the stand-in played nothing"

        back = Client()
        welcome = await back.connect("127.0.0.1", server.port, "leaver", token=token)
        assert welcome["seat"] == seat
        snapshot = await until(back, is_update)
        assert snapshot["events"][0]["seq"] == 0 and snapshot["view"]["seat"] == seat
        assert snapshot["view"]["seats"][seat]["online"] is True and snapshot["view"]["seats"][seat]["bot"] is False
        if not snapshot["view"]["over"]:
            # The owner plays again: its prompts now wait for it (long timers), with the time left.
            msg = snapshot if has_prompt(snapshot) else await until(back, has_prompt, timeout=10)
            prompt = msg["view"]["prompt"]
            assert 0 < P.time_left(msg["view"], prompt) <= 60
            assert table.slots[seat].bot is None
            await back.choose(prompt["id"], prompt["default"])
            await until(back, lambda m: is_update(m) and (m["view"]["prompt"] or {}).get("id") != prompt["id"])
            assert table.game.choices[-1][:2] == (seat, prompt["id"]) or any(
                c[:2] == (seat, prompt["id"]) for c in table.game.choices
            )
        watching.cancel()
        await back.close()
        await watcher.close()
    finally:
        await server.close()


async def test_chat_is_relayed_with_the_sender_seat_and_rate_limited() -> None:
    table = Table("t", players=4, timers=LONG)
    server = await started(table)
    try:
        a = await join(server.port, "甲")
        b = await join(server.port, "乙")
        await a.chat("你好")
        line = await until(b, lambda m: m["type"] == "chat")
        assert (line["seat"], line["name"], line["text"]) == (0, "甲", "你好")
        for n in range(8):
            await a.chat(f"spam {n}")
        err = await until(a, lambda m: m["type"] == "error")
        assert err["code"] == P.RATE_LIMITED
        await a.close()
        await b.close()
    finally:
        await server.close()


async def test_host_commands_need_the_host_token(tmp_path: Path) -> None:
    table = Table("t", players=4, timers=LONG, bot_delay=0, data_dir=tmp_path)
    server = await started(table)
    try:
        guest = await join(server.port, "guest")
        await guest.op("add_bot")
        err = await until(guest, lambda m: m["type"] == "error")
        assert err["code"] == P.NOT_HOST

        host = await join(server.port, "host", token=table.host_token)
        assert host.is_host and host.token == table.host_token
        lobby = await until(guest, lambda m: m["type"] == "lobby" and len(m["table"]["seats"]) == 2)
        assert [seat["host"] for seat in lobby["table"]["seats"]] == [False, True]  # everyone sees who hosts
        await host.op("set_characters", characters="yes")
        err = await until(host, lambda m: m["type"] == "error")
        assert err["code"] == P.BAD_MESSAGE and "bool" in err["message"]
        await host.op("set_players", players=6)
        lobby = await until(host, lambda m: m["type"] == "lobby" and m["table"]["players"] == 6)
        assert lobby["table"]["identities"] == "3v3"
        await host.op("set_identities", identities="default")
        err = await until(host, lambda m: m["type"] == "error")
        assert err["code"] == P.BAD_STATE and "neutral" in err["message"]
        await host.op("set_timers", response=5)
        await until(host, lambda m: m["type"] == "lobby" and m["table"]["timers"]["response"] == 5)
        await host.op("add_bot", level="random")
        await until(host, lambda m: m["type"] == "lobby" and len(m["table"]["seats"]) == 3)
        await host.op("kick", seat=guest.seat)
        bye = await until(guest, lambda m: m["type"] == "bye")
        assert "kicked" in bye["reason"]
        await host.op("start")
        msg = await until(host, is_update)
        assert msg["view"]["config"]["players"] == 6
        await host.op("start")
        err = await until(host, lambda m: m["type"] == "error")
        assert err["code"] == P.BAD_STATE
        await host.op("end")
        await until(host, lambda m: m["type"] == "lobby" and m["table"]["phase"] == "lobby")
        await host.close()
    finally:
        await server.close()


async def test_finished_game_leaves_a_journal_and_per_seat_replays_of_that_seat_only(tmp_path: Path) -> None:
    table = Table("t", players=4, bot_delay=0, data_dir=tmp_path, auto_start=True, seed=21)
    for _ in range(3):
        table.add_bot()
    server = await started(table)
    try:
        me = await join(server.port, "me")
        await asyncio.wait_for(play_as_bot(me, lambda s: make_bot("random", s, 4), until_over=True), 20)
        await me.close()
    finally:
        await server.close()
    (journal,) = tmp_path.glob("*.journal")
    contents = read_journal(journal)
    assert contents.end is not None
    game = Game.replay({"config": contents.start["config"], "seed": contents.start["seed"],
                        "choices": [list(c) for c in contents.choices]})
    assert game.over and game.state.winners == contents.end["winners"]
    for seat in range(4):
        replay = read_replay(journal.with_suffix(f".seat{seat}.replay"))
        assert replay["seat"] == seat
        assert replay["events"] == events_for(game, seat, 0)
        dealt = [e for e in replay["events"] if e["kind"] == "dealt"]
        assert sum("cards" in e for e in dealt) == 1, "a replay must hold only its own seat's deal"
    public = read_replay(journal.with_suffix(".public.replay"))
    assert all("cards" not in e for e in public["events"] if e["kind"] == "dealt")


async def test_serve_local_and_remote_bot_command_play_a_whole_game(tmp_path: Path) -> None:
    from fengsheng_tui.commands.host import serve_local

    local = await serve_local(players=4, bots=2, bot_delay=0, data_dir=tmp_path)
    try:
        me = Client()
        welcome = await me.connect("127.0.0.1", local.port, "me", token=local.host_token)
        assert welcome["host"] is True and welcome["seat"] == 2
        remote = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "fengsheng_tui.cli", "bot", "--connect", f"127.0.0.1:{local.port}",
            "--count", "1", "--delay", "0", "--once", stdout=asyncio.subprocess.PIPE,
        )
        await asyncio.wait_for(play_as_bot(me, lambda s: make_bot("random", s, 3), until_over=True), 30)
        out, _ = await asyncio.wait_for(remote.communicate(), 20)
        assert remote.returncode == 0 and b"in seat 4" in out
        assert local.table.game is not None and local.table.game.over
        assert local.table.slots[3].bot_level is None, "seat 3 was a remote client, not a server bot"
        await me.close()
    finally:
        await local.close()


async def test_after_the_end_a_new_joiner_gathers_the_table_for_the_next_game() -> None:
    """A player who left after the game over (his client forgets the token of a finished game) and
    joins again is seated in the lobby of the next game, with the bots, instead of being refused."""
    table = Table("t", players=4, bot_delay=0, seed=21)
    for _ in range(3):
        table.add_bot()
    server = await started(table)
    try:
        me = await join(server.port, "me")
        await me.ready()
        await asyncio.wait_for(play_as_bot(me, lambda s: make_bot("random", s, 4), until_over=True), 20)
        await me.close()
        again = await join(server.port, "me")
        lobby = await until(again, lambda m: m["type"] == "lobby")
        seats = lobby["table"]["seats"]
        assert lobby["table"]["phase"] == "lobby"
        assert [s["name"] for s in seats if s["bot"] is None] == ["me"] and len(seats) == 4
        await again.ready()
        await until(again, has_prompt, timeout=10)  # everyone ready: the next game starts
        await again.close()
    finally:
        await server.close()


async def test_a_program_playing_a_seat_shows_as_a_bot_and_never_gets_the_host_rights() -> None:
    """`fengsheng bot` says so in its hello: on an open table the first *player* gets the host
    rights even when a bot sat down first, and they pass on to a player, never to a bot."""
    table = Table("t", players=4, timers=LONG, bot_delay=0, open_host=True)
    server = await started(table)
    try:
        robot = await join(server.port, "Robo", bot=True)
        ann = await join(server.port, "Ann")
        bob = await join(server.port, "Bob")
        assert not robot.is_host and ann.is_host and not bob.is_host
        lobby = await until(bob, lambda m: m["type"] == "lobby" and len(m["table"]["seats"]) == 3)
        assert [(s["bot"], s["host"]) for s in lobby["table"]["seats"]] == [("remote", False), (None, True),
                                                                            (None, False)]
        await ann.close()
        lobby = await until(bob, lambda m: m["type"] == "lobby" and len(m["table"]["seats"]) == 2)
        assert [(s["name"], s["host"]) for s in lobby["table"]["seats"]] == [("Bot 1", False), ("Bob", True)]
        assert lobby["table"]["host"] is True  # Bob, seated after the bot, holds them now
        await robot.ready(True)
        await bob.op("start")
        msg = await until(bob, is_update)
        # A client's claim to be a bot, shown as a claim: never `true`, which marks the table's own bots.
        assert msg["view"]["seats"][0]["bot"] == "remote" and msg["view"]["seats"][1]["bot"] is False
        for client in (robot, bob):
            await client.close()
    finally:
        await server.close()


async def test_a_resumed_table_still_knows_which_seats_programs_play(tmp_path: Path) -> None:
    table = Table("t", players=4, timers=LONG, bot_delay=0, open_host=True, data_dir=tmp_path)
    server = await started(table)
    try:
        robot = await join(server.port, "Robo", bot=True)
        ann = await join(server.port, "Ann")
        await ann.op("add_bot", level="random")
        await ann.op("add_bot", level="random")
        await robot.ready(True)
        await ann.op("start")
        await until(ann, is_update)
        assert table.journal is not None
        path = table.journal.path
        for client in (robot, ann):
            await client.close()
    finally:
        await server.close()
    resumed = Table.resume(path)
    assert [slot.remote_bot for slot in resumed.slots] == [True, False, False, False]


async def test_the_server_puts_long_lived_objects_out_of_the_collectors_reach() -> None:
    """Every `gc_freeze_every` seconds what exists goes to the permanent generation, so a full
    collection walks only newer objects (its pause stays short with many tables); none unless asked."""
    import gc

    gc.unfreeze()
    idle = GameServer("127.0.0.1", 0)
    await idle.start()
    try:
        await asyncio.sleep(0.1)
        assert gc.get_freeze_count() == 0
    finally:
        await idle.close()
    server = GameServer("127.0.0.1", 0, gc_freeze_every=0.02)
    await server.start()
    try:
        async with asyncio.timeout(5):
            while gc.get_freeze_count() == 0:
                await asyncio.sleep(0.01)
    finally:
        await server.close()
        gc.unfreeze()
