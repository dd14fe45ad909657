"""The journal cannot lie: damage is found and named, nothing is cut silently, and the game's
secrets (seed, tokens, password) are owner-only and stay out of what does not need them.

Journals are written by a real table playing a real game over TCP on 127.0.0.1; `--resume` is run
as the real `fengsheng host` process.
"""

from __future__ import annotations

import asyncio
import logging
import os
import stat
import struct
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import msgpack
import pytest

from bots import make_bot
from engine import Game, view
from net import protocol as P
from net.client import Client, play_as_bot
from net.journal import MAGIC, JournalDamaged, JournalError, read_journal, read_replay
from net.records import unpack_record
from net.server import GameServer
from net.table import Table

PASSWORD = "hunter2-secret-pw"
LONG = {"play": 60.0, "send": 60.0, "response": 60.0, "receive": 60.0, "probe_discard": 60.0}


async def finished_game(data_dir: Path, seed: int = 21, background_files: bool = False) -> tuple[Table, Path, list[str]]:
    """A whole game at a password table (one client, three bots); the journal and the secrets."""
    table = Table("t", players=4, bot_delay=0, data_dir=data_dir, auto_start=True, seed=seed, password=PASSWORD)
    for _ in range(3):
        table.add_bot()
    server = GameServer("127.0.0.1", 0, background_files=background_files)
    server.add_table(table)
    await server.start()
    try:
        me = Client()
        await me.connect("127.0.0.1", server.port, "me", password=PASSWORD)
        assert me.token is not None
        await asyncio.wait_for(play_as_bot(me, lambda s: make_bot("random", s, 4), until_over=True), 30)
        await me.close()
    finally:
        await server.close()
    (journal,) = data_dir.glob("*.journal")
    return table, journal, [me.token, table.host_token, PASSWORD]


def record_offsets(data: bytes) -> list[int]:
    """Where each record of a journal starts."""
    offsets, offset = [], len(MAGIC)
    while offset < len(data):
        offsets.append(offset)
        (length,) = struct.unpack_from(">I", data, offset)
        offset += 8 + length
    return offsets


def resume_process(journal: Path, *extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "fengsheng_tui.cli", "host", "--port", "0", "--no-advertise", "--resume", str(journal),
         "--data-dir", str(journal.parent), *extra],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )


def output_until_listening(proc: subprocess.Popen[str]) -> str:
    """The host's output up to 'on port N' (then it is stopped), or all of it if it exited."""
    assert proc.stdout is not None
    lines = []
    try:
        for line in proc.stdout:
            lines.append(line)
            if "on port" in line:
                break
    finally:
        proc.terminate()
        proc.wait(10)
    return "".join(lines)


