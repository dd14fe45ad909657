"""Seats across games on one hosted table: the saved token outlives the game over.

Who stays into the next game takes his seat back with it; who left while the game was over joins
afresh, which gathers the table for the next game.

Real TCP on 127.0.0.1: a `Table` behind a `GameServer`, players as `NetSession`s sharing one
tokens file (friends on one SSH account), the host as a spectator holding the host token.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fengsheng_tui.i18n import Words
from fengsheng_tui.seat_tokens import SeatTokens
from fengsheng_tui.session import NetSession, SessionClosed
from net.client import Client
from net.server import GameServer
from net.table import Table

from .states import play_to_end
from .waiting import until_offline

LONG = {"play": 60.0, "send": 60.0, "response": 60.0, "receive": 60.0, "probe_discard": 60.0}
GAME_STARTED = "the game has started: reconnect with your token or spectate"


async def next_view(session: NetSession, pred: Callable[[dict[str, Any]], bool]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(welcome or {}, the first update view satisfying `pred`)."""
    welcome: dict[str, Any] = {}
    async with asyncio.timeout(10):
        async for msg in session.messages():
            if msg["type"] == "welcome":
                welcome = msg
            elif msg["type"] == "update" and pred(msg["view"]):
                return welcome, msg["view"]
    raise AssertionError("no such update")


async def next_lobby(session: NetSession) -> dict[str, Any]:
    async with asyncio.timeout(10):
        async for msg in session.messages():
            if msg["type"] == "lobby":
                return dict(msg["table"])
    raise AssertionError("no lobby")


async def test_a_player_who_stayed_into_game_two_takes_his_seat_back_after_his_client_dies(tmp_path: Path) -> None:
    table = Table("t", players=4, bot_delay=0, seed=21, timers=LONG)
    table.add_bot()
    table.add_bot()
    server = GameServer("127.0.0.1", 0, rate=5000.0, burst=5000)
    server.add_table(table)
    await server.start()
    store = SeatTokens(tmp_path / "seats.json")
    address = f"127.0.0.1:{server.port}"
    sessions: list[NetSession] = []

    def seat(name: str) -> NetSession:
        session = NetSession("127.0.0.1", server.port, name, seats=store)
        sessions.append(session)
        return session

    try:
        a, b = seat("A"), seat("B")
        await a.connect()
        await b.connect()
        await a.ready(True)
        await b.ready(True)
        async with asyncio.timeout(60):
            await asyncio.gather(play_to_end(a.messages(), a.choose), play_to_end(b.messages(), b.choose))
        assert store.find(address, "A") == a.token and store.find(address, "B") == b.token

        assert store.left_over(address, a.token or "") and store.left_over(address, b.token or "")

        # B quits after the game over and comes back: he joins afresh, which gathers the table.
        await b.close()
        await until_offline(table, "B")
        b2 = seat("B")
        await b2.connect()
        gathered = await next_lobby(b2)
        assert gathered["phase"] == "lobby" and [s["name"] for s in gathered["seats"]][2:] == ["A", "B"]
        assert store.find(address, "B") == b2.token != b.token

        host = Client()
        await host.connect("127.0.0.1", server.port, "host", token=table.host_token, spectate=True)
        await host.op("start")  # the rematch
        _, game2 = await next_view(a, lambda v: not v["over"])
        await host.close()

        # A's terminal dies in game 2; the same join again takes his seat back.
        await a.close()
        await until_offline(table, "A")
        a2 = seat("A")
        await a2.connect()
        welcome, back = await next_view(a2, lambda v: True)
        assert a2.token == a.token
        assert welcome["seat"] == game2["seat"] and not back["over"]
        assert back["identity"] == game2["identity"]

        # A stranger, and another name with a stale token, are refused without touching A's or B's seat.
        store.remember(address, "C", "t", "from-an-old-game", 1)
        for _ in range(2):
            stranger = seat("C")
            try:
                await stranger.connect()
            except SessionClosed as exc:
                assert exc.code == "full" and str(exc) == GAME_STARTED
            else:
                raise AssertionError("a new player took a seat in a started game")
        assert store.find(address, "C") is None
        assert store.find(address, "A") == a.token and store.find(address, "B") == b2.token
    finally:
        for session in sessions:
            await session.close()
        await server.close()


def test_the_game_in_progress_refusal_speaks_of_seats_not_tokens() -> None:
    for lang in ("en", "zh"):
        text = Words(lang).refusal("full", GAME_STARTED)
        assert "--spectate" in text and "token" not in text.lower() and "凭证" not in text
    assert "Join again" in Words("en").refusal("full", GAME_STARTED)
    assert Words("en").refusal("full", "all 4 seats are taken").startswith("Cannot join: The table is full")
