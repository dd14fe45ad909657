"""An optional mypyc build of the engine, for benchmarks and searches that want it: the same source,
compiled to C (mypyc ships with mypy; it needs gcc and the Python headers).

The build lives in `build/mypyc/` (git-ignored), a copy of `engine/` with the compiled modules
beside it, never in the source tree: a compiled module there would shadow every later edit of
its source. It is rebuilt whenever a file of `engine/` changed (a hash of them is kept with it).
Put `build_dir()` first on `sys.path` (or `PYTHONPATH`) to import `engine` compiled.

    .venv/bin/python bench/compiled.py          # build if stale, print the directory
    .venv/bin/python bench/compiled.py --check  # and run the golden games and the copy tests on it
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "engine"
BUILD = ROOT / "build" / "mypyc"
# What the engine runs on every decision; the rest (views, invariants, scenarios, worlds) stays
# interpreted: compiled classes take no weak references, which the invariants' memo needs.
INTERPRETED = {"__init__.py", "view.py", "invariants.py", "scenario.py", "selfplay.py", "worlds.py"}


def source_hash() -> str:
    digest = hashlib.sha256()
    for path in sorted(SOURCE.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(str(path.relative_to(SOURCE)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def build_dir() -> Path:
    """The directory holding the compiled `engine`, built now if missing or older than the source."""
    stamp = BUILD / "source.sha256"
    wanted = source_hash()
    if stamp.exists() and stamp.read_text() == wanted:
        return BUILD
    shutil.rmtree(BUILD, ignore_errors=True)
    shutil.copytree(SOURCE, BUILD / "engine", ignore=shutil.ignore_patterns("__pycache__"))
    modules = sorted(str(p.relative_to(BUILD)) for p in (BUILD / "engine").rglob("*.py") if p.name not in INTERPRETED
                     or p.parent.name in ("characters", "functions"))
    print(f"compiling {len(modules)} engine modules with mypyc (a few minutes)…", file=sys.stderr, flush=True)
    subprocess.run([sys.executable, "-m", "mypyc", *modules], cwd=BUILD, check=True, stdout=subprocess.DEVNULL)
    stamp.write_text(wanted)
    return BUILD


def environment() -> dict[str, str]:
    """The environment of a process that imports the compiled engine (ahead of the installed one)."""
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(build_dir()), str(ROOT)])}


def check() -> int:
    """The golden games (the same seeded games as the interpreted engine) and the copy tests, with
    the compiled engine: `-P` and `--import-mode=append` keep the source tree behind the build."""
    env = environment()
    where = subprocess.run([sys.executable, "-P", "-c", "import engine.game; print(engine.game.__file__)"], env=env,
                           cwd=ROOT, check=True, capture_output=True, text=True).stdout.strip()
    print(f"engine.game: {where}")
    if not where.endswith(".so"):
        print("the compiled engine is not the one imported", file=sys.stderr)
        return 1
    return subprocess.run([sys.executable, "-P", "-m", "pytest", "-q", "-p", "no:randomly", "-p", "no:cacheprovider",
                           "--import-mode=append", "tests/test_golden_games.py", "tests/test_copy.py"],
                          env=env, cwd=ROOT, check=False).returncode


if __name__ == "__main__":
    if "--check" in sys.argv[1:]:
        raise SystemExit(check())
    print(build_dir())
