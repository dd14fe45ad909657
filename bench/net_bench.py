"""Network benchmarks for the game server (issue 3), all on loopback.

1. Choice → every seat updated: median and p99, against a plain asyncio msgpack echo round trip
   measured in the same run (target ratio ≤ 3). Every seat is a `Client` in its own process, as
   real players are; each stamps the moment its view is updated with `time.monotonic_ns()`
   (CLOCK_MONOTONIC is one clock for every process on Linux) and reports over a pipe when done.
   The echo client runs in its own process too, against an asyncio streams echo server; an echo
   over `FramedConnection` on both ends is measured alongside, to show what the framing costs.
   Echo rounds are paced like the fan-outs (`--pause` apart): on this VM a process idle for 10 ms
   wakes measurably slower than one idle for 1 ms, so a back-to-back echo against paced fan-outs
   would compare unlike things. The back-to-back echo (1 ms apart) and the ratio to it are printed
   as well.
   The same fan-out is then measured with every seat a `Client` in one shared process: on a LAN
   each seat has a machine of its own, and ten processes taking turns on two cores is a cost of
   this test machine, not of the server. By default the table is the 9-player game with characters (one choice fans out to nine
   seats); `--players 6 --no-characters` measures the 6-player 3v3 game.
2. Many tables of bot seats, each bot a real TCP client, against one server process: games per
   minute, server CPU and peak RSS, defaults applied on expiry (target: none, RSS ≤ 150 MB).
3. Bytes per game-state frame body, as the server sent them: median and largest.
4. The fan-out floor: a server that does no game work writes one pre-encoded frame (the median
   game-state frame size of this run) to N bare client processes on a driver's trigger; trigger →
   last seat has the bytes, and → last seat has run `net.protocol.decode` on them. This is what N
   client processes on this machine cost before any game work, against the same echo.

0. Server CPU per fan-out, in process: a table whose connections are sinks (no sockets), whole
   games of random legal choices; the thread CPU time of each flush (`Table._send_frames`: the
   views, patches, encoding and writes of one batch of decisions), median over the flushes that
   reach all the seats (the 9-seat fan-out of issue 17, target <= 150 µs) and over every flush.

Run: .venv/bin/python bench/net_bench.py [--choices 300] [--tables 50] [--players 9] [--floor-only] [--sink-only]
`--profile FILE` also writes a cProfile of the server process during the fan-out runs. `--split`
splits the server's CPU per choice (1.) into its parts: the main thread's CPU in each part (socket
reads, decode, the table, the engine, the journal, the fan-out, socket writes, asyncio itself),
without the parts it called; reading the thread's clock at each part costs about a microsecond, so
the split run's CPU per choice is higher than a plain run's.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import os
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
split = len(sys.argv) > 7 and sys.argv[7] == "1"
logging.disable(logging.INFO)
stamps = {"in": [], "step": [], "send": []}
parts = {}  # with --split: part -> [main-thread CPU ns spent in it and not in a part it called, times entered]
if split:  # each part's own CPU: a part called from another is taken out of the caller's
    import importlib, threading
    main_thread, open_parts, counting = threading.get_ident(), [], [False]
    def part(where, label):
        module, _, attr = where.partition(":")
        owner = importlib.import_module(module)
        *path, name = attr.split(".")
        for step in path:
            owner = getattr(owner, step)
        method = getattr(owner, name)
        def wrapper(*args, **kwargs):
            if not counting[0] or threading.get_ident() != main_thread:
                return method(*args, **kwargs)
            frame = [time.thread_time_ns(), 0]
            open_parts.append(frame)
            try:
                return method(*args, **kwargs)
            finally:
                open_parts.pop()
                spent = time.thread_time_ns() - frame[0]
                figure = parts.setdefault(label, [0, 0])
                figure[0] += spent - frame[1]
                figure[1] += 1
                if open_parts:
                    open_parts[-1][1] += spent
        setattr(owner, name, wrapper)
    for where, label in (
        ("asyncio.base_events:BaseEventLoop._run_once", "asyncio: the loop's own turns"),
        ("asyncio.events:Handle._run", "asyncio: callbacks and task steps"),
        ("selectors:EpollSelector.select", "asyncio: epoll_wait"),
        ("asyncio.selector_events:_SelectorSocketTransport._read_ready", "socket reads (recv)"),
        ("asyncio.selector_events:_SelectorSocketTransport.write", "socket writes (send)"),
        ("net.connection:FramedConnection.data_received", "frames in: cut from the bytes"),
        ("net.server:_Reader.receive", "frames in: decode, validate"),
        ("net.table:Table.post", "table: post, step, clock"),
        ("net.table:Table._step", "table: post, step, clock"),
        ("net.table:Table._run_clock", "table: post, step, clock"),
        ("net.table:Table._wake_time", "table: post, step, clock"),
        ("engine.game:Game.choose", "engine: choose"),
        ("engine.prompts:Prompt.to_dict", "engine: a new prompt's options (built as it is sent)"),
        ("net.journal:Journal.append", "journal: append, flush to the OS"),
        ("net.journal:Journal.flush", "journal: append, flush to the OS"),
        ("net.journal:Journal.sync_soon", "journal: fsync handed to its thread"),
        ("net.fanout:FanOut.send", "fan-out: the flush (facts, public view, diff)"),
        ("net.fanout:FanOut.frames_for", "fan-out: each seat's frames (parts, patches, encode)"),
        ("net.replays:FrameLog.take", "fan-out: replay frames"),
    ):
        part(where, label)
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
    if split:
        counting[0] = True
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    ts = server.tables.values()
    print(json.dumps({"timeouts": sum(t.timeouts for t in ts), "max_lateness": max(t.max_lateness for t in ts),
                      "games": sum(t.games_finished for t in ts), "stamps": stamps, "parts": parts,
                      "sizes": [n for t in ts for n in t.frame_sizes or []]}), flush=True)
if profile != "-":
    import cProfile
    profiler = cProfile.Profile()
    profiler.runcall(asyncio.run, main())
    profiler.dump_stats(profile)
else:
    asyncio.run(main())
"""

