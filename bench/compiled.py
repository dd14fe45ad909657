"""The engine compiled by mypyc, for benchmarks and searches that want it: the build `fengsheng
engine build` makes (fengsheng_tui/compiled: the same source compiled into the user's cache, keyed
by a hash of the source and the Python, verified game for game against the interpreted engine),
made now if there is no usable one for this checkout's `engine/`.

Put `build_dir()` first on `sys.path` (or `PYTHONPATH`: `environment()`) to import `engine`
compiled; a `fengsheng` process does it by itself (`fengsheng_tui.compiled.loader`).

    .venv/bin/python bench/compiled.py          # build if missing, print the directory
    .venv/bin/python bench/compiled.py --check  # and run the golden games and the copy tests on it
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "engine"
sys.path.insert(0, str(ROOT))

from fengsheng_tui.compiled import loader  # noqa: E402
from fengsheng_tui.compiled.build import CannotBuild, build  # noqa: E402


def build_dir() -> Path:
    """The folder of the verified compiled build of `engine/`, built now if there is none."""
    path = loader.cache_dir() / loader.build_key(SOURCE)
    try:
        loader.check_files(path, loader.read_manifest(path)["files"])
        return path
    except loader.Damaged:
        pass
    try:
        return build(SOURCE, say=lambda line: print(line, file=sys.stderr, flush=True))
    except CannotBuild as exc:
        raise SystemExit(f"bench/compiled.py: {exc}") from None


def environment() -> dict[str, str]:
    """The environment of a process that imports the compiled engine (ahead of the installed one)."""
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(build_dir()), str(ROOT)])}


def check() -> int:
    """The repository's golden games and copy tests, with the compiled engine (the build was
    already verified against the interpreted engine): `-P` and `--import-mode=append` keep the
    source tree behind the build."""
    env = environment()
    where = subprocess.run([sys.executable, "-P", "-c", "import engine.game; print(engine.game.__file__)"], env=env,
                           cwd=ROOT, check=True, capture_output=True, text=True).stdout.strip()
    print(f"engine.game: {where}")
    if not where.endswith(loader.extension_suffix()):
        print("the compiled engine is not the one imported", file=sys.stderr)
        return 1
    return subprocess.run([sys.executable, "-P", "-m", "pytest", "-q", "-p", "no:randomly", "-p", "no:cacheprovider",
                           "--import-mode=append", "tests/test_golden_games.py", "tests/test_copy.py"],
                          env=env, cwd=ROOT, check=False).returncode


if __name__ == "__main__":
    if "--check" in sys.argv[1:]:
        raise SystemExit(check())
    print(build_dir())
