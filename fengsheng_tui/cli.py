"""The `fengsheng` command: one subcommand per way of using the game.

Each subcommand lives in its own module under `fengsheng_tui.commands` and is imported only when
chosen, so that `fengsheng sim` or `fengsheng host` never pay for loading Textual.
"""

from __future__ import annotations

import argparse
import importlib
import sys

SUBCOMMANDS = {
    "play": "Start a game on this machine against bots (the quick start).",
    "join": "Join a game on the LAN (browse) or at HOST[:PORT].",
    "host": "Run a headless game server.",
    "browse": "List games advertised on the LAN.",
    "bot": "Fill seats of a remote table with bots.",
    "sim": "Play whole games between bots, headless, checking invariants.",
    "scenario": "Run scripted rule scenarios.",
    "replay": "Step through a saved game as one seat saw it.",
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="fengsheng", description="风声 (The Message) in the terminal.")
    sub = parser.add_subparsers(dest="command", required=True)
    for name, help_text in SUBCOMMANDS.items():
        module = importlib.import_module(f"fengsheng_tui.commands.{name}")
        module.add_arguments(sub.add_parser(name, help=help_text, description=help_text))
    args = parser.parse_args(argv)
    module = importlib.import_module(f"fengsheng_tui.commands.{args.command}")
    result: int = module.run(args)
    return result


if __name__ == "__main__":
    sys.exit(main())
