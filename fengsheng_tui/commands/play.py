"""`fengsheng play`: a game on this machine against bots — the README's first command.

Starts a real server on loopback (with `--lan`, on every interface and advertised so friends can
join), then opens the table as an ordinary client of it. Textual is imported only in `run()`.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from fengsheng_tui.commands import options
from fengsheng_tui.commands.host import add_keep_games
from fengsheng_tui.logs import start_logging

if TYPE_CHECKING:
    from fengsheng_tui.local_game import LocalTable

NO_TTY = (
    "fengsheng {cmd}: this is a full-screen game and needs a terminal.\n"
    "Over SSH, ask for one: ssh -t HOST fengsheng {cmd}"
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=options.players, default=4, metavar="N", help="seats at the table (default: 4)")
    parser.add_argument("--characters", action=argparse.BooleanOptionalAction, default=None,
                        help="play with characters (default: only when the player count needs them, as 5 does)")
    parser.add_argument("--lang", choices=("zh", "en"), default=None,
                        help="language (default: the one saved in Settings, else the locale's: zh_* Chinese, else English)")
    parser.add_argument("--lan", action="store_true", help="advertise the table so friends on the LAN can join")
    parser.add_argument("--web", type=options.port, default=None, metavar="PORT",
                        help="let friends join from a browser at this port (seats stay open; see README)")
    parser.add_argument("--ssh", type=options.listen, default=None, metavar="[ADDR:]PORT",
                        help="let friends join over SSH at this port (seats stay open; see docs/ssh.md)")
    parser.add_argument("--name", default=None, help="your name at the table")
    parser.add_argument("--bots", type=options.bot_level, default=None, metavar="LEVEL", help="bot level (default: normal)")
    parser.add_argument("--seed", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--bot-delay", type=options.seconds, default=0.6, metavar="SECONDS",
                        help="seconds each bot waits before it answers (default: 0.6)")
    parser.add_argument("--timer", action="append", default=[], metavar="KIND=S",
                        help="more (or fewer) seconds for one kind of decision, e.g. --timer response=30; "
                             "kinds: play, send, response, receive, probe_discard, character_pick, skill, turn_window; "
                             "1 to 3600 seconds (repeatable)")
    add_keep_games(parser)
    parser.add_argument("--log", type=Path, default=None, metavar="FILE",
                        help="append the client's and Textual's log to FILE (see docs/logging.md)")
    parser.add_argument("--mono", action=argparse.BooleanOptionalAction, default=None,
                        help="no colours (红/蓝/黑 are always written); default: as saved in Settings")


def has_tty() -> bool:
    """Somewhere to draw: a terminal, or Textual's web driver (a browser door talks over pipes)."""
    return (sys.stdin.isatty() and sys.stdout.isatty()) or under_web_driver()


def under_web_driver() -> bool:
    return os.environ.get("TEXTUAL_DRIVER", "").startswith("textual.drivers.web_driver:")


def run(args: argparse.Namespace) -> int:
    if not has_tty():
        print(NO_TTY.format(cmd="play"), file=sys.stderr)
        return 2
    try:
        start_logging(args.log)
    except OSError as exc:
        print(f"fengsheng play: --log: {exc}", file=sys.stderr)
        return 2
    from fengsheng_tui.commands.host import _parse_timers

    try:
        _parse_timers(args.timer)
    except ValueError as exc:
        print(f"fengsheng play: {exc}", file=sys.stderr)
        return 2
    import asyncio

    return asyncio.run(play(args))


async def start_table(args: argparse.Namespace, replay_dir: Path | None) -> LocalTable:
    """The server `play` opens for these options (tests drive the app against it)."""
    from fengsheng_tui.commands.host import _parse_timers
    from fengsheng_tui.local_game import DEFAULT_BOT_LEVEL, start_local_table

    return await start_local_table(args.players, lan=args.lan, seed=args.seed,
                                   bot_level=args.bots or DEFAULT_BOT_LEVEL, bot_delay=args.bot_delay,
                                   replay_dir=replay_dir, characters=args.characters,
                                   timers=_parse_timers(getattr(args, "timer", [])),
                                   open_seats=args.lan or getattr(args, "web", None) is not None
                                   or getattr(args, "ssh", None) is not None)


async def play(args: argparse.Namespace) -> int:
    from fengsheng_tui.app import FengshengApp
    from fengsheng_tui.commands.host import default_data_dir, open_data_dir
    from fengsheng_tui.paths import replays_dir
    from fengsheng_tui.preferences import resolve_lang
    from fengsheng_tui.session import NetSession

    lang = resolve_lang(args.lang)
    name = args.name or ("玩家" if lang == "zh" else "Player")
    try:
        local = await start_table(args, open_data_dir(default_data_dir(), args.keep_games))
    except (ValueError, OSError) as exc:
        print(f"fengsheng play: {exc}", file=sys.stderr)
        return 2
    web_door = ssh_door = None
    try:
        notices = []
        if getattr(args, "web", None) is not None:
            from fengsheng_tui.doors.web import open_door

            try:
                web_door = await open_door(args.web, local.port, table=local.table, lang=args.lang,
                                           out=sys.stderr)
            except OSError as exc:
                print(f"fengsheng play: cannot serve browsers on port {args.web}: {exc}", file=sys.stderr)
                return 2
            notices.append(" ".join(web_door.urls()))
        if getattr(args, "ssh", None) is not None:
            from fengsheng_tui.commands.host import _lan_address
            from fengsheng_tui.doors.ssh import open_door as open_ssh
            from fengsheng_tui.paths import data_dir

            try:
                ssh_door = await open_ssh(args.ssh, local.table, "127.0.0.1", local.port, data_dir(), "0.0.0.0",
                                          _lan_address(), out=sys.stderr)
            except (OSError, ValueError) as exc:
                print(f"fengsheng play: no SSH door on {args.ssh}: {exc}", file=sys.stderr)
                return 2
            notices.append(f"SSH: {ssh_door.command()} · {ssh_door.fingerprint}")
        session = NetSession("127.0.0.1", local.port, name, token=local.host_token)
        app = FengshengApp(session, lang=lang, player_name=name, mono=args.mono,
                           replay_dir=local.replay_dir, notices=notices, keep_replays=replays_dir())
        await app.run_async()
    finally:
        if ssh_door is not None:
            await ssh_door.close()
        if web_door is not None:
            await web_door.close()
        await local.close()
    if args.lan:
        print(f"fengsheng play: the table was at port {local.port}", file=sys.stderr)
    if web_door is not None:
        print("fengsheng play: the browser door was at", *web_door.urls(), file=sys.stderr)
    if ssh_door is not None:
        print(f"fengsheng play: the SSH door was at {ssh_door.command()}", file=sys.stderr)
    return int(app.return_code or 0)
