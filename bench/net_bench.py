"""Network benchmarks for the game server (issue 3), all on loopback.

1. Choice → every seat updated: median and p99, against a plain asyncio msgpack echo round trip
   measured in the same run (target ratio ≤ 3). By default the table is the 9-player game with
   characters (one choice fans out to nine seats); `--players 6 --identities 3v3 --no-characters`
   measures the 6-player game.
2. Many tables of bot seats, each bot a real TCP client, against one server process: games per
   minute, server CPU and peak RSS, defaults applied on expiry (target: none, RSS ≤ 150 MB).
3. Bytes per game-state frame body, as the server sent them: median and largest.

Run: .venv/bin/python bench/net_bench.py [--choices 300] [--tables 50] [--players 9]
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bots import make_bot  # noqa: E402
from net import protocol as P  # noqa: E402
from net.client import Client, play_as_bot  # noqa: E402

SERVER = r"""
import asyncio, json, logging, sys
from net.server import GameServer
from net.table import Table
tables, players, identities = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
data_dir, characters = (sys.argv[4] if sys.argv[4] != "-" else None), sys.argv[5] == "1"
logging.disable(logging.INFO)
async def main():
    server = GameServer("127.0.0.1", 0, rate=1000.0, burst=1000, max_connections=tables * players + 16)
    for n in range(tables):
        table = Table(f"t{n}", players=players, identities=identities, characters=characters, auto_start=True,
                      data_dir=data_dir, bot_delay=0, timers={"response": 600.0, "play": 600.0, "send": 600.0,
                      "receive": 600.0, "probe_discard": 600.0, "character_pick": 600.0} if tables == 1 else None)
        table.frame_sizes = []
        server.add_table(table)
    await server.start()
    print(server.port, flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    ts = server.tables.values()
    print(json.dumps({"timeouts": sum(t.timeouts for t in ts), "max_lateness": max(t.max_lateness for t in ts),
                      "games": sum(t.games_finished for t in ts),
                      "sizes": [n for t in ts for n in t.frame_sizes or []]}), flush=True)
asyncio.run(main())
"""

ECHO = r"""
import asyncio, struct
async def echo(reader, writer):
    try:
        while True:
            header = await reader.readexactly(4)
            writer.write(header + await reader.readexactly(struct.unpack(">I", header)[0]))
            await writer.drain()
    except asyncio.IncompleteReadError:
        pass
async def main():
    server = await asyncio.start_server(echo, "127.0.0.1", 0)
    print(server.sockets[0].getsockname()[1], flush=True)
    await server.serve_forever()
asyncio.run(main())
"""


def spawn(script: str, *args: str) -> tuple[subprocess.Popen[str], int]:
    root = str(Path(__file__).resolve().parent.parent)
    proc = subprocess.Popen(
        [sys.executable, "-c", script, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=root
    )
    assert proc.stdout is not None
    return proc, int(proc.stdout.readline())


def proc_stats(pid: int) -> tuple[float, int]:
    """(CPU seconds used, peak RSS in bytes) of a process, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / 100.0
    peak = next(int(line.split()[1]) * 1024 for line in Path(f"/proc/{pid}/status").read_text().splitlines()
                if line.startswith("VmHWM"))
    return cpu, peak


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def echo_rtt(port: int, rounds: int) -> list[float]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    body = P.encode(P.choose(123, "play:12:s3"))
    frame = struct.pack(">I", len(body)) + body
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        writer.write(frame)
        header = await reader.readexactly(4)
        P.decode(await reader.readexactly(struct.unpack(">I", header)[0]))
        times.append(time.perf_counter() - t0)
    writer.close()
    return times


async def fanout(port: int, seats: int, choices: int) -> list[float]:
    """Time from sending a choice to the moment every seat holds the resulting update."""
    clients = []
    for n in range(seats):
        client = Client()
        await client.connect("127.0.0.1", port, f"seat{n}")
        clients.append(client)
    latest: dict[int, dict[str, Any]] = {}
    arrivals: dict[int, float] = {}
    all_in = asyncio.Event()

    async def reader(i: int, client: Client) -> None:
        async for msg in client:
            if msg["type"] == "update":
                latest[i] = msg["view"]
                arrivals[i] = time.perf_counter()
                if len(arrivals) == seats:
                    all_in.set()

    readers = [asyncio.create_task(reader(i, c)) for i, c in enumerate(clients)]
    times: list[float] = []
    while len(latest) < seats:
        await asyncio.sleep(0.01)
    while len(times) < choices:
        await asyncio.sleep(0.002)
        chooser = next((i for i, v in latest.items() if v["prompt"] is not None), None)
        if chooser is None:
            break  # game over
        prompt = latest[chooser]["prompt"]
        arrivals.clear()
        all_in.clear()
        t0 = time.perf_counter()
        await clients[chooser].choose(prompt["id"], prompt["default"])
        await all_in.wait()
        times.append(max(arrivals.values()) - t0)
    for task in readers:
        task.cancel()
    for client in clients:
        await client.close()
    return times


def random_bot(seat: int, seed: int) -> Any:
    return make_bot("random", seat, seed)


async def load(port: int, tables: int, players: int) -> float:
    """Every seat of every table a bot over TCP; returns the seconds until every game is over."""
    clients = []
    for t in range(tables):
        for n in range(players):
            client = Client()
            await client.connect("127.0.0.1", port, f"b{n}", table=f"t{t}")
            clients.append(client)
    t0 = time.perf_counter()
    await asyncio.gather(*(
        play_as_bot(c, functools.partial(random_bot, seed=i), until_over=True) for i, c in enumerate(clients)
    ))
    elapsed = time.perf_counter() - t0
    for client in clients:
        await client.close()
    return elapsed


def stop(server: subprocess.Popen[str]) -> dict[str, Any]:
    """Ask a bench server for its figures, then end it."""
    assert server.stdin is not None and server.stdout is not None
    server.stdin.write("\n")
    server.stdin.flush()
    summary: dict[str, Any] = json.loads(server.stdout.readline())
    server.kill()
    return summary


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--choices", type=int, default=300)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--players", type=int, default=9)
    parser.add_argument("--identities", default=None, help="default: 'default' with characters, else '3v3'")
    parser.add_argument("--no-characters", action="store_true", help="play without characters (4 or 6 seats)")
    parser.add_argument("--no-journal", action="store_true", help="measure without fsync to a data directory")
    args = parser.parse_args()
    characters = "0" if args.no_characters else "1"
    identities = args.identities or ("3v3" if args.no_characters else "default")
    game = (str(args.players), identities)
    label = f"{args.players} seats ({identities}{', characters' if characters == '1' else ''})"
    sizes: list[int] = []
    with tempfile.TemporaryDirectory() as tmp:
        data = "-" if args.no_journal else tmp
        echo, echo_port = spawn(ECHO)
        server, port = spawn(SERVER, "1", *game, data, characters)
        try:
            rtt = asyncio.run(echo_rtt(echo_port, 1000))
            fan: list[float] = []
            while len(fan) < args.choices:  # a game may end first: a fresh server deals a new one
                fan += asyncio.run(fanout(port, args.players, args.choices - len(fan)))
                sizes += stop(server)["sizes"]
                server, port = spawn(SERVER, "1", *game, data, characters)
        finally:
            echo.kill()
            server.kill()
        rtt_med, fan_med = statistics.median(rtt), statistics.median(fan)
        print(f"echo round trip: median {rtt_med * 1e3:.3f} ms, p99 {percentile(rtt, 0.99) * 1e3:.3f} ms")
        print(f"choice -> all {label} updated: median {fan_med * 1e3:.3f} ms, "
              f"p99 {percentile(fan, 0.99) * 1e3:.3f} ms over {len(fan)} choices; "
              f"ratio to echo: median {fan_med / rtt_med:.2f}, p99 {percentile(fan, 0.99) / rtt_med:.2f}")
        print(f"  frame bytes: median {statistics.median(sizes):.0f}, largest {max(sizes)} over {len(sizes)} frames")

        server, port = spawn(SERVER, str(args.tables), *game, data, characters)
        try:
            cpu0, _ = proc_stats(server.pid)
            elapsed = asyncio.run(load(port, args.tables, args.players))
            cpu1, peak = proc_stats(server.pid)
            summary = stop(server)
        finally:
            server.kill()
        sizes = summary["sizes"]
        games = summary["games"]
        print(f"{args.tables} tables x {label}, every seat a bot client: {games} games in {elapsed:.1f} s = "
              f"{games / elapsed * 60:.1f} games/min; server CPU {cpu1 - cpu0:.1f} s "
              f"({(cpu1 - cpu0) / elapsed * 100:.0f}% of one core); peak RSS {peak / 2**20:.1f} MiB; "
              f"defaults applied on expiry {summary['timeouts']}, worst lateness {summary['max_lateness']:.3f} s")
        print(f"  frame bytes: median {statistics.median(sizes):.0f}, largest {max(sizes)} over {len(sizes)} frames")


if __name__ == "__main__":
    main()