PACE = r"""
import asyncio, json, logging, random, sys, time
from net import protocol as P
from net.server import GC_FREEZE_EVERY, GameServer
from net.table import Session, SeatSlot, Table
tables, sampled, delay, human, data_dir, spread = (int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]),
                                                    float(sys.argv[4]), sys.argv[5] if sys.argv[5] != "-" else None,
                                                    float(sys.argv[6]))
logging.disable(logging.INFO)
class Sink:  # a seat's connection in this process: the frames are built and handed over, not sent
    check_outbound = False
    closing = False
    def __init__(self):
        self.frames = self.bytes = 0
    def send_frame(self, frame):
        self.frames += 1
        self.bytes += len(frame)
        return True
    def send(self, msg):
        return self.send_frame(P.encode_frame(msg))
sinks, figures, late, expired = [], {"choices": 0}, [], []
import gc
gc_pauses = []
def gc_timer(phase, info, started=[0.0]):
    if phase == "start":
        started[0] = time.perf_counter()
    else:
        gc_pauses.append((time.perf_counter() - started[0], info["generation"], info["collected"]))
gc.callbacks.append(gc_timer)
apply, bot_move = Table._apply, Table._bot_move
def counted(self, seat, prompt_id, option, how):
    figures["choices"] += 1
    if how.startswith("timed out"):  # how late each deadline that ran out was applied
        expired.append(self.clock() - self.deadlines[prompt_id])
    return apply(self, seat, prompt_id, option, how)
def timed(self, slot, prompt):  # how late each bot move (a timer like a deadline) was applied
    late.append(self.clock() - self._bot_at[prompt.id])
    return bot_move(self, slot, prompt)
Table._apply, Table._bot_move = counted, timed
from net.clock import TableClock
issue = TableClock.issue
def jittered(self, prompt_id, seconds, cap, bot_wait):  # people take more or less time than the mean
    return issue(self, prompt_id, seconds, cap, bot_wait * random.uniform(0.2, 1.8))
TableClock.issue = jittered
freezes = []
freeze = GameServer._freeze
def timed_freeze(self):
    t = time.perf_counter()
    freeze(self)
    freezes.append(time.perf_counter() - t)
GameServer._freeze = timed_freeze
def attach(table, seats):
    for seat in seats:
        sink = Sink()
        session = Session(sink, f"sink{seat}", False)
        session.seat = seat
        table.sessions.add(session)
        sinks.append(sink)
async def main():
    loop = asyncio.get_running_loop()
    server = GameServer("127.0.0.1", 0, max_connections=sampled + 16, gc_freeze_every=GC_FREEZE_EVERY,
                        background_files=True)
    for n in range(tables):
        table = Table(f"t{n}", players=9, characters=True, bot_delay=delay, offline_timeout=human,
                      standin_grace=1e9, data_dir=data_dir, auto_start=n < sampled)
        server.add_table(table)
        if n < sampled:  # eight bots wait for the sampled TCP client, who takes the last seat
            for _ in range(8):
                table.add_bot("random")
            attach(table, range(8))
        else:  # a human who never came (seat 0: every deadline runs out) and eight bots
            table.slots.append(SeatSlot(name="away", token=f"token{n}"))
            for _ in range(8):
                table.add_bot("random")
            table.seats.reindex()
            attach(table, range(9))
            def begin(table=table):
                table._start_game()
                table.post(("noop",))
            loop.call_later(random.uniform(0, spread), begin)
    await server.start()
    print(server.port, flush=True)
    lags = []
    async def probe():  # the event loop's own lateness: a 10 ms sleep, how much longer it took
        while True:
            t = loop.time()
            await asyncio.sleep(0.01)
            lags.append(loop.time() - t - 0.01)
    probing = asyncio.ensure_future(probe())
    await loop.run_in_executor(None, sys.stdin.readline)  # the warm-up is over: count from here
    lags.clear()
    late.clear()
    expired.clear()
    gc_pauses.clear()
    figures["choices"] = 0
    for sink in sinks:
        sink.frames = sink.bytes = 0
    for table in server.tables.values():
        table.timeouts, table.max_lateness = 0, 0.0
    await loop.run_in_executor(None, sys.stdin.readline)
    probing.cancel()
    lags.sort()
    ts = server.tables.values()
    print(json.dumps({"freezes": freezes, "gc_longest": sorted(gc_pauses)[-5:], "gc": [len(gc_pauses), max(gc_pauses, default=(0, 0, 0)), sum(g[2] for g in gc_pauses),
                             sum(1 for g in gc_pauses if g[1] == 2), len(gc.get_objects())], "loop_lag": [lags[len(lags) // 2], lags[len(lags) * 99 // 100], lags[-1]],
                      "late50": sorted(late)[len(late) // 2], "timeouts": sum(t.timeouts for t in ts), "max_lateness": max(t.max_lateness for t in ts),
                      "games": sum(t.games_finished for t in ts), "frames": sum(s.frames for s in sinks),
                      "bytes": sum(s.bytes for s in sinks), "bot_late": sorted(late)[-len(late) // 100 - 1:],
                      "expired": sorted(expired),
                      **figures}), flush=True)
asyncio.run(main())
"""

