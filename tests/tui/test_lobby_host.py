"""A table set up with `fengsheng host` can be started from `fengsheng join`: its first player holds
the host rights, only the host sees (and can use) the host keys, remote bots are ready at once,
and a full table that is all ready starts. Real TCP on 127.0.0.1 throughout.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from fengsheng_tui.app import FengshengApp
from fengsheng_tui.i18n import Words
from fengsheng_tui.screens.table import TableScreen
from fengsheng_tui.screens.table_lobby import TableLobbyScreen
from fengsheng_tui.session import NetSession
from net.client import Client
from net.server import GameServer
from net.table import Table

from .screen_text import screen_text
from .waiting import settled

VENV_BIN = Path(sys.executable).parent


async def wait_for(pilot: Pilot[Any] | None, cond: Callable[[], bool], seconds: float = 10.0) -> None:
    for _ in range(int(seconds / 0.02)):
        if cond():
            return
        if pilot is not None:
            await pilot.pause(0.02)
        else:
            await asyncio.sleep(0.02)
    raise AssertionError("condition never held")


async def next_lobby(client: Client) -> dict[str, Any]:
    async with asyncio.timeout(5):
        while True:
            msg = await client.recv()
            assert msg is not None
            if msg["type"] == "lobby":
                return dict(msg["table"])


async def test_host_rights_go_to_the_first_player_and_pass_on_when_he_leaves(
        server: tuple[GameServer, Table]) -> None:
    srv, table = server
    first = Client()
    welcome = await first.connect("127.0.0.1", srv.port, "老板")
    assert welcome["host"] is True
    app = FengshengApp(NetSession("127.0.0.1", srv.port, "客人"), lang="zh", keymap={})
    words = Words("zh")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, TableLobbyScreen) and bool(app.state.lobby)
                       and words("guest_hint") in screen_text(app))
        text = screen_text(app)
        assert app.state.lobby is not None and app.state.lobby["host"] is False
        assert f"s {words('start')}" not in text and words("add_bot") not in text
        assert words("table_options") in text and words("guest_hint") in text
        assert "novice" not in text and "resolved" not in text and "play=" not in text
        await pilot.press("b")
        await settled(pilot, app)
        assert len(table.slots) == 2  # a guest's `b` does nothing: no bot, no error
        await first.close()
        await wait_for(pilot, lambda: bool((app.state.lobby or {}).get("host"))
                       and f"s {words('start')}" in screen_text(app))
        await pilot.press("b")
        await wait_for(pilot, lambda: len(table.slots) == 2 and table.slots[1].bot_level == "normal")
        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen) and app.state.view is not None)
        assert table.phase == "playing"


async def test_remote_bots_are_ready_at_once_and_an_all_ready_full_table_starts(
        server: tuple[GameServer, Table]) -> None:
    srv, table = server
    human = Client()
    await human.connect("127.0.0.1", srv.port, "人")
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    bots = await asyncio.create_subprocess_exec(
        str(VENV_BIN / "fengsheng"), "bot", "--connect", f"127.0.0.1:{srv.port}", "--count", "3",
        "--delay", "0", stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, env=env)
    try:
        await wait_for(None, lambda: len(table.slots) == 4 and all(s.ready for s in table.slots[1:]), 20)
        assert not table.slots[0].ready and table.phase == "lobby"
        assert table.slots[0].host and not any(s.host for s in table.slots[1:])
        await human.ready(True)
        await wait_for(None, lambda: table.phase == "playing")
    finally:
        bots.terminate()
        await bots.wait()
        await human.close()


def test_server_errors_are_shown_in_the_players_language() -> None:
    assert Words("zh").error("not_host", "only the host may do that") == "错误：只有房主可以这样做"
    assert Words("en").error("not_host", "only the host may do that") == "Error: Only the host may do that"
    assert Words("en").error("bad_state", "turn characters on first") == "Error: turn characters on first"


async def test_the_host_cycles_the_deck_with_k_and_the_game_uses_it(server: tuple[GameServer, Table]) -> None:
    """The later-edition deck is selectable in the table lobby (issue 6)."""
    srv, table = server
    app = FengshengApp(NetSession("127.0.0.1", srv.port, "老板"), lang="zh", keymap={})
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, TableLobbyScreen) and bool((app.state.lobby or {}).get("host")))

        def shown() -> bool:
            # The host presses again once his lobby shows the change (lobby frames are at most
            # every 0.1 s): `k` picks the variant after the one his screen shows.
            screen = app.screen
            return isinstance(screen, TableLobbyScreen) and screen.options.get("deck") == table.deck

        seen: list[str] = []
        for _ in range(4):
            await pilot.press("k")
            await wait_for(pilot, lambda: table.deck not in seen[-1:] and shown())
            seen.append(table.deck)
        assert "later" in seen
        while table.deck != "later":
            deck = table.deck
            await pilot.press("k")
            await wait_for(pilot, lambda deck=deck: table.deck != deck and shown())
        await wait_for(pilot, lambda: "后期版" in screen_text(app))
        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen) and app.state.view is not None)
        assert table.game is not None and table.game.state.config.deck == "later"


async def test_the_host_mutes_spectators_with_m_and_a_seat_with_slash_mute_and_spectators_are_marked(
        server: tuple[GameServer, Table]) -> None:
    srv, table = server
    app = FengshengApp(NetSession("127.0.0.1", srv.port, "老板"), lang="zh", keymap={})
    guest, fan = Client(), Client()
    words = Words("zh")
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: bool((app.state.lobby or {}).get("host")))
        await guest.connect("127.0.0.1", srv.port, "客人")
        await fan.connect("127.0.0.1", srv.port, "看客", spectate=True)
        await fan.chat("加油")
        await guest.chat("你好")
        await wait_for(pilot, lambda: "你好" in screen_text(app))
        text = screen_text(app)
        assert f"{words.label('said', who=words.marked('看客', words('spectator')))}加油" in text  # never passes for a player
        assert "客人：你好" in text
        await pilot.press("m")
        await wait_for(pilot, lambda: table.seats.spectators_muted)
        await pilot.press("c")
        await pilot.press(*"/mute 2", "enter")
        await wait_for(pilot, lambda: table.slots[1].muted)
        await wait_for(pilot, lambda: words("muted") in screen_text(app))
        await pilot.press("m")
        await wait_for(pilot, lambda: not table.seats.spectators_muted)
        assert "/mute" not in screen_text(app).split(words("chat"))[-1]  # the command was not chatted
    await guest.close()
    await fan.close()


async def test_the_host_picks_the_next_bots_level_with_l_and_the_seat_shows_it(
        server: tuple[GameServer, Table]) -> None:
    """`l` cycles the level the next `b` seats (random, basic, normal, hard); a level other than
    the usual one is shown beside the bot's seat."""
    srv, table = server
    app = FengshengApp(NetSession("127.0.0.1", srv.port, "Boss"), lang="en", keymap={})
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, TableLobbyScreen) and bool((app.state.lobby or {}).get("host")))
        await pilot.press("b")
        await wait_for(pilot, lambda: len(table.slots) == 2)
        await pilot.press("l")  # normal -> hard
        await wait_for(pilot, lambda: "The next bot added (b) plays at level hard" in screen_text(app))
        await pilot.press("b")
        await wait_for(pilot, lambda: len(table.slots) == 3)
        assert [s.bot_level for s in table.slots[1:]] == ["normal", "hard"]
        await wait_for(pilot, lambda: "bot (hard (thinks up to 1 s))" in screen_text(app))
        assert screen_text(app).count("bot (") == 1  # the normal one is just "bot"
