"""The protocol-based framing of FramedConnection over real TCP: frames cut from any split of
the byte stream, many frames per segment, and a bounded inbox when the application reads slowly."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator

import pytest

from net import protocol as p
from net.connection import DEFAULT_INBOX_FRAMES, FramedConnection


@pytest.fixture
async def accepted() -> AsyncIterator[tuple[asyncio.Queue[FramedConnection], int]]:
    """A server made with a protocol factory, as GameServer does; yields its connections."""
    conns: asyncio.Queue[FramedConnection] = asyncio.Queue()
    loop = asyncio.get_running_loop()
    server = await loop.create_server(
        lambda: FramedConnection(on_connect=conns.put_nowait, frame_timeout=5), "127.0.0.1", 0
    )
    yield conns, server.sockets[0].getsockname()[1]
    server.close()
    while not conns.empty():
        conns.get_nowait().abort("test over")


async def test_frames_split_anywhere_or_packed_together_arrive_whole_and_in_order(
    accepted: tuple[asyncio.Queue[FramedConnection], int],
) -> None:
    conns, port = accepted
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    sock = writer.get_extra_info("socket")
    assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
    conn = await asyncio.wait_for(conns.get(), 5)
    assert conn.get_extra_info("socket").getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
    messages = [p.choose(n, f"play:{n}:s1") for n in range(40)]
    stream = b"".join(p.encode_frame(m) for m in messages)
    # One byte per segment for the first frames, then uneven chunks, then the rest at once.
    cuts = [*range(1, 40), 57, 100, 101, 333, 600, len(stream)]
    start = 0
    for cut in cuts:
        writer.write(stream[start:cut])
        await writer.drain()
        await asyncio.sleep(0.001)
        start = cut
    got = [await conn.read_message(timeout=5) for _ in messages]
    assert got == messages
    writer.close()


async def test_a_peer_that_outpaces_the_reader_is_held_back_not_buffered_without_bound(
    accepted: tuple[asyncio.Queue[FramedConnection], int],
) -> None:
    conns, port = accepted
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    conn = await asyncio.wait_for(conns.get(), 5)
    frames = 5 * DEFAULT_INBOX_FRAMES
    sent = asyncio.ensure_future(_send_pings(writer, frames))
    await asyncio.sleep(0.3)  # nobody reads meanwhile
    # Frames are cut only up to the bound; the rest waits unparsed, then in the kernel's buffers.
    assert conn.received_frames == DEFAULT_INBOX_FRAMES
    got = [await conn.read_message(timeout=5) for _ in range(frames)]
    assert got == [p.ping(n) for n in range(frames)], "held back, never dropped"
    await asyncio.wait_for(sent, 5)
    writer.close()


async def _send_pings(writer: asyncio.StreamWriter, frames: int) -> None:
    sock = writer.get_extra_info("socket")
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    for n in range(frames):
        writer.write(p.encode_frame(p.ping(n)))
        await writer.drain()
