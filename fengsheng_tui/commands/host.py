"""`fengsheng host`: a headless game server with a readable log, advertised on the LAN.

Also `serve_local`, which `fengsheng play` uses to run a loopback server with bots in the
background of the app: the app then joins it like any other client, with the host token.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fengsheng_tui.commands import options
from fengsheng_tui.commands.invocation import program

if TYPE_CHECKING:
    from net.server import GameServer
    from net.table import Table


def default_data_dir() -> Path:
    """Where journals and replays go unless `--data-dir` says otherwise (see fengsheng_tui.paths)."""
    from fengsheng_tui.paths import tables_dir

    return tables_dir()


def open_data_dir(data_dir: Path, keep_games: int, spare: Path | None = None) -> Path:
    """The tables folder made private (journals hold the seed and the tokens), old games pruned."""
    from fengsheng_tui.paths import private_dir, prune_games

    private_dir(data_dir)
    prune_games(data_dir, keep_games, spare=spare)
    return data_dir


def add_keep_games(parser: argparse.ArgumentParser) -> None:
    from fengsheng_tui.paths import KEEP_GAMES

    parser.add_argument("--keep-games", type=options.count(0, 100_000), default=KEEP_GAMES, metavar="N",
                        help=f"keep the journals and replays of the newest N games (default: {KEEP_GAMES})")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--port", type=options.port, default=None, help="TCP port (default: 7531; 0 picks a free one)")
    parser.add_argument("--name", default=None, help="table name shown on the LAN (default: this host's name)")
    parser.add_argument("--players", type=options.players, default=4, help="seats at the table (default: 4)")
    parser.add_argument("--identities", default=None, metavar="NAME",
                        help="identity configuration: default, novice (4), 3v3 (6), alt (7) "
                             "(default: the first without a neutral; with characters, the standard one)")
    parser.add_argument("--characters", action=argparse.BooleanOptionalAction, default=None,
                        help="play with characters (default: only when the players or identities need them)")
    parser.add_argument("--character-choices", type=int, choices=(2, 3), default=3, metavar="2|3",
                        help="characters dealt to each player to pick from (default: 3)")
    parser.add_argument("--deck", type=options.deck, default="resolved", metavar="NAME",
                        help="deck variant: resolved (default), fixed_method_by_function, seed000_literal, later")
    parser.add_argument("--bots", type=options.count(0, 9), default=0, metavar="K", help="seat K bots now")
    parser.add_argument("--password", default=None, help="table password")
    parser.add_argument("--no-advertise", action="store_true", help="do not advertise on the LAN (zeroconf)")
    parser.add_argument("--interface", default=None, metavar="IP", help="listen and advertise on this IPv4 address only")
    parser.add_argument("--data-dir", type=Path, default=None, help="journals and replays (default: XDG data home)")
    add_keep_games(parser)
    parser.add_argument("--resume", type=Path, default=None, metavar="FILE", help="restore a table from its journal")
    parser.add_argument("--accept-loss", action="store_true",
                        help="with --resume: resume a damaged journal from the choices before the damage "
                             "(the whole file is first copied aside)")
    parser.add_argument("--start", action="store_true", help="start as soon as every seat is taken")
    parser.add_argument("--timer", action="append", default=[], metavar="KIND=S",
                        help="seconds (1 to 3600) for one kind of decision (play, send, response, receive, "
                             "probe_discard, character_pick, skill, turn_window)")
    parser.add_argument("--bot-delay", type=options.seconds, default=None, metavar="S", help="pause before a bot answers")
    parser.add_argument("--web", type=options.port, default=None, metavar="PORT",
                        help="also serve the game to browsers on PORT: each tab is a guest (see README)")
    parser.add_argument("--ssh", type=options.listen, default=None, metavar="[ADDR:]PORT",
                        help="also let guests in over SSH on PORT (any user name, no key): see docs/ssh.md")
    parser.add_argument("--ssh-limits", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--seed", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--verbose", action="store_true",
                        help="also log the seed and every choice (reveals hidden cards: not for a host who plays)")


def run(args: argparse.Namespace) -> int:
    import asyncio
    import logging
    import signal

    logging.basicConfig(
        stream=sys.stdout, level=logging.DEBUG if args.verbose else logging.INFO, format="%(asctime)s %(message)s",
        datefmt="%H:%M:%S", force=True,
    )
    try:
        timers = _parse_timers(args.timer)
    except ValueError as exc:
        print(f"fengsheng host: {exc}", file=sys.stderr)
        return 2

    async def main() -> int:
        from engine import ConfigError
        from fengsheng_tui.local_game import needs_characters
        from net.journal import JournalError
        from net.server import DEFAULT_PORT, GC_FREEZE_EVERY, GameServer
        from net.table import BOT_DELAY, Table

        data_dir = args.data_dir or default_data_dir()
        bot_delay = BOT_DELAY if args.bot_delay is None else args.bot_delay
        try:
            open_data_dir(data_dir, args.keep_games, spare=args.resume)
            if args.resume is not None:
                table = Table.resume(args.resume, accept_loss=args.accept_loss, data_dir=data_dir,
                                     bot_delay=bot_delay, open_host=True)
            else:
                characters = args.characters
                if characters is None:
                    characters = needs_characters(args.players, args.identities)
                table = Table(
                    args.name or _default_name(), players=args.players, identities=args.identities,
                    characters=characters, character_choices=args.character_choices, deck=args.deck,
                    password=args.password, timers=timers, data_dir=data_dir, bot_delay=bot_delay,
                    auto_start=args.start, seed=args.seed, open_host=True,
                )
                for _ in range(args.bots):
                    table.add_bot()
        except ConfigError as exc:  # the flags name a table the rules do not allow
            print(f"fengsheng host: {exc}", file=sys.stderr)
            return 2
        except (JournalError, OSError, ValueError) as exc:
            print(f"fengsheng host: {exc}", file=sys.stderr)
            return 1
        port = DEFAULT_PORT if args.port is None else args.port
        # Alone in its process (no SSH guests' screens), the server keeps its collector pauses short;
        # nobody in it reads a finished game's files, so they are written in a worker thread.
        server = GameServer(args.interface or "0.0.0.0", port,
                            gc_freeze_every=GC_FREEZE_EVERY if args.ssh is None else None, background_files=True)
        server.add_table(table)
        try:
            await server.start()
        except OSError as exc:
            print(f"fengsheng host: cannot listen on port {port}: {exc}", file=sys.stderr)
            return 1
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        address = args.interface or _lan_address()
        print(f"table {table.name!r} on port {server.port}: {_describe(table)}", flush=True)
        me = program()
        print(f"join with: {me} join {address}:{server.port}", flush=True)
        print("the first player to join holds the host rights (add bots, start); or join as host with:",
              flush=True)
        print(f"  {me} join {address}:{server.port} --host-token {table.host_token}", flush=True)
        web_door = None
        if args.web is not None:
            from fengsheng_tui.doors.web import open_door

            try:
                web_door = await open_door(args.web, server.port, table=table, interface=args.interface)
            except OSError as exc:
                print(f"fengsheng host: cannot serve browsers on port {args.web}: {exc}", file=sys.stderr)
                await server.close()
                return 1
        ssh_door = None
        if args.ssh is not None:
            from fengsheng_tui.doors.ssh import open_door as open_ssh

            try:
                from fengsheng_tui.paths import data_dir as door_dir

                ssh_door = await open_ssh(args.ssh, table, server.host, server.port, args.data_dir or door_dir(),
                                          args.interface or "0.0.0.0", address, args.ssh_limits)
            except (OSError, ValueError) as exc:
                print(f"fengsheng host: no SSH door on {args.ssh}: {exc}", file=sys.stderr)
                if web_door is not None:
                    await web_door.close()
                await server.close()
                return 1
        advertiser = None if args.no_advertise else await _advertise(table, server.port, args.interface)
        try:
            if advertiser is None:
                await stop.wait()
            else:
                await _keep_advertised(advertiser, table, stop)
        finally:
            if advertiser is not None:
                await advertiser.stop()
            if ssh_door is not None:
                await ssh_door.close()
            if web_door is not None:
                await web_door.close()
            await server.close()
        print("server stopped", flush=True)
        return 0

    try:
        return asyncio.run(main())
    except KeyboardInterrupt:
        return 130


def _parse_timers(specs: list[str]) -> dict[str, float]:
    """`KIND=S` for every timer the host may also set in the lobby, within the same bounds."""
    from net.protocol import TIMER_RANGE
    from net.table import TIMER_NAMES

    least, most = TIMER_RANGE
    timers = {}
    for spec in specs:
        kind, _, seconds = spec.partition("=")
        if kind not in TIMER_NAMES:
            raise ValueError(f"--timer {spec!r}: kind must be one of {', '.join(TIMER_NAMES)}")
        try:
            value = float(seconds)
        except ValueError:
            raise ValueError(f"--timer {spec!r}: seconds must be a number") from None
        if not least <= value <= most:
            raise ValueError(f"--timer {spec!r}: seconds must be in [{least:g}, {most:g}]")
        timers[kind] = value
    return timers


def _describe(table: Table) -> str:
    """`5 players, identities default (2/2/1), characters (3 to pick from)`."""
    from engine import identity_options

    counts = "/".join(map(str, identity_options(table.players)[table.identities]))
    cast = f"characters ({table.character_choices} to pick from)" if table.characters else "no characters"
    return f"{table.players} players, identities {table.identities} ({counts}), {cast}"


def _default_name() -> str:
    import socket

    return (socket.gethostname().split(".")[0] or "fengsheng")[:40]


def _lan_address() -> str:
    from net.discovery import lan_ipv4_addresses

    addresses = lan_ipv4_addresses()
    return addresses[0] if addresses else "127.0.0.1"


async def _advertise(table: Table, port: int, interface: str | None) -> Any:
    import logging

    from net.discovery import Advertiser, DiscoveryError, make_txt

    advertiser = Advertiser()
    try:
        await advertiser.start(
            table.name, port, make_txt(table.name, *table.summary()), [interface] if interface else None
        )
    except DiscoveryError as exc:
        logging.getLogger("fengsheng.host").warning("not advertised on the LAN (%s); join by address", exc)
        return None
    logging.getLogger("fengsheng.host").info("advertised as %s", advertiser.instance_name)
    return advertiser


async def _keep_advertised(advertiser: Any, table: Table, stop: Any) -> None:
    """Re-announce the TXT record whenever seats or phase change, until told to stop."""
    import asyncio

    from net.discovery import make_txt

    last = table.summary()
    while not stop.is_set():
        try:
            async with asyncio.timeout(1.0):
                await stop.wait()
        except TimeoutError:
            pass
        now = table.summary()
        if now != last:
            last = now
            await advertiser.update(make_txt(table.name, *now))


@dataclass
class LocalServer:
    """A loopback server run inside the app's event loop (what `serve_local` returns)."""

    server: GameServer
    table: Table

    @property
    def port(self) -> int:
        return self.server.port

    @property
    def host_token(self) -> str:
        return self.table.host_token

    async def close(self) -> None:
        await self.server.close()


