"""Chat floods over real TCP: one address with many connections (spectators from 127.0.0.2) shares
one chat budget, so what reaches the table from it stays what one chatty player could send; other
addresses chat on as before."""

from __future__ import annotations

import asyncio

from test_server import join

from net import protocol as P
from net.client import Client
from net.seats import CHAT_BURST
from net.server import GameServer
from net.table import Table


async def test_many_connections_from_one_address_share_one_chat_budget() -> None:
    table = Table("t", players=4)
    server = GameServer("127.0.0.1", 0)
    server.add_table(table)
    await server.start()
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
        await server.close()
