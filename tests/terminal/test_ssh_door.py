"""`fengsheng host --ssh`: the OpenSSH client against the built-in SSH door, on loopback.

Guests run the real `ssh` in tmux (their terminal); the door draws the name prompt, then runs each
guest's own game client on a pty. Refusals (commands, SFTP, forwarding) and limits are checked
with `ssh` run directly.
"""

from __future__ import annotations

import os
import re
import select
import shutil
import signal
import socket
import stat
import subprocess
import time
import unicodedata
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from .conftest import SSH, SSH_KEYGEN, Host, Pane
from .test_ssh import running

pytestmark = pytest.mark.ssh

TABLE = " 手牌"  # the hand panel's title, light frame or (on our move) heavy
PROMPT = "名字 Name: "


@pytest.fixture
def keys(tmp_path: Path) -> Callable[[str], Path]:
    """A throwaway ed25519 client key per guest name."""
    if SSH is None or SSH_KEYGEN is None:
        pytest.skip("the ssh client is missing: apt-get install -y openssh-client")

    def make(name: str) -> Path:
        key = tmp_path / f"key-{name}"
        if not key.exists():
            subprocess.run([SSH_KEYGEN, "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True, timeout=10)
        return key

    return make


def cells_width(line: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in line)


def door_port(host: Host, timeout: float = 10.0) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = re.search(r"ssh door on port (\d+)", host.log.read_text())
        if found:
            return int(found[1])
        if host.process.poll() is not None:
            break
        time.sleep(0.05)
    raise AssertionError("no ssh door line:\n" + host.log.read_text())


def ssh_command(port: int, user: str, key: Path | None, *extra: str, tty: str | None = None) -> list[str]:
    """What a guest types (`ssh -p PORT USER@HOST`), plus options that keep the test's ssh to itself."""
    assert SSH is not None
    identity = ["-i", str(key), "-o", "IdentitiesOnly=yes"] if key else ["-o", "PubkeyAuthentication=no"]
    return [SSH, *([tty] if tty else []), "-F", "/dev/null", "-p", str(port), *identity, *extra,
            "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR",
            "-o", "SetEnv=TEXTUAL_ANIMATIONS=none", f"{user}@127.0.0.1"]


def wait_log(host: Host, pattern: str, timeout: float = 10.0) -> re.Match[str]:
    deadline = time.monotonic() + timeout
    while True:
        found = re.search(pattern, host.log.read_text())
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"no {pattern!r} in the host log:\n{host.log.read_text()}")
        time.sleep(0.05)


def ssh_pid(pane: Pane) -> int:
    """The ssh client in the pane (the wrapper shell's child)."""
    from .test_ssh import children

    shell = int(pane.tmux("display-message", "-p", "-t", pane.name, "#{pane_pid}").stdout)
    deadline = time.monotonic() + 5
    while not (found := children(shell)):
        assert time.monotonic() < deadline, "no ssh client in the pane"
        time.sleep(0.05)
    return found[0]


def test_two_guests_resize_drop_and_reclaim(game_host, tmux_panes, keys) -> None:
    """Two guests (one with a key, one without) take two seats; the game starts when the table is
    full. The keyed guest's window grows and the game follows; the keyless guest's ssh is killed,
    his client goes, and logging in again (same address, same user name) gives his seat back."""
    host = game_host("--players", "4", "--bots", "2", "--start", "--bot-delay", "30", "--seed", "5",
                     "--ssh", "127.0.0.1:0")
    port = door_port(host)
    alice = tmux_panes(ssh_command(port, "alice", keys("alice")))
    assert "No SSH key" not in alice.wait_for(PROMPT + "alice", timeout=10)
    alice.send("Enter")
    alice.wait_for(lambda s: "alice（你）" in s, timeout=15)
    seat_a = int(wait_log(host, r"alice took seat (\d)")[1])

    bob = tmux_panes(ssh_command(port, "bob", None))
    assert "log in again from this machine as bob@" in bob.wait_for(PROMPT + "bob", timeout=10)
    bob.send("Enter")
    bob.wait_for(lambda s: TABLE in s and "bob（你）" in s, timeout=15)
    seat_b = int(wait_log(host, r"bob took seat (\d)")[1])
    assert seat_a != seat_b
    alice.wait_for(lambda s: TABLE in s and "alice（你）" in s, timeout=10)

    alice.tmux("resize-window", "-t", alice.name, "-x", "120", "-y", "36")
    wide = alice.wait_for(lambda s: len(s.splitlines()) == 36 and max(map(cells_width, s.splitlines())) > 100,
                          timeout=10)
    assert TABLE in wide

    client = int(wait_log(host, r"plays as 'bob' \(client pid (\d+)")[1])
    os.kill(ssh_pid(bob), signal.SIGKILL)
    wait_log(host, rf"seat {seat_b} \(bob\) went offline")
    deadline = time.monotonic() + 5
    while running(client):
        assert time.monotonic() < deadline, "the dropped guest's client still runs"
        time.sleep(0.05)

    again = tmux_panes(ssh_command(port, "bob", None))
    again.wait_for(PROMPT + "bob", timeout=10)
    again.send("Enter")
    again.wait_for(lambda s: TABLE in s and "bob（你）" in s, timeout=15)
    wait_log(host, rf"bob reconnected to seat {seat_b}")

    again.send("q")
    again.wait_for("y 退出", timeout=5)
    again.send("y")
    assert again.wait_gone(timeout=10) == 0

    clients = [int(pid) for pid in re.findall(r"plays as '\w+' \(client pid (\d+)", host.log.read_text())]
    host.process.terminate()
    host.process.wait(timeout=10)
    assert not [pid for pid in clients if running(pid)], "a guest's client outlived the host"
    assert alice.wait_gone(timeout=5) is not None


def test_a_second_login_takes_over_and_another_key_cannot(game_host, tmux_panes, keys) -> None:
    """The same key logging in again under the same name ends the older session (a connection that
    died silently) and keeps the seat; another key typing that name gets no seat, only the offer
    to watch."""
    host = game_host("--players", "4", "--bots", "3", "--start", "--bot-delay", "30", "--ssh", "127.0.0.1:0")
    port = door_port(host)
    first = tmux_panes(ssh_command(port, "carol", keys("carol")))
    first.wait_for(PROMPT + "carol")
    first.send("Enter")
    first.wait_for(lambda s: TABLE in s and "carol（你）" in s, timeout=15)
    seat = int(wait_log(host, r"carol took seat (\d)")[1])

    second = tmux_panes(ssh_command(port, "carol", keys("carol")))
    second.wait_for(PROMPT + "carol")
    second.send("Enter")
    second.wait_for(lambda s: TABLE in s and "carol（你）" in s, timeout=15)
    wait_log(host, rf"carol reconnected to seat {seat}")
    assert first.wait_gone(timeout=10) != 0 or not first.alive()

    thief = tmux_panes(ssh_command(port, "carol", keys("mallory")))
    thief.wait_for(PROMPT + "carol")
    thief.send("Enter")
    offer = thief.wait_for("Enter 观战 watch", timeout=15)
    assert "no free seat" in offer, offer
    thief.send("C-c")
    assert thief.wait_gone(timeout=10) == 0

    watcher = tmux_panes(ssh_command(port, "mallory", keys("watcher")))
    watcher.wait_for(PROMPT + "mallory")
    watcher.send("Enter")
    watcher.wait_for("Enter 观战 watch", timeout=15)
    watcher.send("Enter")
    watcher.wait_for("观战中", timeout=15)
    wait_log(host, "mallory joined as a spectator")
    assert second.alive() and "carol（你）" in second.capture()


def test_without_a_tty_the_door_allocates_one(game_host, tmux_panes, keys) -> None:
    """`ssh -T` (no pty asked for) still gets the prompt and the game, at 80×24; a guest whose ssh
    sends an English locale plays in English on a host whose locale is Chinese."""
    host = game_host("--players", "4", "--ssh", "127.0.0.1:0")
    pane = tmux_panes(ssh_command(door_port(host), "dave", keys("dave"), "-o", "SendEnv=LANG", tty="-T"),
                      width=100, height=30, env={"LANG": "en_GB.UTF-8"})
    pane.wait_for(PROMPT, timeout=10)
    pane.send("Enter")
    screen = pane.wait_for(lambda s: "dave (you)" in s and "? " in s.splitlines()[23], timeout=15)
    assert "Table" in screen  # in English, and the footer on row 24 of the 30-row window
    assert not "".join(screen.splitlines()[24:]).strip()


@pytest.mark.parametrize("width", [80, 120])
def test_a_guest_whose_ssh_sends_no_locale_chooses_the_language_with_tab(game_host, tmux_panes, keys,
                                                                          width: int) -> None:
    """Windows' ssh sends no LANG: the prompt says the game will be in the host's language and Tab
    switches it; the choice is kept for his next login (main: the host's language, and only
    Settings inside the game could change it)."""
    host = game_host("--players", "4", "--ssh", "127.0.0.1:0")
    command = ssh_command(door_port(host), "erin", keys("erin"), tty="-tt")
    pane = tmux_panes(command, width=width, height=24 if width == 80 else 40)
    prompt = pane.wait_for(PROMPT + "erin", timeout=10)
    assert "游戏语言 Language: 中文 · Tab: English" in prompt, prompt
    assert all(len(row) < width for row in prompt.splitlines()), prompt
    pane.send("Tab")
    pane.wait_for("Language: English · Tab: 中文", timeout=5)
    pane.send("Enter")
    pane.wait_for(lambda s: "erin (you)" in s and "Table" in s, timeout=15)
    pane.send("q")
    pane.wait_for("Quit the game?", timeout=5)
    pane.send("y")
    assert pane.wait_gone(timeout=15) == 0
    again = tmux_panes(command, width=width, height=24 if width == 80 else 40)
    assert "Language: English · Tab: 中文" in again.wait_for(PROMPT + "erin", timeout=10)
    again.send("Enter")
    again.wait_for(lambda s: "erin (you)" in s, timeout=15)


def run_ssh(command: list[str], timeout: float = 15.0, **kw) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL, **kw)


