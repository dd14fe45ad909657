"""A human who says he is a bot (`bot: true` in his hello) is shown as a claim, never as one of the
table's own bots: the table cannot check that a program plays him. Real server on loopback, the
claimant a raw client, the other player the real app."""

from __future__ import annotations

import asyncio

from fengsheng_tui.app import FengshengApp
from fengsheng_tui.i18n import Words
from fengsheng_tui.screens.table import TableScreen
from fengsheng_tui.screens.table_lobby import TableLobbyScreen
from fengsheng_tui.session import NetSession
from net.client import Client
from net.server import GameServer
from net.table import Table

from .screen_text import screen_text
from .waiting import wait_until

LONG = dict.fromkeys(("play", "send", "response", "receive", "probe_discard", "turn_window"), 600.0)


async def test_a_client_saying_it_is_a_bot_is_shown_as_saying_so() -> None:
    """Before: in a game every seat of a `bot: true` client was `bot: true`, exactly as the table's
    own bots, and its lobby row read `bot (level_remote)` (a missing word)."""
    table = Table("t", players=4, identities="novice", bot_delay=0.0, timers=LONG, open_host=True)
    server = GameServer("127.0.0.1", 0)
    server.add_table(table)
    await server.start()
    words = Words("en")
    claimant = Client()
    app = FengshengApp(NetSession("127.0.0.1", server.port, "Ann"), lang="en", keymap={})
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, TableLobbyScreen) and bool(app.state.lobby))
            await claimant.connect("127.0.0.1", server.port, "me, a human", bot=True)
            await wait_until(pilot, lambda: len((app.state.lobby or {}).get("seats") or []) == 2)
            for seats in (3, 4):  # Ann holds the host rights: she adds two of the table's bots
                await pilot.press("b")
                await wait_until(pilot, lambda n=seats: len((app.state.lobby or {}).get("seats") or []) == n)
            await wait_until(pilot, lambda: len((app.state.lobby or {}).get("seats") or []) == 4)
            rows = [line for line in screen_text(app).splitlines() if line.strip()[:2] in ("2.", "3.", "4.")]
            assert len(rows) == 3 and "Bot 1" in rows[0]
            assert words("self_declared_bot") in rows[0] and "level_remote" not in rows[0]
            assert all(words("self_declared_bot") not in row and words("bot") in row for row in rows[1:])
            await claimant.ready(True)
            await pilot.press("r")
            await wait_until(pilot, lambda: table.phase == "playing" and isinstance(app.screen, TableScreen)
                             and app.state.view is not None, timeout=20)
            seats = {s["name"]: s["bot"] for s in app.state.view["seats"]}
            assert seats == {"Ann": False, "Bot 1": "remote", "Bot 2": True, "Bot 3": True}
            await wait_until(pilot, lambda: words("self_declared_bot") in screen_text(app))
            assert screen_text(app).count(words("self_declared_bot")) == 1  # the claimant's seat box alone
    finally:
        await claimant.close()
        await server.close()
        await asyncio.sleep(0)
