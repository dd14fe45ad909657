"""The optional compiled engine (fengsheng_tui/compiled): which engine a `fengsheng` process runs.

One real mypyc build of a small part of the engine (engine/config.py and engine/prompts.py, a
few seconds) is made into a temporary cache and verified (its games include the engine's refusals,
whose `code` a compiled exception class lost before it became a ClassVar); each test then gives a fresh process its own copy of that cache,
as it is or damaged, and reads what the process imported and what it says.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from fengsheng_tui.compiled import loader
from fengsheng_tui.compiled.build import CannotBuild, build, missing_tools, verify

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "engine"
SUFFIX = loader.extension_suffix()
# What a fresh process imported: the compiled module, an interpreted one, and the choice.
PROBE = ("import json; from fengsheng_tui.compiled.loader import activate; c = activate(); "
         "import engine.config, engine.game; "
         "print(json.dumps([engine.config.__file__, engine.game.__file__, c.compiled, c.reason]))")


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cache holding a verified build of this engine source with config.py and prompts.py compiled."""
    if missing_tools():
        pytest.skip("cannot compile here: " + "; ".join(missing_tools()))
    cache = tmp_path_factory.mktemp("built")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(cache))
        folder = build(SOURCE, modules=["engine/config.py", "engine/prompts.py"], checks="quick", say=lambda line: None)
    assert folder == cache / "fengsheng" / "engine" / loader.build_key(SOURCE)
    return cache


def env_for(cache: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != loader.ENV}
    return {**env, "XDG_CACHE_HOME": str(cache), **extra}


def probe(cache: Path, **extra: str) -> tuple[str, str, bool, str]:
    out = subprocess.run([sys.executable, "-c", PROBE], env=env_for(cache, **extra), cwd=ROOT, check=True,
                         capture_output=True, text=True, timeout=60).stdout
    config, game, compiled, reason = json.loads(out)
    return config, game, compiled, reason


def fengsheng(cache: Path, *argv: str, **extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "fengsheng_tui.cli", *argv], env=env_for(cache, **extra), cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def copy_of(built: Path, tmp_path: Path) -> tuple[Path, Path]:
    """A private copy of the built cache, and its build folder."""
    cache = tmp_path / "cache"
    shutil.copytree(built, cache)
    return cache, cache / "fengsheng" / "engine" / loader.build_key(SOURCE)


def sim(cache: Path, **extra: str) -> dict:
    proc = fengsheng(cache, "sim", "--games", "3", "--players", "5", "--characters", "--level", "normal",
                     "--quiet", "--json", **extra)
    assert proc.returncode == 0, proc.stderr
    return {k: v for k, v in json.loads(proc.stdout).items() if k not in ("seconds", "games_per_second")}


def test_a_verified_build_of_this_source_is_the_engine_that_runs(built: Path, tmp_path: Path) -> None:
    cache, folder = copy_of(built, tmp_path)
    config, game, compiled, reason = probe(cache)
    assert compiled and reason == "a verified build of this engine source"
    assert config.endswith(SUFFIX) and Path(config).is_relative_to(folder)
    # What was not compiled comes from the build's copy of the same source.
    assert Path(game).is_relative_to(folder) and game.endswith(".py")
    # A refusal keeps its code compiled (the server sends it back as a typed error).
    code = ("from fengsheng_tui.compiled.loader import activate; activate(); import engine.prompts as p; "
            "print(p.__file__.endswith('.py'), p.IllegalOption('x').code, p.NoPrompt.code)")
    out = subprocess.run([sys.executable, "-c", code], env=env_for(cache), cwd=ROOT, check=True, capture_output=True,
                         text=True, timeout=60).stdout.split()
    assert out == ["False", "illegal_option", "not_prompted"]
    status = fengsheng(cache, "engine", "status")
    assert status.returncode == 0
    assert status.stdout.startswith("compiled engine (a verified build of this engine source)")
    assert f"build: {folder}" in status.stdout and "2 modules compiled" in status.stdout
    assert "files: the ones that were verified" in status.stdout
    assert fengsheng(cache, "--version").stdout.splitlines()[1].startswith("compiled engine")
    # The same games as the interpreted engine.
    assert sim(cache) == sim(cache, FENGSHENG_ENGINE="interpreted")


def test_no_build_runs_the_interpreted_engine_and_says_how_to_get_one(tmp_path: Path) -> None:
    config, game, compiled, reason = probe(tmp_path)
    assert not compiled and Path(config) == SOURCE / "config.py" and Path(game) == SOURCE / "game.py"
    assert reason == "no compiled build; `fengsheng engine build` makes one"
    status = fengsheng(tmp_path, "engine")
    assert status.stdout.startswith("interpreted engine (no compiled build;")


