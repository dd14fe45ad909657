"""`fengsheng host` killed with SIGKILL mid-game, then `--resume`: the identical state, same tokens."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

from engine import Game
from net.client import Client
from net.journal import read_journal

CHOICE = re.compile(r"seat (\d+) (?:chose|bot:|timed out: default) (\S+) \(prompt (\d+)\)")


async def host(*args: str) -> tuple[asyncio.subprocess.Process, int, list[str]]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "fengsheng_tui.cli", "host", "--port", "0", "--no-advertise", "--verbose", *args,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    lines: list[str] = []
    assert proc.stdout is not None
    async with asyncio.timeout(20):
        while True:
            line = (await proc.stdout.readline()).decode()
            assert line, "host exited: " + "".join(lines)
            lines.append(line)
            if match := re.search(r"on port (\d+)", line):
                return proc, int(match.group(1)), lines


async def last_update(client: Client, settle: float = 0.5) -> dict[str, Any]:
    """Read until the table has been quiet for `settle` seconds; return the last update."""
    last = None
    try:
        while True:
            msg = await client.recv(timeout=settle)
            assert msg is not None
            if msg["type"] == "update":
                last = msg
    except TimeoutError:
        pass
    assert last is not None
    return last


def stable(view: dict[str, Any]) -> dict[str, Any]:
    """A view without what depends on the wall clock or on who is connected."""
    out = {k: v for k, v in view.items() if k not in ("waiting", "timers", "clock")}
    out["seats"] = [{k: v for k, v in s.items() if k not in ("online", "bot")} for s in view["seats"]]
    if view["prompt"] is not None:
        out["prompt"] = {k: v for k, v in view["prompt"].items() if k != "deadline"}
    return out


async def test_sigkill_then_resume_restores_the_identical_game(tmp_path: Path) -> None:
    proc, port, lines = await host(
        "--players", "4", "--bots", "2", "--start", "--seed", "4242", "--bot-delay", "0",
        "--data-dir", str(tmp_path), "--timer", "play=120", "--timer", "send=120", "--timer", "response=120",
        "--timer", "receive=120", "--timer", "probe_discard=120",
    )
    a, b = Client(), Client()
    try:
        await a.connect("127.0.0.1", port, "甲")
        await b.connect("127.0.0.1", port, "乙")
        # Play a few decisions by hand (always the default), then stop with a prompt open.
        for _ in range(6):
            for client in (a, b):
                msg = await last_update(client, 0.3)
                prompt = msg["view"]["prompt"]
                if prompt is not None:
                    await client.choose(prompt["id"], prompt["default"])
        before = {c.seat: stable((await last_update(c)).get("view")) for c in (a, b)}
        proc.send_signal(signal.SIGKILL)
        await proc.wait()
        assert proc.stdout is not None
        lines += (await proc.stdout.read()).decode().splitlines(keepends=True)
    finally:
        await a.close()
        await b.close()
        if proc.returncode is None:
            proc.kill()

    logged = [(int(s), int(p), o) for s, o, p in CHOICE.findall("".join(lines))]
    (journal,) = tmp_path.glob("*.journal")
    contents = read_journal(journal)
    assert contents.end is None and len(logged) > 6
    assert contents.choices == logged, "every choice the host reported is in the journal"
    expected = Game.replay(
        {"config": contents.start["config"], "seed": 4242, "choices": [list(c) for c in logged]}
    ).state_hash()

    proc, port, lines = await host("--resume", str(journal), "--bot-delay", "0", "--data-dir", str(tmp_path))
    try:
        resumed = next(line for line in lines if "resumed" in line)
        assert f"state hash {expected}" in resumed
        for seat, token in ((a.seat, a.token), (b.seat, b.token)):
            again = Client()
            welcome = await again.connect("127.0.0.1", port, "back", token=token)
            assert welcome["seat"] == seat
            after = stable((await last_update(again)).get("view"))
            assert after == before[seat], "the reconnected seat sees exactly what it saw before the crash"
            await again.close()
    finally:
        proc.send_signal(signal.SIGTERM)
        await asyncio.wait_for(proc.wait(), 10)


async def test_the_host_console_shows_no_seed_and_no_choice_unless_verbose(tmp_path: Path) -> None:
    """A host who also plays reads this console: the seed fixes the deck and the identities, and an
    option id names a card, so neither appears without --verbose."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "fengsheng_tui.cli", "host", "--port", "0", "--no-advertise", "--players", "4",
        "--bots", "4", "--start", "--bot-delay", "0", "--data-dir", str(tmp_path),
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert proc.stdout is not None
    lines: list[str] = []
    try:
        async with asyncio.timeout(60):
            while not any("game over" in line for line in lines):
                lines.append((await proc.stdout.readline()).decode())
    finally:
        proc.kill()
        await proc.wait()
    text = "".join(lines)
    assert "game started" in text
    assert "seed" not in text
    assert not CHOICE.search(text)
