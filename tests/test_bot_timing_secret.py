"""How long a bot's seat stays in `waiting` tells no other seat what the bot had to choose from.

A searching bot (the hard level) used to start its search when the table's delay was over and
answer when it was done: a prompt with one option (a window with nothing to play, a decoy skill
offer of a face-down character) was answered after the delay, one with several after the delay
and a search. Every other seat watched the difference: who holds a card worth playing now, which
face-down character has the skill. Now the search starts when the prompt opens and the answer is
applied no sooner than the bot's budget, whatever it found. Real TCP on loopback, the server's own
bots; a human client that answers everything at once, so every window waits on the bots alone.
"""

from __future__ import annotations

import asyncio
import time

from test_server import is_update, join, started

from bots import make_bot
from net.client import play_as_bot
from net.table import Table

BUDGET = 0.4


async def watch(human, table: Table) -> list[float]:  # noqa: ANN001 - a net.client.Client
    """Seconds each other seat's waiting entry stayed listed, as the human's frames show them (by
    the table clock each frame carries: the test's own loop may read frames late, in bursts, while
    the bots search in threads of this process); the human answers his prompts at once."""
    opened: dict[tuple[int, int], float] = {}
    held: list[float] = []
    answered: set[int] = set()
    deadline = time.monotonic() + 40
    while len(held) < 12 and time.monotonic() < deadline:
        msg = await human.recv(timeout=10)
        assert msg is not None
        if not is_update(msg):
            continue
        view = human.view
        assert view is not None
        if view["over"]:
            break
        now = float(view["clock"])
        listed = {(w["seat"], w["prompt_id"]) for w in view["waiting"] if w["seat"] != view["seat"]}
        for key in listed:
            opened.setdefault(key, now)
        for key in [k for k in opened if k not in listed]:
            held.append(now - opened.pop(key))
        prompt = view["prompt"]
        if prompt is not None and prompt["id"] not in answered:
            answered.add(prompt["id"])
            await human.choose(prompt["id"], prompt["default"])
    return held


async def test_a_searching_bot_takes_the_same_time_whatever_it_could_choose() -> None:
    timers = {k: 5.0 for k in ("play", "send", "response", "receive", "probe_discard")}
    table = Table("t", players=4, timers=timers, bot_delay=0.0, auto_start=True, seed=11)
    server = await started(table)
    try:
        human = await join(server.port, "watcher")
        await human.ready(True)
        for _ in range(3):
            table.add_bot("hard")
        for _ in range(100):
            if table.game is not None:
                break
            await asyncio.sleep(0.02)
        assert table.game is not None
        for slot in table.slots:
            if slot.bot is not None:
                slot.bot.budget = BUDGET  # a shorter search than the level's second: a quick test
        held = await watch(human, table)
        assert len(held) >= 8, held
        # Before: a window where no bot had anything to play closed in a few milliseconds.
        assert min(held) >= BUDGET * 0.6, sorted(held)
        await human.close()
    finally:
        await server.close()


async def test_a_remote_searching_bot_takes_the_same_time_whatever_it_could_choose() -> None:
    """The same for `fengsheng bot --level hard` (`play_as_bot`): before, it answered when its
    search was done, a one-option prompt at once."""
    timers = {k: 5.0 for k in ("play", "send", "response", "receive", "probe_discard")}
    table = Table("t", players=4, timers=timers, bot_delay=0.0, auto_start=True, seed=11)
    server = await started(table)
    tasks = []

    def hard(seat: int) -> object:
        bot = make_bot("hard", seat, seat)
        bot.budget = BUDGET
        return bot

    try:
        human = await join(server.port, "watcher")
        await human.ready(True)
        for n in range(3):
            client = await join(server.port, f"remote{n}", bot=True)
            tasks.append(asyncio.create_task(play_as_bot(client, hard)))
        held = await watch(human, table)
        assert len(held) >= 8, held
        assert min(held) >= BUDGET * 0.6, sorted(held)
        await human.close()
    finally:
        for task in tasks:
            task.cancel()
        await server.close()


async def test_fast_forward_never_shows_a_player_in_the_game_a_search_s_length() -> None:
    """A spectator's fast-forward skips the bots' delay once every living seat is played by a
    program, a living player's 托管 included: he still watches the table. Before, the searching
    bots then answered the moment their search was done, a one-option prompt at once."""
    timers = {k: 5.0 for k in ("play", "send", "response", "receive", "probe_discard")}
    table = Table("t", players=4, timers=timers, bot_delay=0.0, auto_start=True, seed=11)
    server = await started(table)
    try:
        human = await join(server.port, "watcher")
        await human.ready(True)
        for _ in range(3):
            table.add_bot("hard")
        for _ in range(100):
            if table.game is not None:
                break
            await asyncio.sleep(0.02)
        assert table.game is not None
        for slot in table.slots:
            if slot.bot is not None:
                slot.bot.budget = BUDGET
        await human.auto(True)  # 托管: a bot answers his prompts; he watches
        fan = await join(server.port, "fan", spectate=True)
        await fan.fast_forward(True)
        held = await watch(human, table)
        assert table._hurry(), "the table should be fast-forwarding"
        assert len(held) >= 8, held
        assert min(held) >= BUDGET * 0.6, sorted(held)
        await fan.close()
        await human.close()
    finally:
        await server.close()