@pytest.fixture
def listener() -> Iterator[socket.socket]:
    """A loopback TCP listener that a forwarding request would reach, if the door allowed one."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen()
    sock.setblocking(False)
    yield sock
    sock.close()


def nobody_came(sock: socket.socket, wait: float = 1.0) -> bool:
    ready, _, _ = select.select([sock], [], [], wait)
    return not ready


def test_commands_sftp_and_forwarding_are_refused(game_host, keys, listener, tmp_path: Path) -> None:
    host = game_host("--players", "4", "--ssh", "127.0.0.1:0")
    port = door_port(host)
    key = keys("eve")
    target = listener.getsockname()[1]

    done = run_ssh(ssh_command(port, "eve", key, "-o", "BatchMode=yes") + ["cat", "/etc/passwd"])
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().splitlines() == [
        f"fengsheng: this door only runs the game; log in without a command: ssh -p {port} 127.0.0.1"
    ]

    done = run_ssh(ssh_command(port, "eve", key, "-o", "BatchMode=yes", "-s") + ["sftp"])
    assert done.returncode != 0 and "subsystem request failed" in done.stderr
    sftp = shutil.which("sftp")
    if sftp:
        done = run_ssh([sftp, "-F", "/dev/null", "-P", str(port), "-i", str(key), "-o", "IdentitiesOnly=yes",
                        "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
                        "-o", "BatchMode=yes", "eve@127.0.0.1"])
        assert done.returncode != 0

    done = run_ssh(ssh_command(port, "eve", key, "-o", "BatchMode=yes", "-o", "ExitOnForwardFailure=yes",
                               "-N", "-R", f"0:127.0.0.1:{target}"))
    assert done.returncode == 255 and "remote port forwarding failed" in done.stderr
    wait_log(host, r"asked to listen on .*: refused")

    local, socks = free_ports(2)
    forward = subprocess.Popen(
        ssh_command(port, "eve", key, "-o", "BatchMode=yes", "-o", "LogLevel=INFO", "-N",
                    "-L", f"{local}:127.0.0.1:{target}",
                    "-D", str(socks)),
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        via_l = connect_when_listening(local)
        assert via_l.recv(100) == b""  # the door refused the channel: ssh closes the connection
        via_l.close()
        via_d = connect_when_listening(socks)
        via_d.sendall(b"\x05\x01\x00")
        assert via_d.recv(2) == b"\x05\x00"
        via_d.sendall(b"\x05\x01\x00\x01" + socket.inet_aton("127.0.0.1") + target.to_bytes(2, "big"))
        assert via_d.recv(100)[:2] != b"\x05\x00"  # no SOCKS success
        via_d.close()
        assert nobody_came(listener)
        forward.terminate()
        _, err = forward.communicate(timeout=5)
        assert "administratively prohibited: this door only runs the game" in err
        wait_log(host, rf"asked to connect to 127.0.0.1:{target}: refused")
    finally:
        forward.terminate()
        forward.wait(timeout=5)


def free_ports(count: int) -> list[int]:
    socks = [socket.socket() for _ in range(count)]
    for sock in socks:
        sock.bind(("127.0.0.1", 0))
    ports = [sock.getsockname()[1] for sock in socks]
    for sock in socks:
        sock.close()
    return ports


def connect_when_listening(port: int, timeout: float = 10.0) -> socket.socket:
    deadline = time.monotonic() + timeout
    while True:
        try:
            sock = socket.create_connection(("127.0.0.1", port), timeout=5)
            return sock
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


class Guest:
    """`ssh -tt` driven through pipes: what it prints, and keys sent to it."""

    def __init__(self, command: list[str], env: dict[str, str] | None = None) -> None:
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, env=env)
        self.out = b""

    def read_until(self, want: bytes, timeout: float = 10.0, after: int = 0) -> bytes:
        """Read until `want` shows up (past offset `after` of everything read so far)."""
        assert self.process.stdout is not None
        deadline = time.monotonic() + timeout
        while want not in self.out[after:]:
            left = deadline - time.monotonic()
            assert left > 0, f"no {want!r} in {self.out[-500:]!r}"
            ready, _, _ = select.select([self.process.stdout], [], [], left)
            if ready:
                chunk = os.read(self.process.stdout.fileno(), 65536)
                if not chunk:
                    break
                self.out += chunk
        assert want in self.out[after:], f"no {want!r} in {self.out[-500:]!r}"
        return self.out

    def send(self, data: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def finish(self, timeout: float = 10.0) -> tuple[int, str]:
        """Wait for ssh to exit with its input still open (closing it would send EOF)."""
        assert self.process.stderr is not None
        status = self.process.wait(timeout=timeout)
        return status, self.process.stderr.read().decode()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def test_x11_and_agent_are_not_forwarded(game_host, keys, tmp_path: Path) -> None:
    host = game_host("--players", "4", "--ssh", "127.0.0.1:0")
    port = door_port(host)
    agent_sock = tmp_path / "agent.sock"
    agent = subprocess.Popen(["ssh-agent", "-D", "-a", str(agent_sock)], stdout=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 5
        while not agent_sock.exists():
            assert time.monotonic() < deadline
            time.sleep(0.05)
        env = {**os.environ, "SSH_AUTH_SOCK": str(agent_sock), "DISPLAY": "127.0.0.1:0"}
        guest = Guest(ssh_command(port, "fay", keys("fay"), "-A", "-X", "-o", "ForwardX11Trusted=yes",
                                  tty="-tt"), env=env)
        try:
            guest.read_until(PROMPT.encode())
            guest.send(b"\r")
            client = int(wait_log(host, r"plays as 'fay' \(client pid (\d+)")[1])
            environ = Path(f"/proc/{client}/environ").read_bytes().split(b"\0")
            names = {entry.split(b"=", 1)[0] for entry in environ if entry}
            assert not names & {b"SSH_AUTH_SOCK", b"DISPLAY", b"SSH_CONNECTION", b"SSH_CLIENT"}
            guest.read_until("fay（你）".encode(), timeout=15)
            guest.send(b"qy")
            status, err = guest.finish()
            assert status == 0
            assert "X11 forwarding request failed" in err
        finally:
            guest.stop()
    finally:
        agent.terminate()
        agent.wait(timeout=5)


def test_limits_per_address_in_all_and_before_a_name(game_host, keys) -> None:
    """Two guests per address, three in all, six seconds to type a name (with two, the steps before
    the names ran out took longer than that under load)."""
    host = game_host("--players", "4", "--ssh", "127.0.0.1:0", "--ssh-limits", "2,3,6")
    port = door_port(host)
    key = keys("gus")
    waiting: list[Guest] = []
    try:
        for _ in range(2):  # one after the other: the first is the older place, the one that goes
            waiting.append(Guest(ssh_command(port, "gus", key, "-o", "BindAddress=127.0.0.1", tty="-tt")))
            waiting[-1].read_until(PROMPT.encode())
        third = run_ssh(ssh_command(port, "gus", key, "-o", "BindAddress=127.0.0.1", tty="-tt"))
        assert third.returncode == 1 and "too many guests from 127.0.0.1 (2)" in third.stderr
        other = Guest(ssh_command(port, "gus", key, "-o", "BindAddress=127.0.0.2", tty="-tt"))
        waiting.append(other)
        other.read_until(PROMPT.encode())
        # Full: a newcomer from an address with none takes the oldest prompt place of the
        # address holding two (its fair share is one of three)...
        newcomer = Guest(ssh_command(port, "gus", key, "-o", "BindAddress=127.0.0.3", tty="-tt"))
        newcomer.read_until(PROMPT.encode())
        status, err = waiting.pop(0).finish(timeout=10)
        assert status == 1 and "your place at the prompt went to a guest from an address with fewer" in err
        waiting.append(newcomer)
        # ... and once every address holds one, the door is full for the next.
        full = run_ssh(ssh_command(port, "gus", key, "-o", "BindAddress=127.0.0.4", tty="-tt"))
        assert full.returncode == 1 and "the door is full (3 guests)" in full.stderr
        # Half-open connections from one address: past twice its share they are dropped at once.
        silent = []
        for _ in range(5):
            sock = socket.socket()
            sock.bind(("127.0.0.9", 0))
            sock.connect(("127.0.0.1", port))
            sock.settimeout(5)
            silent.append(sock)
        banners = [sock.recv(64) for sock in silent]
        assert all(b.startswith(b"SSH-2.0-fengsheng") for b in banners[:4]) and banners[4] == b"", banners
        for sock in silent:
            sock.close()
        assert len(door_clients(host)) == 1  # one spare, however many guests wait at the prompt
        for guest in waiting:
            status, err = guest.finish(timeout=10)
            assert status == 1 and "no name after 6 s" in err
        deadline = time.monotonic() + 5
        while door_clients(host):  # nobody at the prompt any more: the spare goes too
            assert time.monotonic() < deadline, door_clients(host)
            time.sleep(0.05)
    finally:
        for guest in waiting:
            guest.stop()


def door_clients(host: Host) -> list[int]:
    """The host's live child processes that are game clients of the door."""
    from .test_ssh import children

    return [pid for pid in children(host.process.pid) if running(pid)
            and b"fengsheng_tui.doors.ssh_guest" in Path(f"/proc/{pid}/cmdline").read_bytes()]


