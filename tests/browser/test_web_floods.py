"""What one stranger can do to the browser door with raw TCP and sockets: hold no connection for
long, hold only a few at once, and reach no guest through another site's name (DNS rebinding).

Real `WebDoor`s on loopback, raw sockets from chosen 127/8 source addresses.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import time

import aiohttp
import pytest

from fengsheng_tui.doors.web import WebDoor

from .test_web_routes import first_bytes


def slow_client(port: int, source: str) -> socket.socket:
    """A connection that sends half a request and then nothing (slowloris)."""
    sock = socket.socket()
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", port))
    sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
    return sock


def closed(sock: socket.socket, wait: float) -> bool:
    """Whether the door has closed this connection within `wait` seconds."""
    sock.settimeout(wait)
    try:
        return sock.recv(1) == b""
    except TimeoutError:
        return False
    except OSError:  # reset: closed too
        return True


async def page_from(port: int, source: str) -> int:
    connector = aiohttp.TCPConnector(local_addr=(source, 0))
    async with aiohttp.ClientSession(connector=connector) as http, http.get(f"http://127.0.0.1:{port}/") as page:
        await page.read()
        return page.status


async def test_slow_and_many_connections_hold_nothing(caplog: pytest.LogCaptureFixture) -> None:
    """Before: every half-sent request was kept for an hour, however many came from one address
    (3000 held 3000 file descriptors of the host process, which the game server shares)."""
    door = WebDoor("127.0.0.1", 9, table="flood", listen="127.0.0.1", connections_per_address=6,
                   max_connections=10, idle_seconds=1.5)
    await door.start()
    socks: list[socket.socket] = []
    try:
        with caplog.at_level(logging.WARNING, "fengsheng.web"):
            socks = [await asyncio.to_thread(slow_client, door.port, "127.0.0.5") for _ in range(40)]
            await asyncio.sleep(0.3)
            shut = await asyncio.gather(*(asyncio.to_thread(closed, s, 0.2) for s in socks))
            assert sum(not c for c in shut) == 6  # the rest were closed as they came
            # Another address still gets the page while the first one floods.
            assert await page_from(door.port, "127.0.0.6") == 200
            started = time.monotonic()
            held = [s for s, c in zip(socks, shut, strict=True) if not c]
            assert all(await asyncio.gather(*(asyncio.to_thread(closed, s, 5) for s in held)))
            assert time.monotonic() - started < 4  # the half-sent requests were dropped after 1.5 s
            for _ in range(50):
                if not door.connections:
                    break
                await asyncio.sleep(0.05)
            assert door.connections == {}  # the door's count follows every close
        lines = [r for r in caplog.records if "closed at once" in r.getMessage()]
        assert 1 <= len(lines) <= 10  # 34 refusals, a few lines in the host's log
    finally:
        for sock in socks:
            sock.close()
        await door.close()


async def test_the_total_is_capped_across_addresses() -> None:
    door = WebDoor("127.0.0.1", 9, table="flood", listen="127.0.0.1", connections_per_address=6,
                   max_connections=8, idle_seconds=5)
    await door.start()
    socks: list[socket.socket] = []
    try:
        for n in range(12):
            socks.append(await asyncio.to_thread(slow_client, door.port, f"127.0.1.{n + 1}"))
        await asyncio.sleep(0.3)
        shut = await asyncio.gather(*(asyncio.to_thread(closed, s, 0.2) for s in socks))
        assert sum(not c for c in shut) == 8
    finally:
        for sock in socks:
            sock.close()
        await door.close()


@pytest.mark.parametrize("host", ["evil.example", "evil.example:{port}", "127.0.0.1.evil.example:{port}"])
async def test_a_page_of_another_name_gets_no_client(host: str) -> None:
    """DNS rebinding: a page of evil.example, whose name now points at the door, opens the socket
    from its own origin, so Origin and Host agree. Before: it got a guest client (its name prompt)."""
    door = WebDoor("127.0.0.1", 9, table="rebind", listen="127.0.0.1")
    await door.start()
    try:
        host = host.format(port=door.port)
        async with aiohttp.ClientSession() as http:
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await http.ws_connect(f"ws://127.0.0.1:{door.port}/ws",
                                      headers={"Host": host, "Origin": f"http://{host}"})
            assert refused.value.status == 403
            assert not door.guests
            for own in (f"127.0.0.1:{door.port}", f"localhost:{door.port}", f"{socket.gethostname()}:{door.port}"):
                ws = await http.ws_connect(f"ws://127.0.0.1:{door.port}/ws",
                                           headers={"Host": own, "Origin": f"http://{own}"})
                assert "你的名字".encode() in await first_bytes(ws)
                await ws.close()
    finally:
        await door.close()


async def test_junk_a_socket_sends_is_ignored(caplog: pytest.LogCaptureFixture) -> None:
    """Before: 30,000 nested brackets (60 KB, under the message cap) raised RecursionError out of
    the relay: a traceback in the host's log for each such message, and the guest was ended."""
    door = WebDoor("127.0.0.1", 9, table="junk", listen="127.0.0.1")
    await door.start()
    try:
        async with aiohttp.ClientSession() as http:
            ws = await http.ws_connect(f"ws://127.0.0.1:{door.port}/ws?width=80&height=24")
            assert "你的名字".encode() in await first_bytes(ws)
            with caplog.at_level(logging.INFO, "fengsheng.web"):
                for junk in ("[" * 30000 + "]" * 30000, '{"a":' * 10000 + "1" + "}" * 10000,
                             '["stdin", ' + "[" * 25000 + "]" * 25000 + "]", '["resize", {"width": 1e999}]',
                             '["resize", {"width": "NaN", "height": true}]', "[" + "1," * 20000 + "1]",
                             '["stdin", "a\\ud800b"]', '["stdin", "\\udfff"]'):
                    await ws.send_str(junk)
                await ws.send_str('["ping", "still there"]')
                answered = False
                async with asyncio.timeout(10):
                    async for message in ws:
                        if message.type == aiohttp.WSMsgType.TEXT and "still there" in message.data:
                            answered = True
                            break
                        assert message.type == aiohttp.WSMsgType.BINARY, message
                assert answered and len(door.guests) == 1, (ws.close_code, ws.exception())
            assert not [r for r in caplog.records if r.exc_info], "a traceback in the host's log"
            await ws.close()
    finally:
        await door.close()


async def test_opening_sockets_in_a_loop_starts_few_clients() -> None:
    """Before: every socket started a game client (about a second of CPU each): one stranger
    opening and closing sockets in a loop, four at a time, kept most of a core busy. Now each
    address has a budget of client starts (a burst, then one per `spawn_seconds`)."""
    from .test_web_routes import Guests

    door = WebDoor("127.0.0.1", 9, table="loop", listen="127.0.0.1", spawn_burst=3, spawn_seconds=60)
    await door.start()
    guests = Guests(door.port)
    try:
        shown = []
        for _ in range(5):
            ws = await guests.open("127.0.0.7")
            shown.append(await first_bytes(ws))
            await ws.close()
        assert ["你的名字".encode() in screen for screen in shown] == [True, True, True, False, False]
        assert b"too many new sessions from one address: reload in" in shown[3]
        other = await guests.open("127.0.0.8")  # another address has its own budget
        assert "你的名字".encode() in await first_bytes(other)
    finally:
        await guests.close()
        await door.close()
