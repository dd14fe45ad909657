"""`fengsheng scenario FILE...`: run scripted rule scenarios and say which ones the engine fails.

The file reading lives here so that `engine.scenario` stays free of I/O.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", metavar="FILE",
                        help="scenario .toml files; a directory means every *.toml in it")
    parser.add_argument("-v", "--verbose", action="store_true", help="also print what each scenario cites")


def scenario_files(paths: list[str]) -> list[Path]:
    files: list[Path] = []
    for raw in paths:
        path = Path(raw)
        files.extend(sorted(path.rglob("*.toml")) if path.is_dir() else [path])
    return files


def run(args: argparse.Namespace) -> int:
    import tomllib

    from engine.scenario import ScenarioError, run_scenario, scenarios_in

    failed = total = 0
    for path in scenario_files(args.paths):
        try:
            with path.open("rb") as f:
                scenarios = scenarios_in(tomllib.load(f))
        except (OSError, tomllib.TOMLDecodeError, ScenarioError) as exc:
            print(f"FAIL {path}: cannot load: {exc}")
            failed += 1
            total += 1
            continue
        for data in scenarios:
            total += 1
            result = run_scenario(data)
            if result.ok:
                print(f"PASS {result.name}")
            else:
                failed += 1
                print(f"FAIL {result.name}: {result.reason}")
            if args.verbose:
                print(f"     cites: {data.get('cites')}  ({path})")
    print(f"{total - failed} passed, {failed} failed", file=sys.stderr)
    return 1 if failed or not total else 0
