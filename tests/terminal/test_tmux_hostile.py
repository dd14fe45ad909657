"""`fengsheng join` in a real terminal (tmux) against a hostile server process on loopback.

OSC 0 (window title), OSC 52 (clipboard) and CSI sequences in seat names and chat never reach the
terminal: the client refuses the frames, shows the error screen (no traceback) and exits 1 on q.
Markup in names stays within the schema and is shown as written.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from .conftest import FENGSHENG, Pane

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def hostile(tmp_path: Path) -> Iterator[object]:
    servers: list[subprocess.Popen[str]] = []

    def start(case: str) -> int:
        process = subprocess.Popen(
            [sys.executable, str(REPO / "tests" / "hostile_server.py"), "0", case],
            stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(REPO)})
        servers.append(process)
        assert process.stdout is not None
        line = process.stdout.readline()
        assert line.startswith("READY"), line
        return int(line.split()[1])

    yield start
    for process in servers:
        process.terminate()
        process.wait(timeout=10)


def title(pane: Pane) -> str:
    return pane.tmux("display-message", "-p", "-t", pane.name, "#{pane_title}").stdout.strip()


def test_terminal_controls_from_a_server_never_reach_the_terminal(hostile, tmux_panes) -> None:
    port = hostile("osc")
    pane = tmux_panes([FENGSHENG, "join", f"127.0.0.1:{port}", "--name", "victim", "--lang", "en"], width=100, height=30)
    screen = pane.wait_for("The server broke the protocol", timeout=20)
    assert "must not contain control characters" in " ".join(screen.split())
    assert "pwned" not in title(pane) and "Traceback" not in pane.history()
    pane.send("q")
    assert pane.wait_gone(timeout=10) == 1
    assert "pwned" not in title(pane) and "Traceback" not in pane.history()


def test_markup_names_from_a_server_are_shown_as_written(hostile, tmux_panes) -> None:
    port = hostile("markup")
    pane = tmux_panes([FENGSHENG, "join", f"127.0.0.1:{port}", "--name", "victim", "--lang", "en"], width=120, height=36)
    # Parsed as markup, the tags would vanish: they are on the screen as they were written.
    screen = pane.wait_for(lambda s: "[red on white]X" in s and "[/]" in s and "click[/]" in s, timeout=20)
    assert pane.alive() and "Traceback" not in screen


def test_a_keys_file_with_markup_is_reported_as_written(tmux_panes, tmp_path: Path) -> None:
    """Before: the start-up notice about a refused key was parsed as markup: `[/]` ended the app."""
    keys = tmp_path / "keys.toml"
    keys.write_text('"[/]" = "x"\n', encoding="utf-8")
    pane = tmux_panes([FENGSHENG, "play", "--lang", "en"], env={"FENGSHENG_CONFIG": str(keys)}, width=120, height=30)
    screen = pane.wait_for("no key called '[/]'", timeout=20)
    assert pane.alive() and "Traceback" not in screen
