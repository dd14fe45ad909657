"""托管 (a player hands his seat to a stand-in bot and takes it back), fast-forward and the
host's bots' delay, over real TCP on 127.0.0.1."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from test_server import LONG, join, started, until

from net import protocol as P
from net.client import Client
from net.table import Table


async def view_until(client: Client, pred: Callable[[dict[str, Any]], bool], timeout: float = 5.0) -> dict[str, Any]:
    """Read frames (updates and patches) until the client's view satisfies `pred`."""
    async with asyncio.timeout(timeout):
        while True:
            if client.view is not None and pred(client.view):
                return client.view
            msg = await client.recv()
            assert msg is not None, "connection closed while waiting"
            if msg["type"] == "error":
                raise AssertionError(f"unexpected error {msg}")


def prompt_of(view: dict[str, Any]) -> dict[str, Any] | None:
    return view.get("prompt")


async def test_auto_hands_the_open_prompt_to_a_bot_and_everyone_sees_the_seat_marked() -> None:
    table = Table("t", players=4, timers=LONG, bot_delay=0.05, seed=7)
    server = await started(table)
    try:
        me = await join(server.port, "me", token=table.host_token)
        other = await join(server.port, "other")
        watcher = await join(server.port, "watcher", spectate=True)
        await other.auto(True)  # in the lobby: nothing to hand over
        assert (await until(other, lambda m: m["type"] == "error"))["code"] == P.BAD_STATE
        await me.op("start")
        await view_until(other, lambda v: "seats" in v)
        await other.auto(True)  # the other human plays by bot from the start
        view = await view_until(me, lambda v: prompt_of(v) is not None, timeout=10)
        prompt = prompt_of(view)
        assert prompt is not None and view["seats"][1]["auto"] is True and view["seats"][0]["auto"] is False
        await asyncio.sleep(0.3)  # far past the bots' delay: a human's prompt waits for him
        assert table.game is not None and table.game.prompts.get(0) is not None
        assert table.game.prompts[0].id == prompt["id"]

        await watcher.auto(True)  # a spectator has no seat to hand over
        assert (await until(watcher, lambda m: m["type"] == "error"))["code"] == P.NOT_YOUR_SEAT
        assert not table.slots[0].auto

        await me.auto(True)
        seen = await view_until(watcher, lambda v: v["seats"][0].get("auto") is True)
        assert seen["seats"][0]["bot"] is True
        # The prompt that was open is answered by the bot, for our seat, without a key of ours.
        await view_until(me, lambda v: (prompt_of(v) or {}).get("id") != prompt["id"])
        assert any(c[:2] == (0, prompt["id"]) for c in table.game.choices)
        # The stand-in's play leaks nothing: the spectator still sees no hand and no prompt.
        assert watcher.view is not None and watcher.view["hand"] == [] and watcher.view["prompt"] is None

        await me.auto(False)
        back = await view_until(watcher, lambda v: v["seats"][0].get("auto") is False)
        assert back["seats"][0]["bot"] is False and table.slots[0].bot is None
    finally:
        await server.close()


async def test_taking_back_mid_prompt_gives_the_human_the_open_prompt_with_its_time_left() -> None:
    # The bots wait 1.5 s: long enough to hand over and take back before the stand-in answers.
    table = Table("t", players=4, timers=LONG, bot_delay=1.5, seed=7)
    for _ in range(3):
        table.add_bot()
    server = await started(table)
    try:
        me = await join(server.port, "me", token=table.host_token)
        seat = me.seat
        assert seat is not None
        await me.op("start")
        view = await view_until(me, lambda v: prompt_of(v) is not None, timeout=20)
        prompt = prompt_of(view)
        assert prompt is not None
        left = P.time_left(view, prompt)
        await me.auto(True)
        await view_until(me, lambda v: v["seats"][seat].get("auto") is True)
        await me.auto(False)
        again = await view_until(me, lambda v: v["seats"][seat].get("auto") is False)
        assert (prompt_of(again) or {}).get("id") == prompt["id"]
        assert prompt_of(again)["deadline"] == prompt["deadline"]  # type: ignore[index]
        await asyncio.sleep(1.8)  # past the bot's time for it: the prompt is the human's again
        assert table.game is not None and table.game.prompts[seat].id == prompt["id"]
        assert left is not None and left > 50
        await me.choose(prompt["id"], prompt["default"])
        await view_until(me, lambda v: (prompt_of(v) or {}).get("id") != prompt["id"])
        assert any(c[:2] == (seat, prompt["id"]) for c in table.game.choices)
    finally:
        await server.close()


async def test_auto_lasts_across_a_reconnect_and_ends_with_the_game() -> None:
    table = Table("t", players=4, timers=LONG, bot_delay=0.3, seed=7, standin_grace=60.0)
    for _ in range(3):
        table.add_bot()
    server = await started(table)
    try:
        me = await join(server.port, "me", token=table.host_token)
        seat = me.seat
        assert seat is not None
        await me.op("start")
        await view_until(me, lambda v: "seats" in v)
        await me.auto(True)
        await view_until(me, lambda v: v["seats"][seat].get("auto") is True)
        token = me.token
        await me.close()
        await asyncio.sleep(0.2)
        again = Client()
        await again.connect("127.0.0.1", server.port, "me", token=token)
        view = await view_until(again, lambda v: "seats" in v)
        assert view["seats"][seat]["auto"] is True and table.slots[seat].bot is not None
        await again.op("end")
        await until(again, lambda m: m["type"] == "lobby")
        assert not table.slots[seat].auto and table.slots[seat].bot is None
        await again.close()
    finally:
        await server.close()


