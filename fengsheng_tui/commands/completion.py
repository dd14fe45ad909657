"""`fengsheng completion bash|zsh`: the shell's tab completion for every subcommand and flag.

Generated from the real parser by shtab, so it never drifts from the flags. Install it with
`fengsheng completion bash > ~/.local/share/bash-completion/completions/fengsheng` (bash) or
`fengsheng completion zsh > ~/.zfunc/_fengsheng` with `fpath+=~/.zfunc` before `compinit` (zsh).
"""

from __future__ import annotations

import argparse

SHELLS = ("bash", "zsh")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("shell", choices=SHELLS, help="the shell to complete for")


def run(args: argparse.Namespace) -> int:
    import shtab

    from fengsheng_tui.cli import build_parser

    print(shtab.complete(build_parser(), shell=args.shell))
    return 0