PROBE = r"""
import asyncio, json, sys
async def main():  # a process doing nothing but 10 ms sleeps: how late the machine wakes it
    loop = asyncio.get_running_loop()
    lags = []
    async def probe():
        while True:
            t = loop.time()
            await asyncio.sleep(0.01)
            lags.append(loop.time() - t - 0.01)
    task = asyncio.ensure_future(probe())
    print(0, flush=True)
    await loop.run_in_executor(None, sys.stdin.readline)
    task.cancel()
    lags.sort()
    print(json.dumps({"p99": lags[len(lags) * 99 // 100], "max": lags[-1]}), flush=True)
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


FLOOR = r"""
import asyncio, json, sys, time
seats, frame = int(sys.argv[1]), bytes.fromhex(sys.argv[2])
writes = []  # when each fan-out's first write began
class Floor(asyncio.Protocol):  # a seat says b"S" once; the driver b"D", then b"T" per fan-out
    seats, driver = [], None
    def connection_made(self, transport):
        self.transport = transport
    def data_received(self, data):
        if data == b"S" or data == b"D":
            if data == b"S":
                Floor.seats.append(self.transport)
            else:
                Floor.driver = self.transport
            if Floor.driver is not None and len(Floor.seats) == seats:
                Floor.driver.write(b"R")
            return
        for _ in range(data.count(b"T")):
            writes.append(time.monotonic_ns())
            for seat in Floor.seats:
                seat.write(frame)
async def main():
    loop = asyncio.get_running_loop()
    server = await loop.create_server(Floor, "127.0.0.1", 0)
    print(server.sockets[0].getsockname()[1], flush=True)
    await loop.run_in_executor(None, sys.stdin.readline)
    print(json.dumps({"writes": writes}), flush=True)
asyncio.run(main())
"""


def spawn(script: str, *args: str) -> tuple[subprocess.Popen[str], int]:
    proc = subprocess.Popen(
        [sys.executable, "-c", script, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT
    )
    assert proc.stdout is not None
    return proc, int(proc.stdout.readline())


def run_self(*args: str) -> subprocess.Popen[str]:
    """This file in a process of its own, in one of its worker roles (``_seat``, ``_echo``, ``_floor…``)."""
    return subprocess.Popen([sys.executable, __file__, *args], stdout=subprocess.PIPE, text=True, cwd=ROOT)


def collect(procs: list[subprocess.Popen[str]], timeout: float = 600.0) -> list[dict[str, Any]]:
    results = []
    for proc in procs:
        out, _ = proc.communicate(timeout=timeout)
        if proc.returncode:
            raise RuntimeError(f"a bench worker failed ({proc.returncode})")
        results.append(json.loads(out))
    return results


def sched_stats(pid: int) -> tuple[float, float]:
    """(seconds run, seconds spent runnable but waiting for a core) of a process's main thread:
    how much the machine's other load held it back (/proc/PID/schedstat)."""
    run, wait, _ = Path(f"/proc/{pid}/schedstat").read_text().split()
    return int(run) / 1e9, int(wait) / 1e9


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


async def echo_client(port: int, rounds: int, framed: bool, gap: float) -> dict[str, Any]:
    """Round trips of one choose frame: streams on both ends, or ``FramedConnection`` on both;
    ``gap`` seconds apart, like the fan-outs (processes idle longer wake slower on this VM)."""
    times = []
    if framed:
        conn = await open_connection("127.0.0.1", port)
        msg = P.choose(123, "play:12:s3")
        for _ in range(rounds):
            t0 = time.monotonic_ns()
            conn.send(msg)
            await conn.read_message()
            times.append(time.monotonic_ns() - t0)
            await asyncio.sleep(gap)
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
        await asyncio.sleep(gap)
    writer.close()
    return {"times": times}


_ARRIVALS: dict[int, list[int]] = {}  # id of a seat's connection -> when bytes reached it


def _stamp_arrivals() -> None:
    """Stamp every connection's incoming bytes (installed once per process, for every seat in it)."""
    original = FramedConnection.data_received
    if getattr(original, "stamps", False):
        return

    def stamped(conn: FramedConnection, data: bytes) -> None:
        _ARRIVALS.setdefault(id(conn), []).append(time.monotonic_ns())
        original(conn, data)

    stamped.stamps = True  # type: ignore[attr-defined]
    FramedConnection.data_received = stamped  # type: ignore[method-assign,assignment]


async def seat_client(port: int, name: str, states: int, pause: float) -> dict[str, Any]:
    """One player: stamps each new state of its view; answers each of its prompts after a pause.

    The seats listed as waiting answer one at a time, `pause` apart in their listed order (a
    response window lists every asked seat until it closes), so every fan-out is measured on an
    idle table; the answer is sent from a timer, so the seat stamps others' fan-outs meanwhile.
    A state is the log length plus who is waiting and each deadline: a pass in a response window
    changes neither (only the passer's own prompt), so it is no new state. Returns the states seen (log length), their arrival stamps,
    the stamps of this seat's choices, and when the frame of each state reached the process.
    """
    _stamp_arrivals()
    client = Client()
    await client.connect("127.0.0.1", port, name)
    run0, wait0 = sched_stats(os.getpid())
    received = _ARRIVALS.setdefault(id(client.conn), [])
    seen: dict[tuple[Any, ...], int] = {}
    lengths: list[int] = []
    arrivals: list[int] = []
    bytes_in: list[int] = []
    sent: list[tuple[int, int]] = []
    answered: set[int] = set()
    tasks: set[asyncio.Task[None]] = set()
    timers: list[asyncio.TimerHandle] = []

    async def answer(prompt_id: int, option: str) -> None:
        sent.append((len(seen) - 1, time.monotonic_ns()))
        await client.choose(prompt_id, option)

    def later(prompt_id: int, option: str) -> None:
        task = asyncio.ensure_future(answer(prompt_id, option))
        tasks.add(task)
        task.add_done_callback(tasks.discard)

    loop = asyncio.get_running_loop()
    async for msg in client:
        if msg["type"] != "update":
            continue
        now = time.monotonic_ns()
        current = msg["view"]
        waiting = current["waiting"]
        key = (current["log_length"], tuple((w["prompt_id"], w.get("deadline")) for w in waiting))
        if key in seen:
            continue
        seen[key] = len(seen)
        lengths.append(current["log_length"])
        arrivals.append(now)
        bytes_in.append(received[-1] if received else now)
        if current["over"] or len(seen) > states:
            break
        prompt = current["prompt"]
        if prompt is not None and prompt["id"] not in answered:
            answered.add(prompt["id"])
            rank = next((i for i, w in enumerate(waiting) if w["seat"] == client.seat), 0)
            timers.append(loop.call_later(pause * (rank + 1), later, prompt["id"], prompt["default"]))
    for timer in timers:
        timer.cancel()
    for task in list(tasks):
        task.cancel()
    await client.close()
    run1, wait1 = sched_stats(os.getpid())
    return {"lengths": lengths, "arrivals": arrivals, "bytes_in": bytes_in, "sent": sent,
            "sched": [run1 - run0, wait1 - wait0]}


