"""The browser door serves the game and nothing else: fixed files, one socket, limits, no commands.

Raw HTTP over TCP (so no client tidies a path before it is sent) against a real `fengsheng host
--web`, and real WebSocket clients from several loopback addresses against a `WebDoor`.
"""

from __future__ import annotations

import asyncio
import json
import re
import socket
from pathlib import Path

import aiohttp
import pytest

from fengsheng_tui.doors.guest import loopback_source
from fengsheng_tui.doors.web import CSP, WebDoor
from net.server import GameServer
from net.table import Table

from .conftest import Host

FILES = ["/", "/static/textual.js", "/static/xterm.css", "/static/RobotoMono.ttf", "/static/door.css",
         "/static/door.js"]
#: Every way to ask for another file, a listing or textual-serve's other routes.
OTHER_PATHS = [
    "/etc/passwd", "/../../../../etc/passwd", "/static/../../../../etc/passwd",
    "/static/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd", "/static/..%2f..%2f..%2f..%2fetc%2fpasswd",
    "/%2e%2e/%2e%2e/%2e%2e/etc/passwd", "//etc/passwd", "/static//etc/passwd", "/static/", "/static",
    "/static/js/textual.js", "/static/fonts/", "/static/textual.js/../../server.py", "/download/x",
    "/ws/../static/../../etc/passwd", "/static/door.js%00.png", "/.git/config", "/pyproject.toml",
    "/static/..\\..\\..\\etc\\passwd", "/?file=/etc/passwd&x=../../etc/passwd",
]


def raw_get(port: int, path: str, method: str = "GET") -> tuple[int, bytes]:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    status = int(data.split(b" ", 2)[1])
    return status, data.partition(b"\r\n\r\n")[2]


def test_serves_its_own_files_and_nothing_from_elsewhere(web_host: Host) -> None:
    for path in FILES:
        status, body = raw_get(web_host.web_port, path)
        assert status == 200, path
        if path.endswith(".css"):
            # Styles load nothing but this door's own files (what scripts load, the Chromium test sees).
            text = body.decode()
            assert "@import" not in text, path
            for target in re.findall(r"url\(\s*['\"]?([^'\")]+)", text):
                assert target.startswith(("/static/", "data:")), (path, target)
    page = raw_get(web_host.web_port, "/")[1].decode()
    assert "googleapis" not in page and "风声" in page
    for src in re.findall(r'(?:href|src)="([^"]+)"', page):
        assert src.startswith("/static/") or src.startswith("data:"), src


def test_headers_forbid_loading_from_elsewhere(web_host: Host) -> None:
    with socket.create_connection(("127.0.0.1", web_host.web_port), timeout=10) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        head = sock.recv(65536).partition(b"\r\n\r\n")[0].decode()
    assert f"Content-Security-Policy: {CSP}" in head
    assert "default-src 'none'" in CSP and "connect-src 'self'" in CSP


def test_no_other_path_of_the_disk(web_host: Host) -> None:
    page = raw_get(web_host.web_port, "/")[1]
    for path in OTHER_PATHS:
        status, body = raw_get(web_host.web_port, path)
        assert status in (400, 404) or (status == 200 and body == page), (path, status, body[:200])
        assert b"root:" not in body and b"[project]" not in body and b"import " not in body, path
    for method in ("POST", "PUT", "DELETE"):
        assert raw_get(web_host.web_port, "/", method)[0] == 405


def test_a_page_of_another_site_gets_no_client(web_host: Host) -> None:
    async def go() -> int:
        async with aiohttp.ClientSession() as http:
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await http.ws_connect(f"ws://127.0.0.1:{web_host.web_port}/ws",
                                      headers={"Origin": "http://evil.example"})
            return refused.value.status

    assert asyncio.run(go()) == 403
    assert not web_host.guest_pids()


async def first_bytes(ws: aiohttp.ClientWebSocketResponse, timeout: float = 15.0) -> bytes:
    """What the terminal shows first: the guest's screen, or the door's one-line refusal."""
    data = b""
    async with asyncio.timeout(timeout):
        async for message in ws:
            if message.type == aiohttp.WSMsgType.BINARY:
                data += message.data
                if len(data) > 200 or b"\r\n  " in data[:4]:
                    return data
    return data


async def rest_of(ws: aiohttp.ClientWebSocketResponse, timeout: float = 15.0) -> bytes:
    """Everything the socket shows until the door closes it, then the close reason (the page's bar)."""
    data = b""
    async with asyncio.timeout(timeout):
        while True:
            message = await ws.receive()
            if message.type == aiohttp.WSMsgType.BINARY:
                data += message.data
            elif message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING):
                return data + f"\nclosed {message.data}: {message.extra or ''}".encode()


