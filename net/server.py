"""The authoritative game server: accepts TCP connections and hands their messages to tables.

Per connection: a connection cap, a token bucket, a deadline for the hello and for each frame
(`FramedConnection`), schema validation of every message. A connection that misbehaves gets an
`error` (or is closed) on its own; nothing it sends reaches a table unless it is a valid message,
and the table decides whether it is allowed. Identity comes from the seat token presented in the
hello, never from a field of a later message.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from net import protocol as P
from net.connection import ConnectionClosed, FramedConnection, RateLimiter
from net.table import Session, Table

log = logging.getLogger("fengsheng.server")

DEFAULT_PORT = 7531
MAX_CONNECTIONS = 64
HELLO_TIMEOUT = 10.0
#: A connection silent this long is closed; clients ping every few seconds when idle.
IDLE_TIMEOUT = 120.0
RATE = 50.0
BURST = 100
#: Rate-limited frames in a row before the flooding connection is closed.
FLOOD_STRIKES = 50


class GameServer:
    def __init__(
        self,
        host: str = "0.0.0.0",
        port: int = 0,
        *,
        max_connections: int = MAX_CONNECTIONS,
        rate: float = RATE,
        burst: int = BURST,
        frame_timeout: float = 10.0,
        hello_timeout: float = HELLO_TIMEOUT,
        idle_timeout: float = IDLE_TIMEOUT,
        check_outbound: bool | None = None,
    ) -> None:
        self.host = host
        self.requested_port = port
        self.max_connections = max_connections
        self.rate = rate
        self.burst = burst
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
        if self._server is not None:
            table.start()
        return table

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._server = await loop.create_server(self._new_connection, self.host, self.requested_port)
        for table in self.tables.values():
            table.start()
        log.info("listening on %s:%d", self.host, self.port)

    async def close(self) -> None:
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

    async def __aenter__(self) -> GameServer:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # ------------------------------------------------------------------ one connection

    def _new_connection(self) -> FramedConnection:
        """The protocol for one accepted socket; its handler task starts once it is attached."""
        return FramedConnection(
            frame_timeout=self.frame_timeout,
            limiter=RateLimiter(self.rate, self.burst),
            check_outbound=self.check_outbound,
            on_connect=self._connected,
        )

    def _connected(self, conn: FramedConnection) -> None:
        task = asyncio.create_task(self._accept(conn), name=f"connection {conn.peer}")
        self._handlers.add(task)
        task.add_done_callback(self._handlers.discard)

    async def _accept(self, conn: FramedConnection) -> None:
        try:
            if len(self._conns) >= self.max_connections:
                conn.send(P.error(P.FULL, f"the server takes at most {self.max_connections} connections"))
                return
            self._conns.add(conn)
            await self._serve(conn)
        except asyncio.CancelledError:
            pass  # the server is closing; asyncio would otherwise log every handler as an error
        except Exception:
            log.exception("connection %s failed", conn.peer)
        finally:
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
        """Read and check the hello, then let the table seat the connection (or refuse it)."""
        try:
            msg = P.validate_client_message(await conn.read_message(timeout=self.hello_timeout))
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
        reply: asyncio.Future[Session | None] = asyncio.get_running_loop().create_future()
        table.post(("hello", conn, msg, reply))
        session = await reply
        if session is None:
            return None
        return table, session

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
