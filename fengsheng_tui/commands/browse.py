"""`fengsheng browse`: list the tables advertised on the LAN, for people and for scripts.

zeroconf is imported inside `run()` so that building the CLI parser stays cheap.
"""

from __future__ import annotations

import argparse
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--timeout", type=float, default=3.0, metavar="S", help="seconds to listen (default: 3)"
    )
    parser.add_argument("--json", action="store_true", help="print a JSON list instead of one line per game")
    parser.add_argument(
        "--interface",
        dest="interfaces",
        action="append",
        metavar="IP",
        help="IPv4 address of an interface to browse on (repeatable; default: the LAN interfaces)",
    )


def run(args: argparse.Namespace) -> int:
    import asyncio
    import dataclasses
    import json

    from net.discovery import DiscoveryError, browse_once

    from ..safe_text import clean, clean_tree

    if args.timeout <= 0:
        print("fengsheng browse: --timeout must be positive", file=sys.stderr)
        return 2
    try:
        games = asyncio.run(browse_once(args.timeout, args.interfaces))
    except DiscoveryError as exc:
        print(f"fengsheng browse: {exc}", file=sys.stderr)
        return 1
    if args.json:
        # TXT values come from anyone on the LAN: discovery validated them, and what is printed
        # holds no control character either way (JSON escapes them; plain text drops them).
        listing = [{**dataclasses.asdict(game), "compatible": game.compatible} for game in games]
        print(json.dumps(clean_tree(listing, isolate=False), ensure_ascii=False))
        return 0
    if not games:
        print(f"No games found (listened {args.timeout:g} s).", file=sys.stderr)
    for game in games:
        other = "" if game.compatible else " (incompatible)"
        print(clean(game.table) + clean(
            f"  {game.host}:{game.port}  seats {game.seats_taken}/{game.seats_total}"
            f"  {game.phase}  password {'yes' if game.password else 'no'}  v{game.version}{other}"
        ))
    return 0


if __name__ == "__main__":
    from fengsheng_tui.compiled.loader import activate

    activate()
    parser = argparse.ArgumentParser(prog="fengsheng browse")
    add_arguments(parser)
    sys.exit(run(parser.parse_args()))
