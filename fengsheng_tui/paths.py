"""Where the game keeps its files on this machine: the one place that decides it.

Config (keys, settings, saved seats, recent servers) and data (a host's journals and replays, the
SSH door's host key) follow the platform's conventions through platformdirs: on Linux the XDG
folders (`$XDG_CONFIG_HOME/fengsheng`, `$XDG_DATA_HOME/fengsheng`, by default `~/.config/fengsheng`
and `~/.local/share/fengsheng`). `$FENGSHENG_CONFIG` names the keys file and so moves the whole
config folder with it (friends sharing one account give each session its own). Folders are made
readable by their owner alone (0700): journals hold the seed and seat tokens.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import stat
from collections.abc import Callable
from pathlib import Path

import platformdirs

log = logging.getLogger("fengsheng.config")

APP = "fengsheng"
#: Games whose journal, record and replays a tables folder keeps; older ones are pruned.
KEEP_GAMES = 30
GAME_SUFFIXES = (".journal", ".record", ".replay", ".tmp")


#: Far bigger than any config file the game writes (seats.json, 32 seats at most, is a few KiB): a
#: bigger file is not ours, and is not read whole.
MAX_CONFIG_FILE = 1024 * 1024


class DamagedFile(ValueError):
    """A config file that cannot be what the game wrote: too big, not UTF-8, not parseable."""


def read_config_text(path: Path) -> str:
    """A config file's text. OSError when it cannot be read (FileNotFoundError: there is none),
    `DamagedFile` when it is too big, not UTF-8, or not a regular file (a FIFO would block the
    read for good, a device never end)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise DamagedFile("not a regular file")
    with open(fd, "rb") as handle:
        data = handle.read(MAX_CONFIG_FILE + 1)
    if len(data) > MAX_CONFIG_FILE:
        raise DamagedFile(f"over {MAX_CONFIG_FILE // 1024} KiB: not a file this game wrote")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DamagedFile(f"not UTF-8 ({exc.reason} at byte {exc.start})") from None


def load_json(path: Path) -> object:
    """A config file's JSON, as `read_config_text` reads it; `DamagedFile` for anything the parser
    refuses, nesting too deep for it included (a RecursionError would end the program)."""
    text = read_config_text(path)
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise DamagedFile(f"not valid JSON ({type(exc).__name__}: {str(exc)[:80]})") from None


#: What `set_aside` did, for the player to see (`FengshengApp` shows each as a notice), and the
#: app's function that shows one as it happens (None: kept in `DAMAGE_NOTICES` until it looks).
DAMAGE_NOTICES: list[str] = []
damage_listener: Callable[[str], None] | None = None


def set_aside(path: Path, why: object, fallback: str) -> Path | None:
    """Move a damaged config file out of the way, to `NAME.damaged` (`.damaged-2`, … if taken),
    so that the next save writes a fresh file and never over what the player had (a hand edit with
    one typo, a half-written file): nothing is lost, and he is told where it is. `fallback` says
    what is used instead. Returns where it went (None if it could not be moved: then it stays, and
    the notice says so; saving over it is then up to the save)."""
    target: Path | None = None
    for n in range(1, 100):
        candidate = path.with_name(path.name + (".damaged" if n == 1 else f".damaged-{n}"))
        if not os.path.lexists(candidate):
            target = candidate
            break
    moved = False
    if target is not None:
        try:
            os.rename(path, target)
            moved = True
        except OSError:
            pass
    if moved:
        notice = f"{path} is damaged ({why}): kept as {target.name}; {fallback}"  # type: ignore[union-attr]
    else:
        notice = f"{path} is damaged ({why}) and could not be moved aside; {fallback}"
    log.warning("%s", notice)
    DAMAGE_NOTICES.append(notice)
    if damage_listener is not None:
        damage_listener(notice)
    return target if moved else None


def write_config(path: Path, text: str, mode: int = 0o600) -> None:
    """Write a config file whole or not at all (a temporary file renamed over it): a crash or a
    full disk mid-write leaves the old file, never half of one. OSError when it cannot."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


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
