"""`fengsheng engine status|build|clean`: the optional compiled engine (fengsheng_tui/compiled).

`build` compiles the engine's own source with mypyc into the user's cache (about 1-3 minutes; it
needs a C compiler, the Python headers and mypyc), verifies it game for game against the
interpreted engine, and from then on every `fengsheng` process runs it: games about twice as
fast, the same games. `status` says which engine this process runs and why; `clean` deletes the
builds (the game then runs interpreted until the next `build`).
"""

from __future__ import annotations

import argparse
import sys

ACTIONS = {
    "status": "Say which engine runs (compiled or interpreted) and why.",
    "build": "Compile the engine with mypyc into the cache and verify it (needs gcc and the Python headers).",
    "clean": "Delete every compiled build from the cache.",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    for name, help_text in ACTIONS.items():
        sub = actions.add_parser(name, help=help_text, description=help_text)
        if name == "build":
            sub.add_argument("--force", action="store_true", help="build again even if a verified build exists")


def run(args: argparse.Namespace) -> int:
    action = args.action or "status"
    if action == "build":
        return build(args.force)
    if action == "clean":
        from fengsheng_tui.compiled.build import remove_builds

        removed = remove_builds()
        print(f"removed {len(removed)} build(s) from the cache" + ("" if not removed else "; this process keeps its engine until it ends"))
        return 0
    return status()


def status() -> int:
    from fengsheng_tui.compiled import loader
    from fengsheng_tui.compiled.build import missing_tools

    choice = loader.current()
    print(choice.summary())
    if choice.compiled and choice.build is not None:
        manifest = loader.read_manifest(choice.build)
        print(f"  build: {choice.build}")
        print(f"  built {manifest.get('built')} in {manifest.get('seconds')} s with mypy {manifest.get('mypy')}; "
              f"{len(manifest['modules'])} modules compiled; verified on {manifest.get('verified', {}).get('games')} games")
        try:
            loader.check_files(choice.build, manifest["files"], deep=True)
            print("  files: the ones that were verified (sha256)")
        except loader.Damaged as exc:
            print(f"  damaged: {exc}; `fengsheng engine build --force` builds it again")
    elif choice.damaged:
        print("  `fengsheng engine build --force` builds it again")
    if not choice.compiled:
        problems = missing_tools()
        print("  this machine can build it (mypyc, a C compiler and the Python headers are here)" if not problems
              else "  building it needs: " + "; ".join(problems))
    found = loader.builds()
    stale = [b for b in found if b != choice.build]
    print(f"cache: {loader.cache_dir()} ({len(found)} build(s)"
          + (f", {len(stale)} not for this engine source or Python: `fengsheng engine clean` removes them)" if stale else ")"))
    return 0


def build(force: bool) -> int:
    from fengsheng_tui.compiled import loader
    from fengsheng_tui.compiled.build import CannotBuild
    from fengsheng_tui.compiled.build import build as compile_engine

    choice = loader.current()
    if choice.compiled and not force:
        print(f"a verified build of this engine is already in use: {choice.build} (--force builds it again)")
        return 0
    try:
        folder = compile_engine(choice.source, say=lambda line: print(line, file=sys.stderr, flush=True))
    except CannotBuild as exc:
        print(f"fengsheng engine build: {exc}", file=sys.stderr)
        return 1
    print(f"compiled engine ready: {folder} (every fengsheng started from now on runs it)")
    return 0
