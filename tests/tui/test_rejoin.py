"""Seat tokens survive the client process: a new session takes its seat back from a real server.

Every test runs `fengsheng play`'s loopback server; the tokens file is in the test's tmp dir.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import stat
import sys
from pathlib import Path
from typing import Any

from fengsheng_tui.local_game import start_local_table
from fengsheng_tui.seat_tokens import SeatTokens, tokens_path
from fengsheng_tui.session import NetSession, SessionClosed

from .waiting import until_offline


async def first_update(session: NetSession) -> tuple[dict[str, Any], dict[str, Any]]:
    """Connect and read up to the first `update`: (welcome, view)."""
    await session.connect()
    welcome: dict[str, Any] = {}
    async with asyncio.timeout(10):
        async for msg in session.messages():
            if msg["type"] == "welcome":
                welcome = msg
            elif msg["type"] == "update":
                return welcome, msg["view"]
    raise AssertionError("no update")


def test_tokens_file_is_private_and_keyed_by_server_table_and_name(tmp_path: Path) -> None:
    store = SeatTokens(tmp_path / "cfg" / "seats.json")
    store.remember("10.0.0.5:7531", "Me", "老王的桌", "tok-a", 2)
    store.remember("10.0.0.5:7531", "Me", "other", "tok-b", 0)
    store.remember("10.0.0.6:7531", "Me", "老王的桌", "tok-c", 1)
    store.remember("10.0.0.5:7531", "Friend", "老王的桌", "tok-d", 3)
    assert stat.S_IMODE((tmp_path / "cfg" / "seats.json").stat().st_mode) == 0o600
    assert store.find("10.0.0.5:7531", "Me", "老王的桌") == "tok-a"
    assert store.find("10.0.0.5:7531", "Me") == "tok-b"  # no table asked for: the newest seat there
    assert store.find("10.0.0.5:7531", "Friend") == "tok-d"  # one account, two players
    assert store.find("10.0.0.7:7531", "Me") is None
    store.forget("10.0.0.5:7531", "tok-b")
    assert store.find("10.0.0.5:7531", "Me") == "tok-a"
    assert store.find("10.0.0.5:7531", "Friend") == "tok-d"  # forgetting one seat leaves the friend's
    (tmp_path / "cfg" / "seats.json").write_text("{not json")
    assert store.find("10.0.0.5:7531", "Me") is None


def test_tokens_path_follows_the_config_overrides(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setenv("FENGSHENG_CONFIG", str(tmp_path / "a" / "keys.toml"))
    assert tokens_path() == tmp_path / "a" / "seats.json"
    monkeypatch.delenv("FENGSHENG_CONFIG")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert tokens_path() == tmp_path / "xdg" / "fengsheng" / "seats.json"


async def test_a_new_session_takes_back_the_same_seat_and_hand(tmp_path: Path) -> None:
    local = await start_local_table(4, seed=5, bot_level="random", bot_delay=30.0)
    store = SeatTokens(tmp_path / "seats.json")
    try:
        first = NetSession("127.0.0.1", local.port, "Me", seats=store)
        welcome, before = await first_update(first)
        assert welcome["seat"] == 3 and before["hand"]
        saved = json.loads((tmp_path / "seats.json").read_text())["seats"]
        assert saved == [{"address": f"127.0.0.1:{local.port}", "name": "Me", "table": "play", "token": first.token,
                          "seat": 3, "holder": [socket.gethostname(), os.getpid()]}]
        await first.close()  # the process is gone: the server sees the seat go offline
        await until_offline(local.table, "Me")

        again = NetSession("127.0.0.1", local.port, "Me", seats=store)
        welcome2, after = await first_update(again)
        assert welcome2["seat"] == 3
        assert after["hand"] == before["hand"] and after["identity"] == before["identity"]
        await again.close()

        # Without the saved token the started table refuses: the file is what gave the seat back.
        stranger = NetSession("127.0.0.1", local.port, "Me", seats=SeatTokens(tmp_path / "other.json"))
        try:
            await stranger.connect()
        except SessionClosed as exc:
            assert exc.code == "full"
        else:
            raise AssertionError("a fresh client took a seat in a started game")
    finally:
        await local.close()


async def test_a_stale_token_is_dropped_and_the_player_joins_afresh(tmp_path: Path) -> None:
    local = await start_local_table(4, seed=5, bot_level="random", bot_delay=30.0)
    store = SeatTokens(tmp_path / "seats.json")
    store.remember(f"127.0.0.1:{local.port}", "Me", "play", "from-an-old-game", 1)
    try:
        session = NetSession("127.0.0.1", local.port, "Me", seats=store)
        welcome, _ = await first_update(session)
        assert welcome["seat"] == 3
        assert store.find(f"127.0.0.1:{local.port}", "Me") == session.token != "from-an-old-game"
        await session.close()
    finally:
        await local.close()


async def test_the_token_is_kept_when_the_game_is_over(tmp_path: Path) -> None:
    """The server keeps the seats of those present for the next game, so the token must outlive it."""
    local = await start_local_table(4, seed=5, bot_level="random", bot_delay=0.0)
    store = SeatTokens(tmp_path / "seats.json")
    address = f"127.0.0.1:{local.port}"
    try:
        session = NetSession("127.0.0.1", local.port, "Me", seats=store)
        await session.connect()
        assert store.find(address, "Me") == session.token
        over = False
        async with asyncio.timeout(60):
            async for msg in session.messages():
                view = msg.get("view") if msg["type"] == "update" else None
                if view is None:
                    continue
                if view["over"]:
                    over = True
                    break
                prompt = view["prompt"]
                if prompt is not None:
                    await session.choose(prompt["id"], prompt["default"])
        assert over
        assert store.find(address, "Me") == session.token
        assert store.left_over(address, session.token or "")  # left now, he would join afresh
        await session.close()
    finally:
        await local.close()


async def test_two_client_instances_sharing_a_config_and_a_name_keep_their_own_seats(tmp_path: Path) -> None:
    """The one-account set-up (docs/ssh.md): a second client started while the first still plays
    does not present the first one's token; it joins with a seat (and a name) of its own, and
    neither is ever shown the other's seat. Once the first process is gone its seat is free to
    take back."""
    from net.server import GameServer
    from net.table import Table

    table = Table("play", players=4, seed=5, bot_delay=30.0, auto_start=True)
    table.add_bot()
    table.add_bot()
    local = GameServer("127.0.0.1", 0)
    local.add_table(table)
    await local.start()
    store = SeatTokens(tmp_path / "seats.json")
    address = f"127.0.0.1:{local.port}"
    script = (
        "import asyncio, sys\n"
        "from fengsheng_tui.session import NetSession\n"
        "from fengsheng_tui.seat_tokens import SeatTokens\n"
        "async def main():\n"
        f"    s = NetSession('127.0.0.1', {local.port}, 'Me', seats=SeatTokens(__import__('pathlib').Path(sys.argv[1])))\n"
        "    await s.connect()\n"
        "    print(s.token, flush=True)\n"
        "    await asyncio.sleep(60)\n"
        "asyncio.run(main())\n"
    )
    other = await asyncio.create_subprocess_exec(sys.executable, "-c", script, str(tmp_path / "seats.json"),
                                                 stdout=asyncio.subprocess.PIPE)
    try:
        assert other.stdout is not None
        their_token = (await asyncio.wait_for(other.stdout.readline(), 20)).decode().strip()
        assert store.find(address, "Me") is None  # held by the running instance
        mine = NetSession("127.0.0.1", local.port, "Me", seats=store)
        welcome, view = await first_update(mine)
        assert mine.token != their_token and welcome["seat"] in (2, 3)
        assert mine.name != "Me"  # the name was taken: numbered on
        other.kill()
        await other.wait()
        assert store.find(address, "Me") == their_token  # that instance is gone: its seat is free again
        await mine.close()
    finally:
        if other.returncode is None:
            other.kill()
            await other.wait()
        await local.close()


async def test_a_second_instance_watches_when_the_game_of_the_first_has_started(tmp_path: Path) -> None:
    """Same set-up, the first instance's game already running: the second is offered the table as
    a spectator (never the first one's seat or hand), not an error."""
    from net.server import GameServer
    from net.table import Table

    table = Table("play", players=4, seed=5, bot_delay=30.0, auto_start=True)
    for _ in range(3):
        table.add_bot()
    local = GameServer("127.0.0.1", 0)
    local.add_table(table)
    await local.start()
    script = (
        "import asyncio, sys\n"
        "from pathlib import Path\n"
        "from fengsheng_tui.session import NetSession\n"
        "from fengsheng_tui.seat_tokens import SeatTokens\n"
        "async def main():\n"
        f"    s = NetSession('127.0.0.1', {local.port}, 'Me', seats=SeatTokens(Path(sys.argv[1])))\n"
        "    await s.connect()\n"
        "    print(s.token, flush=True)\n"
        "    await asyncio.sleep(60)\n"
        "asyncio.run(main())\n"
    )
    other = await asyncio.create_subprocess_exec(sys.executable, "-c", script, str(tmp_path / "seats.json"),
                                                 stdout=asyncio.subprocess.PIPE)
    try:
        assert other.stdout is not None
        await asyncio.wait_for(other.stdout.readline(), 20)
        mine = NetSession("127.0.0.1", local.port, "Me", seats=SeatTokens(tmp_path / "seats.json"))
        welcome, view = await first_update(mine)
        assert welcome["seat"] is None and view["seat"] is None and not view.get("hand")
        assert table.slots[3].session is not None and table.slots[3].session.name == "Me"
        await mine.close()
    finally:
        other.kill()
        await other.wait()
        await local.close()
