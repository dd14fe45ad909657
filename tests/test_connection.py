"""FramedConnection over real TCP on 127.0.0.1: round trips and hostile peers."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest

from net import protocol as p
from net.connection import ConnectionClosed, FramedConnection, RateLimiter, open_connection
from net.protocol import ProtocolError

Handler = Callable[[FramedConnection], Awaitable[None]]


class Server:
    """A tiny server: one FramedConnection per client, running ``handler`` (echo by default)."""

    def __init__(self, handler: Handler | None = None, **options: Any) -> None:
        self.handler = handler or self.echo
        self.options = options
        self.conns: list[FramedConnection] = []
        self.errors: list[ProtocolError] = []
        self.port = 0
        self._server: asyncio.Server | None = None

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        assert self._server is not None
        self._server.close()
        for conn in self.conns:
            conn.abort("test over")
        for conn in self.conns:
            await conn.wait_closed()
        await self._server.wait_closed()

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        conn = FramedConnection(reader, writer, **self.options)
        self.conns.append(conn)
        try:
            await self.handler(conn)
        except ConnectionClosed:
            pass
        finally:
            await conn.close()

    async def echo(self, conn: FramedConnection) -> None:
        while True:
            try:
                msg = await conn.read_message()
            except ProtocolError as exc:
                self.errors.append(exc)
                if exc.fatal:
                    return
                conn.send(exc.to_message())
                continue
            conn.send(msg)


@pytest.fixture
async def make_server() -> AsyncIterator[Callable[..., Awaitable[Server]]]:
    servers: list[Server] = []

    async def make(handler: Handler | None = None, **options: Any) -> Server:
        server = Server(handler, **options)
        await server.start()
        servers.append(server)
        return server

    yield make
    for server in servers:
        await server.stop()


async def read_raw(reader: asyncio.StreamReader) -> dict[str, Any]:
    length = p.frame_length(await reader.readexactly(p.HEADER_SIZE))
    return p.decode(await reader.readexactly(length))


async def expect_eof(reader: asyncio.StreamReader, within: float) -> None:
    """The server closed: EOF (or a reset, if our unread bytes were discarded)."""
    async with asyncio.timeout(within):
        with contextlib.suppress(ConnectionResetError):
            while await reader.read(65536):
                pass


# ----------------------------------------------------------------------------- round trips


async def test_frames_round_trip(make_server: Callable[..., Awaitable[Server]]) -> None:
    server = await make_server()
    client = await open_connection("127.0.0.1", server.port)
    messages = [
        p.hello("老王"),
        p.choose(7, "pass"),
        p.say("你好"),
        p.op("kick", {"seat": 3}),
        {"type": "update", "view": {"blob": "字" * 80_000}, "events": list(range(1000))},
    ]
    for msg in messages:
        assert client.send(msg)
    for msg in messages:
        assert await client.read_message(timeout=5) == msg
    await client.close()


async def test_idle_timeout_keeps_the_connection(make_server: Callable[..., Awaitable[Server]]) -> None:
    server = await make_server()
    client = await open_connection("127.0.0.1", server.port)
    with pytest.raises(TimeoutError):
        await client.read_message(timeout=0.1)
    client.send(p.ping(1))
    assert await client.read_message(timeout=5) == p.ping(1)
    await client.close()


async def test_close_is_seen_by_both_sides(make_server: Callable[..., Awaitable[Server]]) -> None:
    seen: list[BaseException] = []

    async def handler(conn: FramedConnection) -> None:
        try:
            await conn.read_message()
        except ConnectionClosed as exc:
            seen.append(exc)

    server = await make_server(handler)
    client = await open_connection("127.0.0.1", server.port)
    await client.close()
    with pytest.raises(ConnectionClosed):
        await client.read_message()
    assert not client.send(p.ping(1))
    async with asyncio.timeout(5):
        while not seen:
            await asyncio.sleep(0.01)


async def test_bad_frame_is_answered_and_the_connection_survives(
    make_server: Callable[..., Awaitable[Server]],
) -> None:
    server = await make_server()
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    bomb = b"\x81\xa4type\xdd" + (p.MAX_FRAME - 11).to_bytes(4, "big") + b"\x90" * (p.MAX_FRAME - 11)
    for body in (b"\xc1garbage", b"\x91" * 10_000 + b"\xc0", bomb):
        writer.write(p.HEADER.pack(len(body)) + body)
        reply = await read_raw(reader)
        assert reply["type"] == "error" and reply["code"] == p.BAD_FRAME
    writer.write(p.encode_frame(p.ping(9)))
    assert await read_raw(reader) == p.ping(9)
    writer.close()


# ----------------------------------------------------------------------------- hostile peers


async def test_oversized_length_closes_without_reading_the_body(
    make_server: Callable[..., Awaitable[Server]],
) -> None:
    server = await make_server(frame_timeout=30)
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    started = time.monotonic()
    writer.write(p.HEADER.pack(p.MAX_FRAME + 1))  # header only: a server that waited for the body would hang
    reply = await read_raw(reader)
    assert reply["code"] == p.TOO_LARGE
    await expect_eof(reader, within=5)
    assert time.monotonic() - started < 5
    assert [e.code for e in server.errors] == [p.TOO_LARGE] and server.errors[0].fatal
    writer.close()


async def test_huge_declared_length_with_body_bytes_is_dropped(
    make_server: Callable[..., Awaitable[Server]],
) -> None:
    server = await make_server(frame_timeout=30)
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    writer.write(b"\xff\xff\xff\xff" + b"x" * 100_000)
    await expect_eof(reader, within=5)
    assert server.errors[0].code == p.TOO_LARGE
    writer.close()


@pytest.mark.parametrize(
    "partial", [b"\x00\x00", b"\x00\x00\x00\x64" + b"\x82" * 10], ids=["half-header", "half-body"]
)
async def test_half_frame_then_stall_is_dropped(
    make_server: Callable[..., Awaitable[Server]], partial: bytes
) -> None:
    server = await make_server(frame_timeout=0.3)
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    started = time.monotonic()
    writer.write(partial)
    # Meanwhile another client is served as usual.
    other = await open_connection("127.0.0.1", server.port)
    other.send(p.ping(5))
    assert await other.read_message(timeout=5) == p.ping(5)
    reply = await read_raw(reader)
    assert reply["code"] == p.BAD_FRAME and "not completed" in reply["message"]
    await expect_eof(reader, within=5)
    assert 0.25 < time.monotonic() - started < 5
    assert server.errors[0].fatal
    other.send(p.ping(6))
    assert await other.read_message(timeout=5) == p.ping(6)
    await other.close()
    writer.close()


def test_rate_limiter_refuses_a_flood_then_refills() -> None:
    now = [100.0]
    limiter = RateLimiter(rate=2, burst=5, clock=lambda: now[0])
    assert [limiter.allow() for _ in range(8)] == [True] * 5 + [False] * 3
    now[0] += 1.0  # two tokens back
    assert [limiter.allow() for _ in range(3)] == [True, True, False]
    now[0] += 60.0  # never more than the burst
    assert sum(limiter.allow() for _ in range(10)) == 5
    with pytest.raises(ValueError):
        RateLimiter(rate=0, burst=5)


async def test_rate_limiter_refuses_a_flood_over_tcp(make_server: Callable[..., Awaitable[Server]]) -> None:
    server = await make_server(limiter=RateLimiter(rate=1, burst=5))
    client = await open_connection("127.0.0.1", server.port)
    for n in range(50):
        client.send(p.ping(n))
    replies = [await client.read_message(timeout=5) for _ in range(50)]
    echoed = [r for r in replies if r["type"] == "ping"]
    refused = [r for r in replies if r["type"] == "error"]
    assert 5 <= len(echoed) <= 7
    assert len(echoed) + len(refused) == 50
    assert {r["code"] for r in refused} == {p.RATE_LIMITED}
    await client.close()


async def _connect_lazy_reader(port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A client with a tiny receive window that will never read."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
    return await asyncio.open_connection(sock=sock)


async def test_client_that_never_reads_cannot_grow_the_queue(
    make_server: Callable[..., Awaitable[Server]],
) -> None:
    peaks = {"frames": 0, "bytes": 0}
    result: dict[str, Any] = {}
    big = {"type": "update", "view": {"blob": "x" * 60_000}, "events": []}

    async def flood(conn: FramedConnection) -> None:
        conn.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
        sent = 0
        while sent < 2_000 and conn.send(big):
            sent += 1
            peaks["frames"] = max(peaks["frames"], conn.queued_frames)
            peaks["bytes"] = max(peaks["bytes"], conn.queued_bytes)
            await asyncio.sleep(0)
        result["sent"] = sent
        result["reason"] = conn.close_reason

    server = await make_server(flood, max_queue_frames=8, max_queue_bytes=300_000)
    reader, writer = await _connect_lazy_reader(server.port)
    async with asyncio.timeout(10):
        while "sent" not in result:
            await asyncio.sleep(0.01)
    assert result["sent"] < 2_000, "the connection should have been dropped"
    assert peaks["frames"] <= 8 and peaks["bytes"] <= 300_000
    assert "not reading" in result["reason"]
    await server.conns[0].wait_closed()
    writer.close()


async def test_blocked_writer_is_dropped_after_write_timeout(
    make_server: Callable[..., Awaitable[Server]],
) -> None:
    big = {"type": "update", "view": {"blob": "x" * 60_000}, "events": []}

    async def stuff(conn: FramedConnection) -> None:
        conn.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
        while conn.queued_frames < 2:  # the socket is full and the writer is blocked in drain()
            assert conn.send(big)
            await asyncio.sleep(0.01)
        await conn.wait_closed()

    server = await make_server(stuff, write_timeout=0.3)
    reader, writer = await _connect_lazy_reader(server.port)
    async with asyncio.timeout(10):
        while not server.conns or not server.conns[0].closing:
            await asyncio.sleep(0.01)
        await server.conns[0].wait_closed()
    assert "did not read" in (server.conns[0].close_reason or "")
    writer.close()
