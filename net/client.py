"""The client side of the protocol: used by the Textual app (in a worker) and by remote bots.

`Client.connect` performs the hello exchange and returns the welcome; afterwards every server
message (validated against the schema) arrives in order through `recv()` or `async for`. Messages
are taken from the connection in its own callback, not by a reader task, so each batch of frames
costs one task switch (to the caller of `recv`) rather than two.
A `patch` is applied to the last view here and handed on as the `update` it stands for, so
callers only ever see whole views.
The iteration ends when the connection closes. The client pings while idle so the server does
not close it as silent.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import logging
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

from net import protocol as P
from net.connection import ConnectionClosed, FramedConnection, open_connection

#: The code of a ClientError (and of a session's end) when the server broke the protocol: a
#: welcome or a frame that breaks the schema, bytes that are not frames.
BAD_SERVER = "bad_server"
PING_INTERVAL = 20.0
#: Nothing at all from the server for this long (it answers every ping with a pong): the
#: connection is given up, as a drop. Without it a half-open connection (the host's machine asleep,
#: its network gone) left the player before a frozen table until TCP itself gave up, many minutes on.
SILENT_SERVER = 50.0
CONNECT_TIMEOUT = 10.0
RETRY_DELAY = 0.2

log = logging.getLogger("fengsheng.client")


class ClientError(Exception):
    """The server refused the hello (`code` is a protocol error code) or the connection failed."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class Client:
    def __init__(self) -> None:
        self.conn: FramedConnection | None = None
        self.seat: int | None = None
        self.token: str | None = None
        self.table: str | None = None
        self.is_host = False
        #: The latest `update` view and `lobby` table received, for callers that only need "now".
        self.view: dict[str, Any] | None = None
        self.lobby: dict[str, Any] | None = None
        #: The view the server's next `patch` applies to; None until an `update` arrives.
        self._base: dict[str, Any] | None = None
        #: Why the connection was given up on our side: the server broke the protocol (a frame
        #: that breaks the schema, or bytes that are not frames). None while it behaves.
        self.failure: P.ProtocolError | None = None
        self._queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._ping_n = 0
        self._ended = False

    async def connect(
        self,
        host: str,
        port: int,
        name: str,
        token: str | None = None,
        table: str | None = None,
        password: str | None = None,
        spectate: bool = False,
        timeout: float = CONNECT_TIMEOUT,
        bot: bool = False,
        source: str | None = None,
    ) -> dict[str, Any]:
        """Join (or rejoin, with `token`) a table; returns the welcome or raises ClientError.
        `bot`: a program will play this seat (`fengsheng bot`). `source`: the local address to
        connect from (a door gives each guest a loopback address of his own)."""
        try:
            # A name, password or table name too long (or a damaged saved token) is ours to refuse,
            # with the same kind of error as every other refusal, before anything is sent.
            hello = P.hello(name, token=token, table=table, password=password, spectate=spectate, bot=bot)
        except P.ProtocolError as exc:
            raise ClientError(P.BAD_MESSAGE, exc.message) from None
        try:
            self.conn = await open_connection(host, port, timeout=timeout, source=source)
        except (OSError, TimeoutError) as exc:
            raise ClientError("connect", f"cannot reach {host}:{port}: {exc}") from None
        self.conn.send(hello)
        try:
            first = P.validate_server_message(await self.conn.read_message(timeout=timeout))
        except (ConnectionClosed, TimeoutError) as exc:
            await self.conn.close()
            raise ClientError("connect", f"no answer from {host}:{port}: {exc or 'timed out'}") from None
        except P.ProtocolError as exc:
            await self.conn.close()
            raise ClientError(BAD_SERVER, f"{exc.code}: {exc.message}") from None
        if first["type"] != "welcome":
            await self.conn.close()
            if first["type"] == "error":
                raise ClientError(first["code"], first["message"])
            raise ClientError(P.BAD_MESSAGE, f"expected a welcome, got {first['type']}")
        self.seat, self.token, self.table, self.is_host = first["seat"], first["token"], first["table"], first["host"]
        self._tasks = [asyncio.create_task(self._ping())]
        self.conn.set_listener(self._receive)
        return first

    def _receive(self) -> None:
        """Take every message that has arrived, straight from the connection's callback (no reader
        task to wake): validate it, turn a patch into its update, queue it for `recv`."""
        conn = self.conn
        assert conn is not None
        if self._ended:
            return
        try:
            while True:
                try:
                    raw = conn.next_message()
                    if raw is None:
                        return
                    msg = P.validate_server_message(raw)
                except P.ProtocolError as exc:
                    if exc.code == P.UNKNOWN_TYPE and not exc.fatal:
                        continue  # a newer server's message: nothing here depends on it
                    # A frame that breaks the schema would put the client out of step, or crash
                    # what shows it: the server is not one we can play with.
                    self._fail(exc)
                    return
                if msg["type"] == "patch":
                    if self._base is None:
                        self._fail(P.ProtocolError(P.BAD_MESSAGE, "a patch arrived before any view"))
                        return
                    patch = msg
                    try:
                        msg = self._patched(msg)
                    except P.ProtocolError as exc:
                        # Our view is out of step with the server: a reconnect gets a fresh one.
                        self._end()
                        closing = asyncio.ensure_future(conn.close(f"cannot apply a patch: {exc.message}", timeout=1.0))
                        self._tasks.append(closing)
                        return
                    try:
                        P.check_patched(msg["view"], patch["changes"])
                    except P.ProtocolError as exc:
                        self._fail(exc)  # the patch applied, to a view that breaks the schema
                        return
                if msg["type"] == "update":
                    self.view = self._base = msg["view"]
                    self.seat = msg["view"].get("seat", self.seat)
                elif msg["type"] == "lobby":
                    self._base = None
                    self.lobby = msg["table"]
                    self.seat = msg["table"].get("you", self.seat)
                self._queue.put_nowait(msg)
        except ConnectionClosed:
            self._end()

    def _fail(self, exc: P.ProtocolError) -> None:
        """Give up on a server that broke the protocol: keep why, close, end the messages."""
        self.failure = exc
        self._end()
        if self.conn is not None and not self.conn.closing:
            self._tasks.append(asyncio.ensure_future(self.conn.close(f"{exc.code}: {exc.message}", timeout=1.0)))

    def _end(self) -> None:
        """No more messages: `recv` returns None from now on."""
        if not self._ended:
            self._ended = True
            self._queue.put_nowait(None)

    def _patched(self, msg: dict[str, Any]) -> dict[str, Any]:
        """The `update` a `patch` stands for: the last view with the changes applied."""
        if self._base is None:
            raise P.ProtocolError(P.BAD_MESSAGE, "a patch arrived before any view")
        return {"type": "update", "view": P.apply_patch(self._base, msg["changes"]), "events": msg["events"]}

    async def _ping(self) -> None:
        while self.conn is not None and not self.conn.closing:
            await asyncio.sleep(PING_INTERVAL)
            if time.monotonic() - self.conn.last_received > SILENT_SERVER:
                self._end()
                self.conn.abort(f"the server sent nothing for {SILENT_SERVER:g} s")
                return
            self._ping_n += 1
            self._send(P.ping(self._ping_n))

    def _send(self, msg: dict[str, Any]) -> None:
        if self.conn is None or not self.conn.send(msg):
            raise ClientError("closed", "the connection is closed")

    # ------------------------------------------------------------------ receiving

    async def recv(self, timeout: float | None = None) -> dict[str, Any] | None:
        """The next server message, or None once the connection has closed."""
        queue = self._queue
        if not queue.empty():
            msg = queue.get_nowait()
        elif timeout is None:
            msg = await queue.get()
        else:
            async with asyncio.timeout(timeout):
                msg = await queue.get()
        if msg is None:
            self._queue.put_nowait(None)  # stay closed for later callers
        return msg

    async def __aiter__(self) -> AsyncIterator[dict[str, Any]]:
        while (msg := await self.recv()) is not None:
            yield msg

    @property
    def closed(self) -> bool:
        return self.conn is None or self.conn.closing

    # ------------------------------------------------------------------ sending

    async def choose(self, prompt_id: int, option: str) -> None:
        self._send(P.choose(prompt_id, option))

    async def chat(self, text: str) -> None:
        self._send(P.say(text))

    async def op(self, command: str, **args: Any) -> None:
        """A host command, e.g. `op("add_bot", level="random")`; refused unless we hold the host token."""
        self._send(P.op(command, args))

    async def ready(self, is_ready: bool = True) -> None:
        self._send(P.ready(is_ready))

    async def auto(self, on: bool) -> None:
        self._send(P.auto(on))

    async def fast_forward(self, on: bool = True) -> None:
        self._send(P.fast_forward(on))

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        if self.conn is not None:
            await self.conn.close("client closing", timeout=1.0)
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._end()