def test_password_table_asks_and_backs_off(game_host, keys) -> None:
    host = game_host("--players", "4", "--password", "s3cret", "--ssh", "127.0.0.1:0")
    guest = Guest(ssh_command(door_port(host), "hal", keys("hal"), tty="-tt"))
    try:
        guest.read_until(PROMPT.encode())
        guest.send(b"\r")
        guest.read_until("密码 Password: ".encode())
        guest.send(b"nope\r")
        seen = len(guest.read_until(b"wrong password"))
        start = time.monotonic()
        guest.read_until("密码 Password: ".encode(), after=seen)
        assert time.monotonic() - start >= 0.9  # one failure: a second before the next try
        guest.send(b"s3cret\r")
        guest.read_until("hal（你）".encode(), timeout=15)
        wait_log(host, r"wrong table password from 127.0.0.1 \(1 in a row\)")
        assert "s3cret" not in host.log.read_text()
    finally:
        guest.stop()


def test_the_host_key_is_kept_private_and_stable(game_host, tmp_path: Path) -> None:
    first = game_host("--players", "4", "--ssh", "127.0.0.1:0")
    port = door_port(first)
    printed = re.search(r"host key (SHA256:\S+) \(ED25519\)", first.log.read_text())
    assert printed
    key = tmp_path / "host-data" / "ssh_host_ed25519_key"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    assert SSH_KEYGEN is not None
    listed = subprocess.run([SSH_KEYGEN, "-lf", str(key)], capture_output=True, text=True, check=True).stdout
    assert printed[1] in listed
    scanned = subprocess.run(["ssh-keyscan", "-p", str(port), "-t", "ed25519", "127.0.0.1"],
                             capture_output=True, text=True, timeout=10).stdout
    assert scanned.split()[-1] == key.with_name(key.name + ".pub").read_text().split()[1]
    first.process.terminate()
    first.process.wait(timeout=10)
    second = game_host("--players", "4", "--ssh", "127.0.0.1:0")
    door_port(second)
    again = re.search(r"host key (SHA256:\S+) \(ED25519\)", second.log.read_text())
    assert again and again[1] == printed[1]


