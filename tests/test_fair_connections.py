"""Seats that cannot be taken and connections that cannot lock a table out, over real TCP on loopback.

Names (unique after folding, reserved, visible), the host's mute, one live connection per seat,
per-address caps with room kept for seat-token holders, the hello deadline, the inbound frame cap
and byte budget, throttled and logged failed passwords, a refused stranger leaving a finished
table alone, and running out of file descriptors quietly.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import struct
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import msgpack
import pytest
from test_server import LONG, has_prompt, is_update, join, started, until
from test_server_hostile import Raw

from bots import make_bot
from net import names
from net import protocol as P
from net.client import ClientError, play_as_bot
from net.server import MAX_CLIENT_FRAME, GameServer
from net.table import Table

ROOT = Path(__file__).resolve().parent.parent


async def refused(port: int, name: str, **kw: Any) -> ClientError:
    with pytest.raises(ClientError) as info:
        await join(port, name, **kw)
    return info.value


# ----------------------------------------------------------------------------- names


async def test_names_are_unique_after_folding_and_reserved_or_invisible_names_are_refused() -> None:
    table = Table("t", players=6, timers=LONG)
    table.add_bot()
    server = await started(table)
    try:
        alice = await join(server.port, "Alice")
        watcher = await join(server.port, "Watcher", spectate=True)
        for twin in ("alice", "ALICE", "Аlice", "Al1ce", "Ａｌｉｃｅ", "A l i c e", "Alíce", "Ali\u3164ce"):
            err = await refused(server.port, twin)
            assert err.code == P.NAME_TAKEN, twin
            assert "taken" in err.message and "seat 2" in err.message
        assert (await refused(server.port, "watcher", spectate=True)).code == P.NAME_TAKEN
        assert "spectator" in (await refused(server.port, "WATCHER")).message
        for reserved in ("Bot 1", "bot 7", "BOT1", "Bot", "机器人 2", "System", "系统", "host", "房主",
                         "Ann (you)", "Bob (host)"):
            err = await refused(server.port, reserved)
            assert err.code == P.BAD_NAME and "reserved" in err.message, reserved
        for blank in ("\u3164", "\u2800\u2800", "\u3164 \u3164", "\u115f", "a\u2028b", "\u2029", "\u3000"):
            raw = await Raw.open(server.port)  # past the client's own checks
            raw.body(msgpack.packb({**P.hello("x"), "name": blank}))
            assert (await raw.frame())["code"] in (P.BAD_NAME, P.BAD_MESSAGE), repr(blank)
            raw.close()
        # Names that are merely alike, or CJK, are fine.
        for ok in ("Alicia", "老王", "Bot normal 1", "Robot"):
            (await join(server.port, ok)).conn.abort()  # type: ignore[union-attr]
        await asyncio.sleep(0.1)
        assert [s.name for s in table.slots] == ["Bot 1", "Alice"]
        await alice.close()
        await watcher.close()
    finally:
        await server.close()


async def test_a_bot_client_is_named_bot_n_by_the_table_and_no_human_gets_that_name() -> None:
    """One name style for every bot: `fengsheng bot`'s hello says it is a bot and the table names
    it as it names its own (`Bot N`, the lowest number free), shown to all as a bot."""
    table = Table("t", players=6, timers=LONG)
    table.add_bot()  # Bot 1
    server = await started(table)
    try:
        human = await join(server.port, "Ann")
        first = await join(server.port, "Bot normal 1", bot=True)
        second = await join(server.port, "anything", bot=True)
        assert [s.name for s in table.slots] == ["Bot 1", "Ann", "Bot 2", "Bot 3"]
        assert [s.remote_bot for s in table.slots] == [False, False, True, True]
        lobby = await until(human, lambda m: m.get("type") == "lobby" and len(m["table"]["seats"]) == 4)
        assert [s["bot"] for s in lobby["table"]["seats"]][2:] == ["remote", "remote"]
        err = await refused(server.port, "Bot 4")  # a human still cannot take a bot's name
        assert err.code == P.BAD_NAME and "reserved" in err.message
        await first.close()
        await second.close()
        await human.close()
    finally:
        await server.close()


def test_the_skeleton_folds_case_width_accents_lookalikes_and_invisibles() -> None:
    assert len({names.skeleton(n) for n in ("Alice", "ALICE", "Аlice", "Al1ce", "Ａｌｉｃｅ", "Ali\u3164ce")}) == 1
    assert names.skeleton("老王") != names.skeleton("老五")
    assert names.problem("\u3164") and names.problem("\u2800") and names.problem("x\u2028")
    assert names.problem("老王") is None and names.problem("Ann") is None


async def test_the_host_mutes_a_seat_or_every_spectator_and_spectator_lines_say_so() -> None:
    table = Table("t", players=4, timers=LONG)
    server = await started(table)
    try:
        host = await join(server.port, "Hostess", token=table.host_token)
        guest = await join(server.port, "Guest")
        fan = await join(server.port, "Fan", spectate=True)
        await fan.chat("hi from the stands")
        line = await until(host, lambda m: m["type"] == "chat")
        assert line["seat"] is None and line["name"] == "Fan"  # a spectator's line: no seat

        await host.op("mute", seat=guest.seat)
        lobby = await until(guest, lambda m: m["type"] == "lobby" and m["table"]["seats"][1]["muted"])
        assert lobby["table"]["seats"][0]["muted"] is False
        await guest.chat("spam")
        err = await until(guest, lambda m: m["type"] == "error")
        assert err["code"] == P.BAD_STATE and "muted" in err["message"]
        await host.op("mute", spectators=True)
        await until(host, lambda m: m["type"] == "lobby" and m["table"]["spectators_muted"])
        await fan.chat("more")
        err = await until(fan, lambda m: m["type"] == "error")
        assert "muted" in err["message"]
        await host.chat("still here")
        line = await until(guest, lambda m: m["type"] == "chat")
        assert line["text"] == "still here"  # nothing of the muted reached anyone

        await guest.op("mute", seat=0)
        assert (await until(guest, lambda m: m["type"] == "error"))["code"] == P.NOT_HOST
        await host.op("mute", seat=guest.seat, on=False)
        await until(guest, lambda m: m["type"] == "lobby" and not m["table"]["seats"][1]["muted"])
        await guest.chat("back")
        await until(host, lambda m: m["type"] == "chat" and m["text"] == "back")
        for c in (host, guest, fan):
            await c.close()
    finally:
        await server.close()


# ----------------------------------------------------------------------------- one live connection per seat


async def test_a_token_cannot_take_a_seat_from_a_live_connection() -> None:
    """Two clients with one token (one account, one config): the second is refused, never shown
    the first one's hand, and may watch as a spectator instead; once the first is gone, it may."""
    table = Table("t", players=4, timers=LONG, bot_delay=0, auto_start=True, seed=3)
    for _ in range(2):
        table.add_bot()
    server = await started(table)
    try:
        first = await join(server.port, "Me")
        lobby_twin = await refused(server.port, "Me-2", token=first.token)
        assert lobby_twin.code == P.SEAT_TAKEN and "fresh seat" in lobby_twin.message
        other = await join(server.port, "Other")
        msg = await until(first, is_update)
        seat = first.seat
        assert msg["view"]["seat"] == seat == 2
        for _ in range(20):  # today's flapping: dozens of takeovers a second
            err = await refused(server.port, "Me", token=first.token)
            assert err.code == P.SEAT_TAKEN and "spectate" in err.message and "fresh" not in err.message
        held = table.slots[seat].session
        watch = await join(server.port, "Me watching", token=first.token, spectate=True)
        view = (await until(watch, is_update))["view"]
        assert watch.seat is None and view["seat"] is None and not view.get("hand")
        assert table.slots[seat].session is held is not None
        assert not first.closed
        await first.close()
        await until(other, lambda m: is_update(m) and not m["view"]["seats"][seat]["online"])
        again = await join(server.port, "Me", token=first.token)
        assert again.seat == seat and (await until(again, is_update))["view"]["hand"]
        for c in (again, other, watch):
            await c.close()
    finally:
        await server.close()


