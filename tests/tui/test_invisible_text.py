"""Text that draws otherwise than it is counted never reaches a screen: names and chat holding the
invisible Hangul fillers (the layout counts them 0 cells, terminals 2), unassigned code points
(terminals give them no width, the layout one or two) or a stack of combining marks. The server
lets them through (each name and line has a visible character); the one rule of `net/text.py`
drops them wherever untrusted text is shown. Real server on loopback, the others raw clients."""

from __future__ import annotations

import re
import unicodedata

from fengsheng_tui.app import FengshengApp
from fengsheng_tui.screens.table_lobby import TableLobbyScreen
from fengsheng_tui.session import NetSession
from net.client import Client
from net.server import GameServer
from net.table import Table

from .screen_text import screen_text
from .waiting import wait_until

FILLERS = "\u115f\u1160\u3164\uffa0"
NAMES = ("Bob" + "\u3164" * 10 + "\u1160" * 10, "Zoe" + "e" + "\u0301" * 20, "Kim\u0378\uffff\U000effff")
LINE = "\u3164" * 150 + "hi " + "e" + "\u0301" * 30 + "\u0378\uffff!"


def odd(text: str) -> list[str]:
    """What in `text` draws otherwise than it is counted."""
    found = [f"U+{ord(ch):04X}" for ch in text if ch in FILLERS or unicodedata.category(ch) == "Cn"]
    found += [f"{len(run)} marks" for run in re.findall("[\u0300-\u036f]{5,}", text)]
    return found


async def test_names_and_chat_that_draw_otherwise_than_counted_are_cleaned() -> None:
    """Before: the lobby row of `Bob` + 20 fillers was 40 cells wider in a terminal than the app
    counted it, and a chat line of 150 fillers ran 300 cells past the screen's edge."""
    table = Table("t", players=4, identities="novice", bot_delay=0.0)
    server = GameServer("127.0.0.1", 0)
    server.add_table(table)
    await server.start()
    others = [Client() for _ in NAMES]
    app = FengshengApp(NetSession("127.0.0.1", server.port, "Ann"), lang="en", keymap={})
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, TableLobbyScreen) and bool(app.state.lobby))
            for client, name in zip(others, NAMES, strict=True):
                await client.connect("127.0.0.1", server.port, name)  # the server takes each name
            assert [slot.name for slot in table.slots][1:] == list(NAMES)
            await others[0].chat(LINE)
            await wait_until(pilot, lambda: "hi " in screen_text(app) and "Kim" in screen_text(app))
            text = screen_text(app)
            assert not odd(text), odd(text)
            assert "Bob" in text and "Zoe" + "e" + "\u0301" * 4 in text and "hi " + "e" + "\u0301" * 4 + "!" in text
    finally:
        for client in others:
            await client.close()
        await server.close()