async def seats_client(port: int, seats: int, states: int, pause: float) -> dict[str, Any]:
    """Every seat of the table as a `seat_client` in this one process: what the server plus the
    seats cost without ten processes taking turns on two cores (on a LAN each seat has a machine)."""
    results = await asyncio.gather(*(seat_client(port, f"seat{n}", states, pause) for n in range(seats)))
    return {"seats": list(results)}


class FloorSeat(asyncio.Protocol):
    """A bare client of the floor server: reassembles frames, optionally runs the strict decode,
    and stamps each; no views, no patches, no `Client` machinery."""

    def __init__(self, decode: bool, rounds: int, done: asyncio.Future[None]) -> None:
        self.decode, self.rounds, self.done = decode, rounds, done
        self.buffer = bytearray()
        self.stamps: list[int] = []

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        while len(self.buffer) >= P.HEADER_SIZE:
            end = P.HEADER_SIZE + int.from_bytes(self.buffer[: P.HEADER_SIZE], "big")
            if len(self.buffer) < end:
                return
            if self.decode:
                P.decode(bytes(self.buffer[P.HEADER_SIZE : end]))
            del self.buffer[:end]
            self.stamps.append(time.monotonic_ns())
            if len(self.stamps) == self.rounds and not self.done.done():
                self.done.set_result(None)


async def floor_seat(port: int, decode: bool, rounds: int) -> dict[str, Any]:
    """One bare seat: the stamps of the `rounds` frames it receives, in order."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[None] = loop.create_future()
    transport, seat = await loop.create_connection(lambda: FloorSeat(decode, rounds, done), "127.0.0.1", port)
    transport.write(b"S")
    await done
    transport.close()
    return {"stamps": seat.stamps}


async def floor_driver(port: int, rounds: int, pause: float) -> dict[str, Any]:
    """Once every seat is connected, one trigger per round, `pause` apart so each fan-out finds
    the machine idle, as the real fan-out's chooser does; returns when each trigger was sent."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"D")
    if await reader.readexactly(1) != b"R":
        raise RuntimeError("the floor server did not say ready")
    sent = []
    for _ in range(rounds):
        sent.append(time.monotonic_ns())
        writer.write(b"T")
        await asyncio.sleep(pause)
    writer.close()
    return {"sent": sent}


async def paced_clients(port: int, tables: int, seconds: float, think: tuple[float, float]) -> dict[str, Any]:
    """One real TCP client per sampled table, as a human at that table: each of its prompts is
    answered after a think time; returns, per answer, seconds from the choice sent to the view
    that no longer holds that prompt (the seat updated)."""
    import random

    latencies: list[float] = []
    rng = random.Random(1)

    async def play(n: int) -> None:
        client = Client()
        await client.connect("127.0.0.1", port, "human", table=f"t{n}")
        loop = asyncio.get_running_loop()
        pending: dict[int, float] = {}  # prompt id -> when its answer was sent
        timers: list[asyncio.TimerHandle] = []

        def answer(prompt_id: int, option: str) -> None:
            pending[prompt_id] = time.perf_counter()
            asyncio.ensure_future(client.choose(prompt_id, option))

        answered: set[int] = set()
        end = loop.time() + seconds
        while loop.time() < end:
            try:
                msg = await client.recv(timeout=max(0.01, end - loop.time()))
            except TimeoutError:
                break
            if msg is None:
                break
            if msg["type"] != "update":
                continue
            now = time.perf_counter()
            prompt = msg["view"]["prompt"]
            for prompt_id in [p for p in pending if prompt is None or prompt["id"] != p]:
                latencies.append(now - pending.pop(prompt_id))
            if msg["view"]["over"]:
                break
            if prompt is not None and prompt["id"] not in answered:
                answered.add(prompt["id"])
                timers.append(loop.call_later(rng.uniform(*think), answer, prompt["id"], prompt["default"]))
        for timer in timers:
            timer.cancel()
        await client.close()

    await asyncio.gather(*(play(n) for n in range(tables)))
    return {"latencies": latencies}


def worker(argv: list[str]) -> None:
    if argv[0] == "_echo":
        result = asyncio.run(echo_client(int(argv[1]), int(argv[2]), argv[3] == "framed", float(argv[4])))
    elif argv[0] == "_floor_seat":
        result = asyncio.run(floor_seat(int(argv[1]), argv[2] == "decode", int(argv[3])))
    elif argv[0] == "_floor_driver":
        result = asyncio.run(floor_driver(int(argv[1]), int(argv[2]), float(argv[3])))
    elif argv[0] == "_paced":
        result = asyncio.run(paced_clients(int(argv[1]), int(argv[2]), float(argv[3]), (0.5, 3.0)))
    elif argv[0] == "_seats":  # every seat in this one process
        result = asyncio.run(seats_client(int(argv[1]), int(argv[2]), int(argv[3]), float(argv[4])))
    else:
        result = asyncio.run(seat_client(int(argv[1]), argv[2], int(argv[3]), float(argv[4])))
    print(json.dumps(result), flush=True)


