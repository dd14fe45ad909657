"""Damaged files in the config folder (settings.json, recent.json, seats.json, keys.toml): truncated,
garbage, wrong types, nesting too deep for the parser, a folder where the file should be, a file too
big to be ours, a FIFO. None of them ends the program: each loader falls back to its defaults and says so
(keys.toml as a problem shown at start-up, the others in the log); a saved seat whose token could
never be sent is dropped, and the player joins afresh over a real connection."""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

import pytest

from fengsheng_tui.keys import load_keymap
from fengsheng_tui.preferences import Preferences, load_preferences
from fengsheng_tui.recent import load_recent
from fengsheng_tui.seat_tokens import SeatTokens
from fengsheng_tui.session import NetSession, SessionClosed
from net.server import GameServer
from net.table import Table

DAMAGE = {
    "truncated": b'{"lang": "zh", "mo',
    "garbage": b"\x00\xff\xfe garbage \x1b[2J",
    "deep_json": b"[" * 5000 + b"]" * 5000,
    "deep_toml": b"keys = " + b"[" * 600 + b"]" * 600,
    "huge": b'{"x": "' + b"a" * (3 * 1024 * 1024) + b'"}',
    "wrong_types": b'{"lang": 5, "seats": "no", "keys": 3}',
}


def damaged(tmp_path: Path, name: str, kind: str) -> Path:
    path = tmp_path / name
    if kind == "folder":
        path.mkdir()
    elif kind == "fifo":  # opened for reading, it blocked the program for good
        os.mkfifo(path)
    else:
        path.write_bytes(DAMAGE[kind])
    return path


@pytest.mark.parametrize("kind", [*DAMAGE, "folder", "fifo"])
def test_a_damaged_config_file_falls_back_to_the_defaults_and_says_so(
        tmp_path: Path, kind: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    assert load_preferences(damaged(tmp_path, "settings.json", kind)) == Preferences()
    assert load_recent(damaged(tmp_path, "recent.json", kind)) == []
    assert SeatTokens(damaged(tmp_path, "seats.json", kind)).find("h:1", "alice") is None
    keymap = load_keymap(damaged(tmp_path, "keys.toml", kind))
    assert keymap.keys == {}
    assert len(keymap.problems) == 1 and "keys.toml" in keymap.problems[0]
    if kind != "wrong_types":  # well-formed JSON of the wrong shape: its values are each checked
        said = " ".join(r.getMessage() for r in caplog.records)
        for name in ("settings.json", "recent.json", "seats.json"):
            assert name in said, said


async def test_saved_seats_that_could_never_be_sent_are_dropped_and_the_player_joins_afresh(
        tmp_path: Path) -> None:
    table = Table("t", players=4)
    server = GameServer("127.0.0.1", 0)
    server.add_table(table)
    await server.start()
    address = f"127.0.0.1:{server.port}"
    try:
        for token in ("x" * 65, "a\x1bb", "\u202etok"):
            file = tmp_path / f"seats-{len(token)}.json"
            file.write_text(json.dumps({"seats": [
                {"address": address, "token": token, "table": "t", "name": "alice"}]}), encoding="utf-8")
            session = NetSession("127.0.0.1", server.port, "alice", seats=SeatTokens(file))
            await session.connect()  # raised ProtocolError (never a ClientError) before
            assert session.token is not None and session.token != token
            assert json.loads(file.read_text(encoding="utf-8"))["seats"][-1]["token"] == session.token
            assert token not in file.read_text(encoding="utf-8")
            await session.close()
    finally:
        await server.close()


async def test_a_name_or_password_no_hello_can_carry_is_a_refusal_not_a_crash() -> None:
    # `fengsheng join --name` / `--password` take anything: the client refuses what the protocol
    # cannot carry as it refuses anything else (the app shows it and exits 1), before connecting.
    table = Table("t", players=4)
    server = GameServer("127.0.0.1", 0)
    server.add_table(table)
    await server.start()
    try:
        for name, password in (("n" * 25, None), ("alice", "p" * 65), ("alice", "pass\x07word")):
            session = NetSession("127.0.0.1", server.port, name, password=password)
            with pytest.raises(SessionClosed) as refused:
                await session.connect()  # ProtocolError before: the app's worker died, the screen hung
            assert refused.value.code == "bad_message"
            assert "hello." in str(refused.value)
        assert server.connections == 0
    finally:
        await server.close()
