"""`fengsheng bot`: fill seats of a (remote) table with bots that are ordinary TCP clients.

Each bot decides from the update frames its own connection receives, exactly what a human at
that seat would see, so a remote bot cannot cheat even against a modified server's other seats.
Each says `ready` by itself in every lobby (`play_as_bot`), after a game over too, so a table whose
humans are ready starts again without anyone waiting on the bots.

Each bot keeps the seat token of its welcome and, when the connection drops (a network hiccup, a
host that crashed and came back with `--resume`), reconnects with it, waiting 1, 2, 4 … 10 s
between tries, for up to `--reconnect` seconds. Its hello says it is a bot, so the table names
it as it names its own bots ("Bot 3": the lowest number free) and shows it as a bot; "Bot N"
stays a name no human can take.
"""

from __future__ import annotations

import argparse
import sys

from fengsheng_tui.commands import options


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--connect", required=True, metavar="HOST:PORT", help="the server to join")
    parser.add_argument("--count", type=options.count(1, 9), default=1, metavar="N", help="how many bots (default: 1)")
    parser.add_argument("--level", type=options.bot_level, default="normal", metavar="L", help="bot level (default: normal)")
    parser.add_argument("--table", default=None, metavar="T", help="table name when the server has several")
    parser.add_argument("--password", default=None, metavar="PW", help="table password")
    parser.add_argument("--delay", type=options.seconds, default=0.5, metavar="S", help="pause before each answer")
    parser.add_argument("--once", action="store_true", help="leave after one game is over")
    parser.add_argument("--think", type=options.seconds, default=None, metavar="S",
                        help="seconds the hard level thinks per decision (default: 1)")
    parser.add_argument("--reconnect", type=float, default=300.0, metavar="S",
                        help="after a drop, keep trying to take the seat back this long (default: 300)")


def parse_address(text: str) -> tuple[str, int]:
    from net.server import DEFAULT_PORT

    host, sep, port = text.rpartition(":")
    if not sep:
        return text, DEFAULT_PORT
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"bad port in {text!r}")
    return host.strip("[]") or "127.0.0.1", int(port)


def run(args: argparse.Namespace) -> int:
    import asyncio

    try:
        host, port = parse_address(args.connect)
    except ValueError as exc:
        print(f"fengsheng bot: {exc}", file=sys.stderr)
        return 2

    async def main() -> int:
        results = await asyncio.gather(*(_one_bot(args, host, port, n) for n in range(args.count)))
        return 0 if all(results) else 1

    try:
        return asyncio.run(main())
    except KeyboardInterrupt:
        return 130


async def _one_bot(args: argparse.Namespace, host: str, port: int, n: int) -> bool:
    """One bot's life: join, play, and take the seat back by its token after every drop."""
    import asyncio
    import secrets
    import time

    from bots import make_bot
    from net import protocol as P
    from net.client import BAD_SERVER, Client, ClientError, play_as_bot

    name = "Bot"  # the table names a bot client itself (net/seats.py `bot_name`)
    token: str | None = None
    dropped_at: float | None = None
    wait = 1.0
    while True:
        client = Client()
        try:
            await client.connect(host, port, name, token=token, table=args.table, password=args.password, bot=True)
        except ClientError as exc:
            if dropped_at is None or exc.code in (P.AUTH, P.VERSION) or time.monotonic() - dropped_at > args.reconnect:
                print(f"fengsheng bot: {exc}", file=sys.stderr)
                return False
            await asyncio.sleep(wait)  # the host is not back yet, or our old connection still counts as live
            wait = min(wait * 2, 10.0)
            continue
        again = token is not None
        token, dropped_at, wait = client.token, None, 1.0
        # Seats are numbered from 1 here as in the lobby (the protocol counts from 0).
        seat = "?" if client.seat is None else client.seat + 1
        print(f"bot {n + 1} {'is back at' if again else 'joined'} table {client.table} in seat {seat}", flush=True)
        await play_as_bot(client, lambda seat: make_bot(args.level, seat, secrets.randbits(32), args.think), args.delay, args.once)
        over = bool(client.view and client.view.get("over"))
        await client.close()
        if client.failure is not None:
            # A server that broke the protocol is not one to come back to (as the Textual client).
            why = "".join(ch if ch.isprintable() else "?" for ch in client.failure.message)
            print(f"fengsheng bot: {BAD_SERVER}: {why}", file=sys.stderr)
            return False
        if args.once and over:
            return True
        dropped_at = time.monotonic()
        print(f"bot {n + 1} lost the connection; taking seat {seat} back", flush=True)


if __name__ == "__main__":
    from fengsheng_tui.compiled.loader import activate

    activate()
    parser = argparse.ArgumentParser(prog="fengsheng bot")
    add_arguments(parser)
    sys.exit(run(parser.parse_args()))