def test_play_opens_the_door_for_friends(tmux_panes, keys) -> None:
    """`fengsheng play --ssh`: the player sees how friends come in, and a friend's login sits at his table."""
    from .conftest import FENGSHENG, free_port

    port = free_port()
    player = tmux_panes([FENGSHENG, "play", "--players", "4", "--name", "Host", "--ssh", f"127.0.0.1:{port}"],
                        width=100, height=30)
    player.wait_for(f"ssh -p {port} NAME@127.0.0.1", timeout=15)
    friend = tmux_panes(ssh_command(port, "ivy", keys("ivy")))
    friend.wait_for(PROMPT + "ivy", timeout=10)
    friend.send("Enter")
    friend.wait_for("ivy（你）", timeout=15)
    player.wait_for(lambda s: "Host（你）" in s and "ivy" in s, timeout=10)
    player.send("q")
    player.wait_for("y 退出", timeout=5)
    player.send("y")
    assert player.wait_gone(timeout=15) == 0
    assert friend.wait_gone(timeout=10) is not None


def test_a_huge_window_is_clipped(game_host) -> None:
    """A client asking for a 5000×5000 terminal gets 400×150: the game paints what it is told."""
    import asyncio

    import asyncssh

    host = game_host("--players", "4", "--ssh", "127.0.0.1:0")
    port = door_port(host)

    async def visit() -> None:
        key = asyncssh.generate_private_key("ssh-ed25519")
        async with asyncssh.connect("127.0.0.1", port, username="zed", known_hosts=None, client_keys=[key],
                                    agent_path=None, config=None) as conn:
            process = await conn.create_process(term_type="xterm", term_size=(5000, 5000))
            await asyncio.wait_for(process.stdout.readuntil(PROMPT), 10)
            process.stdin.write("\r")
            await asyncio.to_thread(wait_log, host, r"plays as 'zed' \(client pid \d+, 400x150,")
            process.change_terminal_size(6000, 1)
            process.close()

    asyncio.run(visit())


