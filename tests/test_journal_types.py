"""Journals whose records are whole (their checksums hold) but not of the types this version writes
(a hand-edited file, another program's, a bug): `fengsheng host --resume` refuses each with one line
naming the file and what is wrong, exit 1, the file untouched. Before, a start record without its
config, with seats or timers of the wrong type, or a choice that is not [seat, prompt, option] ended
in a traceback (KeyError, TypeError, AttributeError) or a bare "invalid literal for int()"."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from net.journal import MAGIC, _pack

ROOT = Path(__file__).resolve().parent.parent
GOOD: dict[str, Any] = {
    "t": "start", "version": 5, "table": "t",
    "config": {"players": 4, "identities": "novice", "deck": "resolved", "characters": False,
               "character_choices": 3, "names": ["a", "b", "c", "d"]},
    "seed": 1, "host_token": "h", "password": None, "timers": {"play": 30.0},
    "seats": [{"name": n, "token": f"tok{n}", "bot": None, "remote_bot": False} for n in "abcd"],
}
CASES = {
    "no config": [{"t": "start"}],
    "config not a map": [{**GOOD, "config": "x"}],
    "players not a number": [{**GOOD, "config": {**GOOD["config"], "players": "4"}}],
    "seats not a list": [{**GOOD, "seats": 5}],
    "a seat token not text": [{**GOOD, "seats": [{**GOOD["seats"][0], "token": 7}, *GOOD["seats"][1:]]}],
    "timers not a map": [{**GOOD, "timers": "x"}],
    "seed not a number": [{**GOOD, "seed": "x"}],
    "choice not a triple": [GOOD, {"t": "choice", "c": "zzz"}],
    "choice without c": [GOOD, {"t": "choice"}],
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_journal_of_wrong_types_is_refused_in_one_line(tmp_path: Path, case: str) -> None:
    path = tmp_path / "t.journal"
    path.write_bytes(MAGIC + b"".join(_pack(record) for record in CASES[case]))
    before = path.read_bytes()
    result = subprocess.run(
        [sys.executable, "-m", "fengsheng_tui.cli", "host", "--port", "0", "--interface", "127.0.0.1",
         "--resume", str(path), "--data-dir", str(tmp_path)],
        capture_output=True, text=True, timeout=60, cwd=ROOT, stdin=subprocess.DEVNULL)
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    assert f"{path}: not a journal this version can resume" in result.stderr
    assert path.read_bytes() == before


@pytest.mark.parametrize("kind", ["fifo", "huge", "folder"])
def test_a_journal_that_is_no_file_of_ours_is_refused_in_one_line(tmp_path: Path, kind: str) -> None:
    """Before: `--resume` read the whole file first: a FIFO hung the host for good, a 100 MiB file
    was read whole into memory, a folder ended in a traceback (IsADirectoryError)."""
    import os

    path = tmp_path / "t.journal"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    else:
        with path.open("wb") as out:
            out.write(MAGIC)
            out.truncate(100 * 1024 * 1024)  # sparse: no disk used
    result = subprocess.run(
        [sys.executable, "-m", "fengsheng_tui.cli", "host", "--port", "0", "--interface", "127.0.0.1",
         "--resume", str(path), "--data-dir", str(tmp_path)],
        capture_output=True, text=True, timeout=60, cwd=ROOT, stdin=subprocess.DEVNULL)
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    assert str(path) in result.stderr and ("not a regular file" in result.stderr or "over 64 MiB" in result.stderr)
