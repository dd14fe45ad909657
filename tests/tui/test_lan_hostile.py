"""Hostile LAN adverts, registered for real on loopback mDNS: discovery validates every TXT value,
the LAN lobby and `fengsheng browse` (plain and --json) show them as plain, printable text, a
`[@click=...]` table name runs nothing when its row is clicked, and another protocol version is
listed as incompatible and cannot be joined.

Loopback mDNS is shared by every process on the machine: each advert has a unique instance name,
and nothing here counts services. Only 127.0.0.1 is used (never the default interfaces).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import secrets
import shutil
import socket
import sys
import tempfile
import unicodedata
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from textual.widgets import OptionList
from zeroconf import IPVersion
from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf

from fengsheng_tui.app import FengshengApp
from fengsheng_tui.screens.lobby import LobbyScreen
from net.discovery import SERVICE_TYPE, Browser, Change, GameFound
from net.version import PROTOCOL_VERSION

from .test_safe_text import assert_inert, wait_for

LOOPBACK = ["127.0.0.1"]
REPO = Path(__file__).resolve().parents[2]
CONTROLS = b"\x1b]0;pwn\x07\x1b]52;c;cHduZWQ=\x07\xc2\x9b2J\xe2\x80\xae\xe2\x80\x8b"
UNPRINTABLE = ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")


def unique(prefix: str) -> str:
    return f"{prefix}-{os.getpid()}-{secrets.token_hex(3)}"


#: What draws otherwise than it is counted (net/text.py): invisible fillers, unassigned code points,
#: a stack of 12 combining marks.
ODD = "\u3164\u3164\uffa0\u0378\uffff" + "e" + "\u0301" * 12


def printable(text: str) -> bool:
    marks = max((len(run) for run in re.findall("[\u0300-\u036f]+", text)), default=0)
    return marks <= 4 and all(unicodedata.category(ch) not in UNPRINTABLE and ch not in "\u3164\uffa0"
                              for ch in text)


class Adverts:
    """Raw zeroconf registrations (not our Advertiser, which only writes honest TXT)."""

    def __init__(self, shots: Path) -> None:
        self.shots = shots
        # Short enough to survive the 64-character cap on table names whole.
        self.click = f"[@click=app.screenshot('x','{shots}')]click me[/]"
        self.evil = unique("evil")
        self.other = unique("other")
        self.broken = unique("broken")
        self.adverts = {
            self.evil: {b"v": str(PROTOCOL_VERSION).encode(), b"name": self.click.encode() + CONTROLS,
                        b"seats": b"99999/1", b"phase": b"\x1b[2Jlobby", b"pw": b"1"},
            self.other: {b"v": str(PROTOCOL_VERSION + 1).encode(), b"name": b"[bold red on white]newer" + ODD.encode(),
                         b"seats": b"1/4", b"phase": b"lobby", b"pw": b"0"},
            self.broken: {b"v": b" 1", b"name": b"\xff\xfe" + CONTROLS * 4, b"seats": b"-1/4", b"phase": b"x" * 200},
        }
        self.azc: AsyncZeroconf | None = None
        self.infos: list[AsyncServiceInfo] = []
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        self.port = listener.getsockname()[1]
        listener.close()

    async def __aenter__(self) -> Adverts:
        self.azc = AsyncZeroconf(interfaces=LOOPBACK, ip_version=IPVersion.V4Only)
        for label, txt in self.adverts.items():
            info = AsyncServiceInfo(SERVICE_TYPE, f"{label}.{SERVICE_TYPE}", port=self.port, properties=txt,
                                    parsed_addresses=["127.0.0.1"], server=f"{label}.local.")
            await (await self.azc.async_register_service(info))
            self.infos.append(info)
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self.azc is not None
        for info in self.infos:
            await (await self.azc.async_unregister_service(info))
        await self.azc.async_close()


@pytest.fixture
async def adverts() -> AsyncIterator[Adverts]:
    shots = Path(tempfile.mkdtemp(prefix="f", dir="/tmp"))
    try:
        async with Adverts(shots) as registered:
            yield registered
    finally:
        shutil.rmtree(shots)


async def seen(browser: Browser, labels: set[str]) -> dict[str, GameFound]:
    found: dict[str, GameFound] = {}
    async with asyncio.timeout(10):
        async for event in browser:
            if event.game.name in labels and event.change is not Change.REMOVED:
                found[event.game.name] = event.game
                if set(found) == labels:
                    return found
    raise AssertionError("the browser stopped")


async def test_discovery_validates_every_txt_value(adverts: Adverts) -> None:
    async with Browser(LOOPBACK) as browser:
        games = await seen(browser, {adverts.evil, adverts.other, adverts.broken})
    evil, other, broken = games[adverts.evil], games[adverts.other], games[adverts.broken]
    assert evil.table.startswith(adverts.click) and printable(evil.table) and len(evil.table) <= 64
    assert (evil.seats_taken, evil.seats_total, evil.phase, evil.password) == (0, 0, "unknown", True)
    assert evil.compatible and not other.compatible and other.version == PROTOCOL_VERSION + 1
    assert (broken.version, broken.seats_total, broken.phase) == (0, 0, "unknown") and not broken.compatible
    assert other.table == "[bold red on white]newer" + "e" + "\u0301" * 4 and printable(other.table)
    assert printable(broken.table) and len(broken.table) <= 64


async def test_fengsheng_browse_prints_sanitized_values(adverts: Adverts) -> None:
    async def browse(*extra: str) -> str:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "fengsheng_tui.cli", "browse", "--timeout", "2", "--interface", "127.0.0.1",
            *extra, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
            env={**os.environ, "PYTHONPATH": str(REPO)}, cwd=REPO)
        out, err = await asyncio.wait_for(proc.communicate(), 30)
        assert proc.returncode == 0, err.decode()
        return out.decode()

    text, listing = await asyncio.gather(browse(), browse("--json"))
    # Other processes on this machine advertise too (loopback mDNS is shared): ours are on our port.
    lines = [line for line in text.splitlines() if f"127.0.0.1:{adverts.port} " in line]
    assert len(lines) == 3 and all(printable(line) for line in lines), lines
    assert any(adverts.click in line for line in lines)
    assert any("newer" in line and "(incompatible)" in line for line in lines)
    games = {game["name"]: game for game in json.loads(listing)}
    assert games[adverts.evil]["compatible"] is True and games[adverts.other]["compatible"] is False
    for label in (adverts.evil, adverts.other, adverts.broken):
        assert all(printable(str(value)) for value in games[label].values())
    assert printable(listing.strip())


async def test_the_lan_lobby_lists_hostile_adverts_as_plain_text(adverts: Adverts) -> None:
    app = FengshengApp(lang="en", keymap={}, lobby=True, interfaces=LOOPBACK)
    async with app.run_test(size=(200, 40)) as pilot:
        def listed() -> set[str]:
            screen = app.screen
            return {game.name for game in screen.games.values()} if isinstance(screen, LobbyScreen) else set()

        await wait_for(pilot, lambda: {adverts.evil, adverts.other} <= listed())
        await pilot.pause()
        text = assert_inert(app)
        assert adverts.click in text and "[bold red on white]newer" in text
        assert "another version, cannot join" in text
        games = app.screen.query_one("#games", OptionList)
        rows = [games.get_option_at_index(i) for i in range(games.option_count)]
        newer = next(row for row in rows if "newer" in str(row.prompt))
        assert newer.disabled
        evil_row = next(i for i, row in enumerate(rows) if "click me" in str(row.prompt))
        await pilot.click("#games", offset=(4, 1 + evil_row))
        await wait_for(pilot, lambda: games.highlighted == evil_row)  # the click was handled
        assert not list(adverts.shots.iterdir())  # the table name ran no action
