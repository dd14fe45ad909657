"""Which engine this process runs: a verified mypyc build of the engine's own source, from the
user's cache, when there is one; else the interpreted source.

`activate()` runs before anything imports `engine` (the `fengsheng` command and the doors' child
processes call it first). A build is used only under its key: a hash of every file of the engine
source this process would import, of the Python version and ABI, and of the build format. So an
upgraded game, an edited checkout or another Python never load a build of something else: they
find nothing under their key and run interpreted. A build whose manifest is missing or unreadable
(an unfinished build never has one: `build.py` writes it last, after the verification), whose
files are not the size it verified, or that fails to import, is damaged: the process runs the
interpreted engine without a word, and `fengsheng engine status` and `fengsheng --version` say
why. Every compiled module is imported at the choice, so a damaged build fails here, never
halfway through a game.

`FENGSHENG_ENGINE=interpreted` never loads a build (A/B benchmarks, debugging the source).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import sys
import sysconfig
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from fengsheng_tui.paths import APP, DamagedFile, load_json

#: Changes when what a build holds or how it is keyed changes: every older build is then stale.
FORMAT = 1
ENV = "FENGSHENG_ENGINE"
MANIFEST = "manifest.json"


class Damaged(Exception):
    """A build that cannot be used: the reason, in words a user can act on."""


@dataclass(frozen=True)
class Choice:
    """The engine this process runs, and why (one line)."""

    compiled: bool
    reason: str
    #: The build in use, or the damaged one that was ignored.
    build: Path | None = None
    damaged: bool = False
    #: The interpreted engine's package (what a build is made from and keyed by).
    source: Path | None = None

    def summary(self) -> str:
        return f"{'compiled' if self.compiled else 'interpreted'} engine ({self.reason})"


_choice: Choice | None = None


def activate() -> Choice:
    """Choose this process's engine, once: the compiled build of this source if a verified one
    is usable, else the interpreted engine. Never raises for a bad build."""
    global _choice
    if _choice is None:
        _choice = _choose()
    return _choice


def current() -> Choice:
    """The choice made by `activate` (made now if no entry point called it)."""
    return activate()


def cache_dir() -> Path:
    """Where builds live: one folder per key in the user's cache (`~/.cache/fengsheng/engine`)."""
    return Path(platformdirs.user_cache_dir(APP, appauthor=False)) / "engine"


def abi() -> str:
    """The interpreter's extension ABI (`cpython-311-x86_64-linux-gnu`): a build is for it alone."""
    suffix = str(sysconfig.get_config_var("EXT_SUFFIX") or ".so")
    return suffix.lstrip(".").rsplit(".", 1)[0] or sys.implementation.cache_tag


def extension_suffix() -> str:
    return str(sysconfig.get_config_var("EXT_SUFFIX") or ".so")


def source_dir() -> Path | None:
    """The interpreted engine package this process would import (found, not imported)."""
    spec = importlib.util.find_spec("engine")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def source_files(source: Path) -> list[Path]:
    return sorted(p for p in source.rglob("*") if p.is_file() and "__pycache__" not in p.relative_to(source).parts)


