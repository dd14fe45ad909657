"""A door's guest client: name prompt first, back to it (with the reason) when the server refuses.

Real server on loopback, the app under Pilot. Also: the client starts without a tty only under
Textual's web driver (what textual-serve runs it with), and still refuses otherwise.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import AsyncIterator

import pytest
from textual.widgets import Input, Static

from fengsheng_tui.app import FengshengApp
from fengsheng_tui.doors.guest import GuestDoor
from fengsheng_tui.screens.guest import GuestScreen
from net.server import GameServer
from net.table import Table

from .waiting import wait_exit, wait_until


@pytest.fixture
async def locked() -> AsyncIterator[GameServer]:
    srv = GameServer("127.0.0.1", 0)
    srv.add_table(Table("桌", players=4, identities="novice", bot_delay=0.0, password="secret", open_host=True))
    await srv.start()
    try:
        yield srv
    finally:
        await srv.close()


def hint(app: FengshengApp) -> str:
    return str(app.screen.query_one("#guest-hint", Static).render())


async def test_name_first_then_the_table(server: tuple[GameServer, Table]) -> None:
    srv, table = server
    app = FengshengApp(lang="zh", player_name="", keymap={}, guest=GuestDoor("127.0.0.1", srv.port, "桌"))
    async with app.run_test(size=(80, 24)) as pilot:
        assert isinstance(app.screen, GuestScreen)
        await pilot.press("enter")  # no name yet: the prompt stays, and says why
        await wait_until(pilot, lambda: "请先输入名字" in hint(app))
        assert isinstance(app.screen, GuestScreen)
        for key in "Ann":
            await pilot.press(key)
        await pilot.press("enter")
        await wait_until(pilot, lambda: table.slots)
        assert [slot.name for slot in table.slots] == ["Ann"]
        assert not isinstance(app.screen, GuestScreen)


async def test_a_password_is_asked_when_the_server_wants_one(locked: GameServer) -> None:
    app = FengshengApp(lang="en", player_name="Bo", keymap={}, guest=GuestDoor("127.0.0.1", locked.port))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")  # the default name; no password field yet
        await wait_until(pilot, lambda: isinstance(app.screen, GuestScreen) and app.screen.query("#guest-password")
                         and "Wrong password" in hint(app))
        screen = app.screen
        assert isinstance(screen, GuestScreen) and "Wrong password" in hint(app)
        assert screen.query_one("#guest-name", Input).value == "Bo"  # the name typed is kept
        await pilot.press("enter")  # from the name field, Enter moves to the password
        for key in "secret":
            await pilot.press(key)
        await pilot.press("enter")
        table = next(iter(locked.tables.values()))
        await wait_until(pilot, lambda: table.slots)
        assert [slot.name for slot in table.slots] == ["Bo"]


async def test_an_idle_name_prompt_closes() -> None:
    app = FengshengApp(lang="en", keymap={}, guest=GuestDoor("127.0.0.1", 9, idle_seconds=0.3))
    async with app.run_test(size=(80, 24)):
        await wait_exit(app)
    assert app.return_code == 1


def run_client(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "fengsheng_tui.doors.guest", "--port", "9", "--idle", "0.5", *args],
                          stdin=subprocess.PIPE, capture_output=True, timeout=30, env=env)


def test_no_tty_refused_except_under_the_web_driver() -> None:
    env = {k: v for k, v in os.environ.items() if k != "TEXTUAL_DRIVER"}
    refused = run_client(env)
    assert refused.returncode == 2 and b"needs a terminal" in refused.stderr
    served = run_client({**env, "TEXTUAL_DRIVER": "textual.drivers.web_driver:WebDriver"})
    assert served.stdout.startswith(b"__GANGLION__\n"), served.stderr[-500:]