# ----------------------------------------------------------------------------- fair connections


async def _open_from(port: int, source: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))


async def test_one_address_cannot_lock_out_a_table_or_a_returning_player() -> None:
    """64 half-open connections and 60 idle spectators from 127.0.0.2 (today: the global cap of 64
    is full): an honest join from 127.0.0.1 takes well under a second, and a dropped player gets
    his seat back while a stand-in plays it."""
    table = Table("t", players=4, timers=LONG, bot_delay=0.01, offline_timeout=0.1, standin_grace=0.1,
                  auto_start=True, seed=11, password="pw")
    for _ in range(2):
        table.add_bot()
    server = await started(table)
    attackers: list[asyncio.StreamWriter] = []
    try:
        player = await join(server.port, "Player", password="pw")
        friend = await join(server.port, "Friend", password="pw")
        game = asyncio.create_task(play_as_bot(friend, lambda s: make_bot("random", s, 5), delay=0.01))
        await until(player, is_update)
        token = player.token
        await player.close()
        for n in range(60):
            _, w = await _open_from(server.port, "127.0.0.2")
            w.write(P.encode_frame(P.hello(f"x{n}", spectate=True, password="pw")))
            attackers.append(w)
            await asyncio.sleep(0.002)
        for _ in range(64):
            _, w = await _open_from(server.port, "127.0.0.2")
            w.write(b"\x00\x00")  # half a header, then nothing
            attackers.append(w)
        await asyncio.sleep(0.3)
        assert table.slots[2].bot is not None, "a stand-in plays the dropped seat"
        start = time.monotonic()
        back = await join(server.port, "Player", token=token, password="pw")
        assert back.seat == 2 and time.monotonic() - start < 1.0
        start = time.monotonic()
        fan = await join(server.port, "Fan", spectate=True, password="pw")
        assert time.monotonic() - start < 1.0
        assert 8 <= sum(1 for s in table.sessions if s.seat is None) <= 16 + 1
        game.cancel()
        for c in (back, fan, friend):
            await c.close()
    finally:
        for w in attackers:
            w.close()
        await server.close()


