"""A right-to-left name cannot move the text around it in a terminal that reorders lines by the
Unicode bidi algorithm (GNOME Terminal and every VTE one, Konsole, mlterm). Before, the digits and
box lines after a Hebrew name joined it, up to the next Hebrew name, into one right-to-left run:
two seats' boxes drawn side by side swapped their names (`╭─ שלום ─╮ ╭─ דני ─╮` showed
`╭─ ינד ─╮ ╭─ םולש ─╮`). Each screen line of the real app, at a real server on loopback, goes
through GNU FriBidi (the library VTE reorders with) as such a terminal would show it: only the
letters of the Hebrew names themselves may change places."""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util

import pytest

from fengsheng_tui.app import FengshengApp
from fengsheng_tui.screens.table import TableScreen
from fengsheng_tui.screens.table_lobby import TableLobbyScreen
from fengsheng_tui.session import NetSession
from net.client import Client
from net.server import GameServer
from net.table import Table
from net.text import LRM

from .screen_text import screen_text
from .waiting import wait_until

LONG = dict.fromkeys(("play", "send", "response", "receive", "probe_discard", "turn_window"), 600.0)
#: Seats 2 and 4: their boxes face each other across the table, on the same screen lines.
NAMES = ("שלום", "Bob", "דני 7")
RTL = (NAMES[0], NAMES[2])


def fribidi() -> ctypes.CDLL:
    path = ctypes.util.find_library("fribidi") or "libfribidi.so.0"
    try:
        lib = ctypes.CDLL(path)
    except OSError:
        pytest.skip("GNU FriBidi (libfribidi0) is not installed")
    lib.fribidi_log2vis.restype = ctypes.c_int8
    return lib


def visual_order(lib: ctypes.CDLL, line: str) -> list[int]:
    """For each column of what a bidi terminal shows (a left-to-right paragraph), the index of
    the character of `line` drawn there."""
    n = len(line)
    text = (ctypes.c_uint32 * n)(*map(ord, line))
    shown = (ctypes.c_uint32 * n)()
    v_to_l = (ctypes.c_int * n)()
    base = ctypes.c_uint32(0x110)  # FRIBIDI_PAR_LTR
    lib.fribidi_log2vis(text, n, ctypes.byref(base), shown, None, v_to_l, None)
    return list(v_to_l)


def moved_outside_names(lib: ctypes.CDLL, line: str) -> list[str]:
    """The characters of `line` that a bidi terminal draws elsewhere, but for the letters of a
    right-to-left name reversed within the name's own span."""
    spans = set()
    for name in RTL:
        start = line.find(name)
        while start >= 0:
            spans.update(range(start, start + len(name)))
            start = line.find(name, start + 1)
    return [f"{line[logical]!r}@{logical}->{column}" for column, logical in enumerate(visual_order(lib, line))
            if logical != column and not (logical in spans and column in spans)]


async def test_right_to_left_names_move_nothing_around_them() -> None:
    lib = fribidi()
    table = Table("t", players=4, identities="novice", bot_delay=0.0, timers=LONG, open_host=True)
    server = GameServer("127.0.0.1", 0)
    server.add_table(table)
    await server.start()
    others = [Client() for _ in NAMES]
    app = FengshengApp(NetSession("127.0.0.1", server.port, "Ann"), lang="en", keymap={})
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, TableLobbyScreen) and bool(app.state.lobby))
            for client, name in zip(others, NAMES, strict=True):
                await client.connect("127.0.0.1", server.port, name)
                await client.ready(True)
            await wait_until(pilot, lambda: len((app.state.lobby or {}).get("seats") or []) == 4)
            lobby = screen_text(app)
            await pilot.press("r")
            await wait_until(pilot, lambda: table.phase == "playing" and isinstance(app.screen, TableScreen)
                             and all(name in screen_text(app) for name in RTL) and "⏳" in screen_text(app),
                             timeout=20)
            game = screen_text(app)
            assert [slot.name for slot in table.slots] == ["Ann", *NAMES]  # the server keeps the names as given
            for screen in (lobby, game):
                moved = {line: found for line in screen.splitlines() if (found := moved_outside_names(lib, line))}
                assert not moved, moved
            assert LRM in game  # (how: a left-to-right mark ends each right-to-left name)
    finally:
        for client in others:
            await client.close()
        await server.close()
        await asyncio.sleep(0)
