"""Damaged files in the config folder (settings.json, recent.json, seats.json, keys.toml): truncated,
garbage, wrong types, nesting too deep for the parser, a folder where the file should be, a file too
big to be ours, a FIFO. None of them ends the program: each loader falls back to its defaults and says so
(keys.toml as a problem shown at start-up; the others are moved aside to NAME.damaged and the screen
says so); a saved seat whose token could
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


@pytest.mark.parametrize("kind", ["truncated", "garbage", "deep_json", "huge", "folder", "fifo"])
def test_a_damaged_file_is_moved_aside_before_anything_is_saved_over_it(tmp_path: Path, kind: str) -> None:
    """Before: the next save wrote over it (a hand-edited settings.json with one typo was gone, with
    a line in a log the player never reads), or failed for good (a folder in its place)."""
    from fengsheng_tui import recent
    from fengsheng_tui.paths import DAMAGE_NOTICES
    from fengsheng_tui.preferences import save_preferences

    DAMAGE_NOTICES.clear()
    saves = {
        "settings.json": lambda path: (load_preferences(path), save_preferences(Preferences(lang="en"), path)),
        "recent.json": lambda path: recent.remember("10.0.0.2", 7531, path),
        "seats.json": lambda path: SeatTokens(path).remember("h:1", "alice", "t", "tok"),
    }
    for name, save in saves.items():
        path = damaged(tmp_path, name, kind)
        save(path)
        kept = tmp_path / f"{name}.damaged"
        if kind == "folder":
            assert kept.is_dir()
        elif kind == "fifo":
            assert kept.is_fifo()
        else:
            assert kept.read_bytes() == DAMAGE[kind]
        assert json.loads(path.read_text(encoding="utf-8"))  # a fresh, whole file
        assert any(f"kept as {name}.damaged" in notice for notice in DAMAGE_NOTICES), DAMAGE_NOTICES
    (tmp_path / "again").mkdir()
    path = damaged(tmp_path / "again", "settings.json", "garbage")
    (tmp_path / "again" / "settings.json.damaged").write_text("the first one", encoding="utf-8")
    load_preferences(path)
    assert (tmp_path / "again" / "settings.json.damaged").read_text(encoding="utf-8") == "the first one"
    assert (tmp_path / "again" / "settings.json.damaged-2").read_bytes() == DAMAGE["garbage"]
    DAMAGE_NOTICES.clear()


async def test_the_player_is_told_where_a_damaged_file_went(table, tmp_path: Path) -> None:  # noqa: ANN001
    """Before: only the log said a file was damaged; the screen never did, at start-up (settings)
    or when a join read it (seats)."""
    from fengsheng_tui.app import FengshengApp
    from fengsheng_tui.paths import config_dir

    from .test_keys import wait_for

    folder = config_dir()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "settings.json").write_bytes(DAMAGE["truncated"])
    (folder / "seats.json").write_bytes(DAMAGE["garbage"])
    app = FengshengApp(NetSession("127.0.0.1", table.port, "Me", token=table.host_token, seats=SeatTokens()),
                       lang="en")
    async with app.run_test(size=(120, 30)) as pilot:
        def told(name: str) -> bool:
            return any(f"kept as {name}.damaged" in str(n.message) for n in app._notifications)

        await wait_for(pilot, lambda: told("settings.json"))
        await wait_for(pilot, lambda: told("seats.json"))
        app.cycle_theme()  # Settings `t`: saved at once
        await pilot.pause()
    assert json.loads((folder / "settings.json").read_text(encoding="utf-8"))["theme"] == app.theme
    assert (folder / "settings.json.damaged").read_bytes() == DAMAGE["truncated"]
    assert (folder / "seats.json.damaged").read_bytes() == DAMAGE["garbage"]
