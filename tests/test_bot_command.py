"""`fengsheng bot --connect`: remote bots are ready by themselves in every lobby, after a game over too.

Real TCP on 127.0.0.1 and the real command in a subprocess; the humans answer their prompts with
the defaults.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
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
        # The table names bot clients as it names its own bots, and shows them as bots.
        assert [s.name for s in table.slots if s.bot_level is None] == ["me", "you", "Bot 1", "Bot 2"]
        assert [s.remote_bot for s in table.slots] == [False, False, True, True]

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


async def test_remote_bots_take_their_seats_back_after_a_drop_and_after_the_host_resumes(tmp_path: Path) -> None:
    """The bot command keeps each seat's token: a dropped connection, then a host that stopped and
    came back from its journal on the same port, find the same bots in the same seats."""
    table = Table("t", players=4, seed=5, timers=LONG, auto_start=True, data_dir=tmp_path)
    table.add_bot()
    server = GameServer("127.0.0.1", 0, rate=5000.0, burst=5000)
    server.add_table(table)
    await server.start()
    port = server.port
    me = await join(port, "me")
    bots = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "fengsheng_tui.cli", "bot", "--connect", f"127.0.0.1:{port}",
        "--count", "2", "--level", "random", "--delay", "0.2", stdout=asyncio.subprocess.PIPE,
    )
    resumed: GameServer | None = None
    try:
        await first_update(me, timeout=20)  # the bots took seats 3 and 4: the game started
        remote = [slot for slot in table.slots if slot.remote_bot]
        assert len(remote) == 2
        tokens = [slot.token for slot in remote]
        session = remote[0].session
        assert session is not None
        session.conn.abort("dropped for the test")
        async with asyncio.timeout(10):
            while remote[0].session is None or remote[0].session is session:
                await asyncio.sleep(0.05)
        assert remote[0].token == tokens[0]

        journal = next(tmp_path.glob("*.journal"))
        await me.close()
        await server.close()
        resumed = GameServer("127.0.0.1", port, rate=5000.0, burst=5000)
        again = resumed.add_table(Table.resume(journal, data_dir=tmp_path))
        await resumed.start()
        async with asyncio.timeout(20):
            while sum(1 for slot in again.slots if slot.remote_bot and slot.session is not None) < 2:
                await asyncio.sleep(0.1)
        assert [slot.token for slot in again.slots if slot.remote_bot] == tokens
        assert bots.returncode is None
    finally:
        bots.terminate()
        out, _ = await bots.communicate()
        if resumed is not None:
            await resumed.close()
        await server.close()
    lines = out.decode().splitlines()
    assert sum("is back at" in line for line in lines) >= 3, lines
