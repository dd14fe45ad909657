"""A bot that searches for a second (the hard level) thinks off the server's event loop: the other
tables' clocks and frames go on meanwhile, and its own table's deadlines still apply."""

from __future__ import annotations

import asyncio
import time

from test_server import LONG, is_update, join, until

from net.server import GameServer
from net.table import Table


async def test_hard_bots_thinking_do_not_hold_up_another_table_and_deadlines_still_apply() -> None:
    server = GameServer("127.0.0.1", 0)
    # Table A: four hard bots, each decision a full 1 s search, against a 0.5 s clock: many of
    # their answers come too late, the default is taken and the late answer must be dropped.
    thinking = Table("A", players=4, timers={k: 0.5 for k in LONG}, bot_delay=0, auto_start=True, seed=3)
    # Table B: four idle people with 0.3 s to answer: every deadline must run out on time.
    idle_table = Table("B", players=4, timers={k: 0.3 for k in LONG}, bot_delay=0, auto_start=True, seed=2)
    server.add_table(thinking)
    server.add_table(idle_table)
    await server.start()
    try:
        for _ in range(4):
            thinking.add_bot("hard")
        await asyncio.sleep(0.2)
        assert thinking.game is not None
        idle = [await join(server.port, f"idle{i}", table="B") for i in range(4)]
        await until(idle[0], lambda m: is_update(m) and m["view"]["waiting"])
        start, frames = time.monotonic(), 0
        while time.monotonic() - start < 3.0:  # frames keep coming while table A thinks
            try:
                async with asyncio.timeout(0.5):
                    msg = await idle[0].recv()
            except TimeoutError:
                continue
            frames += msg is not None and is_update(msg)
        assert thinking._thinking or thinking.game.choices, "table A's bots never thought"
        assert idle_table.timeouts >= 6 and frames >= 4, (idle_table.timeouts, frames)
        assert idle_table.max_lateness < 0.3, idle_table.max_lateness  # blocked for a whole think: ~1 s
        assert thinking.timeouts >= 1 and thinking.max_lateness < 0.3, (thinking.timeouts, thinking.max_lateness)
        taken = thinking.game.choices
        assert len({(seat, prompt) for seat, prompt, _ in taken}) == len(taken)  # nothing applied twice
        for c in idle:
            await c.close()
    finally:
        await server.close()