def build_key(source: Path) -> str:
    """The name of the build of this source for this interpreter: ABI, then a hash of the build
    format, the full Python version and every source file (its path and its bytes)."""
    digest = hashlib.sha256(f"fengsheng-engine/{FORMAT}/{sys.version}/{abi()}\n".encode())
    for path in source_files(source):
        digest.update(path.relative_to(source).as_posix().encode())
        digest.update(b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return f"{abi()}-{digest.hexdigest()[:24]}"


def builds() -> list[Path]:
    """Every finished-looking build in the cache (an unfinished one is a dot folder)."""
    try:
        return sorted(p for p in cache_dir().iterdir() if p.is_dir() and not p.name.startswith("."))
    except OSError:
        return []


def read_manifest(build: Path) -> dict:
    """A build's manifest, checked for shape and for being this build's; `Damaged` if not."""
    try:
        data = load_json(build / MANIFEST)
    except FileNotFoundError:
        raise Damaged("it has no manifest (unfinished, or not verified)") from None
    except (OSError, DamagedFile) as exc:
        raise Damaged(f"its manifest cannot be read ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("key") != build.name:
        raise Damaged("its manifest is not this build's")
    files, modules, support = data.get("files"), data.get("modules"), data.get("support")
    if not (isinstance(files, dict) and isinstance(modules, list) and isinstance(support, list)
            and all(isinstance(m, str) and (m == "engine" or m.startswith("engine.")) for m in modules)
            and all(isinstance(s, str) for s in support)
            and all(isinstance(f, str) and _inside(f) and isinstance(v, list) and len(v) == 2
                    and isinstance(v[0], int) and isinstance(v[1], str) for f, v in files.items())):
        raise Damaged("its manifest is not one a build wrote")
    return data


def check_files(build: Path, files: dict[str, list], deep: bool = False) -> None:
    """Every file the verification saw is there at its size (and, `deep`, with its bytes)."""
    for name, (size, digest) in files.items():
        path = build / name
        try:
            if path.stat().st_size != size:
                raise Damaged(f"{name} is not the file that was verified")
            if deep and hashlib.sha256(path.read_bytes()).hexdigest() != digest:
                raise Damaged(f"{name} changed since it was verified")
        except OSError:
            raise Damaged(f"{name} is missing") from None


def _inside(name: str) -> bool:
    parts = Path(name).parts
    return bool(parts) and not Path(name).is_absolute() and ".." not in parts


def _choose() -> Choice:
    if "engine" in sys.modules:
        game = sys.modules.get("engine.game")
        compiled = str(getattr(game, "__file__", "")).endswith(extension_suffix())
        here = None if compiled else Path(str(sys.modules["engine"].__file__)).parent
        return Choice(compiled, "the engine was imported before the choice", source=here)
    source = source_dir()
    if os.environ.get(ENV) == "interpreted":
        return Choice(False, f"{ENV}=interpreted", source=source)
    if source is None:
        return Choice(False, "no engine source to match a build with")
    try:
        key = build_key(source)
    except OSError as exc:
        return Choice(False, f"the engine source cannot be read to match a build ({exc})", source=source)
    build = cache_dir() / key
    if not build.is_dir():
        return Choice(False, no_build_reason(key), source=source)
    try:
        manifest = read_manifest(build)
        check_files(build, manifest["files"])
        _import(build, manifest["modules"], manifest["support"])
    except Damaged as exc:
        return Choice(False, f"the compiled build was ignored: {exc}", build, damaged=True, source=source)
    return Choice(True, "a verified build of this engine source", build, source=source)


def no_build_reason(key: str) -> str:
    others = [b for b in builds() if b.name != key]
    hint = "`fengsheng engine build` makes one"
    if others:
        return f"no compiled build of this engine source ({len(others)} for other sources or Pythons ignored); {hint}"
    return f"no compiled build; {hint}"


def _import(build: Path, modules: list[str], support: list[str]) -> None:
    """Import every compiled module from the build, ahead of the source; on any failure, forget
    all of it, so that the interpreted engine is imported as if nothing had been tried."""
    entry = str(build)
    sys.path.insert(0, entry)
    name = "engine"
    try:
        for name in modules:
            module = importlib.import_module(name)
            where = Path(str(getattr(module, "__file__", "")))
            if not (where.name.endswith(extension_suffix()) and where.is_relative_to(build)):
                raise Damaged(f"{name} was not imported from the build ({where})")
    except Exception as exc:  # a bad shared object raises ImportError, OSError, SystemError...
        while entry in sys.path:
            sys.path.remove(entry)
        for loaded in list(sys.modules):
            if loaded == "engine" or loaded.startswith("engine.") or loaded in support:
                del sys.modules[loaded]
        importlib.invalidate_caches()
        if isinstance(exc, Damaged):
            raise
        raise Damaged(f"importing {name} failed ({type(exc).__name__}: {exc})") from None