async def test_a_few_addresses_cannot_keep_every_other_spectator_out() -> None:
    """Before: spectator places (here 4 in all, 3 per address) went first come, first served, and
    spectators ping, so no timeout ever freed one: a stranger with two addresses kept every other
    spectator out for good. Now a newcomer takes the place of the oldest spectator who came
    without a token, of the address holding the most (at least two more than his own); it is told
    why. Players keep theirs, and so does the host watching with his token from that address."""
    table = Table("t", players=4, timers=LONG)
    server = GameServer("127.0.0.1", 0, max_spectators=4, spectators_per_address=3)
    server.add_table(table)
    await server.start()
    clients = []
    try:
        player = await join(server.port, "Player", source="127.0.0.51")
        host = await join(server.port, "Hostess", token=table.host_token, spectate=True, source="127.0.0.52")
        clients += [player, host]
        squat = [await join(server.port, f"squat{n}", spectate=True, source="127.0.0.52") for n in range(2)]
        other = await join(server.port, "other", spectate=True, source="127.0.0.53")
        clients += [*squat, other]
        newcomer = await join(server.port, "newcomer", spectate=True, source="127.0.0.54")
        clients.append(newcomer)
        told = await until(squat[0], lambda m: m["type"] == "bye", timeout=5)
        assert "spectator places are full" in told["reason"]
        assert await squat[0].recv(timeout=5) is None  # closed
        # 127.0.0.52 still holds two (the host and squat1): the next newcomer takes squat1's place,
        # never the host's; then every address holds one, and the one after is refused.
        late = await join(server.port, "late", spectate=True, source="127.0.0.55")
        clients.append(late)
        await until(squat[1], lambda m: m["type"] == "bye", timeout=5)
        later = await refused(server.port, "later", spectate=True, source="127.0.0.56")
        assert later.code == P.FULL and "at most 4 spectators" in later.message
        names = sorted(s.name for s in table.sessions)
        assert names == ["Hostess", "Player", "late", "newcomer", "other"], names
        assert not player.closed and not host.closed
    finally:
        for client in clients:
            await client.close()
        await server.close()


async def test_the_whole_hello_must_arrive_within_the_hello_deadline() -> None:
    """A slowloris that trickles its hello a byte at a time is closed at the hello deadline (1 s
    here), not at the frame deadline (10 s here) the frame it has begun would get."""
    table = Table("t", players=4, timers=LONG)
    server = GameServer("127.0.0.1", 0, hello_timeout=1.0, frame_timeout=10.0)
    server.add_table(table)
    await server.start()
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        frame = P.encode_frame(P.hello("slow"))
        start = time.monotonic()
        closed_at = None
        for byte in frame:
            writer.write(bytes([byte]))
            try:
                await asyncio.wait_for(reader.read(4096), 0.2)  # the error, or the end of the stream
                closed_at = time.monotonic()
                break
            except TimeoutError:
                pass
            except ConnectionError:
                closed_at = time.monotonic()
                break
        assert closed_at is not None and closed_at - start < 2.0
        writer.close()
    finally:
        await server.close()