class Guests:
    """WebSocket clients bound to chosen loopback source addresses."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.sessions: list[aiohttp.ClientSession] = []

    async def open(self, source: str) -> aiohttp.ClientWebSocketResponse:
        http = aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(source, 0)))
        self.sessions.append(http)
        return await http.ws_connect(f"ws://127.0.0.1:{self.port}/ws?width=80&height=24")

    async def close(self) -> None:
        for http in self.sessions:
            await http.close()


async def test_guest_limits_per_address_and_in_all() -> None:
    door = WebDoor("127.0.0.1", 9, table="limits", listen="127.0.0.1", max_guests=3, max_per_address=2)
    await door.start()
    guests = Guests(door.port)
    try:
        a1, a2, b1 = [await guests.open(ip) for ip in ("127.0.0.1", "127.0.0.1", "127.0.0.2")]
        for ws in (a1, a2, b1):
            assert "你的名字".encode() in await first_bytes(ws)
        a3 = await guests.open("127.0.0.1")
        assert b"at most 2 browser sessions from one address" in await first_bytes(a3)
        # Full: a newcomer from an address with none takes the oldest prompt place of the address
        # holding two (its fair share is one of three); once every address holds one, it is full.
        c1 = await guests.open("127.0.0.3")
        assert "你的名字".encode() in await first_bytes(c1)
        assert b"Door full: your place went to another address" in await rest_of(a1)
        d1 = await guests.open("127.0.0.4")
        assert b"browser door is full (3 guests)" in await first_bytes(d1)
        assert len(door.guests) == 3
        await b1.close()
        for _ in range(100):
            if len(door.guests) == 2:
                break
            await asyncio.sleep(0.05)
        d2 = await guests.open("127.0.0.4")
        assert "你的名字".encode() in await first_bytes(d2)
    finally:
        await guests.close()
        await door.close()
    assert not door.guests


async def test_nothing_sent_becomes_a_command(tmp_path: Path) -> None:
    """The table name and every socket message are data: no shell ever sees them."""
    trap = tmp_path / "pwned"
    name = f"$(touch {trap}) `touch {trap}`; touch {trap} | touch {trap}"
    door = WebDoor("127.0.0.1", 9, table=name, listen="127.0.0.1")
    await door.start()
    guests = Guests(door.port)
    try:
        ws = await guests.open("127.0.0.1")
        await first_bytes(ws)
        for junk in ("not json", "{}", "[]", '["exec", "touch ' + str(trap) + '"]', '["stdin", 5]',
                     '["resize", {"width": "$(id)", "height": -1}]', '["resize", "x"]', '["ping", {"a": 1}]',
                     '["open_url", {"url": "http://evil.example"}]', '["quit"]'):
            await ws.send_str(junk)
        await ws.send_bytes(b"\x00binary")
        await asyncio.sleep(1.0)
        assert len(door.guests) == 1  # junk is ignored: the guest's client is still at its prompt
        await ws.send_str('["stdin", "\\u001b"]')  # Esc at the name prompt: the guest leaves
        for _ in range(100):
            if not door.guests:
                break
            await asyncio.sleep(0.05)
        assert not door.guests
    finally:
        await guests.close()
        await door.close()
    assert not trap.exists()


async def test_each_browser_has_its_own_config_folder_named_by_a_hash() -> None:
    """The cookie picks the guest's config folder (seat tokens, settings): only a hash of a
    well-formed one names it; anything else gets a folder for that session alone."""
    door = WebDoor("127.0.0.1", 9, table="--port", listen="127.0.0.1")
    await door.start()
    try:
        async with aiohttp.ClientSession() as http:
            async with http.get(f"http://127.0.0.1:{door.port}/") as page:
                cookie = page.headers["Set-Cookie"]
            assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
            name, _, browser = cookie.partition(";")[0].partition("=")
            assert name == "fengsheng_browser"
            folders = []
            for value in (browser, browser, "../../../../etc/passwd", "x" * 31 + "/"):
                ws = await http.ws_connect(f"ws://127.0.0.1:{door.port}/ws",
                                           headers={"Cookie": f"fengsheng_browser={value}"})
                assert "你的名字".encode() in await first_bytes(ws)  # the table name did not end the argv
                (guest,) = door.guests
                folders.append(guest.folder)
                assert guest.folder.parent == door.root and guest.folder.stat().st_mode & 0o077 == 0
                assert value not in str(guest.folder)
                await ws.close()
                for _ in range(100):
                    if not door.guests:
                        break
                    await asyncio.sleep(0.05)
            same, again, odd, short = folders
            assert same == again and re.fullmatch(r"[0-9a-f]{32}", same.name) and same.exists()
            assert odd != short and odd.name.startswith("tab-") and not odd.exists() and not short.exists()
    finally:
        await door.close()
    assert door.root is not None and not door.root.exists()


async def test_each_guest_reaches_the_table_from_an_address_of_his_own() -> None:
    """The server's per-address rules apply per guest: one guest's failed passwords do not make
    another wait (both come in over loopback, each from his own 127/8 address)."""
    server = GameServer("127.0.0.1", 0)
    server.add_table(Table("锁", players=4, identities="novice", bot_delay=0.0, password="secret", open_host=True))
    await server.start()
    door = WebDoor("127.0.0.1", server.port, table="锁", listen="127.0.0.1")
    await door.start()
    guests = Guests(door.port)
    readers = []
    a_source, b_source = loopback_source("127.0.0.2"), loopback_source("127.0.0.3")
    assert a_source and b_source and a_source != b_source
    shown: dict[aiohttp.ClientWebSocketResponse, bytearray] = {}

    async def refused_again(ws: aiohttp.ClientWebSocketResponse, keys: str) -> None:
        """Type `keys`, then wait for the prompt to come back with its password field."""
        start = len(shown[ws])
        await ws.send_str(json.dumps(["stdin", keys]))
        async with asyncio.timeout(30):
            while "牌桌密码".encode() not in shown[ws][start:]:
                await asyncio.sleep(0.05)
        await asyncio.sleep(0.2)

    async def read(ws: aiohttp.ClientWebSocketResponse) -> None:
        async for message in ws:
            if message.type == aiohttp.WSMsgType.BINARY:
                shown[ws] += message.data

    async def send(ws: aiohttp.ClientWebSocketResponse, keys: str) -> None:
        await ws.send_str(json.dumps(["stdin", keys]))
        await asyncio.sleep(0.3)

    try:
        a, b = await guests.open("127.0.0.2"), await guests.open("127.0.0.3")
        for ws in (a, b):
            assert "你的名字".encode() in await first_bytes(ws)
            shown[ws] = bytearray()
            readers.append(asyncio.create_task(read(ws)))
        await refused_again(a, "Ann\r")  # no password: refused, and the prompt asks for one
        for _ in range(5):
            await send(a, "\r")  # from the name field to the password field
            await refused_again(a, "wrong\r")
        assert server.auth._fails[a_source][0] == 6 and server.auth.wait(a_source) > 0  # Ann must wait now
        await refused_again(b, "Bo\r")
        await send(b, "\r")
        await b.send_str(json.dumps(["stdin", "secret\r"]))
        table = server.tables["锁"]
        for _ in range(200):
            if any(slot.name == "Bo" for slot in table.slots):
                break
            await asyncio.sleep(0.05)
        assert [slot.name for slot in table.slots] == ["Bo"]
        assert "127.0.0.1" not in server.auth._fails and server.auth.wait(b_source) == 0
    finally:
        for task in readers:
            task.cancel()
        await guests.close()
        await door.close()
        await server.close()


async def test_guests_opening_at_once_cannot_overshoot_the_limit() -> None:
    door = WebDoor("127.0.0.1", 9, table="rush", listen="127.0.0.1", max_guests=2, max_per_address=2)
    await door.start()
    guests = Guests(door.port)
    try:
        sockets = await asyncio.gather(*(guests.open("127.0.0.1") for _ in range(5)))
        shown = await asyncio.gather(*(first_bytes(ws) for ws in sockets))
        assert sum("你的名字".encode() in screen for screen in shown) == 2
        assert sum(b"at most 2 browser sessions" in screen for screen in shown) == 3
    finally:
        await guests.close()
        await door.close()


async def test_a_full_door_never_ends_a_guest_at_the_table() -> None:
    """Before: the door's places were first come, first served until the name prompt's 300 s: a
    stranger with a few addresses held them all, reopening tabs as they timed out. Now a newcomer
    takes a place still at the prompt (the client tells the door when its guest is at the table),
    never that of a guest at the table."""
    server = GameServer("127.0.0.1", 0)
    server.add_table(Table("满", players=4, identities="novice", bot_delay=0.0, open_host=True))
    await server.start()
    door = WebDoor("127.0.0.1", server.port, table="满", listen="127.0.0.1", max_guests=3, max_per_address=3)
    await door.start()
    guests = Guests(door.port)
    try:
        seated = [await guests.open("127.0.0.2") for _ in range(2)]
        for n, ws in enumerate(seated):
            assert "你的名字".encode() in await first_bytes(ws)
            await ws.send_str(json.dumps(["stdin", f"P{n}\r"]))
        table = server.tables["满"]
        for _ in range(300):  # (a door that keeps no such word: seated is enough)
            if len(table.slots) == 2 and all(getattr(g, "at_table", True) for g in door.guests):
                break
            await asyncio.sleep(0.05)
        assert sorted(slot.name for slot in table.slots) == ["P0", "P1"]
        waiting = await guests.open("127.0.0.2")
        assert "你的名字".encode() in await first_bytes(waiting)
        newcomer = await guests.open("127.0.0.3")  # 127.0.0.2 holds 3: its guest at the prompt goes
        assert "你的名字".encode() in await first_bytes(newcomer)
        assert "closed 4000: 入口已满，位置让给了别的地址 · Door full: your place went to another address.".encode() \
            in await rest_of(waiting)  # the reason the page's bar shows
        late = await guests.open("127.0.0.4")  # the two left of 127.0.0.2 are at the table
        assert b"browser door is full (3 guests)" in await first_bytes(late)
        assert sorted(slot.name for slot in table.slots) == ["P0", "P1"]
        assert all(slot.session is not None for slot in table.slots)
    finally:
        await guests.close()
        await door.close()
        await server.close()
