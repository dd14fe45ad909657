"""`fengsheng bot --connect`: remote bots are ready by themselves in every lobby, after a game over too.

Real TCP on 127.0.0.1 and the real command in a subprocess; the humans answer their prompts with
the defaults.
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any

from tui.states import play_to_end

from net.client import Client
from net.server import GameServer
from net.table import Table

LONG = {"play": 60.0, "send": 60.0, "response": 60.0, "receive": 60.0, "probe_discard": 60.0}


async def join(port: int, name: str) -> Client:
    client = Client()
    await client.connect("127.0.0.1", port, name)
    return client


async def first_update(client: Client, timeout: float) -> dict[str, Any]:
    async with asyncio.timeout(timeout):
        async for msg in client:
            if msg["type"] == "update":
                return dict(msg["view"])
    raise AssertionError("the connection ended before a game started")


async def test_remote_bots_are_ready_again_after_the_game_over_so_the_next_game_starts() -> None:
    table = Table("t", players=4, bot_delay=0, seed=21, timers=LONG)
    server = GameServer("127.0.0.1", 0, rate=5000.0, burst=5000)
    server.add_table(table)
    await server.start()
    bots: asyncio.subprocess.Process | None = None
    clients: list[Client] = []
    try:
        me, you = await join(server.port, "me"), await join(server.port, "you")
        clients += [me, you]
        await me.ready()
        await you.ready()
        bots = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "fengsheng_tui.cli", "bot", "--connect", f"127.0.0.1:{server.port}",
            "--count", "2", "--level", "random", "--delay", "0", stdout=asyncio.subprocess.DEVNULL,
        )
        async with asyncio.timeout(60):
            await asyncio.gather(play_to_end(aiter(me), me.choose), play_to_end(aiter(you), you.choose))
        assert [s.name for s in table.slots if s.bot_level is None] == ["me", "you", "Bot random 1", "Bot random 2"]

        # "you" leaves after the end and joins again: the table gathers, the humans press r.
        await you.close()
        again = await join(server.port, "you")
        clients.append(again)
        await me.ready()
        await again.ready()
        game2 = await first_update(again, timeout=10)  # starts only if both remote bots said ready
        assert not game2["over"] and table.games_finished == 1
        assert all(slot.bot_level is None for slot in table.slots), "every seat is a remote client, no stand-in"
        assert bots.returncode is None, "the bot command kept playing into the next game"
    finally:
        if bots is not None and bots.returncode is None:
            bots.terminate()
            await bots.wait()
        for client in clients:
            await client.close()
        await server.close()
