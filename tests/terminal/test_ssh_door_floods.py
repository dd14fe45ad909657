"""What one stranger can do to the SSH door below the prompt: log in and never ask for the game,
and flood it with refused requests. A real `fengsheng host --ssh` on loopback, asyncssh as the
hostile client (it can send what OpenSSH would not), OpenSSH as the honest guest after.
"""

from __future__ import annotations

import asyncio
import re
import socket
import time

import asyncssh
import pytest

from .test_ssh_door import PROMPT, Guest, door_clients, door_port, keys, ssh_command, wait_log  # noqa: F401 - keys is a fixture

pytestmark = pytest.mark.ssh


async def connect(port: int, source: str, user: str) -> asyncssh.SSHClientConnection:
    key = asyncssh.generate_private_key("ssh-ed25519")
    return await asyncssh.connect("127.0.0.1", port, username=user, known_hosts=None, client_keys=[key],
                                  agent_path=None, config=None, local_addr=(source, 0))


def test_logged_in_but_never_asking_for_the_game_is_hung_up(game_host, keys) -> None:  # noqa: F811
    """Before: a connection that logged in and opened no session, or a session that never asked
    for a shell, was kept for as long as it answered keepalives, holding a guest's place in the
    limits (two such per address were enough to keep that address out for good)."""
    host = game_host("--players", "4", "--ssh", "127.0.0.1:0", "--ssh-limits", "2,3,3,1")
    port = door_port(host)

    async def squat() -> list[float]:
        idle = await connect(port, "127.0.0.7", "squat")  # logged in, no session at all
        half = await connect(port, "127.0.0.7", "half")
        await half.create_session(asyncssh.SSHClientSession)  # a session, but no pty, shell or command
        started = time.monotonic()
        ends = []
        for conn in (idle, half):
            await asyncio.wait_for(conn.wait_closed(), 15)
            ends.append(time.monotonic() - started)
        return ends

    ends = asyncio.run(squat())
    assert max(ends) < 8  # 1 s to log in + 3 s to ask for a name, then hung up
    assert re.search(r"127\.0\.0\.7 never asked for the game: hung up", host.log.read_text())
    guest = Guest(ssh_command(port, "gus", keys("gus"), "-o", "BindAddress=127.0.0.7", tty="-tt"))
    try:
        guest.read_until(PROMPT.encode())  # the address is free again
    finally:
        guest.stop()


def test_floods_of_refused_requests_are_a_few_log_lines(game_host) -> None:
    """Before: every refused forwarding request, subsystem and dropped connection was a line in
    the host's log: one connection could write thousands of lines a second."""
    host = game_host("--players", "4", "--ssh", "127.0.0.1:0")
    port = door_port(host)

    async def flood() -> None:
        conn = await connect(port, "127.0.0.8", "flood")
        for n in range(60):
            with pytest.raises(asyncssh.ChannelOpenError):
                await conn.open_connection("127.0.0.1", 9 + n)
        for _ in range(20):
            with pytest.raises(asyncssh.ChannelOpenError):
                await conn.start_sftp_client()
        conn.close()
        await conn.wait_closed()

    asyncio.run(flood())
    socks = []
    for _ in range(60):  # far past twice the per-address share: dropped as they come
        sock = socket.create_connection(("127.0.0.1", port), source_address=("127.0.0.9", 0))
        socks.append(sock)
    time.sleep(0.5)
    for sock in socks:
        sock.close()
    time.sleep(0.3)
    log = host.log.read_text()
    refusals = [line for line in log.splitlines() if re.search(r"asked to connect|asked for subsystem|dropped at once|asked for a second session", line)]
    assert 1 <= len(refusals) <= 10, log
    assert "more refusals were not logged" in log or len(refusals) == 10


def test_the_prompt_shows_a_user_name_as_every_screen_shows_text(game_host) -> None:
    """The door's prompt follows the one rule of net/text.py. Before: its default name (the SSH
    user name) and typed keys kept the invisible fillers and a stack of 12 combining marks."""
    host = game_host("--players", "4", "--ssh", "127.0.0.1:0")
    port = door_port(host)
    user = "Bob" + "\u3164" * 6 + "e" + "\u0301" * 12  # (asyncssh sends no unassigned code point)

    async def visit() -> str:
        key = asyncssh.generate_private_key("ssh-ed25519")
        async with asyncssh.connect("127.0.0.1", port, username=user, known_hosts=None, client_keys=[key],
                                    agent_path=None, config=None) as conn:
            process = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
            shown = await asyncio.wait_for(process.stdout.readuntil(PROMPT.encode()), 10)
            shown += await asyncio.wait_for(process.stdout.read(200), 5)
            process.stdin.write("\u3164\uffa0Z".encode())
            typed = await asyncio.wait_for(process.stdout.readuntil(b"Z"), 5)
            process.close()
            return (shown + typed).decode()

    screen = asyncio.run(visit())
    name_line = screen.rpartition(PROMPT)[2]
    # SSH's SASLprep (NFKC) composes e + U+0301 into é: at most four more marks may follow.
    assert re.fullmatch("Bob[e\u00e9]\u0301{1,4}Z", name_line), repr(name_line)
    assert not any(ch in screen for ch in "\u3164\uffa0\u1160") and "\u0301" * 5 not in screen