def test_a_build_of_another_source_is_ignored(built: Path, tmp_path: Path) -> None:
    cache, folder = copy_of(built, tmp_path)
    stale = folder.with_name(folder.name[:-4] + "0000")
    folder.rename(stale)  # as after an edit of the source, an upgrade or another Python
    config, _, compiled, reason = probe(cache)
    assert not compiled and Path(config) == SOURCE / "config.py"
    assert "no compiled build of this engine source (1 for other sources or Pythons ignored)" in reason
    assert "`fengsheng engine clean` removes them" in fengsheng(cache, "engine", "status").stdout
    assert fengsheng(cache, "engine", "clean").returncode == 0
    assert not stale.exists()


def damage_truncated(folder: Path) -> None:
    so = next(folder.glob(f"engine/config{SUFFIX}"))
    so.write_bytes(so.read_bytes()[:1000])


def damage_same_size(folder: Path) -> None:
    so = next(folder.glob(f"engine/config{SUFFIX}"))
    so.write_bytes(b"\0" * so.stat().st_size)


def damage_manifest(folder: Path) -> None:
    (folder / loader.MANIFEST).write_text("{not json", encoding="utf-8")


def damage_no_manifest(folder: Path) -> None:
    (folder / loader.MANIFEST).unlink()


def damage_copied_manifest(folder: Path) -> None:
    manifest = json.loads((folder / loader.MANIFEST).read_text(encoding="utf-8"))
    (folder / loader.MANIFEST).write_text(json.dumps({**manifest, "key": "another"}), encoding="utf-8")


@pytest.mark.parametrize(("damage", "said"), [
    (damage_truncated, f"engine/config{SUFFIX} is not the file that was verified"),
    (damage_same_size, "importing engine.config failed (ImportError"),
    (damage_manifest, "its manifest cannot be read (not valid JSON"),
    (damage_no_manifest, "it has no manifest (unfinished, or not verified)"),
    (damage_copied_manifest, "its manifest is not this build's"),
], ids=["truncated", "garbage", "bad manifest", "no manifest", "another build's manifest"])
def test_a_damaged_build_is_ignored_and_said_once(built: Path, tmp_path: Path, damage, said: str) -> None:  # noqa: ANN001
    cache, folder = copy_of(built, tmp_path)
    damage(folder)
    config, game, compiled, reason = probe(cache)
    assert not compiled and Path(config) == SOURCE / "config.py" and Path(game) == SOURCE / "game.py"
    assert reason.startswith("the compiled build was ignored: ") and said in reason
    version = fengsheng(cache, "--version")
    assert version.returncode == 0 and "Traceback" not in version.stderr
    assert said in version.stdout.splitlines()[1]
    status = fengsheng(cache, "engine", "status").stdout
    assert said in status and "`fengsheng engine build --force` builds it again" in status
    sim(cache)  # and the game plays, interpreted, saying nothing


def test_the_environment_can_ask_for_the_interpreted_engine(built: Path, tmp_path: Path) -> None:
    cache, _ = copy_of(built, tmp_path)
    config, _, compiled, reason = probe(cache, FENGSHENG_ENGINE="interpreted")
    assert not compiled and Path(config) == SOURCE / "config.py" and reason == "FENGSHENG_ENGINE=interpreted"


def test_a_build_that_plays_differently_is_never_marked_usable(tmp_path: Path) -> None:
    """The verification compares whole games: a build whose engine draws one card too many is refused."""
    folder = tmp_path / "build"
    shutil.copytree(SOURCE, folder / "engine", ignore=shutil.ignore_patterns("__pycache__"))
    assert verify(folder, SOURCE, "quick") == 2  # the same source plays the same games
    game = folder / "engine" / "game.py"
    draw = "    def draw(self, seat: int, n: int) -> None:\n"
    assert draw in game.read_text(encoding="utf-8")
    game.write_text(game.read_text(encoding="utf-8").replace(draw, draw + "        n += 1\n"), encoding="utf-8")
    with pytest.raises(CannotBuild, match="played a game differently|verification games failed"):
        verify(folder, SOURCE, "quick")


def test_without_a_c_compiler_the_build_is_refused_in_one_line(tmp_path: Path) -> None:
    env = {k: v for k, v in env_for(tmp_path).items() if k != "CC"}
    proc = subprocess.run([sys.executable, "-m", "fengsheng_tui.cli", "engine", "build"], cwd=ROOT, text=True,
                          env={**env, "PATH": str(tmp_path)}, capture_output=True, timeout=60)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert proc.stderr.strip().count("\n") == 0
    assert "no C compiler (" in proc.stderr and "apt-get install gcc" in proc.stderr
    assert not (tmp_path / "fengsheng").exists()
