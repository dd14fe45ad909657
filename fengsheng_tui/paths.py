"""Where the game keeps its files on this machine: the one place that decides it.

Config (keys, settings, saved seats, recent servers) and data (a host's journals and replays, the
SSH door's host key) follow the platform's conventions through platformdirs: on Linux the XDG
folders (`$XDG_CONFIG_HOME/fengsheng`, `$XDG_DATA_HOME/fengsheng`, by default `~/.config/fengsheng`
and `~/.local/share/fengsheng`). `$FENGSHENG_CONFIG` names the keys file and so moves the whole
config folder with it (friends sharing one account give each session its own). Folders are made
readable by their owner alone (0700): journals hold the seed and seat tokens.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP = "fengsheng"
#: Games whose journal, record and replays a tables folder keeps; older ones are pruned.
KEEP_GAMES = 30
GAME_SUFFIXES = (".journal", ".record", ".replay", ".tmp")


def config_dir() -> Path:
    """The folder of keys.toml, settings.json, seats.json and recent.json."""
    env = os.environ.get("FENGSHENG_CONFIG")
    if env:
        return Path(env).parent
    return Path(platformdirs.user_config_dir(APP, appauthor=False))


def keys_file() -> Path:
    env = os.environ.get("FENGSHENG_CONFIG")
    return Path(env) if env else config_dir() / "keys.toml"


def data_dir() -> Path:
    """The game's data folder: tables (journals, replays) and the SSH door's host key."""
    return Path(platformdirs.user_data_dir(APP, appauthor=False))


def tables_dir() -> Path:
    """Where a host writes journals and replays unless `--data-dir` says otherwise."""
    return data_dir() / "tables"


def private_dir(path: Path) -> Path:
    """`path` made (with its parents) and closed to everyone but its owner."""
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    try:
        path.chmod(0o700)
    except OSError:
        pass
    return path


def prune_games(folder: Path, keep: int = KEEP_GAMES, spare: Path | None = None) -> list[Path]:
    """Delete the files of all but the newest `keep` games in a tables folder; returns what went.

    A game's files share the name before the first dot (`Friday-20261201-0912-00042.journal`,
    `.record`, `.seat0.replay`, `.public.replay`), so a game goes whole or stays whole. `spare`
    (the journal being resumed) is never pruned. A file that cannot be removed is skipped: pruning
    only frees space and must never stop a table from opening.
    """
    if keep < 0:
        raise ValueError("keep must be 0 or more")
    games: dict[str, list[Path]] = {}
    try:
        for path in folder.iterdir():
            if path.is_file() and path.suffix in GAME_SUFFIXES:
                games.setdefault(path.name.split(".", 1)[0], []).append(path)
    except OSError:
        return []
    if spare is not None:
        games.pop(spare.name.split(".", 1)[0], None)
    newest = sorted(games.values(), key=lambda files: max(map(_mtime, files)), reverse=True)
    removed = []
    for files in newest[keep:]:
        for old in files:
            try:
                old.unlink()
            except OSError:
                continue
            removed.append(old)
    return removed


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def replays_dir() -> Path:
    """Where a player's client keeps the replays of his own seat (written from what it received)."""
    return data_dir() / "replays"