async def serve_local(
    players: int = 4,
    bots: int | None = None,
    *,
    name: str = "local",
    identities: str | None = None,
    characters: bool = False,
    data_dir: Path | None = None,
    bot_delay: float | None = None,
    timers: dict[str, float] | None = None,
    auto_start: bool = True,
    seed: int | None = None,
) -> LocalServer:
    """Start a server on 127.0.0.1 (free port) with one table and `bots` bot seats (default players-1).

    Join it with `Client().connect("127.0.0.1", local.port, name, token=local.host_token)`: the
    host token gives a seat and the host's operator rights. With `auto_start` the game starts
    as soon as that seat is taken. Call `await local.close()` to stop it.
    """
    from net.server import GameServer
    from net.table import BOT_DELAY, Table

    table = Table(
        name, players=players, identities=identities, characters=characters, timers=timers,
        data_dir=data_dir if data_dir is not None else default_data_dir(),
        bot_delay=BOT_DELAY if bot_delay is None else bot_delay, auto_start=auto_start, seed=seed,
    )
    for _ in range(players - 1 if bots is None else bots):
        table.add_bot()
    server = GameServer("127.0.0.1", 0)
    server.add_table(table)
    await server.start()
    return LocalServer(server, table)


if __name__ == "__main__":
    from fengsheng_tui.compiled.loader import activate

    activate()
    parser = argparse.ArgumentParser(prog="fengsheng host")
    add_arguments(parser)
    sys.exit(run(parser.parse_args()))
