"""The terminal game in a real terminal: tmux at 80×24, driven by `send-keys` alone.

Pilot tests run the app headless; these prove the installed `fengsheng` command paints, reads keys
and exits in a pty, and that two players joined to one host each see only their own hand.
"""

from __future__ import annotations

import subprocess

from .conftest import FENGSHENG, play_until_over


def test_play_without_a_terminal_says_use_ssh_t() -> None:
    """With stdin not a tty a full-screen app would hang; it must exit and say what to do."""
    done = subprocess.run(
        [FENGSHENG, "play"], stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=20
    )
    assert done.returncode != 0
    assert "ssh -t" in done.stdout + done.stderr


def test_play_to_game_over_with_keys_only(tmux_panes) -> None:
    pane = tmux_panes([FENGSHENG, "play", "--seed", "3", "--lang", "en"])
    table = pane.wait_for("Hand", timeout=10)
    assert "The Message" in table and "Seats" in table
    over, answers = play_until_over(pane, "en")
    assert answers > 0
    assert "Game over" in over and "Winners:" in over
    pane.send("q")
    assert pane.wait_gone(timeout=5) == 0
