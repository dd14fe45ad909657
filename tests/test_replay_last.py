"""`fengsheng replay --last` finds the newest game's replay among real files."""

from __future__ import annotations

import os
from pathlib import Path

from fengsheng_tui.commands.replay import newest_replay


def test_newest_game_wins_and_its_public_replay_is_opened(tmp_path: Path) -> None:
    assert newest_replay(tmp_path) is None
    old = [tmp_path / f"t-20260101-000000-00001.{label}.replay" for label in ("seat0", "public")]
    new = [tmp_path / f"t-20260102-000000-00002.{label}.replay" for label in ("seat0", "seat1", "public")]
    for n, path in enumerate([*old, *new]):
        path.write_bytes(b"x")
        os.utime(path, (1000 + n, 1000 + n))
    os.utime(old[1], (5000, 5000))  # touched later: the newest file decides the game
    assert newest_replay(tmp_path) == old[1]
    os.utime(new[0], (6000, 6000))
    assert newest_replay(tmp_path) == new[2]
