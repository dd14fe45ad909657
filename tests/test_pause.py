"""The host's pause over real TCP: the table clock stops (no expiry, no bot move) and every
deadline shifts by the pause, so each seat keeps the time it had left."""

from __future__ import annotations

import asyncio

from test_server import join, started, until

from net import protocol as P
from net.table import Table

SHORT = {"play": 0.3, "send": 0.3, "response": 0.3, "receive": 0.3, "probe_discard": 0.3}


def left(view: dict) -> dict[int, float]:
    return {w["prompt_id"]: w["deadline"] - view["clock"] for w in view["waiting"]}


async def test_host_pause_stops_the_clock_and_resume_shifts_every_deadline() -> None:
    table = Table("t", players=4, timers=SHORT, bot_delay=0.02, seed=5)
    server = await started(table)
    try:
        host = await join(server.port, "host", token=table.host_token)
        watcher = await join(server.port, "watcher", spectate=True)
        await host.op("pause")
        err = await until(host, lambda m: m["type"] == "error")
        assert err["code"] == P.BAD_STATE  # no game yet
        await host.op("start")
        await until(watcher, lambda m: m["type"] == "update" and m["view"]["log_length"] >= 8)
        await host.op("pause")
        paused = await until(watcher, lambda m: m["type"] == "update" and m["view"].get("paused") == "host")
        await until(host, lambda m: m["type"] == "update" and m["view"].get("paused") == "host")
        events = len(table.game.events)
        before = left(paused["view"])
        assert before and all(v > 0 for v in before.values())
        await asyncio.sleep(0.8)  # well past every deadline and bot delay
        assert len(table.game.events) == events and not table.game.over
        await host.op("resume")
        resumed = await until(watcher, lambda m: m["type"] == "update" and m["view"].get("paused") is None)
        after = left(resumed["view"])
        assert after.keys() == before.keys()
        for prompt_id, seconds in before.items():
            assert abs(after[prompt_id] - seconds) < 0.1, (prompt_id, seconds, after[prompt_id])
        await until(watcher, lambda m: m["type"] == "update" and m["view"]["log_length"] > paused["view"]["log_length"])
    finally:
        await server.close()


async def test_only_the_host_pauses() -> None:
    table = Table("t", players=4, timers=SHORT, bot_delay=0.02, seed=5)
    server = await started(table)
    try:
        host = await join(server.port, "host", token=table.host_token)
        guest = await join(server.port, "guest")
        await host.op("start")
        await guest.op("pause")
        err = await until(guest, lambda m: m["type"] == "error")
        assert err["code"] == P.NOT_HOST and not table.timing.paused
    finally:
        await server.close()


async def test_the_pause_ends_when_the_last_host_connection_leaves() -> None:
    """A host who pauses and then drops (or quits) must not leave the others frozen: nobody else
    can resume, so the table runs on (his seat goes to a stand-in as after any drop)."""
    table = Table("t", players=4, timers=SHORT, bot_delay=0.02, seed=5)
    server = await started(table)
    try:
        host = await join(server.port, "host", token=table.host_token)
        guest = await join(server.port, "guest")
        await host.op("start")
        await until(guest, lambda m: m["type"] == "update" and m["view"]["log_length"] >= 8)
        await host.op("pause")
        await until(guest, lambda m: m["type"] == "update" and m["view"].get("paused") == "host")
        await host.close()
        resumed = await until(guest, lambda m: m["type"] == "update" and m["view"].get("paused") is None)
        await until(guest, lambda m: m["type"] == "update" and m["view"]["log_length"] > resumed["view"]["log_length"])
        assert not table.timing.paused
    finally:
        await server.close()


async def test_the_pause_stays_while_another_host_connection_is_there() -> None:
    table = Table("t", players=4, timers=SHORT, bot_delay=0.02, seed=5)
    server = await started(table)
    try:
        host = await join(server.port, "host", token=table.host_token)
        second = await join(server.port, "watcher", token=table.host_token, spectate=True)
        await host.op("start")
        await until(second, lambda m: m["type"] == "update" and m["view"]["log_length"] >= 8)
        await host.op("pause")
        await until(second, lambda m: m["type"] == "update" and m["view"].get("paused") == "host")
        await host.close()
        await asyncio.sleep(0.5)
        assert table.timing.paused
    finally:
        await server.close()
