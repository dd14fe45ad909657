"""The host's pause over real TCP: the table clock stops (no expiry, no bot move) and every
deadline shifts by the pause, so each seat keeps the time it had left."""

from __future__ import annotations

import asyncio

from test_server import LONG, join, started, until

from bots import make_bot
from net import protocol as P
from net.client import play_as_bot
from net.clock import TableClock
from net.table import Table

SHORT = {"play": 0.3, "send": 0.3, "response": 0.3, "receive": 0.3, "probe_discard": 0.3}


def left(view: dict) -> dict[int, float]:
    return {w["prompt_id"]: w["deadline"] - view["clock"] for w in view["waiting"]}


async def start_and_pause(host, other) -> dict:
    """The host starts the game, lets it run a few events, pauses it; `other`'s paused update."""
    await host.op("start")
    await until(other, lambda m: m["type"] == "update" and m["view"]["log_length"] >= 8)
    await host.op("pause")
    return await until(other, lambda m: m["type"] == "update" and m["view"].get("paused") == "host")


async def test_host_pause_stops_the_clock_and_resume_shifts_every_deadline() -> None:
    table = Table("t", players=4, timers=SHORT, bot_delay=0.02, seed=5)
    server = await started(table)
    try:
        host = await join(server.port, "host", token=table.host_token)
        watcher = await join(server.port, "watcher", spectate=True)
        await host.op("pause")
        err = await until(host, lambda m: m["type"] == "error")
        assert err["code"] == P.BAD_STATE  # no game yet
        paused = await start_and_pause(host, watcher)
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
        await start_and_pause(host, guest)
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
        await start_and_pause(host, second)
        await host.close()
        await asyncio.sleep(0.5)
        assert table.timing.paused
    finally:
        await server.close()


async def test_a_pause_freezes_the_game_a_choice_is_refused_and_its_prompt_stays_open() -> None:
    """Users read "paused" as "nothing moves": a seat's choice during the pause is refused
    (`paused`, ref: the prompt), the game is unchanged, and after the resume the same prompt is
    open with the time it had left, and the same choice is taken."""
    table = Table("t", players=4, timers=LONG, bot_delay=0, auto_start=True, seed=3)
    server = await started(table)
    try:
        clients = [await join(server.port, name, **({"token": table.host_token} if name == "host" else {}))
                   for name in ("host", "b", "c", "d")]
        host = clients[0]
        msg = await until(host, lambda m: m["type"] == "update" and m["view"]["waiting"])
        seat = msg["view"]["waiting"][0]["seat"]
        me = next(c for c in clients if c.seat == seat)
        mine = await until(me, lambda m: m["type"] == "update" and m["view"]["prompt"] is not None) \
            if me is not host else msg
        prompt = mine["view"]["prompt"]
        await host.op("pause")
        paused = await until(me, lambda m: m["type"] == "update" and m["view"].get("paused") == "host")
        before_hash, before_choices = table.game.state_hash(), list(table.game.choices)
        await me.choose(prompt["id"], prompt["default"])
        err = await until(me, lambda m: m["type"] == "error")
        assert err["code"] == P.PAUSED and err["ref"] == prompt["id"] and "paused by the host" in err["message"]
        assert table.game.state_hash() == before_hash and table.game.choices == before_choices
        left_before = P.time_left(paused["view"], paused["view"]["prompt"])
        await asyncio.sleep(0.3)
        await host.op("resume")
        resumed = await until(me, lambda m: m["type"] == "update" and m["view"].get("paused") is None)
        again = resumed["view"]["prompt"]
        assert again is not None and again["id"] == prompt["id"]
        assert abs(P.time_left(resumed["view"], again) - left_before) < 0.1
        await me.choose(prompt["id"], prompt["default"])
        await until(me, lambda m: m["type"] == "update" and (m["view"]["prompt"] or {}).get("id") != prompt["id"])
        assert (seat, prompt["id"], prompt["default"]) in table.game.choices
    finally:
        await server.close()


async def test_remote_bots_wait_out_a_pause_and_answer_after_it() -> None:
    """A bot client whose choice the pause refused answers again once the table runs: its prompt
    is neither lost to the pause nor left to time out (the timers are long)."""
    table = Table("t", players=4, timers=LONG, bot_delay=0, seed=3)
    server = await started(table)
    bots = []
    try:
        host = await join(server.port, "host", token=table.host_token, spectate=True)
        for n in range(4):
            client = await join(server.port, "Bot", bot=True)
            bots.append(asyncio.create_task(play_as_bot(client, lambda s, n=n: make_bot("random", s, n), delay=0.4)))
        await until(host, lambda m: m["type"] == "lobby" and len(m["table"]["seats"]) == 4)
        await host.op("start")
        await until(host, lambda m: m["type"] == "update" and m["view"]["waiting"])
        await host.op("pause")  # within the bots' 0.4 s: their answers reach a paused table
        await until(host, lambda m: m["type"] == "update" and m["view"].get("paused") == "host")
        choices = len(table.game.choices)
        await asyncio.sleep(0.8)
        assert len(table.game.choices) == choices and table.timeouts == 0
        await host.op("resume")
        await until(host, lambda m: m["type"] == "update" and len(table.game.choices) > choices + 2, timeout=10)
        assert table.timeouts == 0
    finally:
        for task in bots:
            task.cancel()
        await server.close()


def test_a_shown_deadline_follows_every_shift_and_change_of_its_prompt() -> None:
    """The clock keeps each deadline as shown (rounded once): a resume's shift, a dropped seat's
    shorter deadline, an answered prompt's kept deadline and a cleared table all show anew."""
    now = [100.0]
    clock = TableClock(lambda: now[0])
    shown: list[float] = []
    for prompt_id in range(300):  # more prompts than the clock keeps shown at once
        clock.issue(prompt_id, 20.0 + prompt_id / 1000, None, 1.0)
        shown.append(clock.deadline(prompt_id))
    assert shown == [round(20.0 + p / 1000, 3) for p in range(300)]
    assert clock.deadline(1) == 20.001  # asked again, the same
    clock.pause("host")
    now[0] += 7.5
    clock.resume()
    assert [clock.deadline(p) for p in (0, 1, 299)] == [27.5, 27.501, 27.799]
    clock.deadlines[1] = clock.epoch + 3.25  # the seat dropped: its deadline shrinks
    assert clock.deadline(1) == 3.25
    clock.answered[2] = clock.deadlines.pop(2)  # answered: shown until its window closes
    assert clock.deadline(2) == 27.502
    clock.clear()
    assert clock.deadline(0) == 0.0
