"""The disk fails under a table: a journal name already taken, a data folder that cannot be written,
a disk that fills up mid-game. Each is told to the host (or logged) clearly; the table never stops
serving its players, and a game the host could not start leaves the lobby as it was."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bots import make_bot
from net import protocol as P
from net.client import Client, play_as_bot
from net.server import GameServer
from net.table import Table

FAST = {"play": 60.0, "send": 60.0, "response": 60.0, "receive": 60.0, "probe_discard": 60.0}


async def next_of(client: Client, kind: str, timeout: float = 5.0) -> dict[str, Any]:
    async with asyncio.timeout(timeout):
        while (msg := await client.recv()) is not None:
            if msg["type"] == kind:
                return msg
    raise AssertionError(f"the connection ended before a {kind}")


async def host_table(data_dir: Path, seed: int | None = 7) -> tuple[GameServer, Table, Client]:
    table = Table("t", players=4, timers=FAST, bot_delay=0.0, seed=seed, data_dir=data_dir)
    server = GameServer("127.0.0.1", 0)
    server.add_table(table)
    await server.start()
    host = Client()
    await host.connect("127.0.0.1", server.port, "host", token=table.host_token)
    return server, table, host


def internal_errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.exc_info is not None or "internal error" in r.getMessage()]


async def test_a_journal_name_already_taken_does_not_break_the_table(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    # The journal is named after the table, the second and the seed: a game started again in the
    # same second with the same seed (a rematch with `--seed`) finds its name taken.
    now = time.time()
    for ahead in range(-1, 30):
        stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now + ahead))
        (tmp_path / f"t-{stamp}-00007.journal").write_bytes(b"someone else's game")
    server, table, host = await host_table(tmp_path)
    try:
        await host.op("start")
        update = await next_of(host, "update")
        assert update["view"]["prompt"] is not None or update["view"]["waiting"]
        await host.op("end")
        await next_of(host, "lobby")
        await host.op("start")
        await next_of(host, "update")
        assert table.game is not None and table.phase == "playing"
        # The bots play on: their prompts got deadlines and times to answer.
        async with asyncio.timeout(5):
            while table.game is not None and all(p.seat != 0 for p in table.game.prompts.values()):
                await asyncio.sleep(0.01)
        assert table.game is not None and len(table.game.choices) > 0
        assert len(list(tmp_path.glob("t-*.journal"))) == 31 + 2
        for old in tmp_path.glob("t-*.journal"):
            assert old.read_bytes() == b"someone else's game" or old.read_bytes().startswith(b"FSJRNL2\n")
    finally:
        await host.close()
        await server.close()  # raised the table task's KeyError before the fix
    assert internal_errors(caplog) == []


async def test_a_data_folder_that_cannot_be_written_refuses_the_start_and_leaves_the_lobby_as_it_was(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the tables folder should be")
    server, table, host = await host_table(blocker / "tables")
    try:
        await next_of(host, "lobby")
        await host.op("start")
        error = await next_of(host, "error")
        assert error["code"] == P.BAD_STATE and "journal" in error["message"]
        assert table.phase == "lobby" and table.game is None
        assert len(table.slots) == 1  # the bots that would have filled the seats are gone again
        # The table still serves: another player joins and chats, the host adds a bot.
        other = Client()
        await other.connect("127.0.0.1", server.port, "alice")
        await other.chat("still here?")
        assert (await next_of(host, "chat"))["text"] == "still here?"
        await host.op("add_bot")
        lobby = await next_of(host, "lobby")
        assert len(lobby["table"]["seats"]) >= 2
        await other.close()
    finally:
        await host.close()
        await server.close()
    assert internal_errors(caplog) == []


@contextlib.contextmanager
def small_disk(path: Path, size: str) -> Iterator[Path]:
    """A real tmpfs of `size` mounted at `path` (root only), unmounted afterwards."""
    path.mkdir()
    result = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0700", "tmpfs", str(path)],
                            capture_output=True, text=True)
    if result.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {result.stderr.strip()}")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=False)


def fill(disk: Path) -> None:
    with contextlib.suppress(OSError), open(disk / "filler", "wb", buffering=0) as out:
        while True:
            out.write(b"\0" * 4096)


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("mount") is None, reason="needs root to mount a tmpfs")
async def test_a_disk_that_fills_up_mid_game_stops_the_journal_not_the_game(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    with small_disk(tmp_path / "disk", "256k") as disk:
        table = Table("t", players=4, timers=FAST, bot_delay=0.0, seed=11, data_dir=disk, auto_start=True)
        for _ in range(3):
            table.add_bot()
        server = GameServer("127.0.0.1", 0)
        server.add_table(table)
        await server.start()
        me = Client()
        try:
            await me.connect("127.0.0.1", server.port, "alice")
            playing = asyncio.create_task(play_as_bot(me, lambda s: make_bot("random", s, 3), until_over=True))
            async with asyncio.timeout(10):
                while table.game is None or len(table.game.choices) < 3:
                    await asyncio.sleep(0.01)
            fill(disk)
            await asyncio.wait_for(playing, 60)
            assert table.game is not None and table.game.over
            assert me.view is not None and me.view["over"]
            # One line when the journal fails, one when the finished game's files cannot be written.
            failures = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
            assert len(failures) == 2 and all("No space left" in line for line in failures), failures
            assert failures[0].startswith("cannot write the journal") and "record and replays" in failures[1]
            assert sorted(p.name for p in disk.iterdir() if p.suffix == ".tmp") == []
        finally:
            await me.close()
            await server.close()
    assert internal_errors(caplog) == []
