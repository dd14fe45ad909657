"""Hostile and faulty input on raw sockets: each gets an error or a disconnect for that connection
only, while an honest seat at the same table keeps playing to the end of its game."""

from __future__ import annotations

import asyncio
import random
import struct
from typing import Any

import msgpack

from bots import make_bot
from net import protocol as P
from net.client import Client, play_as_bot
from net.server import GameServer
from net.table import Table

LONG = {"play": 60.0, "send": 60.0, "response": 60.0, "receive": 60.0, "probe_discard": 60.0}
CAP = 8


class Raw:
    """A hand-driven socket that can send anything."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def open(cls, port: int, hello: bool = False) -> Raw:
        raw = cls(*await asyncio.open_connection("127.0.0.1", port))
        if hello:
            raw.send(P.hello("raw", spectate=True))
            assert (await raw.frame())["type"] == "welcome"
        return raw

    def send(self, msg: dict[str, Any]) -> None:
        self.bytes(P.encode_frame(msg))

    def body(self, body: bytes) -> None:
        self.bytes(struct.pack(">I", len(body)) + body)

    def bytes(self, data: bytes) -> None:
        self.writer.write(data)

    async def frame(self, timeout: float = 3.0) -> dict[str, Any]:
        """The next frame from the server ({} at end of stream)."""
        async with asyncio.timeout(timeout):
            try:
                (length,) = struct.unpack(">I", await self.reader.readexactly(4))
                msg: dict[str, Any] = msgpack.unpackb(await self.reader.readexactly(length))
                return msg
            except (asyncio.IncompleteReadError, ConnectionError):
                return {}

    async def next_of(self, kind: str, timeout: float = 3.0) -> dict[str, Any]:
        while (msg := await self.frame(timeout)) and msg["type"] != kind:
            pass
        return msg

    async def closed(self, timeout: float = 4.0) -> bool:
        async with asyncio.timeout(timeout):
            while await self.frame(timeout):
                pass
        return True

    def close(self) -> None:
        self.writer.close()


async def honest_table(**options: Any) -> tuple[GameServer, Table, Client, asyncio.Task[None]]:
    table = Table("t", players=4, timers=LONG, bot_delay=0.01, auto_start=True, seed=99)
    for _ in range(3):
        table.add_bot()
    server = GameServer("127.0.0.1", 0, max_connections=CAP, frame_timeout=0.5, hello_timeout=5.0, **options)
    server.add_table(table)
    await server.start()
    me = Client()
    await me.connect("127.0.0.1", server.port, "honest")
    game = asyncio.create_task(play_as_bot(me, lambda s: make_bot("random", s, 7), until_over=True))
    return server, table, me, game


async def assert_still_playing(table: Table, before: int) -> int:
    await asyncio.sleep(0.1)
    assert table.game is not None
    now = len(table.game.choices)
    assert now > before or table.game.over, "the honest table stopped moving"
    return now


async def test_every_hostile_input_hurts_only_its_own_connection() -> None:
    server, table, me, game = await honest_table()
    try:
        progress = await assert_still_playing(table, 0)

        # Garbage bytes instead of a hello: read as a huge length, refused before the body.
        raw = await Raw.open(server.port)
        raw.bytes(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        assert (await raw.frame())["code"] == P.TOO_LARGE and await raw.closed()

        # Garbage body in a well-sized frame: bad_frame, and no hello means goodbye.
        raw = await Raw.open(server.port)
        raw.body(b"\xc1\xc1\xc1\xc1")
        assert (await raw.frame())["code"] == P.BAD_FRAME and await raw.closed()

        # A frame one byte over the cap, and a declared length of 4 GiB: closed unread.
        for length in (P.MAX_FRAME + 1, 0xFFFFFFFF):
            raw = await Raw.open(server.port, hello=True)
            raw.bytes(struct.pack(">I", length) + b"\x80" * 64)
            assert (await raw.next_of("error"))["code"] == P.TOO_LARGE and await raw.closed()
        progress = await assert_still_playing(table, progress)

        # Deep nesting, wrong types, unknown message types: an error each, the connection lives on.
        raw = await Raw.open(server.port, hello=True)
        nested: Any = "x"
        for _ in range(200):
            nested = [nested]
        raw.body(msgpack.packb({"type": "chat", "text": nested}))
        assert (await raw.next_of("error"))["code"] == P.BAD_FRAME
        raw.body(msgpack.packb({"type": "choose", "prompt_id": "7", "option": 5}))
        assert (await raw.next_of("error"))["code"] == P.BAD_MESSAGE
        raw.body(msgpack.packb({"type": "choose", "prompt_id": True, "option": "pass"}))
        assert (await raw.next_of("error"))["code"] == P.BAD_MESSAGE
        raw.body(msgpack.packb({"type": "nuke", "all": True}))
        assert (await raw.next_of("error"))["code"] == P.UNKNOWN_TYPE
        raw.body(msgpack.packb([1, 2, 3]))
        assert (await raw.next_of("error"))["code"] == P.BAD_MESSAGE
        # A spectator choosing for a seat is refused too.
        prompt = next(iter(table.game.prompts.values()), None) if table.game else None
        raw.send(P.choose(prompt.id if prompt else 1, "pass"))
        assert (await raw.next_of("error"))["code"] in (P.NOT_YOUR_SEAT, P.BAD_STATE)
        raw.send(P.ping(41))
        assert (await raw.next_of("pong"))["n"] == 41
        raw.close()
        progress = await assert_still_playing(table, progress)

        # A flood: the burst is served, then rate_limited, then the connection is closed.
        raw = await Raw.open(server.port, hello=True)
        raw.bytes(P.encode_frame(P.ping(1)) * 600)
        codes = []
        while msg := await raw.frame():
            codes.append(msg.get("code") or msg["type"])
        assert P.RATE_LIMITED in codes and codes[-1] == "bye"
        progress = await assert_still_playing(table, progress)

        # Half a frame, then silence: dropped after the frame timeout (0.5 s here).
        raw = await Raw.open(server.port, hello=True)
        raw.bytes(struct.pack(">I", 100) + b"\x82" * 10)
        assert (await raw.next_of("error"))["code"] == P.BAD_FRAME and await raw.closed()

        # More connections than the cap: a newcomer pushes out the oldest connection still
        # without a hello (room kept for a returning seat); with none waiting, it is told full.
        idle = [await Raw.open(server.port) for _ in range(CAP - 1)]  # + the honest client = CAP
        extra = await Raw.open(server.port)
        assert (await idle[0].frame())["type"] == "bye" and await idle[0].closed()
        extra.send(P.hello("extra", spectate=True))
        assert (await extra.frame())["type"] == "welcome"
        for r in idle[1:]:
            r.send(P.hello(f"idle{idle.index(r)}", spectate=True))
            assert (await r.frame())["type"] == "welcome"
        late = await Raw.open(server.port)
        assert (await late.frame())["code"] == P.FULL and await late.closed()
        for r in [*idle, extra]:
            r.close()
        await asyncio.sleep(0.1)
        assert server.connections <= 2
        await assert_still_playing(table, progress)

        await asyncio.wait_for(game, 60)
        assert table.game is not None and table.game.over
        assert me.view is not None and me.view["over"]
        await me.close()
    finally:
        game.cancel()
        await server.close()


async def test_fuzzed_frames_never_crash_the_server() -> None:
    # A generous rate limit: this test is about decoding, not about floods.
    server, table, me, game = await honest_table(rate=10_000.0, burst=10_000)
    rng = random.Random(1234)
    valid = [P.encode(m) for m in (P.ping(3), P.say("hi"), P.choose(5, "pass"), P.op("start"), P.ready(True))]
    try:
        raw = await Raw.open(server.port, hello=True)
        for _ in range(300):
            body = bytearray(rng.choice(valid))
            for _ in range(rng.randint(1, 4)):
                body[rng.randrange(len(body))] = rng.randrange(256)
            if rng.random() < 0.2:
                body += bytes(rng.randrange(256) for _ in range(rng.randint(1, 20)))
            raw.body(bytes(body))
            raw.send(P.ping(9))
            reply = await raw.next_of("pong")
            if not reply:  # the connection was closed for this frame: open another
                raw = await Raw.open(server.port, hello=True)
        raw.close()
        await asyncio.wait_for(game, 60)
        assert table.game is not None and table.game.over
        await me.close()
    finally:
        game.cancel()
        await server.close()
