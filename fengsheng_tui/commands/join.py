"""`fengsheng join [HOST[:PORT]]`: join a table at an address, or pick one from the LAN lobby."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("address", nargs="?", metavar="HOST[:PORT]",
                        help="the server (default: the server's default port); without it, browse the LAN")
    parser.add_argument("--lang", choices=("zh", "en"), default=None,
                        help="language (default: the one saved in Settings, else the locale's: zh_* Chinese, else English)")
    parser.add_argument("--name", default=None, help="your name at the table")
    parser.add_argument("--password", default=None, help="the table password, if it has one")
    parser.add_argument("--spectate", action="store_true", help="watch without taking a seat")
    parser.add_argument("--host-token", default=None, metavar="TOKEN",
                        help="the host token `fengsheng host` printed: join with the host rights")
    parser.add_argument("--log", type=Path, default=None, metavar="FILE",
                        help="append the client's and Textual's log to FILE (see docs/logging.md)")
    parser.add_argument("--mono", action=argparse.BooleanOptionalAction, default=None,
                        help="no colours (红/蓝/黑 are always written); default: as saved in Settings")
    parser.add_argument("--interface", dest="interfaces", action="append", metavar="IP",
                        help="IPv4 address of an interface to browse on (repeatable)")


def run(args: argparse.Namespace) -> int:
    from fengsheng_tui.commands.play import NO_TTY, has_tty

    if not has_tty():
        print(NO_TTY.format(cmd="join"), file=sys.stderr)
        return 2
    from fengsheng_tui.logs import start_logging

    try:
        start_logging(args.log)
    except OSError as exc:
        print(f"fengsheng join: --log: {exc}", file=sys.stderr)
        return 2
    from fengsheng_tui.app import FengshengApp
    from fengsheng_tui.paths import replays_dir
    from fengsheng_tui.preferences import resolve_lang
    from fengsheng_tui.recent import parse_address, remember
    from fengsheng_tui.seat_tokens import SeatTokens
    from fengsheng_tui.session import NetSession
    from net.server import DEFAULT_PORT

    lang = resolve_lang(args.lang)
    name = args.name or ("玩家" if lang == "zh" else "Player")
    session = None
    if args.address:
        try:
            host, port = parse_address(args.address, DEFAULT_PORT)
        except ValueError:
            print(f"fengsheng join: bad address {args.address!r}; use HOST or HOST:PORT", file=sys.stderr)
            return 2
        remember(host, port)
        seats = SeatTokens()
        if args.name is None and not args.spectate:
            name = seats.saved_name(f"{host}:{port}") or name
        session = NetSession(host, port, name, password=args.password, spectate=args.spectate,
                             token=args.host_token, seats=seats)
    app = FengshengApp(session, lang=lang, player_name=name, mono=args.mono, lobby=session is None,
                       interfaces=args.interfaces, keep_replays=replays_dir())
    app.name_given = args.name is not None
    app.run()
    return int(app.return_code or 0)
