"""`fengsheng replay FILE`: step through a saved game as one seat saw it (arrow keys).

`--last` opens the newest game: the replay this player's client kept of his own seat (written
from the frames it received) when that is the newest, else the newest game a server on this
machine saved (its public replay). `--list` prints the replays kept, newest first."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=Path, nargs="?", help="a .replay file (written at game end)")
    parser.add_argument("--last", action="store_true",
                        help="the newest game: your own seat's replay where this machine kept it, "
                             "else the newest public replay in the tables folder")
    parser.add_argument("--list", action="store_true", help="print the replays kept on this machine, newest first")
    parser.add_argument("--lang", choices=("zh", "en"), default=None,
                        help="language (default: the one saved in Settings, else the locale's: zh_* Chinese, else English)")
    parser.add_argument("--mono", action=argparse.BooleanOptionalAction, default=None,
                        help="no colours (红/蓝/黑 are always written); default: as saved in Settings")


def run(args: argparse.Namespace) -> int:
    from fengsheng_tui.commands.host import default_data_dir
    from fengsheng_tui.commands.play import NO_TTY, has_tty
    from fengsheng_tui.paths import replays_dir
    from fengsheng_tui.replay_model import load_replay

    if args.list:
        for found in kept_replays(replays_dir(), default_data_dir()):
            print(found)
        return 0
    path = args.file
    if args.last or path is None:
        path = newest_replay(default_data_dir(), replays_dir())
        if path is None:
            print("fengsheng replay: no replay saved yet (play a game first, or give a file)", file=sys.stderr)
            return 1
    try:
        replay = load_replay(path)
    except (OSError, ValueError) as exc:
        print(f"fengsheng replay: {exc}", file=sys.stderr)
        return 1
    if not has_tty():
        print(NO_TTY.format(cmd="replay"), file=sys.stderr)
        return 2
    from fengsheng_tui.app import FengshengApp

    app = FengshengApp(lang=args.lang, mono=args.mono, replay=replay)
    app.run()
    return int(app.return_code or 0)


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def _replays(folder: Path | None) -> list[Path]:
    if folder is None:
        return []
    try:
        return [p for p in folder.glob("*.replay") if p.is_file()]
    except OSError:
        return []


def kept_replays(own: Path | None, tables: Path | None) -> list[Path]:
    """Every replay on this machine, newest first: the client's own, then a server's."""
    return sorted([*_replays(own), *_replays(tables)], key=lambda p: (_mtime(p), p.name), reverse=True)


def newest_replay(folder: Path, own: Path | None = None) -> Path | None:
    """The newest game's replay: our own seat's (in `own`, kept by our client) when it is at least
    as new as the newest game in the tables `folder`, else that game's public replay (else its
    newest replay of any seat)."""
    found = _replays(folder)
    newest = max(found, key=lambda p: (_mtime(p), p.name)) if found else None
    mine = _replays(own)
    ours = max(mine, key=lambda p: (_mtime(p), p.name)) if mine else None
    # Our client writes its replay once the final view arrived, after the server wrote its files.
    if ours is not None and (newest is None or _mtime(ours) >= _mtime(newest)):
        return ours
    if newest is None:
        return None
    game = newest.name.split(".", 1)[0]
    public = folder / f"{game}.public.replay"
    return public if public.is_file() else newest
