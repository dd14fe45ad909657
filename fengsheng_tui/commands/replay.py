"""`fengsheng replay FILE`: step through a saved game as one seat saw it (arrow keys)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=Path, nargs="?", help="a .replay file (written by the server at game end)")
    parser.add_argument("--last", action="store_true",
                        help="the newest game's replay in the tables folder (the public one: every seat's view)")
    parser.add_argument("--lang", choices=("zh", "en"), default=None,
                        help="language (default: the one saved in Settings, else the locale's: zh_* Chinese, else English)")
    parser.add_argument("--mono", action=argparse.BooleanOptionalAction, default=None,
                        help="no colours (红/蓝/黑 are always written); default: as saved in Settings")


def run(args: argparse.Namespace) -> int:
    from fengsheng_tui.commands.play import NO_TTY, has_tty
    from fengsheng_tui.replay_model import load_replay

    path = args.file
    if args.last or path is None:
        from fengsheng_tui.commands.host import default_data_dir

        path = newest_replay(default_data_dir())
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


def newest_replay(folder: Path) -> Path | None:
    """The newest game's public replay in `folder` (else its newest replay of any seat)."""
    try:
        found = [p for p in folder.glob("*.replay") if p.is_file()]
    except OSError:
        return None
    if not found:
        return None
    newest = max(found, key=lambda p: (p.stat().st_mtime, p.name))
    game = newest.name.split(".", 1)[0]
    public = folder / f"{game}.public.replay"
    return public if public.is_file() else newest
