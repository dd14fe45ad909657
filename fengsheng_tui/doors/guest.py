"""The client a door runs for one guest: a name prompt, then the table at HOST:PORT.

`python -m fengsheng_tui.doors.guest --port P` is the whole command a door starts; it takes no
address from the guest, so a guest can only ever reach the table the door was opened for.
"""

from __future__ import annotations

import argparse
import hashlib
import logging
import socket
import sys
import time
from dataclasses import dataclass

#: The meta packet a browser guest's client sends the door (`FengshengApp.tell_door`).
DOOR_META = "fengsheng_at_table"
#: Seconds a guest may sit at the name prompt before the door closes (a tab left open, a port scan).
NAME_IDLE_SECONDS = 300.0
NAME_MAX = 20


def loopback_source(address: str) -> str | None:
    """A loopback address of this guest's own, 127.x.y.z, derived from his real address.

    Door guests all reach the table over loopback; connecting each from his own 127/8 address
    lets the server's per-address rules (caps, the failed-password back-off) apply per guest, as
    they do to `fengsheng join` clients, without the server knowing doors exist. None where this
    machine cannot bind such an address (only 127.0.0.1 configured)."""
    digest = hashlib.sha256(address.encode()).digest()
    source = f"127.{digest[0] % 254 + 1}.{digest[1]}.{digest[2] % 254 + 1}"
    try:
        with socket.socket() as probe:
            probe.bind((source, 0))
    except OSError:
        return None
    return source


#: Game clients a door starts for one address: a burst, then one per this many seconds. Starting
#: one costs about a second of CPU (Python, Textual, the game): a stranger opening and closing
#: sockets or sessions in a loop would otherwise keep the host's cores busy with nothing else.
SPAWN_BURST = 6
SPAWN_SECONDS = 10.0


class SpawnBudget:
    """How many game clients each address may still have started now (a token bucket per address)."""

    def __init__(self, burst: int = SPAWN_BURST, seconds: float = SPAWN_SECONDS) -> None:
        self.burst, self.seconds = burst, seconds
        self._tokens: dict[str, tuple[float, float]] = {}  # address -> (tokens, monotonic time)

    def wait(self, address: str) -> float:
        """0 and one start taken if `address` may start a client now, else the seconds until it may."""
        now = time.monotonic()
        tokens, last = self._tokens.get(address, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - last) / self.seconds)
        if tokens < 1:
            self._tokens[address] = (tokens, now)
            return (1 - tokens) * self.seconds
        if len(self._tokens) > 4096:  # bounded: forget the addresses whose budget is whole again
            self._tokens = {a: v for a, v in self._tokens.items()
                            if v[0] + (now - v[1]) / self.seconds < self.burst}
        self._tokens[address] = (tokens - 1, now)
        return 0.0


class QuietLog:
    """A door's log of refusals: at most `lines` a minute, then one count of the rest, so that a
    stranger's flood of connections or requests cannot flood the host's log (or its disk)."""

    def __init__(self, log: logging.Logger, prefix: str, lines: int = 10, window: float = 60.0,
                 level: int = logging.WARNING, what: str = "refusals") -> None:
        self.log, self.prefix, self.lines, self.window = log, prefix, lines, window
        self.level, self.what = level, what
        self._start = -window
        self._logged = 0
        self._held = 0

    def log_line(self, line: str) -> None:
        now = time.monotonic()
        if now - self._start >= self.window:
            self._start, self._logged = now, 0
        if self._logged >= self.lines:
            self._held += 1
            return
        self._logged += 1
        held, self._held = self._held, 0
        more = f" ({held} more {self.what} were not logged)" if held else ""
        self.log.log(self.level, "%s%s%s", self.prefix, line, more)


@dataclass(frozen=True)
class GuestDoor:
    """Where this guest's client connects, and what its name prompt asks."""

    host: str
    port: int
    table: str = ""
    default_name: str = ""
    ask_password: bool = False
    idle_seconds: float = NAME_IDLE_SECONDS
    #: Keep seat tokens in the config folder (FENGSHENG_CONFIG: the web door gives each browser
    #: its own), so that joining again under the same name takes the seat back.
    keep_seats: bool = False
    #: The local address to connect from (`loopback_source`), None: any.
    source: str | None = None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--table", default="")
    parser.add_argument("--name", default="", help="the name the prompt starts with")
    parser.add_argument("--ask-password", action="store_true", help="the table has a password: ask for it")
    parser.add_argument("--idle", type=float, default=NAME_IDLE_SECONDS, help="seconds to enter a name")
    parser.add_argument("--lang", choices=("zh", "en"), default=None)
    parser.add_argument("--keep-seats", action="store_true", help="keep seat tokens in the config folder")
    parser.add_argument("--source", default=None, metavar="IP", help="connect from this local address")


def main(argv: list[str] | None = None) -> int:
    from fengsheng_tui.compiled.loader import activate

    activate()  # the engine its host runs: the compiled build where a verified one exists
    parser = argparse.ArgumentParser(prog="fengsheng-guest")
    add_arguments(parser)
    args = parser.parse_args(argv)
    from fengsheng_tui.commands.play import NO_TTY, has_tty

    if not has_tty():
        print(NO_TTY.format(cmd="join"), file=sys.stderr)
        return 2
    from fengsheng_tui.app import FengshengApp

    door = GuestDoor(args.host, args.port, args.table, args.name[:NAME_MAX], args.ask_password, args.idle,
                     args.keep_seats, args.source)
    app = FengshengApp(lang=args.lang, player_name=door.default_name, guest=door)
    app.run()
    return int(app.return_code or 0)


if __name__ == "__main__":
    sys.exit(main())
