"""The authoritative game server: accepts TCP connections and hands their messages to tables.

Per connection: a token bucket of frames and one of bytes, an inbound frame cap sized to what an
honest client sends (`MAX_CLIENT_FRAME`), a deadline for the whole hello and for each frame
(`FramedConnection`), schema validation of every message. A connection that misbehaves gets an
`error` (or is closed) on its own; nothing it sends reaches a table unless it is a valid message,
and the table decides whether it is allowed. Identity comes from the seat token presented in the
hello, never from a field of a later message.

Fair shares (`Admission`): connections that have not said hello yet and spectators are capped per
address and in all; seated players are bounded by the seats themselves. When the room for
hellos is full, a newcomer pushes out the oldest waiting connection of the address that has the
most waiting, so one address cannot keep a returning player (or anyone else) out; when every
spectator place is taken, a new spectator takes the oldest place of the address holding the most
(at least two more than his own). Failed
passwords and tokens are logged and, past a few, make their address wait (`AuthThrottle`).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import resource
import time
from collections import Counter
from typing import Any

from net import protocol as P
from net.connection import ConnectionClosed, FramedConnection, RateLimiter
from net.table import Session, Table

log = logging.getLogger("fengsheng.server")

DEFAULT_PORT = 7531
#: Every socket at once (also kept below the process's file descriptor limit, see `_fd_room`).
MAX_CONNECTIONS = 256
#: Connections that have not said hello yet: in all, and from one address.
MAX_PENDING = 64
PENDING_PER_ADDRESS = 16
#: Spectators (without a seat token): in all, and from one address.
MAX_SPECTATORS = 64
SPECTATORS_PER_ADDRESS = 16
#: The whole hello must have arrived this long after the connection was accepted.
HELLO_TIMEOUT = 3.0
#: A connection silent this long is closed; clients ping every few seconds when idle.
IDLE_TIMEOUT = 120.0
RATE = 50.0
BURST = 100
#: Inbound bytes per second and burst per connection; an honest client sends well under 1 KiB/s.
BYTE_RATE = 32 * 1024
BYTE_BURST = 64 * 1024
#: The largest frame a client may send. The biggest honest one, a hello with every field at its
#: schema limit in CJK, is under 400 bytes (tests/test_fair_connections.py measures it).
MAX_CLIENT_FRAME = 4 * 1024
#: Rate-limited frames in a row before the flooding connection is closed.
FLOOD_STRIKES = 50
#: Hellos one address may send (a token bucket): each accepted one is a seat taken or a
#: spectator, a lobby change and a log line, so joining and leaving in a loop is a flood. The burst
#: holds what one machine honestly opens at once (`fengsheng bot --count 9`, reconnects).
HELLO_RATE = 4.0
HELLO_BURST = 32
#: Failed passwords/tokens from one address before it must wait, the first wait and the longest.
AUTH_FREE_FAILURES = 3
AUTH_FIRST_WAIT = 1.0
AUTH_MAX_WAIT = 60.0
#: An address with no failure for this long starts afresh.
AUTH_FORGET = 600.0
#: Every this many seconds the objects that have lived that long (the games, their logs, the
#: tables) are put out of the cyclic collector's reach (`gc.freeze`): a full collection then walks
#: only what is newer, so its pause stays short however many tables the process holds. Measured
#: (bench/net_bench.py, 500 tables): a full collection held the event loop up to about 200 ms,
#: longer than a deadline may be late; freezing every 10 s still let two full collections of
#: 170-210 ms happen in 30 s, every second none (a freeze costs well under 0.1 ms). The server
#: makes no reference cycles in play (none were found), so nothing is kept that the collector
#: would have freed. Only for a process that runs
#: the server alone (`fengsheng host` without the SSH door): an app in the same process (the
#: table's own screen, SSH guests' screens) makes cycles that would be kept, so `GameServer`
#: freezes nothing unless asked.
GC_FREEZE_EVERY = 1.0
#: File descriptors kept free for the journal, replays and the rest of the process.
FD_RESERVE = 32
#: One log line at most this often when the process runs out of file descriptors.
FD_LOG_EVERY = 60.0


class AuthThrottle:
    """Failed passwords and seat tokens per address: after `AUTH_FREE_FAILURES`, each further try
    must wait twice as long as the last (up to `AUTH_MAX_WAIT`)."""

    def __init__(self, clock: Any = time.monotonic) -> None:
        self.clock = clock
        self._fails: dict[str, tuple[int, float]] = {}

    def wait(self, address: str) -> float:
        """Seconds this address must still wait before its next try (0: it may try now)."""
        count, last = self._fails.get(address, (0, 0.0))
        now = self.clock()
        if count and now - last > AUTH_FORGET:
            del self._fails[address]
            return 0.0
        if count < AUTH_FREE_FAILURES:
            return 0.0
        delay = min(AUTH_FIRST_WAIT * 2 ** (count - AUTH_FREE_FAILURES), AUTH_MAX_WAIT)
        return max(0.0, last + delay - now)

    def failed(self, address: str) -> int:
        count, _ = self._fails.get(address, (0, 0.0))
        if len(self._fails) > 4096:  # bounded memory: forget the quiet ones first
            now = self.clock()
            self._fails = {a: v for a, v in self._fails.items() if now - v[1] <= AUTH_FORGET}
        self._fails[address] = (count + 1, self.clock())
        return count + 1


class Admission:
    """Who is connected from where, as pending (no hello yet), seated or spectating."""

    def __init__(self, max_pending: int, pending_per_address: int, max_spectators: int,
                 spectators_per_address: int) -> None:
        self.max_pending = max_pending
        self.pending_per_address = pending_per_address
        self.max_spectators = max_spectators
        self.spectators_per_address = spectators_per_address
        #: Pending connections in the order they came (dicts keep insertion order).
        self.pending: dict[FramedConnection, str] = {}
        self.pending_by_address: Counter[str] = Counter()
        self.spectators: dict[FramedConnection, str] = {}
        self.spectators_by_address: Counter[str] = Counter()
        #: Spectators that came without a seat token (`take_spectator`): those a newcomer may push out.
        self.tokenless: set[FramedConnection] = set()

    def arrive(self, conn: FramedConnection, address: str) -> tuple[bool, FramedConnection | None]:
        """(admitted, a pending connection to push out to make room for it)."""
        if self.pending_by_address[address] >= self.pending_per_address:
            return False, None
        evict = self.push_out() if len(self.pending) >= self.max_pending else None
        self.pending[conn] = address
        self.pending_by_address[address] += 1
        return True, evict

    def push_out(self) -> FramedConnection | None:
        """The oldest connection still without a hello from the address with the most of them,
        no longer counted (the caller closes it); None if no connection is waiting."""
        if not self.pending:
            return None
        busiest = self.pending_by_address.most_common(1)[0][0]
        evict = next(c for c, a in self.pending.items() if a == busiest)
        self._unpend(evict)
        return evict

    def take_spectator(self, conn: FramedConnection, address: str) -> tuple[str | None, FramedConnection | None]:
        """Count `conn` as a spectator from `address`: (why it cannot be one, None if it is; a
        spectator pushed out to make room, which the caller closes).

        When every spectator place is taken, a newcomer takes the place of the oldest spectator
        of the address holding the most, if that address holds at least two more than his own: a
        stranger with a few addresses cannot keep every other spectator out (spectators ping, so
        the idle timeout never frees a place), and nobody who plays is ever pushed out."""
        if self.spectators_by_address[address] >= self.spectators_per_address:
            return f"at most {self.spectators_per_address} spectators from one address", None
        evict = None
        if len(self.spectators) >= self.max_spectators:
            mine = self.spectators_by_address[address]
            counts = self.spectators_by_address
            # Only those who came without a token: a host watching, or a player whose seat is
            # held elsewhere, keeps his place.
            waiting = [(c, a) for c, a in self.spectators.items() if c in self.tokenless and counts[a] >= mine + 2]
            if not waiting:
                return f"the server takes at most {self.max_spectators} spectators", None
            most = max(counts[a] for _, a in waiting)
            evict = next(c for c, a in waiting if counts[a] == most)
            self._unspectate(evict)
        self.spectators[conn] = address
        self.spectators_by_address[address] += 1
        self.tokenless.add(conn)
        return None, evict

    def joined(self, conn: FramedConnection, spectator: bool) -> None:
        """The hello was accepted: no longer pending; a spectator if it is one."""
        self._unpend(conn)
        if spectator and conn not in self.spectators:
            address = _address(conn)
            self.spectators[conn] = address
            self.spectators_by_address[address] += 1
        elif not spectator and conn in self.spectators:
            self._unspectate(conn)

    def left(self, conn: FramedConnection) -> None:
        self._unpend(conn)
        self._unspectate(conn)

    def _unspectate(self, conn: FramedConnection) -> None:
        self.tokenless.discard(conn)
        address = self.spectators.pop(conn, None)
        if address is not None:
            self.spectators_by_address[address] -= 1
            if not self.spectators_by_address[address]:
                del self.spectators_by_address[address]

    def _unpend(self, conn: FramedConnection) -> None:
        address = self.pending.pop(conn, None)
        if address is not None:
            self.pending_by_address[address] -= 1
            if not self.pending_by_address[address]:
                del self.pending_by_address[address]


def _loggable(name: str) -> str:
    """A name refused before the name rules ran (a wrong password comes first), fit for one log
    line: the schema keeps out controls, not line separators (U+2028) that would forge a line."""
    return "".join(ch if ch.isprintable() else "?" for ch in name[:24])


def _address(conn: FramedConnection) -> str:
    peer = conn.peer
    return str(peer[0]) if isinstance(peer, tuple) and peer else str(peer)


def _fd_room() -> int:
    """How many sockets the process can still open, keeping `FD_RESERVE` for everything else
    (the soft limit raised to the hard one first, as far as the system allows)."""
    try:
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft != resource.RLIM_INFINITY and (hard == resource.RLIM_INFINITY or soft < hard):
            target = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
            with contextlib.suppress(ValueError, OSError):
                resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
                soft = target
    except (OSError, ValueError):
        return MAX_CONNECTIONS
    if soft == resource.RLIM_INFINITY:
        return 1 << 20
    import os

    try:
        in_use = len(os.listdir("/proc/self/fd"))
    except OSError:
        in_use = 16
    return max(1, int(soft) - in_use - FD_RESERVE)


class GameServer:
    def __init__(
        self,
        host: str = "0.0.0.0",
        port: int = 0,
        *,
        max_connections: int = MAX_CONNECTIONS,
        max_pending: int = MAX_PENDING,
        pending_per_address: int = PENDING_PER_ADDRESS,
        max_spectators: int = MAX_SPECTATORS,
        spectators_per_address: int = SPECTATORS_PER_ADDRESS,
        rate: float = RATE,
        burst: int = BURST,
        byte_rate: float | None = None,
        byte_burst: int | None = None,
        max_frame: int = MAX_CLIENT_FRAME,
        frame_timeout: float = 10.0,
        hello_timeout: float = HELLO_TIMEOUT,
        idle_timeout: float = IDLE_TIMEOUT,
        check_outbound: bool | None = None,
        gc_freeze_every: float | None = None,
        background_files: bool = False,
    ) -> None:
        self.host = host
        self.requested_port = port
        self.max_connections = max_connections
        self.admission = Admission(max_pending, pending_per_address, max_spectators, spectators_per_address)
        self.auth = AuthThrottle()
        self._hellos: dict[str, RateLimiter] = {}
        self.rate = rate
        self.burst = burst
        # A server whose frame rate was raised (benchmarks, tests) raises the byte budget with it.
        self.byte_rate = byte_rate if byte_rate is not None else max(BYTE_RATE, rate * 128)
        self.byte_burst = byte_burst if byte_burst is not None else max(BYTE_BURST, burst * 128)
        self.max_frame = max_frame
        self.frame_timeout = frame_timeout
        self.hello_timeout = hello_timeout
        self.idle_timeout = idle_timeout
        #: Walk every outgoing frame before sending it (debug and tests); the server builds
        #: its frames from the projection, so by default they are packed unchecked.
        self.check_outbound = P.CHECK_OUTBOUND if check_outbound is None else check_outbound
        self.tables: dict[str, Table] = {}
        self._server: asyncio.Server | None = None
        self._conns: set[FramedConnection] = set()
        self._handlers: set[asyncio.Task[Any]] = set()
        self._old_handler: Any = None
        self._fd_errors = 0
        self._fd_logged = -FD_LOG_EVERY
        self.gc_freeze_every = gc_freeze_every
        self._freezer: asyncio.TimerHandle | None = None
        #: Every table writes its finished games' files in a worker thread (`Table.files_in_background`).
        self.background_files = background_files

    @property
    def port(self) -> int:
        assert self._server is not None, "server not started"
        port: int = self._server.sockets[0].getsockname()[1]
        return port

    @property
    def connections(self) -> int:
        return len(self._conns)

    def add_table(self, table: Table) -> Table:
        if table.name in self.tables:
            raise ValueError(f"a table named {table.name!r} already exists")
        self.tables[table.name] = table
        if self.background_files:
            table.files_in_background = True
        if self._server is not None:
            table.start()
        return table

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        self.max_connections = min(self.max_connections, _fd_room())
        self._old_handler = loop.get_exception_handler()
        loop.set_exception_handler(self._loop_error)
        self._server = await loop.create_server(self._new_connection, self.host, self.requested_port)
        for table in self.tables.values():
            table.start()
        if self.gc_freeze_every is not None:
            self._freezer = loop.call_later(self.gc_freeze_every, self._freeze)
        log.info("listening on %s:%d", self.host, self.port)

    def _freeze(self) -> None:
        """What has lived a while goes out of the collector's reach (`GC_FREEZE_EVERY`)."""
        gc.freeze()
        assert self.gc_freeze_every is not None
        self._freezer = asyncio.get_running_loop().call_later(self.gc_freeze_every, self._freeze)

    async def close(self) -> None:
        if self._freezer is not None:
            self._freezer.cancel()
            self._freezer = None
        if self._server is not None:
            self._server.close()
        for table in self.tables.values():
            await table.stop()
        for conn in list(self._conns):
            await conn.close("server stopping", timeout=1.0)
        for task in list(self._handlers):
            task.cancel()
        await asyncio.gather(*self._handlers, return_exceptions=True)
        if self._server is not None:
            with contextlib.suppress(Exception):
                await self._server.wait_closed()
            self._server = None
            loop = asyncio.get_running_loop()
            if loop.get_exception_handler() == self._loop_error:
                loop.set_exception_handler(self._old_handler)

    def _loop_error(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        """Out of file descriptors, asyncio reports every failed accept with a traceback (hundreds
        a second): one line a minute with the count instead. Anything else as before."""
        if str(context.get("message", "")).startswith("socket.accept() out of system resource"):
            self._fd_errors += 1
            now = time.monotonic()
            if now - self._fd_logged >= FD_LOG_EVERY:
                self._fd_logged = now
                log.error("out of file descriptors: %d connections could not be accepted (%s); "
                          "raise the limit (ulimit -n) or lower max_connections", self._fd_errors,
                          context.get("exception"))
                self._fd_errors = 0
            return
        if self._old_handler is not None:
            self._old_handler(loop, context)
        else:
            loop.default_exception_handler(context)

    async def __aenter__(self) -> GameServer:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # ------------------------------------------------------------------ one connection

    def _new_connection(self) -> FramedConnection:
        """The protocol for one accepted socket; its handler task starts once it is attached."""
        return FramedConnection(
            max_frame=self.max_frame,
            frame_timeout=self.frame_timeout,
            limiter=RateLimiter(self.rate, self.burst),
            byte_limiter=RateLimiter(self.byte_rate, self.byte_burst),
            check_outbound=self.check_outbound,
            on_connect=self._connected,
        )

    def _connected(self, conn: FramedConnection) -> None:
        task = asyncio.create_task(self._accept(conn), name=f"connection {conn.peer}")
        self._handlers.add(task)
        task.add_done_callback(self._handlers.discard)

    async def _accept(self, conn: FramedConnection) -> None:
        address = _address(conn)
        try:
            admitted, evict = self.admission.arrive(conn, address)
            if not admitted:
                conn.send(P.error(P.FULL, f"too many connections from {address} that have not said hello"))
                return
            if evict is None and len(self._conns) >= self.max_connections:
                evict = self.admission.push_out()  # room for this one, which may hold a seat token
                if evict is None or evict is conn:
                    conn.send(P.error(P.FULL, f"the server takes at most {self.max_connections} connections"))
                    return
            if evict is not None:
                evict.send(P.bye("the server needs the room: say hello sooner"))
                evict.abort("pushed out by a newer connection")
                self._conns.discard(evict)
            self._conns.add(conn)
            await self._serve(conn)
        except asyncio.CancelledError:
            pass  # the server is closing; asyncio would otherwise log every handler as an error
        except Exception:
            log.exception("connection %s failed", conn.peer)
        finally:
            self.admission.left(conn)
            self._conns.discard(conn)
            await conn.close(conn.close_reason or "done", timeout=1.0)

    async def _serve(self, conn: FramedConnection) -> None:
        joined = await self._join(conn)
        if joined is None:
            return
        table, session = joined
        try:
            await self._read_loop(conn, table, session)
        finally:
            table.post(("gone", session))

    async def _join(self, conn: FramedConnection) -> tuple[Table, Session] | None:
        """Read and check the hello (all of it within `hello_timeout`), then let the table seat the
        connection (or refuse it)."""
        try:
            async with asyncio.timeout(self.hello_timeout):
                raw = await conn.read_message(timeout=self.hello_timeout)
            msg = P.validate_client_message(raw)
        except TimeoutError:
            conn.send(P.error(P.BAD_MESSAGE, f"no hello within {self.hello_timeout:g} s"))
            return None
        except ConnectionClosed:
            return None
        except P.ProtocolError as exc:
            if not exc.fatal:
                conn.send(exc.to_message())
            return None
        if msg["type"] != "hello":
            conn.send(P.error(P.BAD_STATE, "the first message must be a hello"))
            return None
        name = msg["table"]
        table = self.tables.get(name) if name is not None else next(iter(self.tables.values()), None)
        if table is None:
            conn.send(P.error(P.BAD_STATE, f"no table named {name!r}"))
            return None
        address = _address(conn)
        if not self._hello_allowed(address):
            conn.send(P.error(P.RATE_LIMITED, f"too many joins from {address}: try again in a few seconds"))
            return None
        proof = msg["token"] is not None or msg["password"] is not None
        wait = self.auth.wait(address) if proof else 0.0
        if wait > 0:
            conn.send(P.error(P.RATE_LIMITED, f"too many failed passwords or seat tokens from {address}: "
                                              f"try again in {wait:.0f} s"))
            return None
        if msg["spectate"] and msg["token"] is None:
            full, evict = self.admission.take_spectator(conn, address)
            if full is not None:
                conn.send(P.error(P.FULL, full))
                return None
            if evict is not None:
                log.info("spectators full: one from %s gave way to %s", _address(evict), address)
                evict.send(P.bye("the spectator places are full: yours went to a spectator from an "
                                 "address with fewer; try again later"))
                closing = asyncio.create_task(evict.close("pushed out by a spectator from an address with fewer",
                                                          timeout=1.0))
                self._handlers.add(closing)
                closing.add_done_callback(self._handlers.discard)
        reply: asyncio.Future[Session | P.ProtocolError] = asyncio.get_running_loop().create_future()
        table.post(("hello", conn, msg, reply))
        answer = await reply
        if isinstance(answer, P.ProtocolError):
            if answer.code == P.AUTH:
                count = self.auth.failed(address)
                log.warning("%s: refused a hello from %s (%s): %s; %d failure(s) from that address",
                            table.name, address, _loggable(msg["name"]), answer.message, count)
            return None
        self.admission.joined(conn, answer.seat is None)
        return table, answer

    def _hello_allowed(self, address: str) -> bool:
        """Within the address's hello budget (`HELLO_RATE`); the table of budgets stays bounded."""
        limiter = self._hellos.get(address)
        if limiter is None:
            if len(self._hellos) >= 4096:
                self._hellos = {a: b for a, b in self._hellos.items() if not b.full()}
            limiter = self._hellos[address] = RateLimiter(HELLO_RATE, HELLO_BURST)
        return limiter.allow()

    async def _read_loop(self, conn: FramedConnection, table: Table, session: Session) -> None:
        """Until the connection ends: its messages are taken in its own callback (`_Reader`)."""
        reader = _Reader(conn, table, session, self.idle_timeout)
        conn.set_listener(reader.receive)
        try:
            await reader.done
        finally:
            conn.set_listener(None)
            reader.stop()


class _Reader:
    """A joined connection's messages, handled in the connection's own callback: no task is woken
    per frame, and a choice goes straight to `Table.post` (which may apply it at once).

    Closes a connection silent for `idle` seconds (a frame already begun has the connection's
    frame deadline instead) and one that floods; `done` is set when the connection has ended.
    """

    def __init__(self, conn: FramedConnection, table: Table, session: Session, idle: float) -> None:
        self.conn = conn
        self.table = table
        self.session = session
        self.idle = idle
        self.strikes = 0
        loop = asyncio.get_running_loop()
        self.done: asyncio.Future[None] = loop.create_future()
        self.last = loop.time()
        self._timer: asyncio.TimerHandle | None = loop.call_later(idle, self._check_idle)

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if not self.done.done():
            self.done.set_result(None)

    def _check_idle(self) -> None:
        loop = asyncio.get_running_loop()
        due = self.last + self.idle
        if loop.time() >= due and not self.conn.receiving_frame:
            self._timer = None
            self.conn.send(P.bye(f"silent for {self.idle:g} s"))
            self.stop()
        else:
            self._timer = loop.call_at(max(due, loop.time() + 0.1), self._check_idle)

    def receive(self) -> None:
        conn = self.conn
        while not self.done.done():
            try:
                raw = conn.next_message()
                if raw is None:
                    return
            except ConnectionClosed:
                self.stop()
                return
            except P.ProtocolError as exc:
                self.last = asyncio.get_running_loop().time()
                if exc.fatal:
                    self.stop()
                    return
                if exc.code == P.RATE_LIMITED:
                    self.strikes += 1
                    if self.strikes > FLOOD_STRIKES:
                        conn.send(P.bye("flooding"))
                        self.stop()
                        return
                conn.send(exc.to_message())
                continue
            self.last = asyncio.get_running_loop().time()
            self.strikes = 0
            try:
                msg = P.validate_client_message(raw)
            except P.ProtocolError as exc:
                conn.send(exc.to_message())
                continue
            kind = msg["type"]
            if kind == "ping":
                conn.send(P.pong(msg["n"]))
            elif kind == "hello":
                conn.send(P.error(P.BAD_STATE, "already joined"))
            else:
                self.table.post((kind, self.session, msg))
            if conn.closing:
                self.stop()
                return
