"""A player whose `fengsheng join` dies (a dropped SSH session) runs it again and is back in his seat.

Real processes: a `fengsheng host`, and two `fengsheng join` in tmux one after the other; the first
is killed with SIGKILL, so nothing but the tokens file on disk can carry the seat over.
"""

from __future__ import annotations

import os
import signal
import stat
from pathlib import Path

from .conftest import FENGSHENG
from .test_ssh import children, running
from .test_tmux_play import hand_panel

TABLE = " 手牌"  # the hand panel's title, light frame or (on our move) heavy


def test_join_again_after_the_client_was_killed(game_host, tmux_panes, tmp_path: Path) -> None:
    """Bots wait 30 s, so the hand cannot change between the two screens."""
    host = game_host("--players", "4", "--bots", "3", "--start", "--seed", "5", "--bot-delay", "30")
    first = tmux_panes([FENGSHENG, "join", host.address, "--name", "Dropped"])
    before = first.wait_for(lambda s: TABLE in s and "Dropped（你）" in s, timeout=15)
    hand = hand_panel(before)
    assert hand
    tokens = tmp_path / "config" / "fengsheng" / "seats.json"
    assert stat.S_IMODE(tokens.stat().st_mode) == 0o600
    pane_pid = int(first.tmux("display-message", "-p", "-t", first.name, "#{pane_pid}").stdout)
    (game,) = children(pane_pid)
    os.kill(game, signal.SIGKILL)
    first.wait_gone(timeout=5)
    assert not running(game)

    second = tmux_panes([FENGSHENG, "join", host.address, "--name", "Dropped"])
    after = second.wait_for(lambda s: TABLE in s and "Dropped（你）" in s, timeout=15)
    assert hand_panel(after) == hand
    log = host.log.read_text()
    assert "seat 3 (Dropped) went offline" in log and "Dropped reconnected to seat 3" in log, log
    second.send("q")
    second.wait_for("y 退出", timeout=5)
    second.send("y")
    assert second.wait_gone(timeout=10) == 0


def test_join_again_without_the_name_takes_the_seat_back(game_host, tmux_panes) -> None:
    """The new user's path: `join ADDRESS --name alice`, quit (q, y), then `join ADDRESS` again as
    README writes it. Main joined under the default name and was refused (the table is playing a
    game: join "under the same name"); the saved seat's name is used when no --name is given."""
    host = game_host("--players", "4", "--bots", "3", "--start", "--seed", "5", "--bot-delay", "30")
    first = tmux_panes([FENGSHENG, "join", host.address, "--name", "alice"])
    before = first.wait_for(lambda s: TABLE in s and "alice（你）" in s, timeout=15)
    first.send("q")
    first.wait_for("y 退出", timeout=5)
    first.send("y")
    assert first.wait_gone(timeout=10) == 0
    second = tmux_panes([FENGSHENG, "join", host.address])
    # The whole table (a first paint may hold the hand before the ring), or main's refusal.
    after = second.wait_for(lambda s: TABLE in s and "alice（你）" in s or "无法加入" in s, timeout=15)
    assert "alice（你）" in after, after
    assert hand_panel(after) == hand_panel(before)
    assert "alice reconnected to seat 3" in host.log.read_text()
