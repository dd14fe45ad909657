"""Every timer the server has is the host's to set, within bounds the server enforces, and every
connection in the lobby is shown all of them (real TCP on 127.0.0.1)."""

from __future__ import annotations

from typing import Any

from test_server import join, started, until

from net import protocol as P
from net.table import EXTRA_TIMERS, TIMER_NAMES, Table


def lobby(msg: dict[str, Any]) -> bool:
    return msg["type"] == "lobby"


async def test_the_lobby_lists_every_timer_and_the_host_sets_each_within_the_bounds() -> None:
    table = Table("t", players=4)
    server = await started(table)
    try:
        host = await join(server.port, "host", token=table.host_token)
        guest = await join(server.port, "guest")
        seen = (await until(guest, lobby))["table"]["timers"]
        assert list(seen) == list(TIMER_NAMES)  # the pick, skill and turn-window timers too
        assert {kind: seen[kind] for kind in EXTRA_TIMERS} == EXTRA_TIMERS
        await host.op("set_timers", turn_window=3, skill=20, character_pick=45)
        seen = (await until(guest, lambda m: lobby(m) and m["table"]["timers"]["turn_window"] == 3))["table"]
        assert seen["timers"]["skill"] == 20 and seen["timers"]["character_pick"] == 45
        least, most = P.TIMER_RANGE
        for bad in (least - 0.5, most + 1, 0):
            await host.op("set_timers", turn_window=bad)
            err = await until(host, lambda m: m["type"] == "error")
            assert err["code"] == P.BAD_MESSAGE and table.timer("turn_window") == 3
        await host.op("set_timers", play=least, send=most)
        await until(guest, lambda m: lobby(m) and m["table"]["timers"]["play"] == least
                    and m["table"]["timers"]["send"] == most)
        low, high = P.BOT_DELAY_RANGE
        for bad in (low - 0.1, high + 0.5):
            await host.op("set_bot_delay", seconds=bad)
            err = await until(host, lambda m: m["type"] == "error")
            assert err["code"] == P.BAD_MESSAGE
        await host.op("set_bot_delay", seconds=high)
        await until(guest, lambda m: lobby(m) and m["table"]["bot_delay"] == high)
    finally:
        await server.close()

