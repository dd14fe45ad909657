"""The app's one door to a game: a `Session` yields server message dicts and accepts choices.

`NetSession` speaks to a real server through `net.client.Client`; `LocalSession` runs an
engine game with bots in-process and yields the very same dicts (`welcome`, `update` with
`view(game, seat)` and `events_for(game, seat)`), so screens and tests cannot tell them apart.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from .seat_tokens import SeatTokens

log = logging.getLogger("fengsheng.client")


class SessionClosed(ConnectionError):
    """The connection ended or was refused; `code` is the server's error code when it refused."""

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.code = code


class Session(Protocol):
    token: str | None

    async def connect(self) -> None: ...

    def messages(self) -> AsyncIterator[dict[str, Any]]: ...

    async def choose(self, prompt_id: int, option: str) -> None: ...

    async def chat(self, text: str) -> None: ...

    async def op(self, command: str, **args: Any) -> None: ...

    async def ready(self, is_ready: bool) -> None: ...

    async def auto(self, on: bool) -> None: ...

    async def fast_forward(self, on: bool) -> None: ...

    async def close(self) -> None: ...


class NetSession:
    """A seat at a real server; reconnecting presents the seat token from the last welcome.

    The saved token outlives a game over: the server keeps the seats of those present for the
    next game, so only the server's `auth` refusal of the token (`_without_stale_token`) drops it.
    A player who left while his game was over joins without it: a fresh join after the end is
    what gathers the table for the next game (a returning token would only show the old result).
    A seat is one connection's: a name already taken joins as "name 2" …, a saved seat another
    live connection holds (`seat_taken`) gets a seat of our own, and when another running client
    of this config plays under our name in a game that has started, we watch as a spectator.
    """

    def __init__(self, host: str, port: int, name: str, password: str | None = None,
                 table: str | None = None, spectate: bool = False, token: str | None = None,
                 seats: SeatTokens | None = None, source: str | None = None) -> None:
        self.host = host
        self.port = port
        self.name = name
        self.password = password
        self.table = table
        self.spectate = spectate
        self.token = token
        #: Where seat tokens are kept across processes (`fengsheng join`); None keeps them in memory.
        self.seats = None if spectate else seats
        #: The local address to connect from (a door's guest: `doors.guest.loopback_source`).
        self.source = source
        self._client: Any = None
        self._welcome: dict[str, Any] | None = None
        self._joined_table: str | None = None
        #: What the tokens file says of our seat: its last view was a finished game.
        self._seen_over = False

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port}"

    async def connect(self) -> None:
        from net.client import ClientError

        stored = None
        # Another running client of this config plays under our name (one account, two terminals).
        twin = self.token is None and self.seats is not None and self.seats.held_elsewhere(
            self.address, self.name, self.table)
        if self.token is None and self.seats is not None:
            stored = self.seats.find(self.address, self.name, self.table)
            if stored is not None and self.seats.left_over(self.address, stored):
                stored = None
        try:
            client, welcome = await self._hello(stored or self.token)
        except ClientError as exc:
            if exc.code == "full" and twin and not self.spectate:
                # The twin's game has started without a seat for us: watch it instead.
                self.spectate, self.seats = True, None
                client, welcome = await self._numbered_on(exc, first=1)
            elif exc.code == "name_taken" and stored is None and self.token is None:
                client, welcome = await self._numbered_on(exc)
            elif exc.code == "seat_taken" and stored is not None:
                # Another live connection holds the saved seat (this file's other user): a seat of our own.
                client, welcome = await self._numbered_on(exc, first=1)
            elif stored is None or exc.code != "auth":
                raise SessionClosed(exc.message, exc.code) from None
            else:
                client, welcome = await self._without_stale_token(stored)
        log.info("joined %s at %s: seat %s", welcome.get("table"), self.address, welcome.get("seat"))
        self.token = client.token or self.token
        self._client = client
        self._welcome = welcome
        self._joined_table = str(welcome.get("table") or "")
        seat = welcome.get("seat")
        if self.seats is not None and isinstance(seat, int) and client.token and client.token != "-":
            self.seats.remember(self.address, self.name, self._joined_table, client.token, seat)
            self._seen_over = False  # a remembered seat starts unmarked

    async def _hello(self, token: str | None) -> tuple[Any, dict[str, Any]]:
        from net.client import Client

        client = Client()
        welcome = await client.connect(self.host, self.port, self.name, token=token, table=self.table,
                                       password=self.password, spectate=self.spectate, source=self.source)
        return client, welcome

    async def _numbered_on(self, refusal: Any, first: int = 2) -> tuple[Any, dict[str, Any]]:
        """Our name is taken at the table (a friend on the same account, say): join afresh as
        "name 2", "name 3" … The name of the seat we get is the one we go by from then on."""
        from net.client import ClientError

        base = self.name
        for n in range(first, 10):
            self.name = base if n == 1 else f"{base[:21]} {n}"
            try:
                return await self._hello(None)
            except ClientError as exc:
                if exc.code != "name_taken":
                    self.name = base
                    raise SessionClosed(exc.message, exc.code) from None
        self.name = base
        raise SessionClosed(refusal.message, refusal.code)

    async def _without_stale_token(self, stored: str) -> tuple[Any, dict[str, Any]]:
        """The server no longer knows the saved token (a new game, a restarted server): join afresh.

        If joining afresh is refused for `auth` too, the password was the problem, not the token."""
        from net.client import ClientError

        assert self.seats is not None
        try:
            result = await self._hello(None)
        except ClientError as exc:
            if exc.code != "auth":
                self.seats.forget(self.address, token=stored)
            raise SessionClosed(exc.message, exc.code) from None
        self.seats.forget(self.address, token=stored)
        return result

    async def messages(self) -> AsyncIterator[dict[str, Any]]:
        if self._client is None:
            raise SessionClosed("not connected")
        welcome, self._welcome = self._welcome, None
        if welcome is not None:
            yield welcome
        try:
            async for msg in self._client:
                if self.seats is not None and msg.get("type") == "update":
                    self._note_over(bool((msg.get("view") or {}).get("over")))
                yield msg
        except (OSError, asyncio.IncompleteReadError, ConnectionError) as exc:
            log.warning("connection to %s lost: %s", self.address, exc)
            raise SessionClosed(str(exc)) from exc
        failure = self._client.failure if self._client is not None else None
        if failure is not None:
            from net.client import BAD_SERVER

            log.warning("%s broke the protocol: %s: %s", self.address, failure.code, failure.message)
            raise SessionClosed(f"{failure.code}: {failure.message}", BAD_SERVER)
        log.info("%s closed the connection", self.address)
        raise SessionClosed("the server closed the connection")

    def _note_over(self, over: bool) -> None:
        """Keep the tokens file's `over` mark in step with our seat's game (a write only on a change)."""
        if over != self._seen_over and self.seats is not None and self.token:
            self._seen_over = over
            self.seats.mark_over(self.address, self.token, over)

    async def _call(self, method: str, *args: Any, **kwargs: Any) -> None:
        from net.client import ClientError

        if self._client is None:
            raise SessionClosed("not connected")
        try:
            await getattr(self._client, method)(*args, **kwargs)
        except ClientError as exc:
            raise SessionClosed(exc.message, exc.code) from None

    async def choose(self, prompt_id: int, option: str) -> None:
        await self._call("choose", prompt_id, option)

    async def chat(self, text: str) -> None:
        await self._call("chat", text)

    async def op(self, command: str, **args: Any) -> None:
        await self._call("op", command, **args)

    async def ready(self, is_ready: bool) -> None:
        await self._call("ready", is_ready)

    async def auto(self, on: bool) -> None:
        await self._call("auto", on)

    async def fast_forward(self, on: bool) -> None:
        await self._call("fast_forward", on)

    async def close(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            await client.close()


class LocalSession:
    """An engine game in this process: bots answer every seat but `seat` at once.

    Deterministic for a seed, which is what snapshot tests need; no clocks, no deadlines.
    """

    def __init__(self, players: int = 4, identities: str = "novice", seed: int = 1, seat: int = 0,
                 names: tuple[str, ...] = (), bot_level: str = "random", characters: bool = False) -> None:
        from bots import make_bot
        from engine import Game, GameConfig

        names = names or tuple(f"P{i + 1}" for i in range(players))
        config = GameConfig(players=players, identities=identities, names=names, characters=characters)
        self.game = Game.new(config, seed)
        self.seat = seat
        self.token: str | None = "local"
        self.bots = {s: make_bot(bot_level, s, seed * 31 + s) for s in range(players) if s != seat}
        self._bot_seen = {s: 0 for s in self.bots}
        self._sent = 0
        self._queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()

    async def connect(self) -> None:
        self._queue.put_nowait({"type": "welcome", "seat": self.seat, "token": "local", "table": "local",
                                "host": True})
        self.run_bots()
        self._queue.put_nowait(self.update())

    def update(self) -> dict[str, Any]:
        """The next `update` message for our seat, with the events since the last one."""
        from engine import events_for, view

        events = events_for(self.game, self.seat, self._sent)
        self._sent = len(self.game.events)
        return {"type": "update", "view": view(self.game, self.seat), "events": events}

    def run_bots(self) -> None:
        """Let bots answer until only our seat is prompted or the game is over."""
        from engine import events_for, view

        while not self.game.over:
            prompts = [p for p in self.game.pending() if p.seat in self.bots]
            if not prompts:
                return
            prompts.sort(key=lambda p: self.game.priority_key(p.seat))
            p = prompts[0]
            bot = self.bots[p.seat]
            bot.observe(events_for(self.game, p.seat, self._bot_seen[p.seat]))
            self._bot_seen[p.seat] = len(self.game.events)
            self.game.choose(p.seat, p.id, bot.decide(view(self.game, p.seat)))

    async def messages(self) -> AsyncIterator[dict[str, Any]]:
        while True:
            msg = await self._queue.get()
            if msg is None:
                return
            yield msg

    async def choose(self, prompt_id: int, option: str) -> None:
        from engine import ChoiceError

        try:
            self.game.choose(self.seat, prompt_id, option)
        except ChoiceError as exc:
            self._queue.put_nowait({"type": "error", "code": exc.code, "message": str(exc), "ref": prompt_id})
            return
        self.run_bots()
        self._queue.put_nowait(self.update())

    async def chat(self, text: str) -> None:
        name = str(self.game.state.seats[self.seat].name)
        self._queue.put_nowait({"type": "chat", "seat": self.seat, "name": name, "text": text})

    async def op(self, command: str, **args: Any) -> None:
        self._queue.put_nowait({"type": "error", "code": "bad_state", "message": "no lobby in a local game",
                                "ref": None})

    async def ready(self, is_ready: bool) -> None:
        """A local game has no lobby."""

    async def auto(self, on: bool) -> None:
        await self.op("auto")

    async def fast_forward(self, on: bool) -> None:
        await self.op("fast_forward")

    async def close(self) -> None:
        self._queue.put_nowait(None)