def test_each_guest_machine_reaches_the_table_from_its_own_address(game_host, keys) -> None:
    """Four guests from four machines (loopback source addresses) sit down; the host restarts, so
    their saved seat tokens are stale. Each comes back, and the server counts each stale token
    against his own machine's address, never one shared by every door guest (which would throttle
    the fourth)."""
    from .conftest import free_port

    port = free_port()
    machines = ["127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"]

    def seat_everyone(host: Host) -> None:
        door = door_port(host)
        guests = [Guest(ssh_command(door, f"p{i}", keys(f"p{i}"), "-o", f"BindAddress={machine}", tty="-tt"))
                  for i, machine in enumerate(machines)]
        try:
            for i, guest in enumerate(guests):
                guest.read_until(PROMPT.encode())
                guest.send(b"\r")
                guest.read_until(f"p{i}（你）".encode(), timeout=20)
        finally:
            for guest in guests:
                guest.stop()

    first = game_host("--players", "4", "--port", str(port), "--ssh", "127.0.0.1:0")
    seat_everyone(first)
    sources = re.findall(r"plays as 'p\d' \(client pid \d+, 80x24, from (127\.\d+\.\d+\.\d+)\)",
                         first.log.read_text())
    assert len(set(sources)) == 4 and "127.0.0.1" not in sources
    first.process.terminate()
    first.process.wait(timeout=10)

    second = game_host("--players", "4", "--port", str(port), "--ssh", "127.0.0.1:0")
    seat_everyone(second)
    refused = re.findall(r"refused a hello from (\S+) \(p\d\): unknown seat token; (\d+) failure",
                         second.log.read_text())
    assert len(refused) == 4 and {address for address, _ in refused} == set(sources)
    assert {count for _, count in refused} == {"1"}


