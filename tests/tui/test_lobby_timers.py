"""The host changes the timers and the bots' delay in the table lobby (`d`), and everyone in the
lobby sees the values. Real TCP on 127.0.0.1."""

from __future__ import annotations

from fengsheng_tui.app import FengshengApp
from fengsheng_tui.screens.table_lobby import TableLobbyScreen
from fengsheng_tui.screens.timers import TimersScreen
from fengsheng_tui.session import NetSession
from net.client import Client
from net.server import GameServer
from net.table import Table

from .screen_text import screen_text
from .test_lobby_host import next_lobby, wait_for
from .waiting import settled


def flat(app: FengshengApp) -> str:
    """The screen's words with line breaks and margins as single spaces (the timers line wraps)."""
    return " ".join(screen_text(app).split())


async def test_the_host_sets_a_timer_and_the_bots_delay_and_a_guest_sees_both(
        server: tuple[GameServer, Table]) -> None:
    srv, table = server
    app = FengshengApp(NetSession("127.0.0.1", srv.port, "老板"), lang="zh", keymap={})
    guest = Client()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, TableLobbyScreen) and bool(app.state.lobby)
                       and app.state.lobby.get("host") is True)
        await guest.connect("127.0.0.1", srv.port, "客人")
        assert "机器人等待：0秒" in screen_text(app)
        await pilot.press("d")
        await wait_for(pilot, lambda: isinstance(app.screen, TimersScreen))
        assert "出牌：‹ 30秒 ›" in screen_text(app)
        await pilot.press("right")  # the first row: the play timer, 5 s a step
        await wait_for(pilot, lambda: table.timers["play"] == 35.0)
        seen = await next_lobby(guest)
        while seen["timers"]["play"] != 35.0:
            seen = await next_lobby(guest)
        await pilot.press("up")  # round to the last row: the bots' delay, 0.2 s a step
        await pilot.press("right", "right")
        await wait_for(pilot, lambda: table.bot_delay == 0.4)
        while seen["bot_delay"] != 0.4:
            seen = await next_lobby(guest)
        await wait_for(pilot, lambda: "机器人等待：‹ 0.4秒 ›" in screen_text(app))
        await pilot.press("left")
        await wait_for(pilot, lambda: table.bot_delay == 0.2)
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, TableLobbyScreen))
        await wait_for(pilot, lambda: "机器人等待：0.2秒" in screen_text(app) and "出牌35秒" in screen_text(app))
        await guest.close()


async def test_a_guest_cannot_open_the_timers(server: tuple[GameServer, Table]) -> None:
    srv, table = server
    host = Client()
    await host.connect("127.0.0.1", srv.port, "老板")
    app = FengshengApp(NetSession("127.0.0.1", srv.port, "客人"), lang="zh", keymap={})
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, TableLobbyScreen) and bool(app.state.lobby))
        await pilot.press("d")
        await settled(pilot, app)  # the key was handled, and anything it sent has reached the table
        assert isinstance(app.screen, TableLobbyScreen) and table.timers["play"] == 30.0
    await host.close()


async def test_every_timer_the_server_has_is_a_row_the_host_sets_and_a_guest_sees(
        server: tuple[GameServer, Table]) -> None:
    """The turn-window, skill and pick timers too, not only those a lobby lists by default; the
    turn windows step by a second, and a step never goes past the server's bounds."""
    srv, table = server
    app = FengshengApp(NetSession("127.0.0.1", srv.port, "Boss"), lang="en", keymap={})
    guest = Client()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, TableLobbyScreen) and bool(app.state.lobby)
                       and app.state.lobby.get("host") is True)
        await guest.connect("127.0.0.1", srv.port, "Guest")
        await pilot.press("d")
        await wait_for(pilot, lambda: isinstance(app.screen, TimersScreen))
        text = screen_text(app)
        for row in ("pick (with characters): ‹ 30s ›", "skill (with characters): ‹ 15s ›", "turn windows: ‹ 5s ›"):
            assert row in text, row
        await pilot.press("up", "up")  # round past the bots' delay to the last timer: the turn windows
        await wait_for(pilot, lambda: app.screen.row == 7)
        await pilot.press("left")
        await wait_for(pilot, lambda: table.timer("turn_window") == 4.0)
        for _ in range(5):  # down to the server's least (1 s), and no further
            await pilot.press("left")
        await wait_for(pilot, lambda: table.timer("turn_window") == 1.0 and "turn windows: ‹ 1s ›" in screen_text(app))
        await pilot.press("up", "right")  # the skill timer, 5 s a step
        await wait_for(pilot, lambda: table.timer("skill") == 20.0)
        seen = await next_lobby(guest)
        while seen["timers"]["skill"] != 20.0:
            seen = await next_lobby(guest)
        assert seen["timers"]["turn_window"] == 1.0
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, TableLobbyScreen))
        await pilot.press("h")  # characters on: the lobby shows the pick and skill timers as well
        await wait_for(pilot, lambda: "skill 20s" in flat(app) and "turn windows 1s" in flat(app))
        assert "pick 30s" in flat(app)
        await guest.close()