async def test_a_flipped_byte_mid_file_refuses_the_resume_naming_offset_and_loss(tmp_path: Path) -> None:
    _, journal, _ = await finished_game(tmp_path)
    data = bytearray(journal.read_bytes())
    offsets = record_offsets(bytes(data))
    contents = read_journal(journal)
    assert contents.damage is None
    total = len(contents.choices)
    assert total > 20
    bad = offsets[len(offsets) // 2]  # a choice record in the middle
    data[bad + 10] ^= 0x01  # a byte inside its body
    journal.write_bytes(bytes(data))
    damaged = bytes(data)

    contents = read_journal(journal)
    assert contents.damage is not None and not contents.damage.torn
    assert contents.damage.offset == bad
    before = len(contents.choices)
    lost = total - before - 1  # the damaged choice itself, and every whole one after it
    assert contents.damage.choices_after == lost and contents.damage.end_after

    proc = resume_process(journal)
    out, _ = proc.communicate(timeout=20)
    assert proc.returncode == 1, out
    assert f"offset {bad}" in out and f"{lost} recorded choices" in out and "--accept-loss" in out
    assert journal.read_bytes() == damaged, "a refused resume changes nothing"

    with pytest.raises(JournalDamaged):
        Table.resume(journal)
    assert journal.read_bytes() == damaged


async def test_accepting_the_loss_keeps_the_damaged_file_aside_first(tmp_path: Path) -> None:
    _, journal, _ = await finished_game(tmp_path)
    data = bytearray(journal.read_bytes())
    offsets = record_offsets(bytes(data))
    bad = offsets[len(offsets) // 3]
    data[bad + 2] ^= 0xFF  # the length field this time
    journal.write_bytes(bytes(data))
    damaged = bytes(data)

    out = output_until_listening(resume_process(journal, "--accept-loss"))
    assert "on port" in out, out
    assert f"offset {bad}" in out and "accepted" in out
    (aside,) = tmp_path.glob("*.journal.damaged-*")
    assert aside.read_bytes() == damaged, "the whole damaged journal is kept before the resume cuts it"
    assert stat.S_IMODE(aside.stat().st_mode) == 0o600
    assert read_journal(journal).damage is None


async def test_a_torn_last_record_is_reported_and_the_whole_ones_resume(tmp_path: Path) -> None:
    table = Table("t", players=4, timers=LONG, bot_delay=0, data_dir=tmp_path, auto_start=True, seed=5)
    for _ in range(3):
        table.add_bot()
    server = GameServer("127.0.0.1", 0)
    server.add_table(table)
    await server.start()
    try:
        me = Client()
        await me.connect("127.0.0.1", server.port, "me")
        async with asyncio.timeout(10):
            while not (msg := await me.recv()) or msg["type"] != "update" or msg["view"]["prompt"] is None:
                pass
        await me.close()
    finally:
        await server.close()
    assert table.journal is not None
    table.journal.close()
    journal = table.journal.path
    whole = journal.read_bytes()
    choices = len(read_journal(journal).choices)
    body = msgpack.packb({"t": "choice", "c": [0, 999, "pass"]})
    journal.write_bytes(whole + struct.pack(">II", len(body), 0) + body[:3])  # cut short by a crash

    contents = read_journal(journal)
    assert contents.damage is not None and contents.damage.torn and contents.damage.offset == len(whole)
    assert len(contents.choices) == choices
    out = output_until_listening(resume_process(journal))
    assert "on port" in out, out
    assert f"torn ({len(body[:3]) + 8} bytes at offset {len(whole)}" in out
    assert journal.read_bytes() == whole


async def test_journals_records_and_replays_are_owner_only_in_owner_only_folders(tmp_path: Path) -> None:
    data_dir = tmp_path / "fengsheng" / "tables"
    os.umask(0o022)
    _, journal, _ = await finished_game(data_dir)
    files = sorted(data_dir.iterdir())
    assert len(files) == 7  # journal, record, 4 seat replays, the public replay
    for path in files:
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path.name
    for folder in (data_dir, data_dir.parent):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700, folder


async def test_a_headless_host_writes_a_finished_games_files_off_the_event_loop(tmp_path: Path,
                                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """With `background_files` the journal's close, the record and every replay are written in a
    worker thread (the loop goes on with the other tables), and are all there, whole, once the
    server has closed: the record replays to the final state, each replay ends on its seat's view."""
    threads: list[threading.Thread] = []
    write_files = Table._write_files

    def noted(self: Table, *args: Any) -> None:
        threads.append(threading.current_thread())
        write_files(self, *args)

    monkeypatch.setattr(Table, "_write_files", noted)
    table, journal, _ = await finished_game(tmp_path, background_files=True)
    assert threads and all(t is not threading.main_thread() for t in threads)
    game = table.game
    assert game is not None and game.over
    assert Game.replay(unpack_record(journal.with_suffix(".record").read_bytes())).state_hash() == game.state_hash()
    for seat in [0, 1, 2, 3, None]:
        label = "public" if seat is None else f"seat{seat}"
        replay = read_replay(journal.with_suffix(f".{label}.replay"))
        assert replay["final"] == P.decode(P.encode(view(game, seat)))
    contents = read_journal(journal)
    assert contents.end is not None and contents.damage is None


async def test_replays_and_records_hold_no_token_and_no_password(tmp_path: Path) -> None:
    _, journal, secrets = await finished_game(tmp_path)
    others = [p for p in tmp_path.iterdir() if p != journal]
    assert {p.suffix for p in others} == {".record", ".replay"}
    for path in others:
        data = path.read_bytes()
        for secret in secrets:
            assert secret.encode() not in data, f"{path.name} holds a secret"


async def test_the_host_log_never_shows_a_password_set_by_the_host(caplog: pytest.LogCaptureFixture) -> None:
    table = Table("t", players=4, timers=LONG, bot_delay=0, open_host=True)
    server = GameServer("127.0.0.1", 0)
    server.add_table(table)
    await server.start()
    caplog.set_level(logging.DEBUG)
    try:
        host = Client()
        await host.connect("127.0.0.1", server.port, "Ann")
        await host.op("set_password", password=PASSWORD)
        async with asyncio.timeout(5):
            while table.password != PASSWORD:
                await host.recv(timeout=5)
        await host.op("set_password", password=None)
        async with asyncio.timeout(5):
            while table.password is not None:
                await host.recv(timeout=5)
        await host.close()
    finally:
        await server.close()
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert "set_password" in logged
    assert PASSWORD not in logged


def test_an_old_format_journal_is_refused_with_a_clear_message(tmp_path: Path) -> None:
    """Journals from before checksums (a bare length and a start map) cannot be resumed: their
    prompt ids are those of the engine that wrote them."""
    body = msgpack.packb({"t": "start", "version": 3, "table": "t", "config": {}, "seed": 1, "seats": []})
    old = tmp_path / "old.journal"
    old.write_bytes(struct.pack(">I", len(body)) + body)
    with pytest.raises(JournalError, match="older format"):
        read_journal(old)
    proc = resume_process(old)
    out, _ = proc.communicate(timeout=20)
    assert proc.returncode == 1 and "older format" in out
    junk = tmp_path / "junk.journal"
    junk.write_bytes(b"hello")
    with pytest.raises(JournalError, match="not a table journal"):
        read_journal(junk)