def test_the_biggest_honest_frame_fits_well_inside_the_inbound_cap() -> None:
    """Every client message at its schema limits, in 3-byte CJK: the cap is far above all of them."""
    biggest = [
        P.hello("名" * 24, token="t" * 64, table="桌" * 21, password="密" * 21, spectate=True, bot=True),
        P.say("字" * 200),
        P.choose(2**31, "o" * 64),
        P.op("set_timers", {kind: 3600.0 for kind in ("play", "send", "response", "receive", "probe_discard",
                                                        "character_pick", "skill")}),
        P.op("mute", {"seat": 63, "on": True}),
        P.ping(2**31),
        P.ready(True),
    ]
    sizes = [len(P.encode_frame(m)) for m in biggest]
    assert max(sizes) < 700 < MAX_CLIENT_FRAME // 4


async def test_inbound_frames_are_capped_and_budgeted_in_bytes() -> None:
    """A frame above the client cap is refused before its body (closed); frames within the cap
    but many and large are held to the byte budget, within the frame rate that counts frames."""
    table = Table("t", players=4, timers=LONG)
    server = await started(table)
    try:
        raw = await Raw.open(server.port, hello=True)
        raw.body(msgpack.packb({"type": "chat", "text": "x" * 60_000}))
        assert (await raw.next_of("error"))["code"] == P.TOO_LARGE and await raw.closed()

        raw = await Raw.open(server.port, hello=True)
        body = msgpack.packb({"type": "chat", "text": "y" * (MAX_CLIENT_FRAME - 64)})
        raw.bytes((struct.pack(">I", len(body)) + body) * 60)  # 60 frames < the burst of 100
        codes = []
        for _ in range(60):
            msg = await raw.frame()
            if not msg:
                break
            codes.append(msg.get("code"))
        assert P.RATE_LIMITED in codes and codes.count(P.BAD_MESSAGE) < 30
        raw.close()
        honest = await join(server.port, "Honest")
        await honest.close()
    finally:
        await server.close()


async def test_failed_passwords_back_off_per_address_and_are_logged(caplog: pytest.LogCaptureFixture) -> None:
    table = Table("t", players=4, timers=LONG, password="right")
    server = await started(table)
    try:
        with caplog.at_level(logging.WARNING, logger="fengsheng.server"):
            codes = []
            for n in range(12):
                err = await refused(server.port, f"guess{n}", password=f"wrong{n}")
                codes.append(err.code)
            assert codes[:3] == [P.AUTH] * 3
            assert codes.count(P.AUTH) <= 5 and codes[-1] == P.RATE_LIMITED
            # Even the right password waits its turn from that address ...
            assert (await refused(server.port, "late", password="right")).code == P.RATE_LIMITED
        failures = [r for r in caplog.records if "refused a hello" in r.getMessage()]
        assert 3 <= len(failures) <= 5 and "127.0.0.1" in failures[0].getMessage()
        assert "right" not in " ".join(r.getMessage() for r in caplog.records)
        # Another address is not held back.
        reader, writer = await _open_from(server.port, "127.0.0.3")
        writer.write(P.encode_frame(P.hello("Elsewhere", password="right")))
        raw = Raw(reader, writer)
        assert (await raw.frame())["type"] == "welcome"
        writer.close()
    finally:
        await server.close()


async def test_a_refused_stranger_leaves_a_finished_table_as_it_is() -> None:
    table = Table("t", players=4, bot_delay=0, seed=21, password="pw")
    for _ in range(3):
        table.add_bot()
    server = await started(table)
    try:
        me = await join(server.port, "Me", password="pw")
        await me.ready()
        await asyncio.wait_for(play_as_bot(me, lambda s: make_bot("random", s, 4), until_over=True), 20)
        assert table.phase == "over"
        assert (await refused(server.port, "Stranger", password="nope")).code == P.AUTH
        assert (await refused(server.port, "Stranger")).code == P.AUTH
        assert table.phase == "over" and table.game is not None and table.game.over
        # A welcome stranger does gather the table for the next game.
        await me.close()
        again = await join(server.port, "Guest", password="pw")
        assert (await until(again, lambda m: m["type"] == "lobby"))["table"]["phase"] == "lobby"
        await again.close()
    finally:
        await server.close()