@pytest.mark.parametrize("width", [60, 80])
def test_the_name_prompt_folds_whole_words_to_the_guest_window(game_host, tmux_panes, width: int) -> None:
    """A keyless guest at 60 and 80 columns (the new user's first screen): main wrote each sentence
    as one line and the terminal broke it at its edge (`get your sea` / `t back.`)."""
    from fengsheng_tui.widgets.cjk_text import NO_START

    host = game_host("--players", "4", "--name", "A table with quite a long name here", "--ssh", "127.0.0.1:0")
    guest = tmux_panes(ssh_command(door_port(host), "bob", None), width=width)
    screen = guest.wait_for(PROMPT + "bob", timeout=10)
    lines = [line.rstrip() for line in screen.splitlines()]
    assert all(cells_width(line) < width for line in lines), screen  # none reached the edge
    words = set(" ".join(lines).split())
    sentences = ("No SSH key: after a drop, log in again from this machine as bob@ to get your seat back.",
                 "Type your name at the table and press Enter (Ctrl+C leaves).")
    for sentence in sentences:
        assert set(sentence.split()) <= words, screen  # every word whole on some line
    assert not [line for line in lines if line.strip()[:1] in NO_START], screen
    assert "即可回到座位。" in "".join(lines).replace(" ", "")
