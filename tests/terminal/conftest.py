"""Real-terminal helpers: a tmux driver on a private socket and a throwaway sshd on loopback.

These tests prove what Pilot cannot: that `fengsheng` paints and reads keys in a real pty
(tmux at 80×24) and over `ssh -t`. Everything runs on 127.0.0.1 and is torn down per test.
"""

from __future__ import annotations

import os
import shlex
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

TMUX = shutil.which("tmux")
SSHD = "/usr/sbin/sshd"
SSH = shutil.which("ssh")
SSH_KEYGEN = shutil.which("ssh-keygen")

#: The `fengsheng` script of the interpreter running the tests (the venv's), by absolute path, so
#: that tmux panes and ssh sessions run this checkout whatever their PATH is.
FENGSHENG = str(Path(sys.executable).with_name("fengsheng"))

#: Environment for every app under test: no animations (faster, steadier frames), colour on.
APP_ENV = {"TEXTUAL_ANIMATIONS": "none", "LANG": "C.UTF-8"}


def free_port() -> int:
    """A TCP port that was free on 127.0.0.1 a moment ago (the kernel picks it)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def wait_for_port(port: int, timeout: float = 10.0) -> None:
    """Block until something accepts TCP connections on 127.0.0.1:port."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise TimeoutError(f"nothing listens on 127.0.0.1:{port} after {timeout} s") from None
            time.sleep(0.05)


