"""Passwords and tokens outside ASCII, over real TCP: a table whose password is Chinese can be
joined with it (before, comparing it raised TypeError inside the table: nobody could join, and each
try was an internal error), a wrong one is `auth`, and a stranger's non-ASCII token is an unknown
token like any other, while an honest player joining at the same moment is seated."""

from __future__ import annotations

import asyncio

import pytest
from test_server import join

from net import protocol as P
from net.client import ClientError
from net.server import GameServer
from net.table import Table


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