async def test_a_spectator_fast_forwards_an_all_bot_game_to_its_result() -> None:
    table = Table("t", players=4, timers=LONG, bot_delay=5.0, seed=3)
    for _ in range(4):
        table.add_bot()
    server = await started(table)
    try:
        host = await join(server.port, "host", token=table.host_token, spectate=True)  # the host, watching
        watcher = await join(server.port, "watcher", spectate=True)
        await watcher.fast_forward(True)
        assert (await until(watcher, lambda m: m["type"] == "error"))["code"] == P.BAD_STATE  # no game yet
        await host.op("start")
        await view_until(watcher, lambda v: "seats" in v)
        await asyncio.sleep(0.2)
        assert table.game is not None and len(table.game.choices) == 0  # the bots wait their 5 s
        began = time.monotonic()
        await watcher.fast_forward(True)
        await view_until(watcher, lambda v: v.get("fast_forward") is True or v.get("over") is True)
        over = await view_until(watcher, lambda v: v.get("over") is True, timeout=20)
        assert over["winners"] is not None and time.monotonic() - began < 20
        assert len(table.game.choices) > 10
    finally:
        await server.close()


async def test_fast_forward_never_hurries_a_living_human_who_plays_himself() -> None:
    table = Table("t", players=4, timers=LONG, bot_delay=0.4, seed=3)
    for _ in range(3):
        table.add_bot()
    server = await started(table)
    try:
        me = await join(server.port, "me", token=table.host_token)
        watcher = await join(server.port, "watcher", spectate=True)
        await me.op("start")
        await view_until(me, lambda v: "seats" in v)
        await me.fast_forward(True)  # alive: a player in the game cannot ask
        assert (await until(me, lambda m: m["type"] == "error"))["code"] == P.BAD_STATE
        await watcher.fast_forward(True)
        await asyncio.sleep(0.5)
        assert table.game is not None and not table._hurry()
        assert watcher.view is not None and watcher.view.get("fast_forward") is False
        assert table.standins.hurry(table.game, table.slots, table.sessions) is False
        # Once the last living human hands his seat over, nobody's time is taken: the table hurries.
        await me.auto(True)
        await view_until(watcher, lambda v: v.get("fast_forward") is True or v.get("over") is True)
        await view_until(watcher, lambda v: v.get("over") is True, timeout=20)
    finally:
        await server.close()


async def test_the_host_sets_the_bots_delay_and_the_timers_and_everyone_in_the_lobby_sees_them() -> None:
    table = Table("t", players=4, bot_delay=0.6)
    server = await started(table)
    try:
        host = await join(server.port, "host", token=table.host_token)
        guest = await join(server.port, "guest")
        lobby = await until(guest, lambda m: m["type"] == "lobby")
        assert lobby["table"]["bot_delay"] == 0.6
        await host.op("set_bot_delay", seconds=1.5)
        await host.op("set_timers", play=45)
        seen = await until(guest, lambda m: m["type"] == "lobby" and m["table"]["bot_delay"] == 1.5
                           and m["table"]["timers"]["play"] == 45)
        assert seen["table"]["timers"]["send"] == 20
        for bad in (-1, 11, "1", True):
            await host.op("set_bot_delay", seconds=bad)
            assert (await until(host, lambda m: m["type"] == "error"))["code"] == P.BAD_MESSAGE
        await guest.op("set_bot_delay", seconds=0)
        assert (await until(guest, lambda m: m["type"] == "error"))["code"] == P.NOT_HOST
        assert table.bot_delay == 1.5
    finally:
        await server.close()


async def test_a_dead_player_fast_forwards_once_no_living_human_plays_by_hand() -> None:
    # Seed 126: our seat (played by its 托管 bot, the others random bots) dies mid-game (seed 26 did
    # until rules5 changed the games).
    table = Table("t", players=4, timers=LONG, bot_delay=0.0, seed=126)
    for _ in range(3):
        table.add_bot()
    apply = table._apply

    def slow_once_dead(seat: int, prompt_id: int, option: str, how: str) -> None:
        """From our death on the bots take 5 s a move: watching to the end would take minutes."""
        apply(seat, prompt_id, option, how)
        if table.game is not None and not table.game.state.seats[3].in_game:
            table.bot_delay = 5.0

    table._apply = slow_once_dead  # type: ignore[method-assign]
    server = await started(table)
    try:
        me = await join(server.port, "me", token=table.host_token)
        assert me.seat == 3
        await me.op("start")
        await view_until(me, lambda v: "seats" in v)
        await me.fast_forward(True)  # alive: not ours to ask
        assert (await until(me, lambda m: m["type"] == "error"))["code"] == P.BAD_STATE
        await me.auto(True)
        dead = await view_until(me, lambda v: v["seats"][3]["alive"] is False or v["seats"][3]["lost"] is True,
                                timeout=20)
        assert not dead["over"] and dead.get("fast_forward") is False
        assert table.game is not None
        left_at_death = len(table.game.choices)
        began = time.monotonic()
        await me.fast_forward(True)
        await view_until(me, lambda v: v.get("fast_forward") is True or v.get("over") is True)
        await view_until(me, lambda v: v.get("over") is True, timeout=20)
        # Far more moves than 20 s of 5 s waits could hold were made after our death.
        assert time.monotonic() - began < 20 and len(table.game.choices) - left_at_death > 8
    finally:
        await server.close()
