"""托管 and fast-forward from the table screen, over real TCP to a real server."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from fengsheng_tui.app import FengshengApp
from fengsheng_tui.local_game import start_local_table
from fengsheng_tui.screens.game_over import GameOverScreen
from fengsheng_tui.session import NetSession
from net.server import GameServer
from net.table import Table

from .screen_text import screen_text, widget_text
from .test_pace import wait_for
from .waiting import settled

LONG = {"play": 60.0, "send": 60.0, "response": 60.0, "receive": 60.0, "probe_discard": 60.0}


async def test_the_auto_key_hands_the_seat_to_a_bot_and_takes_it_back_with_the_open_prompt() -> None:
    local = await start_local_table(4, seed=5, bot_level="random", bot_delay=0.0, timers=LONG)  # `fengsheng play`
    table = local.table
    app = FengshengApp(NetSession("127.0.0.1", local.port, "Me", token=local.host_token), lang="en", keymap={})
    app.auto_pass = False  # only the bot may answer here
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            # A prompt of ours, then the host's pause: no bot may move while we look.
            await wait_for(pilot, lambda: app.state.prompt is not None and app.table_screen() is not None)
            seat = app.state.seat
            assert seat is not None
            prompt = app.state.prompt
            assert prompt is not None
            await pilot.press("b")
            await wait_for(pilot, lambda: table.timing.paused)
            await pilot.press("m")
            await wait_for(pilot, lambda: app.state.auto and table.slots[seat].auto)
            text = screen_text(app)
            assert "Auto-play on" in text and "Auto-play: a bot plays your seat" in text
            assert "[auto]" in widget_text(app, f".seat-{seat}")
            screen = app.table_screen()
            assert screen.chooser.prompt is None  # our keys do not answer while the bot plays
            await pilot.press("m")  # taken back mid-prompt: the open prompt is ours again
            await wait_for(pilot, lambda: not app.state.auto and not table.slots[seat].auto)
            again = app.state.prompt
            assert again is not None and again["id"] == prompt["id"] and again["deadline"] == prompt["deadline"]
            assert screen.chooser.prompt is not None and "[auto]" not in widget_text(app, f".seat-{seat}")
            assert "Auto-play" not in screen_text(app)
            # Handed over again and resumed: the bot answers the prompt that is open.
            await pilot.press("m")
            await wait_for(pilot, lambda: table.slots[seat].auto)
            await pilot.press("b")
            assert table.game is not None
            game = table.game
            await wait_for(pilot, lambda: any(c[:2] == (seat, prompt["id"]) for c in game.choices))
    finally:
        await local.close()


@pytest.fixture
async def all_bots() -> AsyncIterator[Table]:
    """A game of four slow bots (5 s a move) under way: watching it to the end would take minutes."""
    table = Table("bots", players=4, timers=LONG, bot_delay=5.0, seed=3, auto_start=True)
    for _ in range(4):
        table.add_bot("random")
    server = GameServer("127.0.0.1", 0)
    server.add_table(table)
    await server.start()
    table.extra_port = server.port  # type: ignore[attr-defined]
    try:
        yield table
    finally:
        await server.close()


async def test_a_spectator_fast_forwards_a_bots_game_to_the_game_over_screen(all_bots: Table) -> None:
    port = all_bots.extra_port  # type: ignore[attr-defined]
    app = FengshengApp(NetSession("127.0.0.1", port, "Watcher", spectate=True), lang="en", keymap={})
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.state.view is not None and app.table_screen() is not None)
        assert "Watching: > fast-forwards to the result" in screen_text(app)
        await pilot.press("m")  # a spectator has no seat to hand over
        await wait_for(pilot, lambda: "no seat" in " ".join(str(n.message) for n in app._notifications).lower()
                       or "spectat" in " ".join(str(n.message) for n in app._notifications).lower())
        await settled(pilot, app)
        assert all_bots.game is not None and not all_bots.game.over and not any(s.auto for s in all_bots.slots)
        await pilot.press("greater_than_sign")
        await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen), rounds=2000)
        assert all_bots.game.over


async def test_a_living_player_cannot_fast_forward() -> None:
    table = Table("solo", players=4, timers=LONG, bot_delay=0.3, seed=5, auto_start=True)
    for _ in range(3):
        table.add_bot("random")
    server = GameServer("127.0.0.1", 0)
    server.add_table(table)
    await server.start()
    app = FengshengApp(NetSession("127.0.0.1", server.port, "Me", token=table.host_token), lang="zh", keymap={})
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_for(pilot, lambda: app.state.view is not None and app.table_screen() is not None)
            await pilot.press("greater_than_sign")
            await wait_for(pilot, lambda: "只有出局的玩家或观战者能快进" in " ".join(str(n.message) for n in app._notifications))
            await settled(pilot, app)
            assert not any(s.fast_forward for s in table.sessions)
    finally:
        await server.close()