async def play_as_bot(
    client: Client, make_bot: Callable[[int], Any], delay: float = 0.0, until_over: bool = False
) -> None:
    """Let a bot play the client's seat from the update frames alone, until the connection ends.

    `make_bot(seat)` is called when a game starts (the seat is only final then). With
    `until_over` it returns once a finished game's final view arrives. A choice refused as rate
    limited is sent again a moment later if its prompt is still open. While the host has paused
    the table the bot waits (the server refuses every choice then, `paused`); a choice refused
    as paused is made again once the table runs.
    A bot is ready by itself: whenever the newest lobby shows its seat not ready (on joining, and
    again when the table gathers after a game over), it says `ready` once, so "everyone ready"
    never waits on it.
    """
    bot: Any = None
    answered: tuple[int, str] | None = None
    asked_ready = False
    async for msg in client:
        if msg["type"] == "lobby":
            if not asked_ready and _not_ready_in_lobby(client, msg["table"]):
                asked_ready = True
                try:
                    await client.ready(True)
                except ClientError:
                    return
            continue
        if msg["type"] == "error" and msg["code"] == P.RATE_LIMITED and answered is not None:
            await asyncio.sleep(RETRY_DELAY)
            prompt = client.view.get("prompt") if client.view is not None else None
            if prompt is not None and prompt["id"] == answered[0]:
                with contextlib.suppress(ClientError):
                    await client.choose(*answered)
            continue
        if msg["type"] == "error" and msg["code"] == P.PAUSED:
            answered = None  # the prompt is still open: answer it after the resume
            continue
        if msg["type"] != "update":
            continue
        asked_ready = False  # a game is on: the next lobby needs a new `ready`
        current = msg["view"]
        events = msg["events"]
        # The schema leaves a newer server room (optional fields, any values in range), so a view
        # may still be one the bot cannot play from: never a traceback, see `_unreadable`.
        try:
            if bot is None or (events and events[0].get("seq") == 0):
                bot = make_bot(int(current["seat"]))
                answered = None
            bot.observe(events)
            over, prompt = bool(current["over"]), current["prompt"]
        except Exception as exc:
            _unreadable(client, exc)
            return
        if over and until_over:
            return
        if prompt is None or current.get("paused") or (answered is not None and prompt["id"] == answered[0]):
            continue
        started = asyncio.get_running_loop().time()
        wait = delay
        try:
            if getattr(bot, "thinks", False):
                # A searching bot (hard) thinks for up to a second: in a thread, on its own copy of
                # the view, so that the other seats this process plays keep their connections going.
                # It answers no sooner than its budget, whatever it found: a prompt with one option
                # answered at once would tell every other seat it had nothing to choose from.
                budget = getattr(bot, "budget", None)
                if isinstance(budget, (int, float)):
                    wait = max(delay, float(budget))
                option = await asyncio.to_thread(bot.decide, copy.deepcopy(current))
            else:
                option = bot.decide(current)
        except Exception as exc:
            # The bot cannot decide from this view: the prompt's own default is always legal.
            option = prompt.get("default")
            log.warning("the bot cannot decide from the server's view (%r): taking the default %r", exc, option)
            if type(option) is not str:
                _unreadable(client, exc)
                return
        left = started + wait - asyncio.get_running_loop().time()
        if left > 0:
            await asyncio.sleep(left)
        answered = (prompt["id"], option)
        try:
            await client.choose(prompt["id"], option)
        except ClientError:
            return


def _unreadable(client: Client, exc: Exception) -> None:
    """A view the bot cannot read at all: give up on this server as one that broke the protocol."""
    client._fail(P.ProtocolError(BAD_SERVER, f"the server sent a view a bot cannot play from ({exc!r:.200})"))


def _not_ready_in_lobby(client: Client, table: dict[str, Any]) -> bool:
    """Our seat is listed not ready in this lobby, and it is still the newest frame received (a
    lobby read late, after the game already started, must not draw a refused `ready`)."""
    if table is not client.lobby or client._base is not None:
        return False
    you = table.get("you")
    seats = table.get("seats") or []
    return isinstance(you, int) and 0 <= you < len(seats) and not seats[you].get("ready")
