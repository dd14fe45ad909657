"""Real-terminal helpers: a tmux driver on a private socket and a throwaway sshd on loopback.

These tests prove what Pilot cannot: that `fengsheng` paints and reads keys in a real pty
(tmux at 80×24) and over `ssh -t`. Everything runs on 127.0.0.1 and is torn down per test.
"""

from __future__ import annotations

import os
import re
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
APP_ENV = {"TEXTUAL_ANIMATIONS": "none", "LANG": "C.UTF-8", "LC_MESSAGES": "zh_CN.UTF-8"}


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

    @property
    def status_file(self) -> Path:
        return self.socket_path.with_suffix(".status")

    def tmux(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        assert TMUX is not None
        return subprocess.run(
            [TMUX, "-S", str(self.socket_path), *args],
            capture_output=True,
            text=True,
            check=check,
            timeout=10,
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
        """Whether the command in the pane is still running."""
        return self.exit_status() is None

    def exit_status(self) -> int | None:
        """The exit status of the pane's command, None while it runs.

        The wrapper shell writes it to a file: tmux 3.3 sometimes leaves an exited pane unreaped
        (a zombie with no `pane_dead_status`), so tmux cannot be asked.
        """
        try:
            return int(self.status_file.read_text())
        except (FileNotFoundError, ValueError):
            return None

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
                raise AssertionError(
                    f"the pane's command exited while waiting for {want!r}; last screen:\n{screen}"
                )
            if time.monotonic() > deadline:
                raise AssertionError(f"waited {timeout} s for {want!r}; last screen:\n{screen}")
            time.sleep(poll)

    def wait_gone(self, timeout: float = 10.0) -> int:
        """Wait for the pane's command to exit and be reaped; return its exit status."""
        deadline = time.monotonic() + timeout
        while (status := self.exit_status()) is None:
            if time.monotonic() > deadline:
                raise AssertionError(f"the pane still runs after {timeout} s; screen:\n{self.capture()}")
            time.sleep(0.05)
        return status

    def kill_server(self) -> None:
        self.tmux("kill-server", check=False)


def start_pane(
    socket_path: Path,
    command: list[str],
    env: dict[str, str] | None = None,
    width: int = 80,
    height: int = 24,
) -> Pane:
    """Start `command` in a detached tmux session of the given size on a private server socket.

    `-f /dev/null` keeps the user's tmux.conf out; `remain-on-exit`, set in the same tmux command
    so that no exit can beat it, keeps the last screen readable. A wrapper shell records the exit
    status in `Pane.status_file`.
    """
    if TMUX is None:
        pytest.skip("tmux is not installed (.ci/run installs it)")
    pane = Pane(socket_path)
    env_args = [arg for key, value in {**APP_ENV, **(env or {})}.items() for arg in ("-e", f"{key}={value}")]
    shell_command = shlex.join(["sh", "-c", '"$@"; echo $? > "$0"', str(pane.status_file), *command])
    subprocess.run(
        [
            TMUX,
            "-S",
            str(socket_path),
            "-f",
            "/dev/null",
            "new-session",
            "-d",
            "-s",
            pane.name,
            "-x",
            str(width),
            "-y",
            str(height),
            *env_args,
            shell_command,
            ";",
            "set-option",
            "-t",
            pane.name,
            "remain-on-exit",
            "on",
        ],
        check=True,
        timeout=10,
    )
    return pane


@pytest.fixture
def tmux_panes(tmp_path: Path) -> Iterator[Callable[..., Pane]]:
    """A factory of tmux panes (each on its own socket); every tmux server is killed at teardown.

    Replays, journals and keymaps go to the test's tmp dir, never to the user's home.
    """
    panes: list[Pane] = []

    home = {"XDG_DATA_HOME": str(tmp_path / "data"), "XDG_CONFIG_HOME": str(tmp_path / "config")}

    def make(
        command: list[str], env: dict[str, str] | None = None, width: int = 80, height: int = 24
    ) -> Pane:
        pane = start_pane(
            tmp_path / f"tmux-{len(panes)}.sock", command, {**home, **(env or {})}, width, height
        )
        panes.append(pane)
        return pane

    yield make
    for pane in panes:
        pane.kill_server()


@dataclass
class Host:
    """A running `fengsheng host` (headless server) on 127.0.0.1."""

    port: int
    process: subprocess.Popen[str]
    log: Path

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"


@pytest.fixture
def game_host(tmp_path: Path) -> Iterator[Callable[..., Host]]:
    """Start `fengsheng host --no-advertise --port 0 ARGS...`; it is stopped (SIGTERM) at teardown.

    The port is read from the line the host prints, so there is no race for a free port.
    """
    hosts: list[Host] = []

    def start(*args: str) -> Host:
        log = tmp_path / f"host-{len(hosts)}.log"
        process = subprocess.Popen(
            [
                FENGSHENG,
                "host",
                "--no-advertise",
                "--interface",
                "127.0.0.1",
                "--port",
                "0",
                "--data-dir",
                str(tmp_path / "host-data"),
                *args,
            ],
            stdin=subprocess.DEVNULL,
            stdout=log.open("w"),
            stderr=subprocess.STDOUT,
            text=True,
            env={**os.environ, **APP_ENV},  # the door's guests start in the host locale's language
        )
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and process.poll() is None:
            found = re.search(r" on port (\d+)", log.read_text())
            if found:
                host = Host(int(found[1]), process, log)
                hosts.append(host)
                wait_for_port(host.port)
                return host
            time.sleep(0.05)
        process.kill()
        raise AssertionError("fengsheng host did not print its port:\n" + log.read_text())

    yield start
    for host in hosts:
        host.process.terminate()
        try:
            host.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            host.process.kill()
            host.process.wait()


@dataclass
class Sshd:
    """A throwaway sshd on 127.0.0.1 that accepts exactly one throwaway client key."""

    port: int
    client_key: Path
    authorized_keys: Path
    process: subprocess.Popen[bytes]
    log: Path
    user: str = field(default_factory=lambda: os.environ.get("USER") or "root")

    def force_command(self, command: list[str] | None, pty: bool = True) -> None:
        """Pin the client key to `command` as docs/ssh.md says: `restrict,pty,command="..."`.

        sshd reads authorized_keys at every login, so this applies to the next connection.
        """
        key = self.client_key.with_suffix(".pub").read_text().strip()
        if command is None:
            self.authorized_keys.write_text(key + "\n")
            return
        forced = shlex.join(command).replace("\\", "\\\\").replace('"', '\\"')
        options = "restrict,pty" if pty else "restrict"
        self.authorized_keys.write_text(f'{options},command="{forced}" {key}\n')

    def ssh_args(
        self, remote_command: str = "", tty: bool = True, env: dict[str, str] | None = None
    ) -> list[str]:
        """The `ssh` command line that runs `remote_command` here; `-tt` forces a tty with no local one."""
        assert SSH is not None
        variables = " ".join(f"{key}={value}" for key, value in {**APP_ENV, **(env or {})}.items())
        return [
            SSH,
            "-tt" if tty else "-T",
            "-i",
            str(self.client_key),
            "-p",
            str(self.port),
            "-o",
            "IdentitiesOnly=yes",
            "-o",
            "BatchMode=yes",
            "-o",
            "StrictHostKeyChecking=no",
            "-o",
            "UserKnownHostsFile=/dev/null",
            "-o",
            "LogLevel=ERROR",
            "-o",
            f"SetEnv={variables}",
            f"{self.user}@127.0.0.1",
            *([remote_command] if remote_command else []),
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
    port = free_port()
    config = home / "sshd_config"
    config.write_text(
        "\n".join(
            [
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
            ]
        )
    )
    log = home / "sshd.log"
    process = subprocess.Popen([SSHD, "-D", "-e", "-f", str(config)], stderr=log.open("wb"))
    try:
        wait_for_port(port)
    except TimeoutError:
        process.kill()
        pytest.fail(f"sshd did not start:\n{log.read_text()}")
    server = Sshd(port, client_key, authorized, process, log)
    server.force_command(None)
    yield server
    process.terminate()
    try:
        process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def prompt_heads(lang: str) -> dict[str, str]:
    """The start of each prompt kind's key hint as the table shows it, for reading the screen.

    Only the first 16 characters count, so a hint wrapped at 80 columns still matches.
    """
    from fengsheng_tui.i18n import Words

    words = Words(lang)
    return {
        kind: words(f"k_{kind}")[:16] for kind in ("play", "send", "response", "receive", "probe_discard")
    }


def open_prompt(screen: str, lang: str) -> str | None:
    """Which of our prompts the table shows (play, send, response, receive, probe_discard), if any."""
    for kind, head in prompt_heads(lang).items():
        if head in screen:
            return kind
    return None


def answer(pane: Pane, kind: str, attempt: int) -> None:
    """Answer a prompt with keys only, the way a hurried player would.

    Play phase and responses: Space (end the phase, pass). A message in front of us: Enter
    (receive: it ends games sooner). Send or probe discard: a digit then Enter; `attempt` walks the
    digits so that a card which cannot be used there is followed by the next one.
    """
    if kind in ("play", "response"):
        pane.send("Space")
    elif kind == "receive":
        pane.send("Enter")
    else:
        pane.send(str(1 + attempt % 9), "Enter")


def play_until_over(pane: Pane, lang: str, timeout: float = 40.0) -> tuple[str, int]:
    """Answer every prompt with keys until the game-over screen shows; return it and how many answers.

    After each answer the loop waits for the screen to change, so that no key meant for one prompt
    lands on the next.
    """
    from fengsheng_tui.i18n import Words

    winners = Words(lang)("winners")
    deadline = time.monotonic() + timeout
    answers = attempt = 0
    screen = pane.capture()
    while winners not in screen and "Enter quit" not in screen and "回车 退出" not in screen:
        if time.monotonic() > deadline:
            raise AssertionError(f"no game over after {timeout} s and {answers} answers; screen:\n{screen}")
        kind = open_prompt(screen, lang)
        if kind is None:
            time.sleep(0.02)
            screen = pane.capture()
            continue
        answer(pane, kind, attempt)
        answers += 1
        before = screen

        def changed(now: str, before: str = before) -> bool:
            return now != before

        try:
            screen = pane.wait_for(changed, timeout=2.0, poll=0.01)
            attempt = 0 if open_prompt(screen, lang) != kind else attempt + 1
        except AssertionError:
            attempt += 1
            screen = pane.capture()
    # The game-over footer can be painted a moment before the board itself: wait for the board.
    return pane.wait_for(winners, timeout=10), answers