@dataclass
class Pane:
    """One tmux session (one window, one pane) on its own tmux server socket."""

    socket_path: Path
    name: str = "t"

    def tmux(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        assert TMUX is not None
        return subprocess.run(
            [TMUX, "-S", str(self.socket_path), *args], capture_output=True, text=True, check=check, timeout=10
        )

    def send(self, *keys: str) -> None:
        """Press keys as tmux names them (`Enter`, `Escape`, `Up`, `q`, ...), one argument each."""
        self.tmux("send-keys", "-t", self.name, *keys)

    def capture(self) -> str:
        """The visible screen as plain text (tmux trims trailing spaces)."""
        return self.tmux("capture-pane", "-p", "-t", self.name).stdout

    def history(self) -> str:
        """The screen with the scrollback above it: what a command printed before it exited."""
        return self.tmux("capture-pane", "-p", "-S", "-", "-t", self.name).stdout

    def alive(self) -> bool:
        """Whether the command in the pane is still running (the pane stays, dead, after it exits)."""
        return self.tmux("display-message", "-p", "-t", self.name, "#{pane_dead}").stdout.strip() == "0"

    def exit_status(self) -> int | None:
        """The exit status of the pane's command (minus the signal number if killed), None while it runs.

        tmux marks the pane dead at EOF on the pty, a moment before it reaps the process.
        """
        fmt = "#{pane_dead}:#{pane_dead_status}:#{pane_dead_signal}"
        dead, status, signal = self.tmux("display-message", "-p", "-t", self.name, fmt).stdout.strip().split(":")
        if dead != "1":
            return None
        if status:
            return int(status)
        return -int(signal) if signal else None

    def wait_for(self, want: str | Callable[[str], bool], timeout: float = 10.0, poll: float = 0.05) -> str:
        """Poll the screen until `want` (a substring or a predicate) holds; return that screen.

        On timeout the failure shows the last screen, which is what one needs to debug a UI test.
        """
        test = (lambda screen: want in screen) if isinstance(want, str) else want
        deadline = time.monotonic() + timeout
        screen = ""
        while True:
            screen = self.capture()
            if test(screen):
                return screen
            if not self.alive():
                raise AssertionError(f"the pane's command exited while waiting for {want!r}; last screen:\n{screen}")
            if time.monotonic() > deadline:
                raise AssertionError(f"waited {timeout} s for {want!r}; last screen:\n{screen}")
            time.sleep(poll)

    def wait_gone(self, timeout: float = 10.0) -> int:
        """Wait for the pane's command to exit and be reaped; return its exit status."""
        deadline = time.monotonic() + timeout
        while self.exit_status() is None:
            if time.monotonic() > deadline:
                raise AssertionError(f"the pane still runs after {timeout} s; screen:\n{self.capture()}")
            time.sleep(0.05)
        status = self.exit_status()
        assert status is not None
        return status

    def kill_server(self) -> None:
        self.tmux("kill-server", check=False)


def start_pane(
    socket_path: Path, command: list[str], env: dict[str, str] | None = None, width: int = 80, height: int = 24
) -> Pane:
    """Start `command` in a detached tmux session of the given size on a private server socket.

    `-f /dev/null` keeps the user's tmux.conf out; `remain-on-exit`, set in the same tmux command
    so that no exit can beat it, keeps the last screen and the exit status readable.
    """
    if TMUX is None:
        pytest.skip("tmux is not installed (.ci/run installs it)")
    pane = Pane(socket_path)
    env_args = [arg for key, value in {**APP_ENV, **(env or {})}.items() for arg in ("-e", f"{key}={value}")]
    shell_command = shlex.join(command)
    subprocess.run(
        [TMUX, "-S", str(socket_path), "-f", "/dev/null", "new-session", "-d", "-s", pane.name,
         "-x", str(width), "-y", str(height), *env_args, shell_command,
         ";", "set-option", "-t", pane.name, "remain-on-exit", "on"],
        check=True, timeout=10,
    )
    return pane


@pytest.fixture
def tmux_panes(tmp_path: Path) -> Iterator[Callable[..., Pane]]:
    """A factory of tmux panes (each on its own socket); every tmux server is killed at teardown."""
    panes: list[Pane] = []

    def make(command: list[str], env: dict[str, str] | None = None, width: int = 80, height: int = 24) -> Pane:
        pane = start_pane(tmp_path / f"tmux-{len(panes)}.sock", command, env, width, height)
        panes.append(pane)
        return pane

    yield make
    for pane in panes:
        pane.kill_server()


@dataclass
class Sshd:
    """A throwaway sshd on 127.0.0.1 that accepts exactly one throwaway client key."""

    port: int
    client_key: Path
    process: subprocess.Popen[bytes]
    log: Path
    user: str = field(default_factory=lambda: os.environ.get("USER") or "root")

    def ssh_args(self, remote_command: str, tty: bool = True, env: dict[str, str] | None = None) -> list[str]:
        """The `ssh` command line that runs `remote_command` here; `-tt` forces a tty with no local one."""
        assert SSH is not None
        variables = " ".join(f"{key}={value}" for key, value in {**APP_ENV, **(env or {})}.items())
        return [
            SSH, "-tt" if tty else "-T",
            "-i", str(self.client_key), "-p", str(self.port),
            "-o", "IdentitiesOnly=yes", "-o", "BatchMode=yes",
            "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR",
            "-o", f"SetEnv={variables}",
            f"{self.user}@127.0.0.1", remote_command,
        ]


@pytest.fixture
def sshd(tmp_path: Path) -> Iterator[Sshd]:
    """Run sshd on a free loopback port with key auth only; skip with the reason if it cannot run."""
    if not os.path.exists(SSHD):
        pytest.skip(f"{SSHD} is missing: apt-get install -y openssh-server (.ci/run does it)")
    if SSH is None or SSH_KEYGEN is None:
        pytest.skip("the ssh client is missing: apt-get install -y openssh-client")
    if os.geteuid() != 0:
        pytest.skip("the loopback sshd test runs as root (as CI does)")
    os.makedirs("/run/sshd", exist_ok=True)
    home = tmp_path / "ssh"
    home.mkdir()
    host_key, client_key = home / "host_ed25519", home / "client_ed25519"
    for key in (host_key, client_key):
        subprocess.run([SSH_KEYGEN, "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True, timeout=10)
    authorized = home / "authorized_keys"
    authorized.write_text(client_key.with_suffix(".pub").read_text())
    port = free_port()
    config = home / "sshd_config"
    config.write_text(
        "\n".join([
            "ListenAddress 127.0.0.1",
            f"Port {port}",
            f"HostKey {host_key}",
            f"AuthorizedKeysFile {authorized}",
            f"PidFile {home / 'sshd.pid'}",
            "UsePAM no",
            "StrictModes no",
            "PubkeyAuthentication yes",
            "PasswordAuthentication no",
            "KbdInteractiveAuthentication no",
            "PermitRootLogin prohibit-password",
            "AcceptEnv LANG LC_* TERM TEXTUAL_*",
            "PrintMotd no",
            "PrintLastLog no",
            "Subsystem sftp internal-sftp",
            "",
        ])
    )
    log = home / "sshd.log"
    process = subprocess.Popen([SSHD, "-D", "-e", "-f", str(config)], stderr=log.open("wb"))
    try:
        wait_for_port(port)
    except TimeoutError:
        process.kill()
        pytest.fail(f"sshd did not start:\n{log.read_text()}")
    yield Sshd(port, client_key, process, log)
    process.terminate()
    try:
        process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