class _Table:
    """What the door needs of a table (name, password, seats) without a game server."""

    name = "t"
    password = None

    def summary(self) -> tuple[int, int, str, bool]:
        return 0, 4, "lobby", False


async def test_a_flood_of_environment_variables_costs_the_door_nothing(tmp_path) -> None:
    """Before: asyncssh kept every `env` request of a session (3000 of 20 KB: 58 MB in the host
    process, and no limit on their number). Now only the variables the door reads are kept."""
    from fengsheng_tui.doors.ssh import READ_ENV, SshDoor

    door = SshDoor(_Table(), "127.0.0.1", 9, tmp_path)
    await door.start("127.0.0.1", 0)
    try:
        conn = await connect(door.port, "127.0.0.1", "env")
        env = {f"V{n}": "x" * 20_000 for n in range(1500)} | {"LANG": "zh_CN.UTF-8", "COLORTERM": "truecolor"}
        chan, _ = await conn.create_session(asyncssh.SSHClientSession, term_type="xterm", env=env)
        for _ in range(100):
            if door.sessions and next(iter(door.sessions)).stage == "name":
                break
            await asyncio.sleep(0.05)
        (session,) = door.sessions
        kept = session.chan.get_environment_bytes()  # all asyncssh holds of them
        assert set(kept) <= READ_ENV and sum(len(k) + len(v) for k, v in kept.items()) < 100
        assert session.chan.get_environment() == {"LANG": "zh_CN.UTF-8", "COLORTERM": "truecolor"}
        chan.close()
        conn.close()
        await conn.wait_closed()
    finally:
        await door.close()


def test_logging_in_and_pressing_enter_in_a_loop_starts_few_clients(game_host) -> None:
    """Before: every Enter at the prompt started a game client (about a second of CPU each), and
    every connection at the prompt a spare: one stranger doing that in a loop kept the host's
    cores busy. Now an address has a budget of client starts (here 2, then one a minute)."""
    host = game_host("--players", "4", "--ssh", "127.0.0.1:0", "--ssh-limits", "4,16,30,30,2,60")
    port = door_port(host)

    async def visit(n: int) -> bytes:
        conn = await connect(port, "127.0.0.11", f"loop{n}")
        process = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
        screen = await asyncio.wait_for(process.stdout.readuntil(PROMPT.encode()), 10)
        process.stdin.write(b"\r")
        try:
            screen += await asyncio.wait_for(process.stdout.readuntil(b"Enter again in"), 4)
        except TimeoutError:
            pass
        conn.close()
        await conn.wait_closed()
        return screen

    screens = []
    for n in range(3):
        screens.append(asyncio.run(visit(n)))
        if n < 2:
            wait_log_count(host, r"plays as 'loop\d'", n + 1)
    assert [b"too many new sessions from one address" in screen for screen in screens] == [False, False, True]
    time.sleep(1)
    assert len(re.findall(r"plays as 'loop\d'", host.log.read_text())) == 2