def test_running_out_of_file_descriptors_logs_a_line_not_a_traceback_storm(tmp_path: Path) -> None:
    """A server with 48 file descriptors, 120 connections at once: it refuses what it cannot take
    and says so once, instead of a traceback per failed accept (thousands a minute today)."""
    script = tmp_path / "server.py"
    script.write_text(textwrap.dedent("""
        import asyncio, logging, resource, sys
        resource.setrlimit(resource.RLIMIT_NOFILE, (48, 48))
        logging.basicConfig(level=logging.INFO)
        from net.server import GameServer
        from net.table import Table
        async def main():
            server = GameServer("127.0.0.1", 0)
            server.add_table(Table("t"))
            await server.start()
            print(server.port, flush=True)
            await asyncio.sleep(float(sys.argv[1]))
        asyncio.run(main())
    """))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, str(script), "60"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=env, cwd=ROOT, text=True)
    try:
        assert proc.stdout is not None
        port = int(proc.stdout.readline())
        import socket

        socks = []
        for _ in range(120):
            try:
                socks.append(socket.create_connection(("127.0.0.1", port), timeout=1))
            except OSError:
                break
        time.sleep(1.0)
        for s in socks:
            s.close()
        welcome = None
        deadline = time.monotonic() + 3
        while welcome is None and time.monotonic() < deadline:  # the refused ones drain first
            time.sleep(0.2)
            with socket.create_connection(("127.0.0.1", port), timeout=1) as probe:
                probe.sendall(P.encode_frame(P.hello("probe")))
                probe.settimeout(2)
                with contextlib.suppress(OSError, struct.error):
                    (length,) = struct.unpack(">I", probe.recv(4))
                    msg = msgpack.unpackb(probe.recv(length))
                    welcome = msg if msg["type"] == "welcome" else None
        assert welcome is not None, "the server serves again"
        proc.terminate()
        _, err = proc.communicate(timeout=10)
    finally:
        proc.kill()
    assert err.count("Traceback") <= 1, err[:2000]
    assert len(err.splitlines()) < 40, err[:2000]


async def test_a_dropped_player_is_never_shown_a_stranger_hand_by_its_own_token() -> None:
    """Mid-game, a second claimant with the token gets no update frame of that seat."""
    table = Table("t", players=4, timers=LONG, bot_delay=0, auto_start=True, seed=4)
    for _ in range(3):
        table.add_bot()
    server = await started(table)
    try:
        me = await join(server.port, "Me")
        await until(me, has_prompt)
        conn = Raw(*await asyncio.open_connection("127.0.0.1", server.port))
        conn.send(P.hello("Me", token=me.token))
        first = await conn.frame()
        assert first["type"] == "error" and first["code"] == P.SEAT_TAKEN
        assert await conn.closed()
        await me.close()
    finally:
        await server.close()


async def test_a_seat_whose_connection_went_silent_can_be_taken_back_by_its_token() -> None:
    """A connection that died without a word (no FIN: a laptop off the network) stops counting as
    live once it has been silent past the live window (45 s; 0.3 s here), so its owner is not
    locked out of his own seat until the idle timeout."""
    table = Table("t", players=4, timers=LONG)
    table.seats.live_silence = 0.3
    server = await started(table)
    try:
        first = await join(server.port, "Me")
        assert (await refused(server.port, "Me", token=first.token)).code == P.SEAT_TAKEN
        await asyncio.sleep(0.5)
        again = await join(server.port, "Me", token=first.token)
        assert again.seat == first.seat
        bye = await until(first, lambda m: m["type"] == "bye")
        assert "replaced" in bye["reason"]
        await again.close()
        await first.close()
    finally:
        await server.close()


async def test_honest_clients_connecting_at_once_from_one_address_all_get_in() -> None:
    """The per-address limits leave room for what one machine honestly opens at once (a `fengsheng
    bot --count 9`, a door's guests): 12 joins in parallel from 127.0.0.1 all succeed."""
    table = Table("t", players=4, timers=LONG)
    server = await started(table)
    try:
        clients = await asyncio.gather(*(join(server.port, f"guest{n}", spectate=n >= 4) for n in range(12)))
        assert sorted(c.seat for c in clients if c.seat is not None) == [0, 1, 2, 3]
        for c in clients:
            await c.close()
    finally:
        await server.close()
