"""Network benchmarks for the game server (issue 3), all on loopback.

1. Choice → every seat updated: median and p99, against a plain asyncio msgpack echo round trip
   measured in the same run (target ratio ≤ 3). Every seat is a `Client` in its own process, as
   real players are; each stamps the moment its view is updated with `time.monotonic_ns()`
   (CLOCK_MONOTONIC is one clock for every process on Linux) and reports over a pipe when done.
   The echo client runs in its own process too, against an asyncio streams echo server; an echo
   over `FramedConnection` on both ends is measured alongside, to show what the framing costs.
   By default the table is the 9-player game with characters (one choice fans out to nine
   seats); `--players 6 --no-characters` measures the 6-player 3v3 game.
2. Many tables of bot seats, each bot a real TCP client, against one server process: games per
   minute, server CPU and peak RSS, defaults applied on expiry (target: none, RSS ≤ 150 MB).
3. Bytes per game-state frame body, as the server sent them: median and largest.

Run: .venv/bin/python bench/net_bench.py [--choices 300] [--tables 50] [--players 9]
`--profile FILE` also writes a cProfile of the server process during the fan-out runs.
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

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bots import make_bot  # noqa: E402
from net import protocol as P  # noqa: E402
from net.client import Client, play_as_bot  # noqa: E402
from net.connection import FramedConnection, open_connection  # noqa: E402

SERVER = r"""
import asyncio, json, logging, sys, time
from net.connection import FramedConnection
from net.server import GameServer
from net.table import Table
tables, players, identities = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
data_dir, characters, profile = (sys.argv[4] if sys.argv[4] != "-" else None), sys.argv[5] == "1", sys.argv[6]
logging.disable(logging.INFO)
stamps = {"in": [], "step": [], "send": []}
if tables == 1:  # stamp the stages of each fan-out: bytes in, the table's step, the frames out
    def stamped(name, method):
        def wrapper(*args):
            start, cpu = time.monotonic_ns(), time.thread_time_ns()
            try:
                return method(*args)
            finally:
                stamps[name].append((start, time.monotonic_ns(), time.thread_time_ns() - cpu))
        return wrapper
    FramedConnection.data_received = stamped("in", FramedConnection.data_received)
    Table._step = stamped("step", Table._step)
    Table._send_frames = stamped("send", Table._send_frames)
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
                      "games": sum(t.games_finished for t in ts), "stamps": stamps,
                      "sizes": [n for t in ts for n in t.frame_sizes or []]}), flush=True)
if profile != "-":
    import cProfile
    profiler = cProfile.Profile()
    profiler.runcall(asyncio.run, main())
    profiler.dump_stats(profile)
else:
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

ECHO_FRAMED = r"""
import asyncio
from net.connection import ConnectionClosed, FramedConnection
async def serve(conn):
    try:
        while True:
            conn.send(await conn.read_message())
    except ConnectionClosed:
        pass
async def main():
    loop = asyncio.get_running_loop()
    made = lambda conn: loop.create_task(serve(conn))
    server = await loop.create_server(lambda: FramedConnection(on_connect=made), "127.0.0.1", 0)
    print(server.sockets[0].getsockname()[1], flush=True)
    await server.serve_forever()
asyncio.run(main())
"""


