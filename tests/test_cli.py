"""The `fengsheng` command as a user meets it: flags refused in one line, --version, where files go,
pruning of old records, and progress that never mixes into a script's stdout."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from fengsheng_tui import paths
from fengsheng_tui.cli import main

BAD_FLAGS = [
    (["host", "--players", "20"], "--players", "3 to 9"),
    (["host", "--players", "two"], "--players", "whole number"),
    (["host", "--port", "99999"], "--port", "1 to 65535"),
    (["host", "--port", "-1"], "--port", "1 to 65535"),
    (["host", "--bots", "12"], "--bots", "0 to 9"),
    (["host", "--bot-delay", "-3"], "--bot-delay", "0 to 3600"),
    (["host", "--deck", "tarot"], "--deck", "resolved, fixed_method_by_function"),
    (["host", "--character-choices", "5"], "--character-choices", "choose from 2, 3"),
    (["play", "--players", "12"], "--players", "3 to 9"),
    (["play", "--bots", "genius"], "--bots", "random, basic, normal"),
    (["play", "--bot-delay", "soon"], "--bot-delay", "seconds"),
    (["play", "--lang", "fr"], "--lang", "'zh', 'en'"),
    (["bot", "--connect", "x:1", "--count", "0"], "--count", "1 to 9"),
    (["bot", "--connect", "x:1", "--level", "genius"], "--level", "random, basic, normal"),
    (["bot", "--connect", "x:1", "--delay", "-1"], "--delay", "0 to 3600"),
    (["sim", "--games", "0"], "--games", "1 to 1000000"),
    (["sim", "--players", "1"], "--players", "3 to 9"),
    (["sim", "--level", "genius"], "--level", "random, basic, normal"),
    (["sim", "--seats", "normal,cheater,basic"], "--seats", "cheater"),
    (["sim", "--seats", "normal,basic"], "--seats", "2 players"),
]


@pytest.mark.parametrize(("argv", "flag", "allowed"), BAD_FLAGS, ids=[" ".join(a[0:1] + a[-2:]) for a, _, _ in BAD_FLAGS])
def test_a_bad_flag_is_one_line_naming_the_flag_and_the_values(
    argv: list[str], flag: str, allowed: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"fengsheng {argv[0]}: ") and flag in lines[0] and allowed in lines[0]
    assert "Traceback" not in err


def test_the_installed_command_refuses_a_bad_flag_with_exit_2_and_no_traceback() -> None:
    proc = subprocess.run([sys.executable, "-m", "fengsheng_tui.cli", "host", "--port", "99999"],
                          capture_output=True, text=True, timeout=30)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "--port" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.parametrize(("argv", "allowed"), [
    (["--identities", "foo"], "choose one of default, novice"),
    (["--players", "5", "--no-characters"], "without characters choose a configuration with no neutrals"),
])
def test_a_table_the_rules_do_not_allow_is_refused_with_exit_2(argv: list[str], allowed: str) -> None:
    proc = subprocess.run([sys.executable, "-m", "fengsheng_tui.cli", "host", "--port", "0", "--no-advertise", *argv],
                          capture_output=True, text=True, timeout=30)
    assert proc.returncode == 2 and allowed in proc.stderr and "Traceback" not in proc.stderr


def test_version_comes_from_the_package_metadata_and_names_the_engine(capsys: pytest.CaptureFixture[str]) -> None:
    from importlib.metadata import version

    assert main(["--version"]) == 0
    first, engine = capsys.readouterr().out.strip().splitlines()
    assert first == f"fengsheng {version('fengsheng')}"
    # Tests run the source (tests/conftest.py); tests/test_compiled_engine.py checks the other choices.
    assert engine.startswith("interpreted engine (")


def test_every_file_lives_under_the_xdg_folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from fengsheng_tui.commands.host import default_data_dir
    from fengsheng_tui.keys import config_path
    from fengsheng_tui.preferences import settings_path
    from fengsheng_tui.recent import recent_path
    from fengsheng_tui.seat_tokens import tokens_path

    monkeypatch.delenv("FENGSHENG_CONFIG", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    config = tmp_path / "cfg" / "fengsheng"
    assert [config_path(), settings_path(), recent_path(), tokens_path()] == [
        config / "keys.toml", config / "settings.json", config / "recent.json", config / "seats.json"]
    assert default_data_dir() == tmp_path / "data" / "fengsheng" / "tables"
    # Without XDG variables the folders follow HOME.
    monkeypatch.delenv("XDG_CONFIG_HOME")
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert settings_path() == tmp_path / "home" / ".config" / "fengsheng" / "settings.json"
    assert paths.tables_dir() == tmp_path / "home" / ".local" / "share" / "fengsheng" / "tables"
    # FENGSHENG_CONFIG moves the whole config folder with the keys file.
    monkeypatch.setenv("FENGSHENG_CONFIG", str(tmp_path / "mine" / "keys.toml"))
    assert config_path() == tmp_path / "mine" / "keys.toml"
    assert tokens_path() == settings_path().parent / "seats.json" == tmp_path / "mine" / "seats.json"


def test_private_dir_is_closed_to_others(tmp_path: Path) -> None:
    folder = paths.private_dir(tmp_path / "a" / "b")
    assert folder.is_dir() and (folder.stat().st_mode & 0o777) == 0o700


def test_prune_keeps_the_newest_games_whole(tmp_path: Path) -> None:
    now = time.time()
    for k in range(5):
        for suffix in (".journal", ".record", ".seat0.replay", ".public.replay"):
            f = tmp_path / f"Friday-2026120{k}-00042{suffix}"
            f.write_text("x")
            os.utime(f, (now - 100 + k, now - 100 + k))
    (tmp_path / "notes.txt").write_text("mine")
    resumed = tmp_path / "Friday-20261200-00042.journal"
    removed = paths.prune_games(tmp_path, keep=2, spare=resumed)
    assert sorted({p.name.split(".")[0] for p in removed}) == ["Friday-20261201-00042", "Friday-20261202-00042"]
    left = sorted({p.name.split(".")[0] for p in tmp_path.iterdir() if p.suffix != ".txt"})
    assert left == ["Friday-20261200-00042", "Friday-20261203-00042", "Friday-20261204-00042"]
    assert len(list(tmp_path.glob("Friday-20261204-00042.*"))) == 4  # a kept game keeps every file
    assert (tmp_path / "notes.txt").exists()
    assert paths.prune_games(tmp_path / "missing", keep=1) == []
    with pytest.raises(ValueError):
        paths.prune_games(tmp_path, keep=-1)


def test_sim_progress_goes_to_stderr_and_json_stdout_is_unchanged() -> None:
    cmd = [sys.executable, "-m", "fengsheng_tui.cli", "sim", "--games", "6", "--seed", "3", "--json"]
    loud = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    quiet = subprocess.run([*cmd, "--quiet"], capture_output=True, text=True, timeout=120)
    assert loud.returncode == quiet.returncode == 0
    assert "6/6" in loud.stderr and quiet.stderr == ""
    a, b = json.loads(loud.stdout), json.loads(quiet.stdout)
    for summary in (a, b):
        summary.pop("seconds"), summary.pop("games_per_second")
    assert a == b and a["games"] == 6


def test_host_makes_its_tables_folder_private_and_prunes_old_games(tmp_path: Path) -> None:
    data = tmp_path / "tables"
    data.mkdir(mode=0o755)
    for k in range(3):
        for suffix in (".journal", ".seat0.replay"):
            f = data / f"old-{k}{suffix}"
            f.write_text("x")
            os.utime(f, (1_000_000 + k, 1_000_000 + k))
    proc = subprocess.Popen(
        [sys.executable, "-m", "fengsheng_tui.cli", "host", "--port", "0", "--no-advertise",
         "--data-dir", str(data), "--keep-games", "1"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        assert proc.stdout is not None
        lines = [proc.stdout.readline() for _ in range(3)]
        assert any("on port" in line for line in lines), lines
        assert sorted(p.name for p in data.iterdir()) == ["old-2.journal", "old-2.seat0.replay"]
        assert (data.stat().st_mode & 0o777) == 0o700
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.mark.parametrize(("words", "expected"), [(["ho"], "host"), (["host", "--pl"], "--players"),
                                                 (["play", "--bo"], "--bots"), (["completion", ""], "zsh"),
                                                 (["eng"], "engine"), (["engine", "bu"], "build"),
                                                 (["engine", "build", "--f"], "--force")])
def test_bash_completion_completes_subcommands_and_flags(tmp_path: Path, words: list[str], expected: str) -> None:
    script = tmp_path / "fengsheng.bash"
    proc = subprocess.run([sys.executable, "-m", "fengsheng_tui.cli", "completion", "bash"],
                          capture_output=True, text=True, timeout=30)
    assert proc.returncode == 0
    script.write_text(proc.stdout)
    line = " ".join(["fengsheng", *words])
    shell = (f'source {script}; COMP_WORDS=(fengsheng {" ".join(repr(w) for w in words)}); '
             f'COMP_CWORD={len(words)}; COMP_LINE="{line}"; COMP_POINT={len(line)}; '
             '_shtab_fengsheng; printf "%s\\n" "${COMPREPLY[@]}"')
    out = subprocess.run(["bash", "-c", shell], capture_output=True, text=True, timeout=30).stdout.split()
    assert expected in out


def test_zsh_completion_names_every_subcommand() -> None:
    from fengsheng_tui.cli import SUBCOMMANDS

    proc = subprocess.run([sys.executable, "-m", "fengsheng_tui.cli", "completion", "zsh"],
                          capture_output=True, text=True, timeout=30)
    assert proc.returncode == 0 and proc.stdout.startswith("#compdef fengsheng")
    assert all(f"    {name}:'" in proc.stdout for name in SUBCOMMANDS)


def test_a_closed_pipe_is_not_a_traceback() -> None:
    proc = subprocess.run(f"{sys.executable} -m fengsheng_tui.cli completion bash | head -1",
                          shell=True, capture_output=True, text=True, timeout=30)
    assert proc.stdout.startswith("#") and "Traceback" not in proc.stderr


def test_every_package_the_game_imports_is_a_declared_dependency() -> None:
    """A dependency that only arrives through another one (ifaddr through zeroconf) breaks the day
    that one stops bringing it."""
    import ast
    import re
    import tomllib
    from importlib.metadata import packages_distributions

    root = Path(__file__).resolve().parents[1]
    own = {"engine", "net", "bots", "fengsheng_tui"}
    imported: set[str] = set()
    for package in own:
        for path in (root / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    imported.update(alias.name.split(".")[0] for alias in node.names)
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    imported.add(node.module.split(".")[0])
    third_party = imported - own - set(sys.stdlib_module_names)
    declared = {re.split(r"[<>=!~ \[;]", dep)[0].lower().replace("_", "-")
                for dep in tomllib.loads((root / "pyproject.toml").read_text())["project"]["dependencies"]}
    dists = packages_distributions()
    missing = {name: dists.get(name) for name in third_party
               if not any(d.lower().replace("_", "-") in declared for d in dists.get(name, [name]))}
    assert not missing, f"imported but not declared in pyproject.toml: {missing}"


def test_the_hard_level_is_a_level_everywhere_and_thinks_as_long_as_told() -> None:
    """`sim --seats` plays hard (here for 10 ms a decision); `play --bots`, `bot --level` and
    `sim --level` accept it like any other level."""
    from fengsheng_tui.commands import bot, play, sim

    cmd = [sys.executable, "-m", "fengsheng_tui.cli", "sim", "--seats", "hard,normal,hard,normal", "--games", "1",
           "--think", "0.01", "--json", "--quiet"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["games"] == 1 and "hard" in json.dumps(summary)
    for module, argv in ((play, ["--bots", "hard"]), (bot, ["--connect", "x:1", "--level", "hard", "--think", "0.5"]),
                         (sim, ["--level", "hard"])):
        import argparse

        parser = argparse.ArgumentParser()
        module.add_arguments(parser)
        parsed = parser.parse_args(argv)
        assert "hard" in (getattr(parsed, "bots", None), getattr(parsed, "level", None))
