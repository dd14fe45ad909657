"""A real `fengsheng host --web` on loopback, and headless Chromium to open it.

The host runs in its own process group; teardown asks it to stop (it ends its guests' clients),
then kills the whole group, and checks that no guest client outlived it.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from .cdp import CHROMIUM

FENGSHENG = str(Path(sys.executable).with_name("fengsheng"))
ENV = {**os.environ, "TEXTUAL_ANIMATIONS": "none", "LANG": "C.UTF-8", "LC_MESSAGES": "zh_CN.UTF-8",
       "PYTHONUNBUFFERED": "1"}


def need_chromium() -> None:
    """CI installs Chromium (.ci/run): there a missing browser is a failure, elsewhere a skip."""
    if CHROMIUM is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is not installed (.ci/run installs it)")
        pytest.skip("chromium is not installed (apt-get install -y chromium fonts-wqy-zenhei)")


@dataclass
class Host:
    proc: subprocess.Popen[str]
    log_path: Path
    urls: list[str] = field(default_factory=list)

    @property
    def url(self) -> str:
        return self.urls[0]

    @property
    def web_port(self) -> int:
        return int(self.url.rsplit(":", 1)[1].strip("/"))

    def log(self) -> str:
        return self.log_path.read_text("utf-8", "replace")

    def wait_log(self, pattern: str, timeout: float = 40.0) -> re.Match[str]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = re.search(pattern, self.log())
            if found:
                return found
            if self.proc.poll() is not None:
                break
            time.sleep(0.1)
        raise AssertionError(f"host log has no {pattern!r}:\n{self.log()}")

    def guest_pids(self) -> list[int]:
        """Guest clients this host started (they run in sessions of their own)."""
        out = subprocess.run(["ps", "-eo", "pid=,ppid=,args="], capture_output=True, text=True).stdout
        return [int(line.split()[0]) for line in out.splitlines()
                if "fengsheng_tui.doors.guest" in line and int(line.split()[1]) == self.proc.pid]


def start_host(tmp_path: Path, *args: str) -> Host:
    log_path = tmp_path / "host.log"
    with log_path.open("w") as log:
        proc = subprocess.Popen(
            [FENGSHENG, "host", "--port", "0", "--web", "0", "--interface", "127.0.0.1", "--no-advertise",
             "--data-dir", str(tmp_path / "data"), *args],
            stdout=log, stderr=subprocess.STDOUT, text=True, env=ENV, start_new_session=True,
        )
    host = Host(proc, log_path)
    found = host.wait_log(r"guests with a browser open: (.*)\n")
    host.urls = found.group(1).split()
    return host


def stop_host(host: Host) -> None:
    guests = host.guest_pids()
    with contextlib.suppress(ProcessLookupError):
        os.killpg(host.proc.pid, signal.SIGTERM)
    try:
        host.proc.wait(10)
    except subprocess.TimeoutExpired:
        pass
    with contextlib.suppress(ProcessLookupError):
        os.killpg(host.proc.pid, signal.SIGKILL)
    host.proc.wait(5)
    left = []
    for pid in guests:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, 0)
            left.append(pid)
            os.killpg(pid, signal.SIGKILL)
    assert not left, f"guest clients outlived the host: {left}"


@pytest.fixture
def web_host(tmp_path: Path) -> Iterator[Host]:
    """A 4-seat host with a browser door, logging every choice (--verbose), bots quick."""
    host = start_host(tmp_path, "--verbose", "--bot-delay", "0.05", "--timer", "response=60",
                      "--timer", "play=60", "--timer", "send=60", "--timer", "receive=60")
    try:
        yield host
    finally:
        stop_host(host)


@pytest.fixture(autouse=True)
def chinese_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    """The language follows the locale; these tests read the Chinese default, in guests too."""
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.setenv("LC_MESSAGES", "zh_CN.UTF-8")
