"""Secrets and names the wire must carry. Passwords and tokens outside ASCII, over real TCP: a table whose password is Chinese can be
joined with it (before, comparing it raised TypeError inside the table: nobody could join, and each
try was an internal error), a wrong one is `auth`, and a stranger's non-ASCII token is an unknown
token like any other, while an honest player joining at the same moment is seated. A password or a
table name that no hello or welcome could carry is refused where it is set (the host's op,
`fengsheng host`), not left to make the table one nobody can join."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest
from test_server import join

from net import protocol as P
from net.client import ClientError
from net.server import GameServer
from net.table import Table

ROOT = Path(__file__).resolve().parent.parent


async def test_a_chinese_password_works_and_non_ascii_tokens_are_just_wrong(
        caplog: pytest.LogCaptureFixture) -> None:
    table = Table("t", players=4, password="风声密码")
    server = GameServer("127.0.0.1", 0)
    server.add_table(table)
    await server.start()
    try:
        alice = await join(server.port, "alice", password="风声密码")
        assert alice.seat == 0
        tries = ({"password": "密码"}, {"password": "风声密码", "token": "密钥"}, {"password": "风声密码", "token": "é" * 20})
        for n, kw in enumerate(tries):  # each from an address of its own: the failed-password back-off is not tested here
            with pytest.raises(ClientError) as refused:
                await join(server.port, "mallory", source=f"127.0.0.{2 + n}", **kw)
            assert refused.value.code == P.AUTH
        # The host sets a Chinese password from the lobby; it is the one that works from then on.
        host = await join(server.port, "host", token=table.host_token)
        await host.op("set_password", password="新的密码")
        await asyncio.sleep(0.1)
        results = await asyncio.gather(join(server.port, "bob", password="新的密码"),
                                       join(server.port, "eve", token="偷来的", password="新的密码", source="127.0.0.9"),
                                       return_exceptions=True)
        assert not isinstance(results[0], BaseException) and results[0].seat is not None
        assert isinstance(results[1], ClientError) and results[1].code == P.AUTH
        for client in (alice, host, results[0]):
            await client.close()
    finally:
        await server.close()
    assert not [r for r in caplog.records if "internal error" in r.getMessage()]


async def test_a_password_no_hello_could_carry_is_refused_to_the_host() -> None:
    table = Table("t", players=4)
    server = GameServer("127.0.0.1", 0)
    server.add_table(table)
    await server.start()
    try:
        host = await join(server.port, "host", token=table.host_token)
        for password in ("p" * 65, "pass\x1b[2Jword", "\u202epw"):
            await host.op("set_password", password=password)
            async with asyncio.timeout(5):
                while (msg := await host.recv()) is not None and msg["type"] != "error":
                    pass
            assert msg is not None and msg["code"] == P.BAD_MESSAGE and "password" in msg["message"]
            assert table.password is None  # the table stays open rather than closed to everyone
        await host.close()
    finally:
        await server.close()


def test_fengsheng_host_refuses_a_table_name_or_password_no_client_could_join_with() -> None:
    # Before: the table started, and every hello was an internal error (its welcome broke the schema).
    for flags in (["--name", "t" * 65], ["--name", "a\x1bb"], ["--password", "p" * 65]):
        result = subprocess.run([sys.executable, "-m", "fengsheng_tui.cli", "host", "--port", "0", "--interface", "127.0.0.1", *flags],
                                capture_output=True, text=True, timeout=60, cwd=ROOT, stdin=subprocess.DEVNULL)
        assert result.returncode == 2, result.stderr
        assert "fengsheng host:" in result.stderr and "Traceback" not in result.stderr
        assert ("table name" in result.stderr) == (flags[0] == "--name"), result.stderr


async def test_a_refused_name_cannot_forge_a_line_in_the_host_log(caplog: pytest.LogCaptureFixture) -> None:
    table = Table("t", players=4, password="pw")
    server = GameServer("127.0.0.1", 0)
    server.add_table(table)
    await server.start()
    try:
        with pytest.raises(ClientError):
            await join(server.port, "x\u2028t: host: kick", password="wrong")
        lines = [r.getMessage() for r in caplog.records if "refused a hello" in r.getMessage()]
        assert len(lines) == 1 and "\u2028" not in lines[0] and "x?t: host: kick" in lines[0], lines
    finally:
        await server.close()