# --------------------------------------------------------------------------- the measurements


def echo_rtt(port: int, rounds: int, framed: bool, gap: float) -> list[float]:
    (result,) = collect([run_self("_echo", str(port), str(rounds), "framed" if framed else "streams", str(gap))])
    return [ns / 1e9 for ns in result["times"]]


def fanout(port: int, seats: int, choices: int, pause: float, one_process: bool = False,
           figures: dict[str, Any] | None = None) -> tuple[list[float], list[dict[str, float]]]:
    """Seconds from a choice being sent to the last seat's view updated, one entry per choice;
    and, per choice, when each stage ended relative to the send (for the breakdown).
    Each seat is a process of its own, or (`one_process`) all of them share one. `figures` gets
    the seats' CPU seconds in all and their seconds waiting for a core (`sched`)."""
    figures = {} if figures is None else figures
    if one_process:
        (shared,) = collect([run_self("_seats", str(port), str(seats), str(choices), str(pause))])
        results = shared["seats"]
    else:
        results = collect([run_self("_seat", str(port), f"seat{n}", str(choices), str(pause)) for n in range(seats)])
    lengths = results[0]["lengths"]
    states = min(len(r["lengths"]) for r in results)
    if any(r["lengths"][:states] != lengths[:states] for r in results):
        raise RuntimeError("the seats saw different sequences of states")
    # A state's fan-out is timed from the last choice sent before it: the one that made it. An
    # earlier pass in the same response window changed only its passer's view, so no one else
    # was sent anything and it has no fan-out of its own.
    last_sent: dict[int, int] = {}
    for result in results:
        for index, t0 in result["sent"]:
            last_sent[index] = max(t0, last_sent.get(index, t0))
    times, stages = [], []
    for index, t0 in sorted(last_sent.items()):
        if index + 1 >= states:
            continue
        arrived = [r["arrivals"][index + 1] for r in results]
        reached = [r["bytes_in"][index + 1] for r in results]
        times.append((max(arrived) - t0) / 1e9)
        stages.append({"t0": t0, "first_in": min(reached) - t0, "last_in": max(reached) - t0,
                       "first": min(arrived) - t0, "last": max(arrived) - t0})
    figures["sched"] = [sum(r["sched"][i] for r in results) for i in (0, 1)]
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


#: Body bytes of the floor frame when no game ran in this run (`--floor-only`): a typical patch.
FLOOR_BODY = 340
HOT_GAP = 0.001  # seconds between the rounds of the back-to-back echo


def floor_frame(size: int) -> bytes:
    """A pre-encoded `patch` frame (header + body) whose body is about `size` bytes: the shape of a
    real one (changed view paths, events with card names), so the decode does representative work."""
    changes: list[list[Any]] = [[["log_length"], 57], [["waiting"], [{"seat": 3, "prompt_id": 41, "kind": "response"}]],
                                [["seats", 3, "hand_count"], 4], [["message", "position"], 5]]

    def event(n: int, text: str) -> dict[str, Any]:
        return {"type": "play", "seat": n % 9, "card": {"id": 40 + n, "name": "截获", "colors": ["red"],
                "lock": False}, "target_seat": (n + 4) % 9, "text": text}

    def body_of(events: list[dict[str, Any]]) -> bytes:
        return P.encode(P.patch(changes, events))

    count = 0
    while len(body_of([event(n, "") for n in range(count + 1)])) <= size:
        count += 1
    events = [event(n, "") for n in range(count)]
    body = body_of(events)
    while events and len(body) < size:  # the last event's text brings the body up to the size
        events[-1]["text"] += "x"
        body = body_of(events)
    return P.HEADER.pack(len(body)) + body


def floor(frame: bytes, seats: int, rounds: int, pause: float, decode: bool) -> tuple[list[float], list[float]]:
    """Seconds from the driver's trigger to the last of `seats` bare clients having the frame
    (and, with `decode`, having decoded it), one entry per round; and the same from the server's
    first write of the round, which leaves out the trigger's own trip to the server."""
    server, port = spawn(FLOOR, str(seats), frame.hex())
    try:
        mode = "decode" if decode else "bytes"
        procs = [run_self("_floor_seat", str(port), mode, str(rounds)) for _ in range(seats)]
        procs.append(run_self("_floor_driver", str(port), str(rounds), str(pause)))
        *results, driver = collect(procs, timeout=120.0)
        writes = stop(server)["writes"]
    finally:
        server.kill()
    last = [max(r["stamps"][i] for r in results) for i in range(rounds)]
    return [(t - t0) / 1e9 for t, t0 in zip(last, driver["sent"], strict=True)], [
        (t - t0) / 1e9 for t, t0 in zip(last, writes, strict=True)]


