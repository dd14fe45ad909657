"""The `fengsheng` command: one subcommand per way of using the game.

Each subcommand lives in its own module under `fengsheng_tui.commands` and is imported only when
chosen, so that `fengsheng sim` or `fengsheng host` never pay for loading Textual. Before any of
them, the process chooses its engine (`fengsheng_tui.compiled.loader`): the compiled build where a
verified one of this source exists, else the interpreted one.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from fengsheng_tui.commands.options import Parser

SUBCOMMANDS = {
    "play": "Start a game on this machine against bots (the quick start).",
    "join": "Join a game on the LAN (browse) or at HOST[:PORT].",
    "host": "Run a headless game server.",
    "browse": "List games advertised on the LAN.",
    "bot": "Fill seats of a remote table with bots.",
    "sim": "Play whole games between bots, headless, checking invariants.",
    "scenario": "Run scripted rule scenarios.",
    "replay": "Step through a saved game as one seat saw it.",
    "engine": "The optional compiled engine: status, build (mypyc, about twice as fast), clean.",
    "completion": "Print tab completion for bash or zsh.",
}


def version() -> str:
    """The installed distribution's version (the package metadata is the one source of it)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as dist_version

    try:
        return dist_version("fengsheng")
    except PackageNotFoundError:
        return "unknown (not installed)"


class Version(argparse.Action):
    """`--version`: the package's version, and on a second line which engine runs and why (a
    damaged compiled build is reported here and by `fengsheng engine status`)."""

    def __init__(self, option_strings: list[str], dest: str, **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0, help="show the version and which engine runs, and exit")

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                 option_string: str | None = None) -> None:
        from fengsheng_tui.compiled.loader import current

        print(f"fengsheng {version()}\n{current().summary()}")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="fengsheng", description="风声 (The Message) in the terminal.")
    parser.add_argument("--version", action=Version)
    sub = parser.add_subparsers(dest="command", required=True)
    for name, help_text in SUBCOMMANDS.items():
        module = importlib.import_module(f"fengsheng_tui.commands.{name}")
        module.add_arguments(sub.add_parser(name, help=help_text, description=help_text))
    return parser


def main(argv: list[str] | None = None) -> int:
    from fengsheng_tui.compiled.loader import activate

    activate()  # before anything imports the engine: the compiled build where a verified one exists
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exc:  # --help, --version, or a refused flag (already said on stderr)
        return exc.code if isinstance(exc.code, int) else 2
    module = importlib.import_module(f"fengsheng_tui.commands.{args.command}")
    try:
        result: int = module.run(args)
    except BrokenPipeError:  # `fengsheng browse | head`: the reader left, which is not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    return result


if __name__ == "__main__":
    sys.exit(main())
