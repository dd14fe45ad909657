"""Fixtures for the Textual client: a real loopback server with bots, and an isolated config."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from fengsheng_tui.local_game import LocalTable, start_local_table
from net.server import GameServer
from net.table import Table


@pytest.fixture(autouse=True)
def isolated_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No player's keys.toml or recent.json can change what a test sees."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("FENGSHENG_CONFIG", str(tmp_path / "config" / "keys.toml"))
    monkeypatch.delenv("NO_COLOR", raising=False)
    # The language follows the locale: these tests read the Chinese default unless they say otherwise.
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.setenv("LC_MESSAGES", "zh_CN.UTF-8")


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[LocalTable]:
    """`fengsheng play`'s server: 4 seats, 3 random bots answering at once, replays in tmp."""
    local = await start_local_table(4, seed=5, bot_level="random", bot_delay=0.0, replay_dir=tmp_path / "games")
    try:
        yield local
    finally:
        await local.close()


@pytest.fixture
async def server() -> AsyncIterator[tuple[GameServer, Table]]:
    """What `fengsheng host` runs: an open table (no one holds the host rights yet)."""
    table = Table("桌", players=4, identities="novice", bot_delay=0.0, open_host=True, seed=3)
    srv = GameServer("127.0.0.1", 0)
    srv.add_table(table)
    await srv.start()
    try:
        yield srv, table
    finally:
        await srv.close()