def print_floor(seats: int, body: int, bare: tuple[list[float], list[float]],
                decoded: tuple[list[float], list[float]], fan: list[float], rtt_med: float, pause: float) -> None:
    """The floor rows: what `seats` client processes cost on this machine before any game work,
    and what share of the fan-out that is. The gap between rounds is shown because it matters: after
    a longer idle every process takes longer to wake (the echo's rounds are 1 ms apart)."""
    for what, (times, from_write) in (("have the bytes", bare), ("have decoded them (net.protocol.decode)", decoded)):
        med, p99 = statistics.median(times), percentile(times, 0.99)
        print(f"floor: trigger -> all {seats} bare client processes {what}: median {med * 1e3:.3f} ms, "
              f"p99 {p99 * 1e3:.3f} ms over {len(times)} fan-outs {pause * 1e3:g} ms apart of one {body}-byte frame; "
              f"ratio to echo: median {med / rtt_med:.2f}, p99 {p99 / rtt_med:.2f} (from the server's first write: "
              f"median {statistics.median(from_write) * 1e3:.3f} ms)")
    if fan:
        fan_med, bare_med, decoded_med = statistics.median(fan), statistics.median(bare[0]), statistics.median(decoded[0])
        print(f"floor: share of the fan-out median ({fan_med * 1e3:.3f} ms): {decoded_med / fan_med:.0%} with the "
              f"decode, {bare_med / fan_med:.0%} bytes only; the game's own work adds "
              f"{(fan_med - decoded_med) * 1e3:.3f} ms")
        above = fan_med - decoded_med
        print(f"end to end above the floor (issue 17, target <= 1 echo): (choice -> all {seats} seats updated) "
              f"{fan_med * 1e3:.3f} ms - (floor with decode) {decoded_med * 1e3:.3f} ms = {above * 1e3:.3f} ms = "
              f"{above / rtt_med:.2f} echo round trips ({rtt_med * 1e3:.3f} ms)")
        print(f"floor: at a ratio of 3 a fan-out may take {3 * rtt_med * 1e3:.3f} ms; the floor leaves "
              f"{(3 * rtt_med - decoded_med) * 1e6:.0f} µs of it for all the game's work (the engine step, nine "
              f"projections, diffs and encodes, nine patches applied)")


class SinkConnection:
    """Where a table's frames go in the in-process measurement: counted, never written."""

    check_outbound = False
    closing = False

    def __init__(self) -> None:
        self.frames = 0

    def send_frame(self, frame: bytes) -> bool:
        self.frames += 1
        return True

    def send(self, msg: dict[str, Any]) -> bool:
        return self.send_frame(P.encode_frame(msg))


def sink_fanout(players: int, identities: str, characters: bool, games: int) -> tuple[list[int], list[int]]:
    """Thread CPU ns of each flush of `games` whole games of random legal choices, at a table whose
    every seat is a sink connection: (the flushes that reached every seat, every flush)."""
    import random

    from net.table import SeatSlot, Session, Table

    full: list[int] = []
    every: list[int] = []
    long = dict.fromkeys(("play", "send", "response", "receive", "probe_discard", "character_pick", "skill"), 600.0)
    for seed in range(1, games + 1):
        table = Table("t", players=players, identities=identities, characters=characters, seed=seed, timers=long)
        for n in range(players):
            table.slots.append(SeatSlot(name=f"p{n}", token=f"token{n}"))
        table.seats.reindex()
        table._start_game()
        sinks = []
        for seat in range(players):
            sink = SinkConnection()
            session = Session(sink, f"p{seat}", False)  # type: ignore[arg-type]
            session.seat = seat
            table.slots[seat].session = session
            table.sessions.add(session)
            sinks.append(sink)
        table._send_frames()
        rng = random.Random(seed)
        game = table.game
        assert game is not None
        while not game.over:
            prompt = rng.choice(game.pending())
            table._apply(prompt.seat, prompt.id, rng.choice(prompt.options).id, "bench")
            before = sum(sink.frames for sink in sinks)
            t0 = time.thread_time_ns()
            table._send_frames()
            spent = time.thread_time_ns() - t0
            every.append(spent)
            if sum(sink.frames for sink in sinks) - before == players:
                full.append(spent)
    return full, every


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


