"""The commands `fengsheng host` prints for the user to type run as printed.

README's quick start leaves the game in the checkout's `.venv` (not on the PATH) and runs it as
`.venv/bin/fengsheng`; the host's `join with: fengsheng join …` then said "command not found".
Real processes: the host is started the way README says (a relative `.venv/bin/fengsheng`, from
the checkout), with and without its folder on the PATH, and the printed line is run by `sh`.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

BIN = Path(sys.executable).parent
SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin"


def printed_join(tmp_path: Path, path: str) -> str:
    """Start the host with this PATH, return the `join with:` command it prints, stop it."""
    env = {**os.environ, "PATH": path, "XDG_DATA_HOME": str(tmp_path / "data")}
    out = tmp_path / "host.out"
    with out.open("w") as sink:
        host = subprocess.Popen(
            [os.path.relpath(BIN / "fengsheng", BIN.parent.parent), "host", "--no-advertise", "--interface",
             "127.0.0.1", "--port", "0"], cwd=BIN.parent.parent, env=env, stdout=sink, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 20
            while not (found := re.search(r"^join with: (.+)$", out.read_text(), re.M)):
                assert host.poll() is None and time.monotonic() < deadline, out.read_text()
                time.sleep(0.05)
            return found[1]
        finally:
            host.terminate()
            host.wait(timeout=10)


@pytest.mark.parametrize("on_path", [False, True])
def test_the_join_line_the_host_prints_runs_as_printed(tmp_path: Path, on_path: bool) -> None:
    if BIN.parent.name != ".venv":
        pytest.skip("the game is not installed in a checkout's .venv")
    path = f"{BIN}:{SYSTEM_PATH}" if on_path else SYSTEM_PATH
    command = printed_join(tmp_path, path)
    assert command.startswith("fengsheng join " if on_path else ".venv/bin/fengsheng join "), command
    ran = subprocess.run(["sh", "-c", f"{command} --help"], cwd=BIN.parent.parent, capture_output=True, text=True,
                         env={**os.environ, "PATH": path}, timeout=60)
    assert ran.returncode == 0 and "usage: fengsheng join" in ran.stdout, ran.stderr
