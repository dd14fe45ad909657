"""`fengsheng bot`: fill seats of a (remote) table with bots that are ordinary TCP clients.

Each bot decides from the update frames its own connection receives, exactly what a human at
that seat would see, so a remote bot cannot cheat even against a modified server's other seats.
Each says `ready` by itself in every lobby (`play_as_bot`), after a game over too, so a table whose
humans are ready starts again without anyone waiting on the bots.
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
        import secrets

        from bots import make_bot
        from net.client import Client, ClientError, play_as_bot

        clients = []
        for n in range(args.count):
            client = Client()
            try:
                await client.connect(host, port, f"Bot {args.level} {n + 1}", table=args.table, password=args.password,
                                     bot=True)
            except ClientError as exc:
                print(f"fengsheng bot: {exc}", file=sys.stderr)
                break
            # Seats are numbered from 1 here as in the lobby (the protocol counts from 0).
            seat = "?" if client.seat is None else client.seat + 1
            print(f"bot {n + 1} joined table {client.table} in seat {seat}", flush=True)
            clients.append(client)
        if not clients:
            return 1
        await asyncio.gather(*(
            play_as_bot(c, lambda seat: make_bot(args.level, seat, secrets.randbits(32)), args.delay, args.once)
            for c in clients
        ))
        for client in clients:
            await client.close()
        return 0 if len(clients) == args.count else 1

    try:
        return asyncio.run(main())
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="fengsheng bot")
    add_arguments(parser)
    sys.exit(run(parser.parse_args()))
