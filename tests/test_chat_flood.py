"""Floods that the table itself must refuse, over real TCP: chat from one address with many
connections (spectators from 127.0.0.2) shares one chat budget, so what reaches the table from it
stays what one chatty player could send; a connection toggling ready or fast-forward has a budget
too, since each change is a frame to every connection at the table."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from test_server import join

from net import protocol as P
from net.client import Client, ClientError
from net.seats import CHAT_BURST, TOGGLE_BURST, TOGGLE_RATE
from net.server import HELLO_BURST, HELLO_RATE, GameServer
from net.table import LOBBY_FRAME_EVERY, Table


@asynccontextmanager
async def serving(table: Table) -> AsyncIterator[tuple[GameServer, Table]]:
    """A server on loopback holding `table`, closed after the test's own clients."""
    server = GameServer("127.0.0.1", 0)
    server.add_table(table)
    await server.start()
    try:
        yield server, table
    finally:
        await server.close()


async def test_many_connections_from_one_address_share_one_chat_budget() -> None:
    async with serving(Table("t", players=4)) as (server, table):
        honest = await join(server.port, "alice")
        friend = await join(server.port, "bob")
        flooders: list[Client] = []
        try:
            for i in range(12):
                flooder = Client()
                await flooder.connect("127.0.0.1", server.port, f"watcher{i}", spectate=True, source="127.0.0.2")
                flooders.append(flooder)
            for flooder in flooders:
                for n in range(CHAT_BURST + 1):
                    await flooder.chat(f"spam {n}")
            await asyncio.sleep(0.5)
            await friend.chat("are you there?")
            spam, heard, refused = 0, False, 0
            async with asyncio.timeout(5):
                while not heard:
                    msg = await honest.recv()
                    assert msg is not None
                    if msg["type"] == "chat":
                        spam += msg["text"].startswith("spam")
                        heard = msg["text"] == "are you there?"
            for flooder in flooders:
                while not flooder._queue.empty():
                    msg = flooder._queue.get_nowait()
                    refused += bool(msg and msg["type"] == "error" and msg["code"] == P.RATE_LIMITED)
            # Twelve connections from one address reach the table as one player's burst would.
            assert spam <= 2 * CHAT_BURST, spam
            assert refused >= 12 * (CHAT_BURST + 1) - 2 * CHAT_BURST
        finally:
            for client in [honest, friend, *flooders]:
                await client.close()


async def test_toggling_ready_or_fast_forward_cannot_make_the_table_repaint_everyone_50_times_a_second() -> None:
    async with serving(Table("t", players=4, bot_delay=0.5)) as (server, table):
        honest = await join(server.port, "alice")
        mallory = await join(server.port, "mallory")
        watcher = await join(server.port, "watcher", spectate=True)
        try:
            await asyncio.sleep(0.2)
            drained(honest)
            for i in range(100):  # 50 a second, inside the frame budget: only the table can say no
                mallory.conn.send(P.ready(i % 2 == 0))  # type: ignore[union-attr]
                await asyncio.sleep(0.02)
            await asyncio.sleep(0.3)
            lobbies = sum(msg["type"] == "lobby" for msg in drained(honest))
            assert lobbies <= TOGGLE_BURST + 2 * TOGGLE_RATE * 2, lobbies
            assert any(msg["type"] == "error" and msg["code"] == P.RATE_LIMITED for msg in drained(mallory))
            # In a game, a spectator's fast-forward requests are budgeted the same way.
            host = await join(server.port, "host", token=table.host_token, spectate=True)
            await host.op("start")
            await asyncio.sleep(0.3)
            drained(honest)
            for i in range(100):
                watcher.conn.send(P.fast_forward(i % 2 == 0))  # type: ignore[union-attr]
                await asyncio.sleep(0.02)
            await asyncio.sleep(0.3)
            refused = [msg for msg in drained(watcher) if msg["type"] == "error" and msg["code"] == P.RATE_LIMITED]
            assert len(refused) >= 100 - TOGGLE_BURST - 2 * TOGGLE_RATE * 2
            await host.close()
        finally:
            for client in (honest, mallory, watcher):
                await client.close()


async def test_joining_and_leaving_in_a_loop_cannot_flood_everyone_with_lobby_frames() -> None:
    async with serving(Table("t", players=4)) as (server, table):
        honest = await join(server.port, "alice")
        try:
            await asyncio.sleep(0.2)
            drained(honest)
            start, cycles, refused = time.monotonic(), 0, 0
            while time.monotonic() - start < 2.0:  # each cycle took a seat and left it: two lobby changes
                try:
                    churn = await join(server.port, f"m{cycles % 5}", source="127.0.0.3")
                except ClientError as exc:
                    assert exc.code == P.RATE_LIMITED
                    refused += 1
                    continue
                await churn.close()
                cycles += 1
            await asyncio.sleep(0.3)
            lobbies = [msg for msg in drained(honest) if msg["type"] == "lobby"]
            # One address's joins are budgeted (each is a lobby change and a line in the host's log) ...
            assert HELLO_BURST <= cycles <= HELLO_BURST + 2.3 * HELLO_RATE and refused > 50, (cycles, refused)
            # ... and whatever gets through reaches the others coalesced.
            assert len(lobbies) <= 2.3 / LOBBY_FRAME_EVERY + 2, (cycles, len(lobbies))
            assert [seat["name"] for seat in lobbies[-1]["table"]["seats"]] == ["alice"]  # the last one is true
            # Another address joins at once all the same.
            other = await join(server.port, "bob", source="127.0.0.4")
            await other.close()
        finally:
            await honest.close()


def drained(client: Client) -> list[dict[str, Any]]:
    msgs = []
    while not client._queue.empty():
        msg = client._queue.get_nowait()
        if msg is not None:
            msgs.append(msg)
    return msgs
