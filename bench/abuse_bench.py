"""Abuse benchmark: one hostile loopback address against honest players of the same server.

    .venv/bin/python bench/abuse_bench.py [--seconds 20] [--flooders 40]

1. Lock-out: 64 half-open connections and 60 idle spectators from 127.0.0.2, then honest joins
   from 127.0.0.1 (a fresh seat, a spectator, a dropped player's token): the time each takes.
2. Frame-cost flood: `--flooders` connections from 127.0.0.2 (a separate process) send frames at
   the inbound cap, each as costly to decode as its size allows, as fast as the socket takes them
   (and a 256 KiB header every fourth), reconnecting when dropped, while victim
   tables play with 1 s timers and bots that answer at once: deadlines missed (defaults taken)
   and the worst lateness of the table loop.
3. The server process's RSS before, at the peak, and after.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import statistics
import struct
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import msgpack  # noqa: E402

from bots import make_bot  # noqa: E402
from net import protocol as P  # noqa: E402
from net import server as server_module  # noqa: E402
from net.client import Client, ClientError, play_as_bot  # noqa: E402
from net.server import GameServer  # noqa: E402
from net.table import Table  # noqa: E402

#: The inbound cap (4 KiB); a tree from before the cap existed is flooded with 256 KiB frames.
MAX_CLIENT_FRAME = getattr(server_module, "MAX_CLIENT_FRAME", P.MAX_FRAME)

ATTACKER = "127.0.0.2"
TIMERS = {"play": 1.0, "send": 1.0, "response": 1.0, "receive": 1.0, "probe_discard": 1.0}


def rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def _join_time(port: int, name: str, **kw: object) -> float:
    """Seconds an honest join takes; infinite if it is refused (printed)."""
    start = time.perf_counter()
    client = Client()
    try:
        await client.connect("127.0.0.1", port, name, **kw)  # type: ignore[arg-type]
    except ClientError as exc:
        print(f"  {name}: refused: {exc.code}: {exc.message}")
        return float("inf")
    took = time.perf_counter() - start
    await client.close()
    return took


async def lockout(port: int, table: Table) -> None:
    writers = []
    for n in range(60):
        _, w = await asyncio.open_connection("127.0.0.1", port, local_addr=(ATTACKER, 0))
        w.write(P.encode_frame(P.hello(f"x{n}", spectate=True)))
        writers.append(w)
    for _ in range(64):
        _, w = await asyncio.open_connection("127.0.0.1", port, local_addr=(ATTACKER, 0))
        w.write(b"\x00\x00")
        writers.append(w)
    await asyncio.sleep(0.3)
    times = [await _join_time(port, f"Fan{n}", spectate=True) for n in range(5)]
    seat = await _join_time(port, "Player")
    print(f"lock-out: 64 half-open + 60 idle spectators from {ATTACKER}; "
          f"spectator joins from 127.0.0.1: median {statistics.median(times) * 1000:.1f} ms, "
          f"max {max(times) * 1000:.1f} ms; a fresh seat: {seat * 1000:.1f} ms; "
          f"spectators seated from {ATTACKER}: {sum(1 for s in table.sessions if s.seat is None)}")
    for w in writers:
        w.close()


def _flood(port: int, flooders: int, seconds: float) -> None:
    # As costly to decode as a frame of that size can be: arrays of 15 small ints, as many as the
    # container budget allows (an object per byte), which the schema then refuses.
    arrays = min((MAX_CLIENT_FRAME - 64) // 16, P.MAX_CONTAINERS - 8)
    body = msgpack.packb({"type": "chat", "text": [list(range(15))] * arrays})
    frame = (struct.pack(">I", len(body)) + body) * max(1, 65536 // len(body))
    big = struct.pack(">I", 256 * 1024) + b"\x80" * 4096  # the old attack: now refused from its header

    async def one(n: int) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            try:
                r, w = await asyncio.open_connection("127.0.0.1", port, local_addr=(ATTACKER, 0))
                w.write(P.encode_frame(P.hello(f"f{n}", spectate=True)))
                while time.monotonic() < end:
                    w.write(big if n % 4 == 0 else frame)
                    await asyncio.wait_for(w.drain(), 1.0)
                    if r.at_eof():
                        break
                    await asyncio.sleep(0)
            except (OSError, ConnectionError, TimeoutError):
                await asyncio.sleep(0.05)

    async def main() -> None:
        await asyncio.gather(*(one(n) for n in range(flooders)), return_exceptions=True)

    asyncio.run(main())


async def flood(port: int, tables: list[Table], flooders: int, seconds: float) -> None:
    clients = []
    for table in tables:
        client = Client()
        await client.connect("127.0.0.1", port, "victim", table=table.name, token=table.host_token)
        clients.append(client)

    async def games_in_a_row(client: Client) -> None:
        """The victim hosts its table: one game after another for as long as the flood lasts."""
        while True:
            await play_as_bot(client, lambda s: make_bot("random", s, 3), until_over=True)
            await client.op("start")

    games = [asyncio.create_task(games_in_a_row(c)) for c in clients]
    proc = multiprocessing.get_context("fork").Process(target=_flood, args=(port, flooders, seconds))
    before = sum(t.games_finished for t in tables)
    peak = rss_mib()
    proc.start()
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        await asyncio.sleep(0.5)
        peak = max(peak, rss_mib())
    proc.join(5)
    if proc.is_alive():
        proc.terminate()
    for g in games:
        g.cancel()
    decided = sum(len(t.game.choices) for t in tables if t.game is not None)
    missed = sum(t.timeouts for t in tables)
    lateness = max(t.max_lateness for t in tables)
    print(f"flood: {flooders} connections from {ATTACKER} for {seconds:g} s (frames at the {MAX_CLIENT_FRAME} B cap, "
          f"and 256 KiB headers); victim tables {len(tables)}: games finished {sum(t.games_finished for t in tables) - before}, "
          f"deadlines missed {missed} (choices in the last games {decided}), worst expiry lateness "
          f"{lateness * 1000:.1f} ms; peak RSS {peak:.1f} MiB")
    for c in clients:
        await c.close()


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--flooders", type=int, default=40)
    parser.add_argument("--tables", type=int, default=3)
    args = parser.parse_args()
    start_rss = rss_mib()
    server = GameServer("127.0.0.1", 0)
    lobby = server.add_table(Table("lobby", players=6, timers=TIMERS))
    tables = []
    for n in range(args.tables):
        table = Table(f"v{n}", players=4, timers=TIMERS, bot_delay=0.0, seed=n)
        for _ in range(3):
            table.add_bot("random")
        table.auto_start = True
        tables.append(server.add_table(table))
    await server.start()
    print(f"server RSS at start: {start_rss:.1f} MiB (pid {os.getpid()})")
    await lockout(server.port, lobby)
    await asyncio.sleep(0.5)
    await flood(server.port, tables, args.flooders, args.seconds)
    await asyncio.sleep(1.0)
    print(f"server RSS after: {rss_mib():.1f} MiB; connections open {server.connections}")
    await server.close()


if __name__ == "__main__":
    asyncio.run(main())