def paced(tables: int, sampled: int, seconds: float, delay: float, human: float, data: str) -> None:
    """`tables` tables of 9 seats (characters) at a human pace in one server process: in-process
    bots answer after `delay` s (a quarter of it in turn windows), a seat nobody took times out after
    `human` s; every seat has a connection in the server process that is handed its frames (a sink:
    the fan-out is the server's full work but the socket write). `sampled` of the tables seat one
    real TCP client (its own process) in place of a bot, whose latency is measured. Server CPU and
    RSS over `seconds` after a warm-up in which the tables start, spread out; each bot move's delay
    varies (0.2 to 1.8 times `delay`), as people's do."""
    spread = delay  # the tables start over one bot delay, so they do not move in step
    server, port = spawn(PACE, str(tables), str(sampled), str(delay), str(human), data, str(spread))
    try:
        time.sleep(spread + 3.0)
        clients = run_self("_paced", str(port), str(sampled), str(seconds))
        time.sleep(2.0)  # the sampled tables deal
        assert server.stdin is not None
        server.stdin.write("\n")
        server.stdin.flush()
        probe, _ = spawn(PROBE)
        cpu0, _ = proc_stats(server.pid)
        run0, wait0 = sched_stats(server.pid)
        t0 = time.perf_counter()
        (result,) = collect([clients], timeout=seconds + 120)
        elapsed = time.perf_counter() - t0
        cpu1, peak = proc_stats(server.pid)
        run1, wait1 = sched_stats(server.pid)
        summary = stop(server)
        idle = stop(probe)
    finally:
        server.kill()
    latencies = result["latencies"]
    choices = summary["choices"]
    print(f"{tables} tables x 9 seats (characters) at a human pace, one server process: "
          f"{choices / elapsed / tables:.2f} choices per table per second (one per {elapsed * tables / max(choices, 1):.1f} s), "
          f"{choices / elapsed:.0f} choices/s in all, {summary['frames'] / elapsed:.0f} frames/s to in-process seats")
    print(f"  server CPU {(cpu1 - cpu0) / elapsed * 100:.0f}% of one core over {elapsed:.0f} s; peak RSS "
          f"{peak / 2**20:.0f} MiB; deadlines run out {summary['timeouts']}, latest applied "
          f"{summary['max_lateness'] * 1e3:.0f} ms after it; bot moves p99 {summary['bot_late'][0] * 1e3:.0f} ms, latest {summary['bot_late'][-1] * 1e3:.0f} ms after due (median {summary['late50'] * 1e3:.1f} ms); the event loop's lag on a 10 ms sleep: median {summary['loop_lag'][0] * 1e3:.1f} ms, p99 {summary['loop_lag'][1] * 1e3:.1f} ms, max {summary['loop_lag'][2] * 1e3:.0f} ms")
    expired = summary["expired"]
    if expired:
        print(f"  deadlines that ran out, applied after it: p50 {percentile(expired, 0.5) * 1e3:.1f} ms, p99 "
              f"{percentile(expired, 0.99) * 1e3:.1f} ms, max {expired[-1] * 1e3:.0f} ms over {len(expired)}")
    print(f"  the server's event loop waited for a core {(wait1 - wait0) / elapsed * 1e3:.0f} ms per second, "
          f"{(wait1 - wait0) / max(run1 - run0, 1e-9) * 100:.0f}% of the time it ran (the machine's other load)")
    print(f"  meanwhile an idle process's 10 ms sleep overslept by p99 {idle['p99'] * 1e3:.1f} ms, max "
          f"{idle['max'] * 1e3:.0f} ms (what the machine's load alone does to a timer)")
    print(f"  freezes (ms): {[round(f * 1e3, 1) for f in summary['freezes']]}")
    print(f"  garbage collections {summary['gc'][0]} ({summary['gc'][3]} full), the longest {summary['gc'][1][0] * 1e3:.0f} ms "
          f"(generation {summary['gc'][1][1]}); {summary['gc'][2]} objects found in cycles; {summary['gc'][4]} objects tracked; "
          f"the 5 longest (ms, generation): {[(round(g[0] * 1e3, 1), g[1]) for g in summary['gc_longest']]}")
    if latencies:
        print(f"  {sampled} sampled TCP clients: choice -> seat updated median {statistics.median(latencies) * 1e3:.2f} ms, "
              f"p99 {percentile(latencies, 0.99) * 1e3:.2f} ms over {len(latencies)} choices")


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
    parser.add_argument("--split", action="store_true",
                        help="split the server's CPU per choice into its parts (timing each part adds to it)")
    parser.add_argument("--floor-only", action="store_true", help="measure just the echo and the fan-out floor")
    parser.add_argument("--floor-rounds", type=int, default=300, help="fan-outs per floor measurement")
    parser.add_argument("--sink-games", type=int, default=6, help="games for the in-process fan-out CPU")
    parser.add_argument("--paced-tables", type=int, default=500, help="tables at a human pace (0: skip)")
    parser.add_argument("--paced-seconds", type=float, default=60.0)
    parser.add_argument("--paced-sampled", type=int, default=8, help="of which seat a real TCP client")
    parser.add_argument("--paced-delay", type=float, default=15.0, help="seconds an in-process bot takes, and a seat nobody took (about one choice per table per 2 s)")
    parser.add_argument("--paced-only", action="store_true", help="measure just the tables at a human pace")
    parser.add_argument("--sink-only", action="store_true", help="measure just the in-process fan-out CPU")
    args = parser.parse_args()
    characters = "0" if args.no_characters else "1"
    identities = args.identities or ("3v3" if args.no_characters else "default")
    game = (str(args.players), identities)
    label = f"{args.players} seats ({identities}{', characters' if characters == '1' else ''})"
    if args.sink_games > 0 and not args.floor_only and not args.paced_only:
        full, every = sink_fanout(args.players, identities, characters == "1", args.sink_games)
        print(f"server CPU per fan-out, in process, every seat a sink, {label}: median {statistics.median(full) / 1e3:.0f} µs "
              f"over the {len(full)} flushes that reached all {args.players} seats (p90 {percentile(full, 0.9) / 1e3:.0f} µs); "
              f"median {statistics.median(every) / 1e3:.0f} µs over all {len(every)} flushes ({args.sink_games} games)")
    if args.sink_only:
        return
    if args.paced_only:
        with tempfile.TemporaryDirectory() as tmp:
            paced(args.paced_tables, args.paced_sampled, args.paced_seconds, args.paced_delay, args.paced_delay,
                  "-" if args.no_journal else tmp)
        return
    sizes: list[int] = []
    with tempfile.TemporaryDirectory() as tmp:
        data = "-" if args.no_journal else tmp
        echo, echo_port = spawn(ECHO)
        framed, framed_port = spawn(ECHO_FRAMED)
        try:
            # The echo is paced like the fan-outs (`--pause` apart), so that both wake from the same
            # idle; the back-to-back echo (1 ms apart) is printed too, as the faster reference.
            rtt = echo_rtt(echo_port, 500, framed=False, gap=args.pause)
            framed_rtt = echo_rtt(framed_port, 500, framed=True, gap=args.pause)
            hot_rtt = echo_rtt(echo_port, 500, framed=False, gap=HOT_GAP)
            fan: list[float] = []
            stages: list[dict[str, float]] = []
            parts: list[dict[str, float]] = []
            runs = 0
            cores = {"server": [0.0, 0.0], "seats": [0.0, 0.0]}  # seconds run, seconds waiting for a core
            split: dict[str, list[int]] = {}  # --split: the server's CPU ns by part, and times each was entered
            while len(fan) < args.choices and not args.floor_only:  # a game may end first: a fresh server deals one
                profile = f"{args.profile}.{runs}" if args.profile != "-" else "-"
                server, port = spawn(SERVER, "1", *game, data, characters, profile, "1" if args.split else "0")
                try:
                    run0, wait0 = sched_stats(server.pid)
                    seats_sched: dict[str, Any] = {}
                    times, stages = fanout(port, args.players, args.choices - len(fan), args.pause, figures=seats_sched)
                    run1, wait1 = sched_stats(server.pid)
                    cores["server"] = [cores["server"][0] + run1 - run0, cores["server"][1] + wait1 - wait0]
                    cores["seats"] = [a + b for a, b in zip(cores["seats"], seats_sched["sched"], strict=True)]
                    summary = stop(server)
                finally:
                    server.kill()
                fan += times
                sizes += summary["sizes"]
                for name, (ns, entered) in summary["parts"].items():
                    spent = split.setdefault(name, [0, 0])
                    spent[0], spent[1] = spent[0] + ns, spent[1] + entered
                parts.append(breakdown(stages, summary["stamps"]))
                runs += 1
            shared_fan: list[float] = []
            while len(shared_fan) < args.choices and not args.floor_only:
                server, port = spawn(SERVER, "1", *game, data, characters, "-")
                try:
                    times, _ = fanout(port, args.players, args.choices - len(shared_fan), args.pause, one_process=True)
                    stop(server)
                finally:
                    server.kill()
                shared_fan += times
            # The floor frame is as big as this run's median game-state frame (a patch-sized one alone).
            frame = floor_frame(int(statistics.median(sizes)) if sizes else FLOOR_BODY)
            bare: tuple[list[float], list[float]] = ([], [])
            decoded: tuple[list[float], list[float]] = ([], [])
            for _ in range(2):  # the two kinds in turns, so the load's drift falls on both alike
                for (from_trigger, from_write), decode in ((bare, False), (decoded, True)):
                    times, after_write = floor(frame, args.players, max(1, args.floor_rounds // 2), args.pause, decode)
                    from_trigger += times
                    from_write += after_write
            rtt += echo_rtt(echo_port, 500, framed=False, gap=args.pause)  # before and after: the load drifts
            framed_rtt += echo_rtt(framed_port, 500, framed=True, gap=args.pause)
            hot_rtt += echo_rtt(echo_port, 500, framed=False, gap=HOT_GAP)
        finally:
            echo.kill()
            framed.kill()
        rtt_med, framed_med = statistics.median(rtt), statistics.median(framed_rtt)
        hot_med = statistics.median(hot_rtt)
        print(f"echo round trip, asyncio streams, client in its own process, {args.pause * 1e3:g} ms apart like the "
              f"fan-outs: median {rtt_med * 1e3:.3f} ms, p99 {percentile(rtt, 0.99) * 1e3:.3f} ms")
        print(f"echo round trip, the same, {HOT_GAP * 1e3:g} ms apart: median {hot_med * 1e3:.3f} ms, "
              f"p99 {percentile(hot_rtt, 0.99) * 1e3:.3f} ms")
        print(f"echo round trip, FramedConnection on both ends, {args.pause * 1e3:g} ms apart: median "
              f"{framed_med * 1e3:.3f} ms, p99 {percentile(framed_rtt, 0.99) * 1e3:.3f} ms")
        if fan:
            fan_med, fan_p99 = statistics.median(fan), percentile(fan, 0.99)
            print(f"choice -> all {label} updated, each seat a process: median {fan_med * 1e3:.3f} ms, "
                  f"p99 {fan_p99 * 1e3:.3f} ms over {len(fan)} choices; ratio to echo: median {fan_med / rtt_med:.2f}, "
                  f"p99 {fan_p99 / rtt_med:.2f} (to the framed echo: {fan_med / framed_med:.2f}; to the echo "
                  f"{HOT_GAP * 1e3:g} ms apart: {fan_med / hot_med:.2f})")
            print(f"  frame bytes: median {statistics.median(sizes):.0f}, largest {max(sizes)} over {len(sizes)} frames")
            (srv_run, srv_wait), (seat_run, seat_wait) = cores["server"], cores["seats"]
            n = len(fan)
            print(f"  CPU per choice: server {srv_run / n * 1e3:.2f} ms (waited {srv_wait / n * 1e3:.2f} ms for a core), "
                  f"the {args.players} seat processes {seat_run / n * 1e3:.2f} ms in all (waited {seat_wait / n * 1e3:.2f} ms); "
                  f"on {os.cpu_count()} cores the work alone takes at least {(srv_run + seat_run) / n / (os.cpu_count() or 1) * 1e3:.2f} ms "
                  f"of each choice's {fan_med * 1e3:.2f} ms")
            if split:
                print(f"  the server's CPU per choice by part (main thread, each part without the parts it called; "
                      f"timing them adds to it): {sum(ns for ns, _ in split.values()) / n / 1e3:.0f} µs in all")
                for name, (ns, entered) in sorted(split.items(), key=lambda item: -item[1][0]):
                    print(f"    {name:<58} {ns / n / 1e3:6.0f} µs, entered {entered / n:5.1f} times")
            shared_med, shared_p99 = statistics.median(shared_fan), percentile(shared_fan, 0.99)
            print(f"choice -> all {label} updated, every seat in one client process: median {shared_med * 1e3:.3f} ms, "
                  f"p99 {shared_p99 * 1e3:.3f} ms over {len(shared_fan)} choices; ratio to echo: median "
                  f"{shared_med / rtt_med:.2f}, p99 {shared_p99 / rtt_med:.2f} (to the echo {HOT_GAP * 1e3:g} ms apart: "
                  f"{shared_med / hot_med:.2f})")
            weights = [p for p in parts if p]
            if weights:
                print("  where a fan-out's time goes (median µs, each stage measured on its own):")
                for key in weights[0]:
                    print(f"    {key:<58} {statistics.median(p[key] for p in weights):8.0f}")
        print_floor(args.players, len(frame) - P.HEADER_SIZE, bare, decoded, fan, rtt_med, args.pause)

        if args.tables <= 0 or args.floor_only:
            if args.paced_tables > 0 and not args.floor_only:
                paced(args.paced_tables, args.paced_sampled, args.paced_seconds, args.paced_delay, args.paced_delay, data)
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
        if args.paced_tables > 0:
            paced(args.paced_tables, args.paced_sampled, args.paced_seconds, args.paced_delay, args.paced_delay, data)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] in ("_echo", "_seat", "_seats", "_floor_seat", "_floor_driver", "_paced"):
        worker(sys.argv[1:])
    else:
        main()