def wait_log_count(host, pattern: str, count: int, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while len(re.findall(pattern, host.log.read_text())) < count:
        assert time.monotonic() < deadline, host.log.read_text()
        time.sleep(0.05)


def test_coming_and_going_in_a_loop_is_a_few_log_lines(game_host) -> None:
    """Before: each connection that reached the prompt and left wrote two lines (logged in,
    disconnected): a loop of them, about ten a second from one stranger, filled the host's log."""
    host = game_host("--players", "4", "--ssh", "127.0.0.1:0")
    port = door_port(host)

    async def churn() -> None:
        for n in range(45):
            conn = await connect(port, "127.0.0.12", f"churn{n}")
            process = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
            await asyncio.wait_for(process.stdout.readuntil(PROMPT.encode()), 10)
            conn.close()
            await conn.wait_closed()

    asyncio.run(churn())
    time.sleep(0.5)
    log = host.log.read_text()
    lines = [line for line in log.splitlines() if "churn" in line]
    assert len(lines) == 30, len(lines)  # 90 events in a few seconds: the minute's 30 lines
    conn_lines = re.findall(r"churn\d+@127\.0\.0\.12 \(SHA256:\S+\) logged in", log)
    assert conn_lines, log


def test_addresses_holding_the_door_full_give_way_and_no_game_is_ended(game_host, keys) -> None:  # noqa: F811
    """Before: the door's places (here 3) were first come, first served until the name timeout:
    a stranger with two addresses took them all at the prompt and, coming back as each timed
    out, kept everyone else out for good. Now a newcomer takes the oldest prompt place of the
    address holding the most (at least two more than his own); a guest whose game runs keeps his."""
    host = game_host("--players", "4", "--ssh", "127.0.0.1:0", "--ssh-limits", "2,3,30")
    port = door_port(host)
    player = Guest(ssh_command(port, "pia", keys("pia"), "-o", "BindAddress=127.0.0.21", tty="-tt"))

    async def squat_then_newcomers() -> tuple[list[bytes], bytes, bytes]:
        squatters = []
        for n in range(2):
            conn = await connect(port, "127.0.0.22", f"squat{n}")
            process = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
            await asyncio.wait_for(process.stdout.readuntil(PROMPT.encode()), 10)
            squatters.append((conn, process))
        newcomer = await connect(port, "127.0.0.23", "new")
        arrived = await newcomer.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
        seen = await asyncio.wait_for(arrived.stdout.readuntil(PROMPT.encode()), 10)
        ends = []
        for _conn, process in squatters:
            try:
                ends.append(await asyncio.wait_for(process.stderr.read(), 1))
            except TimeoutError:
                ends.append(b"(still at the prompt)")
        late = await connect(port, "127.0.0.24", "late")
        refused = await late.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
        full = await asyncio.wait_for(refused.stderr.read(), 10)
        for conn in (*(c for c, _ in squatters), newcomer, late):
            conn.close()
        return ends, seen, full

    try:
        player.read_until(PROMPT.encode())
        player.send(b"\r")
        wait_log(host, r"plays as 'pia'")
        ends, seen, full = asyncio.run(squat_then_newcomers())
        assert PROMPT.encode() in seen
        assert sum(b"your place at the prompt went to a guest" in end for end in ends) == 1, ends
        assert b"the door is full (3 guests)" in full  # every address holds one now
        assert player.process.poll() is None and len(door_clients(host)) >= 1
        assert "went to 127.0.0.23" in host.log.read_text()
    finally:
        player.stop()


def test_a_keyless_login_never_ends_a_live_session(game_host) -> None:
    """Before: two people behind one address (a NAT, a shared machine) who log in without a key
    under the same SSH user name are one guest to the door; the second pressing Enter on the
    name the prompt offered him (the first one's) ended the first one's session and took his seat
    and hand. Now only a key takes over a live session; a keyless login is told the name is in use."""
    host = game_host("--players", "4", "--bots", "3", "--start", "--bot-delay", "30", "--ssh", "127.0.0.1:0")
    port = door_port(host)
    first = Guest(ssh_command(port, "pat", None, "-o", "BindAddress=127.0.0.31", tty="-tt"))
    second = Guest(ssh_command(port, "pat", None, "-o", "BindAddress=127.0.0.31", tty="-tt"))
    try:
        first.read_until(PROMPT.encode())
        first.send(b"\r")
        wait_log(host, r"pat took seat \d")
        seen = len(second.read_until((PROMPT + "pat").encode()))
        second.send(b"\r")
        second.read_until(b"in use by another session of this address and user", timeout=15, after=seen)
        assert first.process.poll() is None
        assert "pat reconnected" not in host.log.read_text()
        assert "pat@127.0.0.31 (no key) asked for 'pat', which a live session" in host.log.read_text()
    finally:
        first.stop()
        second.stop()


@pytest.mark.parametrize("damage", [b"garbage\x00\xff", b"-----BEGIN OPENSSH PRIVATE KEY-----\ncut short", "folder"])
def test_a_damaged_host_key_is_named_and_never_replaced(tmp_path, damage) -> None:
    """Before: asyncssh's "Invalid private key" (or a UnicodeDecodeError traceback) with no word
    of which file. Now the host is told which file and what to do; the file stays as it was."""
    from fengsheng_tui.doors.ssh import HOST_KEY_FILE, load_host_key

    path = tmp_path / HOST_KEY_FILE
    if damage == "folder":
        path.mkdir()
    else:
        path.write_bytes(damage)
    with pytest.raises(ValueError, match="is not a private key") as info:
        load_host_key(tmp_path)
    assert str(path) in str(info.value) and "move it aside" in str(info.value)
    assert path.is_dir() if damage == "folder" else path.read_bytes() == damage
