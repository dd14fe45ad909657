"""A server that goes silent after the welcome (its machine asleep, its network gone, or hostile):
the client pings, and when nothing at all has come back for `SILENT_SERVER` seconds it gives the
connection up, so a player (or `fengsheng bot`) is not left before a frozen table; the app then
reconnects as after any drop. Real TCP on loopback, a server that reads and never answers."""

from __future__ import annotations

import asyncio
import struct
import time

import msgpack
from hostile_server import frame, honest_frames

from net import client as client_module
from net.client import Client


async def test_a_server_that_never_answers_a_ping_is_given_up() -> None:
    frames = honest_frames(1)
    pings = 0

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal pings
        (length,) = struct.unpack(">I", await reader.readexactly(4))
        await reader.readexactly(length)
        writer.write(frame(frames["welcome"]) + frame(frames["lobby"]))
        try:
            while True:  # read the pings, answer nothing
                (length,) = struct.unpack(">I", await reader.readexactly(4))
                pings += msgpack.unpackb(await reader.readexactly(length))["type"] == "ping"
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    saved = client_module.PING_INTERVAL, client_module.SILENT_SERVER
    client_module.PING_INTERVAL, client_module.SILENT_SERVER = 0.2, 0.7
    client = Client()
    try:
        await client.connect("127.0.0.1", port, "alice")
        start = time.monotonic()
        assert (await client.recv(timeout=2))["type"] == "lobby"  # type: ignore[index]
        assert await client.recv(timeout=3) is None  # the connection was given up
        assert 0.5 < time.monotonic() - start < 2.5
        assert pings >= 2 and client.closed
    finally:
        client_module.PING_INTERVAL, client_module.SILENT_SERVER = saved
        await client.close()
        server.close()
        await server.wait_closed()