def spawn(script: str, *args: str) -> tuple[subprocess.Popen[str], int]:
    proc = subprocess.Popen(
        [sys.executable, "-c", script, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT
    )
    assert proc.stdout is not None
    return proc, int(proc.stdout.readline())


def run_self(*args: str) -> subprocess.Popen[str]:
    """This file in a process of its own, in one of its worker roles (``_seat``, ``_echo``)."""
    return subprocess.Popen([sys.executable, __file__, *args], stdout=subprocess.PIPE, text=True, cwd=ROOT)


def collect(procs: list[subprocess.Popen[str]], timeout: float = 600.0) -> list[dict[str, Any]]:
    results = []
    for proc in procs:
        out, _ = proc.communicate(timeout=timeout)
        if proc.returncode:
            raise RuntimeError(f"a bench worker failed ({proc.returncode})")
        results.append(json.loads(out))
    return results


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


# --------------------------------------------------------------------------- worker processes


async def echo_client(port: int, rounds: int, framed: bool) -> dict[str, Any]:
    """Round trips of one choose frame: streams on both ends, or ``FramedConnection`` on both."""
    times = []
    if framed:
        conn = await open_connection("127.0.0.1", port)
        msg = P.choose(123, "play:12:s3")
        for _ in range(rounds):
            t0 = time.monotonic_ns()
            conn.send(msg)
            await conn.read_message()
            times.append(time.monotonic_ns() - t0)
            await asyncio.sleep(0.001)
        await conn.close()
        return {"times": times}
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    body = P.encode(P.choose(123, "play:12:s3"))
    frame = struct.pack(">I", len(body)) + body
    for _ in range(rounds):
        t0 = time.monotonic_ns()
        writer.write(frame)
        header = await reader.readexactly(4)
        P.decode(await reader.readexactly(struct.unpack(">I", header)[0]))
        times.append(time.monotonic_ns() - t0)
        await asyncio.sleep(0.001)
    writer.close()
    return {"times": times}


async def seat_client(port: int, name: str, states: int, pause: float) -> dict[str, Any]:
    """One player: stamps each new state of its view; answers when it is first in `waiting`.

    Only one seat answers at a time, and only after `pause`, so every fan-out is measured on
    an idle table. Returns the states seen (log length), their arrival stamps, the stamps of
    this seat's choices, and when the frame of each state reached the process.
    """
    received: list[int] = []
    original = FramedConnection.data_received

    def stamped(conn: FramedConnection, data: bytes) -> None:
        received.append(time.monotonic_ns())
        original(conn, data)

    FramedConnection.data_received = stamped  # type: ignore[method-assign,assignment]
    client = Client()
    await client.connect("127.0.0.1", port, name)
    seen: dict[tuple[Any, ...], int] = {}
    lengths, arrivals, bytes_in, sent = [], [], [], []
    async for msg in client:
        if msg["type"] != "update":
            continue
        now = time.monotonic_ns()
        current = msg["view"]
        key = (current["log_length"], tuple(w["prompt_id"] for w in current["waiting"]))
        if key in seen:
            continue
        seen[key] = len(seen)
        lengths.append(current["log_length"])
        arrivals.append(now)
        bytes_in.append(received[-1] if received else now)
        if current["over"] or len(seen) > states:
            break
        prompt = current["prompt"]
        if prompt is not None and prompt["id"] == current["waiting"][0]["prompt_id"]:
            await asyncio.sleep(pause)
            t0 = time.monotonic_ns()
            await client.choose(prompt["id"], prompt["default"])
            sent.append((len(seen) - 1, t0))
    await client.close()
    return {"lengths": lengths, "arrivals": arrivals, "bytes_in": bytes_in, "sent": sent}


def worker(argv: list[str]) -> None:
    if argv[0] == "_echo":
        result = asyncio.run(echo_client(int(argv[1]), int(argv[2]), argv[3] == "framed"))
    else:
        result = asyncio.run(seat_client(int(argv[1]), argv[2], int(argv[3]), float(argv[4])))
    print(json.dumps(result), flush=True)


# --------------------------------------------------------------------------- the measurements


def echo_rtt(port: int, rounds: int, framed: bool) -> list[float]:
    (result,) = collect([run_self("_echo", str(port), str(rounds), "framed" if framed else "streams")])
    return [ns / 1e9 for ns in result["times"]]


def fanout(port: int, seats: int, choices: int, pause: float) -> tuple[list[float], list[dict[str, float]]]:
    """Seconds from a choice being sent to the last seat's view updated, one entry per choice;
    and, per choice, when each stage ended relative to the send (for the breakdown)."""
    results = collect([run_self("_seat", str(port), f"seat{n}", str(choices), str(pause)) for n in range(seats)])
    lengths = results[0]["lengths"]
    states = min(len(r["lengths"]) for r in results)
    if any(r["lengths"][:states] != lengths[:states] for r in results):
        raise RuntimeError("the seats saw different sequences of states")
    times, stages = [], []
    for result in results:
        for index, t0 in result["sent"]:
            if index + 1 >= states:
                continue
            arrived = [r["arrivals"][index + 1] for r in results]
            reached = [r["bytes_in"][index + 1] for r in results]
            times.append((max(arrived) - t0) / 1e9)
            stages.append({"t0": t0, "first_in": min(reached) - t0, "last_in": max(reached) - t0,
                           "first": min(arrived) - t0, "last": max(arrived) - t0})
    return times, stages


def breakdown(stages: list[dict[str, float]], stamps: dict[str, list[list[int]]]) -> dict[str, float]:
    """Median µs of each stage of a fan-out, from the seats' and the server's stamps."""
    ins, steps, sends = stamps["in"], stamps["step"], stamps["send"]
    rows: list[dict[str, float]] = []
    for stage in stages:
        t0 = stage["t0"]
        got = next((s for s in ins if s[0] >= t0), None)
        step = next((s for s in steps if got is not None and s[0] >= got[0]), None)
        send = next((s for s in sends if step is not None and s[0] >= step[1]), None)
        if got is None or step is None or send is None:
            continue
        rows.append({
            "client send -> server data_received": got[0] - t0,
            "data_received -> table step starts (decode, post)": step[0] - got[0],
            "table step (engine choose, journal)": step[1] - step[0],
            "step -> frames (flush)": send[0] - step[1],
            "views + patches + encode + a write per seat": send[1] - send[0],
            "  of which the server's own CPU": send[2],
            "last write -> first seat has the bytes": stage["first_in"] - (send[1] - t0),
            "last write -> last seat has the bytes": stage["last_in"] - (send[1] - t0),
            "bytes -> first seat's view updated": stage["first"] - stage["first_in"],
            "last write -> last seat's view updated": stage["last"] - (send[1] - t0),
        })
    return {key: statistics.median(row[key] for row in rows) / 1e3 for key in rows[0]} if rows else {}


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
    server.wait(timeout=30)
    return summary


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--choices", type=int, default=300)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--players", type=int, default=9)
    parser.add_argument("--identities", default=None, help="default: 'default' with characters, else '3v3'")
    parser.add_argument("--no-characters", action="store_true", help="play without characters (4 or 6 seats)")
    parser.add_argument("--no-journal", action="store_true", help="measure without fsync to a data directory")
    parser.add_argument("--pause", type=float, default=0.01, help="seconds between a fan-out and the next choice")
    parser.add_argument("--profile", default="-", help="write a cProfile of the fan-out server here")
    args = parser.parse_args()
    characters = "0" if args.no_characters else "1"
    identities = args.identities or ("3v3" if args.no_characters else "default")
    game = (str(args.players), identities)
    label = f"{args.players} seats ({identities}{', characters' if characters == '1' else ''})"
    sizes: list[int] = []
    with tempfile.TemporaryDirectory() as tmp:
        data = "-" if args.no_journal else tmp
        echo, echo_port = spawn(ECHO)
        framed, framed_port = spawn(ECHO_FRAMED)
        try:
            rtt = echo_rtt(echo_port, 500, framed=False)
            framed_rtt = echo_rtt(framed_port, 500, framed=True)
            fan: list[float] = []
            stages: list[dict[str, float]] = []
            parts: list[dict[str, float]] = []
            runs = 0
            while len(fan) < args.choices:  # a game may end first: a fresh server deals a new one
                profile = f"{args.profile}.{runs}" if args.profile != "-" else "-"
                server, port = spawn(SERVER, "1", *game, data, characters, profile)
                try:
                    times, stages = fanout(port, args.players, args.choices - len(fan), args.pause)
                    summary = stop(server)
                finally:
                    server.kill()
                fan += times
                sizes += summary["sizes"]
                parts.append(breakdown(stages, summary["stamps"]))
                runs += 1
            rtt += echo_rtt(echo_port, 500, framed=False)  # before and after, as the machine's load drifts
            framed_rtt += echo_rtt(framed_port, 500, framed=True)
        finally:
            echo.kill()
            framed.kill()
        rtt_med, fan_med, fan_p99 = statistics.median(rtt), statistics.median(fan), percentile(fan, 0.99)
        framed_med = statistics.median(framed_rtt)
        print(f"echo round trip, asyncio streams, client in its own process: median {rtt_med * 1e3:.3f} ms, "
              f"p99 {percentile(rtt, 0.99) * 1e3:.3f} ms")
        print(f"echo round trip, FramedConnection on both ends: median {framed_med * 1e3:.3f} ms, "
              f"p99 {percentile(framed_rtt, 0.99) * 1e3:.3f} ms")
        print(f"choice -> all {label} updated, each seat a process: median {fan_med * 1e3:.3f} ms, "
              f"p99 {fan_p99 * 1e3:.3f} ms over {len(fan)} choices; ratio to echo: median {fan_med / rtt_med:.2f}, "
              f"p99 {fan_p99 / rtt_med:.2f} (to the framed echo: {fan_med / framed_med:.2f})")
        print(f"  frame bytes: median {statistics.median(sizes):.0f}, largest {max(sizes)} over {len(sizes)} frames")
        weights = [p for p in parts if p]
        if weights:
            print("  where a fan-out's time goes (median µs, each stage measured on its own):")
            for key in weights[0]:
                print(f"    {key:<58} {statistics.median(p[key] for p in weights):8.0f}")

        if args.tables <= 0:
            return
        server, port = spawn(SERVER, str(args.tables), *game, data, characters, "-")
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
    if len(sys.argv) > 1 and sys.argv[1] in ("_echo", "_seat"):
        worker(sys.argv[1:])
    else:
        main()
