"""`fengsheng join` over SSH, set up as docs/ssh.md says: a per-key forced command on a loopback sshd.

The ssh client runs inside tmux (the friend's terminal); the game runs on the sshd side in the pty
that `ssh -tt` asks for, and joins a `fengsheng host` on 127.0.0.1 like any LAN player.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from .conftest import FENGSHENG, answer, open_prompt

pytestmark = pytest.mark.ssh

TABLE = ("╭─ 手牌", "┏━ 手牌")  # the hand panel's title, light or (on our move) heavy frame


def painted(screen: str) -> bool:
    """The hand panel is there (the table has started painting)."""
    return any(title in screen for title in TABLE)


def forced_join(sshd, tmp_path: Path, address: str, name: str) -> None:
    """Pin the client key to `fengsheng join ADDRESS` with the environment docs/ssh.md recommends."""
    sshd.force_command(
        [
            "/usr/bin/env",
            "LANG=C.UTF-8",
            "LC_MESSAGES=zh_CN.UTF-8",
            f"XDG_DATA_HOME={tmp_path / 'remote-data'}",
            f"XDG_CONFIG_HOME={tmp_path / 'remote-config'}",
            FENGSHENG,
            "join",
            address,
            "--name",
            name,
        ]
    )


def hand_line(screen: str) -> str:
    """The first line inside the hand panel."""
    lines = screen.splitlines()
    return next(lines[i + 1] for i, line in enumerate(lines) if line.startswith(TABLE))


def children(pid: int) -> list[int]:
    try:
        return [int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except FileNotFoundError:
        return []


def running(pid: int) -> bool:
    """Whether `pid` exists and is not a zombie waiting to be reaped."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def remote_game_pids(name: str) -> list[int]:
    """Processes running `fengsheng join ... --name NAME` (the remote side of our ssh session)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"join" in argv and name.encode() in argv and any(arg.endswith(b"fengsheng") for arg in argv[:2]):
            found.append(int(entry.name))
    return found


def test_ssh_t_join_play_a_prompt_and_quit(sshd, game_host, tmux_panes, tmp_path: Path) -> None:
    """Bots wait 1 s per move, so the moment between our answer and the next prompt is visible."""
    host = game_host("--players", "4", "--bots", "3", "--start", "--seed", "5", "--bot-delay", "1")
    forced_join(sshd, tmp_path, host.address, "Remote")
    pane = tmux_panes(sshd.ssh_args("ignored: the key's forced command runs instead", tty=True))
    # The hand may paint a frame before the ring and the banner: wait for the whole table.
    table = pane.wait_for(lambda s: painted(s) and "Remote（你）" in s and "刚才：" in s, timeout=20)
    assert "[" in hand_line(table)
    screen = pane.wait_for(lambda s: open_prompt(s, "zh") is not None, timeout=20)
    kind = open_prompt(screen, "zh")
    assert kind is not None
    answer(pane, kind, 0)
    # The server took the answer: that prompt closes (the table waits for a bot or asks us anew).
    pane.wait_for(lambda s: open_prompt(s, "zh") != kind, timeout=5)
    pane.send("q")
    pane.wait_for("y 退出", timeout=5)
    pane.send("y")
    assert pane.wait_gone(timeout=10) == 0
    assert not [pid for pid in remote_game_pids("Remote") if running(pid)]


def test_ssh_without_t_says_use_ssh_t(sshd, tmp_path: Path) -> None:
    """`ssh -T` (or ssh from a script) gives the game no tty: a clear message, not a hang."""
    forced_join(sshd, tmp_path, "127.0.0.1:9", "NoTty")
    done = subprocess.run(
        sshd.ssh_args(tty=False), stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 2, done
    assert "ssh -t" in done.stdout + done.stderr


def test_killing_the_ssh_client_ends_the_remote_game(sshd, game_host, tmux_panes, tmp_path: Path) -> None:
    host = game_host("--players", "4", "--bots", "3", "--start", "--seed", "5", "--bot-delay", "30")
    forced_join(sshd, tmp_path, host.address, "Hangup")
    pane = tmux_panes(sshd.ssh_args(tty=True))
    pane.wait_for(painted, timeout=20)
    remote = [pid for pid in remote_game_pids("Hangup") if running(pid)]
    assert len(remote) == 1, remote
    pane_pid = int(pane.tmux("display-message", "-p", "-t", pane.name, "#{pane_pid}").stdout)
    ssh_clients = children(pane_pid)
    assert len(ssh_clients) == 1
    os.kill(ssh_clients[0], signal.SIGKILL)
    deadline = time.monotonic() + 10
    while running(remote[0]):
        assert time.monotonic() < deadline, "the remote game outlived its ssh connection"
        time.sleep(0.05)
    # The server saw the seat's connection close.
    deadline = time.monotonic() + 5
    while not any("Hangup" in line and "offline" in line for line in host.log.read_text().splitlines()):
        assert time.monotonic() < deadline, host.log.read_text()
        time.sleep(0.05)
