"""The client a door runs for one guest: a name prompt, then the table at HOST:PORT.

`python -m fengsheng_tui.doors.guest --port P` is the whole command a door starts; it takes no
address from the guest, so a guest can only ever reach the table the door was opened for.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass

#: Seconds a guest may sit at the name prompt before the door closes (a tab left open, a port scan).
NAME_IDLE_SECONDS = 300.0
NAME_MAX = 20


@dataclass(frozen=True)
class GuestDoor:
    """Where this guest's client connects, and what its name prompt asks."""

    host: str
    port: int
    table: str = ""
    default_name: str = ""
    ask_password: bool = False
    idle_seconds: float = NAME_IDLE_SECONDS
    #: This guest's seat tokens (a browser door keeps one file per browser); None: in memory only.
    seats_file: str | None = None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--table", default="")
    parser.add_argument("--name", default="", help="the name the prompt starts with")
    parser.add_argument("--ask-password", action="store_true", help="the table has a password: ask for it")
    parser.add_argument("--idle", type=float, default=NAME_IDLE_SECONDS, help="seconds to enter a name")
    parser.add_argument("--lang", choices=("zh", "en"), default=None)
    parser.add_argument("--seats", default=None, metavar="FILE", help="keep seat tokens in FILE")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="fengsheng-guest")
    add_arguments(parser)
    args = parser.parse_args(argv)
    from fengsheng_tui.commands.play import NO_TTY, has_tty

    if not has_tty():
        print(NO_TTY.format(cmd="join"), file=sys.stderr)
        return 2
    from fengsheng_tui.app import FengshengApp

    door = GuestDoor(args.host, args.port, args.table, args.name[:NAME_MAX], args.ask_password, args.idle,
                     args.seats)
    app = FengshengApp(lang=args.lang, player_name=door.default_name, guest=door)
    app.run()
    return int(app.return_code or 0)


if __name__ == "__main__":
    sys.exit(main())
