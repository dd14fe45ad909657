"""Compile the engine with mypyc into the user's cache, verify it, and only then mark it usable.

The build is made in a dot folder beside its final place (`loader.cache_dir()`): a copy of the
engine source with the compiled modules beside it (a compiled module in the source tree would
shadow every later edit of its source). mypyc's C files and caches are deleted; then the build
plays the verification games (`check.py`) in a child process while the interpreted engine plays
them in another, and only when every fingerprint is the same is its manifest written (every file
with its size and hash) and the folder renamed to its key. So a build the loader finds under its
key was verified, and an interrupted one is never found.

What is compiled is what a game and a search run on every decision: the rules, the views and the
worlds (a hard rollout costs 1.25-1.5x less CPU with views and worlds compiled; the rules alone
did not raise the rollouts hard reaches in its second). Invariants, scenarios and self-play stay interpreted: they are checks and test
drivers, and `copy.deepcopy` of a compiled Game fails (its `__new__` wants the constructor's
arguments), which only tests use. It needs mypyc (it comes with mypy), a C compiler and the Python headers; without them
`missing_tools` says what to install and nothing is tried.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import time
from collections.abc import Callable
from pathlib import Path

from fengsheng_tui.compiled import loader

INTERPRETED = {"__init__.py", "invariants.py", "scenario.py", "selfplay.py"}
#: Packages whose `__init__.py` is compiled too (the registries of cards and characters).
COMPILED_PACKAGES = ("characters", "functions")


class CannotBuild(Exception):
    """The build was refused or failed: one message saying what to do."""


def missing_tools() -> list[str]:
    """What this machine lacks to compile the engine (nothing: it can)."""
    problems = []
    if importlib.util.find_spec("mypyc") is None:
        problems.append("mypyc is not installed (it comes with mypy: pip install 'fengsheng[compile]' or pip install mypy)")
    if sys.version_info >= (3, 12) and importlib.util.find_spec("setuptools") is None:
        problems.append("setuptools is not installed (mypyc builds with it: pip install setuptools)")
    compiler = shlex.split(os.environ.get("CC") or str(sysconfig.get_config_var("CC") or "gcc"))[:1] or ["gcc"]
    if shutil.which(compiler[0]) is None:
        problems.append(f"no C compiler ({compiler[0]} is not on the PATH: apt-get install gcc)")
    include = Path(sysconfig.get_paths()["include"])
    if not (include / "Python.h").is_file():
        problems.append(f"no Python headers ({include}/Python.h is missing: apt-get install python3-dev)")
    return problems


def default_modules(engine: Path) -> list[str]:
    """The source files (relative to the build folder) mypyc compiles by default."""
    return sorted(p.relative_to(engine.parent).as_posix() for p in engine.rglob("*.py")
                  if "__pycache__" not in p.parts and (p.name not in INTERPRETED or p.parent.name in COMPILED_PACKAGES))


def build(source: Path | None, modules: list[str] | None = None, checks: str = "full",
          say: Callable[[str], None] = print) -> Path:
    """Build, verify and install the compiled engine of the engine package `source` (the one the
    loader matches builds with: `loader.Choice.source`); returns its folder. `modules` (paths like
    `engine/config.py`) compiles only those, for a quick test; `checks` names the verification set
    (`check.SETS`). Raises `CannotBuild`."""
    if source is None:
        raise CannotBuild("no engine source found to compile")
    problems = missing_tools()
    if problems:
        raise CannotBuild("cannot compile the engine here: " + "; ".join(problems))
    key = loader.build_key(source)
    final = loader.cache_dir() / key
    work = loader.cache_dir() / f".{key}.{os.getpid()}"
    started = time.monotonic()
    shutil.rmtree(work, ignore_errors=True)
    try:
        shutil.copytree(source, work / "engine", ignore=shutil.ignore_patterns("__pycache__"))
        modules = modules or default_modules(work / "engine")
        say(f"compiling {len(modules)} engine modules with mypyc into {final} (1-3 minutes on an idle machine)...")
        _compile(work, modules)
        say("verifying: the same games on the compiled and the interpreted engine...")
        games = verify(work, source, checks)
        manifest = {
            "format": loader.FORMAT, "key": key, "python": sys.version, "abi": loader.abi(),
            "source": str(source), "mypy": _mypy_version(), "built": time.strftime("%Y-%m-%d %H:%M:%S %z"),
            "seconds": round(time.monotonic() - started, 1),
            "modules": [m.removesuffix(".py").removesuffix("/__init__").replace("/", ".") for m in modules],
            "support": sorted(p.name.split(".")[0] for p in work.glob(f"*{loader.extension_suffix()}")),
            "files": _files(work), "verified": {"set": checks, "games": games},
        }
        (work / loader.MANIFEST).write_text(json.dumps(manifest, indent=1), encoding="utf-8")
        if final.exists():
            shutil.rmtree(final)
        os.replace(work, final)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    say(f"built and verified in {time.monotonic() - started:.0f} s: {final}")
    return final


def _compile(work: Path, modules: list[str]) -> None:
    log = work / "build.log"
    with log.open("wb") as out:
        proc = subprocess.run([sys.executable, "-m", "mypyc", *modules], cwd=work, stdout=out,
                              stderr=subprocess.STDOUT, check=False)
    if proc.returncode != 0:
        tail = log.read_text(encoding="utf-8", errors="replace").strip().splitlines()[-12:]
        raise CannotBuild("mypyc failed:\n" + "\n".join(tail))
    for scratch in ("build", ".mypy_cache", "build.log"):
        path = work / scratch
        shutil.rmtree(path, ignore_errors=True) if path.is_dir() else path.unlink(missing_ok=True)


def verify(build: Path, source: Path, checks: str = "full") -> int:
    """Play the verification games on the build and on the interpreted `source` (two child
    processes at once); the number of games, or `CannotBuild` naming the first that differs."""
    command = [sys.executable, "-P", "-m", "fengsheng_tui.compiled.check", "--set", checks]
    env = {**os.environ, loader.ENV: "interpreted"}
    runs = [subprocess.Popen([*command, "--build", str(build)], env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True),
            subprocess.Popen([*command, "--source", str(source)], env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)]
    results = []
    for run, which in zip(runs, ("compiled", "interpreted"), strict=True):
        out, err = run.communicate()
        if run.returncode != 0:
            for other in runs:
                other.kill()
                other.wait()
            lines = err.strip().splitlines()[-8:]
            raise CannotBuild(f"the verification games failed on the {which} engine:\n" + "\n".join(lines))
        results.append(json.loads(out))
    compiled, interpreted = results
    if len(compiled) != len(interpreted):
        raise CannotBuild("the verification games are incomplete")
    for mine, reference in zip(compiled, interpreted, strict=True):
        if mine != reference:
            raise CannotBuild(f"the compiled engine played a game differently: {mine[:4]} "
                              f"(interpreted {reference[4:]}, compiled {mine[4:]})")
    return len(compiled)


def _files(build: Path) -> dict[str, list]:
    files = {}
    for path in sorted(build.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.name != loader.MANIFEST:
            data = path.read_bytes()
            files[path.relative_to(build).as_posix()] = [len(data), hashlib.sha256(data).hexdigest()]
    return files


def _mypy_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("mypy")
    except PackageNotFoundError:
        return "unknown"


def remove_builds(keep: str | None = None) -> list[Path]:
    """Delete every build in the cache but `keep` (a key), unfinished ones included."""
    removed = []
    try:
        entries = list(loader.cache_dir().iterdir())
    except OSError:
        return []
    for path in entries:
        if path.is_dir() and path.name != keep:
            shutil.rmtree(path, ignore_errors=True)
            removed.append(path)
    return removed
