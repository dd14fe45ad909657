"""A hostile server against our bots (`fengsheng bot`, `net.client.play_as_bot`): whatever view a
server sends that the schema lets through, a bot never ends with a traceback. It answers with the
prompt's default when it cannot decide from the view, and gives up on a server whose view it cannot
even read, with one clear line."""

from __future__ import annotations

import asyncio
import copy
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

from hostile_server import HostileServer, frame, honest_frames, mutate

from bots import make_bot
from net import protocol as P
from net.client import BAD_SERVER, Client, play_as_bot

ROOT = Path(__file__).resolve().parent.parent


def schema_valid_views(seeds: range, per_seed: int) -> list[dict[str, Any]]:
    """Updates of honest games with members replaced, removed or filled with hostile values, each
    one the client's schema accepts (so it reaches the bot)."""
    views = []
    for seed in seeds:
        frames = honest_frames(seed)
        rng = random.Random(seed)
        for _ in range(per_seed):
            msg = mutate(frames["update"], rng, most=2)
            try:
                P.validate_server_message(copy.deepcopy(msg))
            except P.ProtocolError:
                continue
            views.append(msg)
    return views


async def test_no_view_the_schema_accepts_makes_a_bot_raise() -> None:
    views = schema_valid_views(range(24), 40)
    assert len(views) > 100
    for level in ("random", "normal"):
        for i, update in enumerate(views):
            frames = honest_frames(0)
            server = await HostileServer([frame(frames["welcome"]), frame(update)], hang_up=True).start()
            client = Client()
            try:
                await client.connect("127.0.0.1", server.port, "bot", bot=True)
                await asyncio.wait_for(play_as_bot(client, lambda seat, level=level, i=i: make_bot(level, seat, i)), 10)
            finally:
                await client.close()
                await server.close()


def view_without(*missing: str) -> dict[str, Any]:
    update = copy.deepcopy(honest_frames(3)["update"])
    for key in missing:
        del update["view"][key]
    return update


async def run_bot(case: list[bytes]) -> subprocess.CompletedProcess[str]:
    server = await HostileServer(case, hang_up=True).start()
    try:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "fengsheng_tui.cli", "bot", "--connect", f"127.0.0.1:{server.port}",
            "--reconnect", "0", cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        out, err = await asyncio.wait_for(process.communicate(), 60)
        assert process.returncode is not None
        return subprocess.CompletedProcess([], process.returncode, out.decode(), err.decode())
    finally:
        await server.close()


async def test_fengsheng_bot_gives_up_on_a_view_it_cannot_read_with_one_clear_line() -> None:
    welcome = frame(honest_frames(3)["welcome"])
    for update in (view_without("prompt"), view_without("seat", "over")):
        result = await run_bot([welcome, frame(update)])
        assert "Traceback" not in result.stderr, result.stderr
        assert result.returncode == 1
        assert f"fengsheng bot: {BAD_SERVER}" in result.stderr, result.stderr
