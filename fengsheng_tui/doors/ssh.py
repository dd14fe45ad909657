"""The SSH door: an SSH server inside the host process (asyncssh) whose only service is the game.

A guest types `ssh -p PORT NAME@HOST`: any user name is accepted and no password or key is needed.
The door draws a name prompt itself (default: the last name this guest played under, else the SSH
user name), asks the table password when there is one, and only then starts the guest's own client
(`doors.ssh_guest`, the Textual UI of `fengsheng join`) in its own process on a pseudo-terminal, joined
to this table over loopback. A connection that never gets past the prompt costs no process and is
hung up after `Limits.name_seconds`.

A guest is known by the public key he authenticated with; a guest without one, by his address and
SSH user name. Each guest has a folder (`ssh-guests/ID` under the data folder) that is his client's
HOME: the seat tokens `fengsheng join` keeps there are what gives a dropped guest his seat back.

Nothing else is served: exec requests get one line and exit status 2, subsystems (SFTP), port, X11
and agent forwarding are refused, and the client's environment never reaches the game client
beyond a few display variables.
"""

from __future__ import annotations

import asyncio
import codecs
import fcntl
import hashlib
import itertools
import json
import logging
import os
import re
import secrets
import signal
import struct
import sys
import termios
import time
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TextIO

import asyncssh
from rich.text import Text

from net.text import shown

from ..paths import load_json
from ..preferences import locale_lang
from .guest import SPAWN_BURST, SPAWN_SECONDS, QuietLog, SpawnBudget, loopback_source
from .ssh_guest import EXIT_FULL

log = logging.getLogger("fengsheng.ssh")

HOST_KEY_FILE = "ssh_host_ed25519_key"
GUESTS_DIR = "ssh-guests"
#: Longest name the server accepts (net.protocol.NAME).
NAME_LIMIT = 24
DEFAULT_SIZE = (80, 24)
#: The largest window a guest's client is given (columns, rows): a bigger one is clipped.
MAX_SIZE = (400, 150)
#: An address whose last wrong table password is this old (seconds) starts afresh.
PASSWORD_FORGET = 600.0
#: Seconds a connection stays open after its one session has ended (then the door closes it).
SESSION_LINGER = 2.0
#: Tries at the prompt that ended with a refused or crashed client, before the door hangs up.
MAX_ATTEMPTS = 5
#: Client variables passed on to the game client (display only); everything else is dropped.
PASSED_ENV = {"COLORTERM": r"[a-z0-9]{1,16}", "TEXTUAL_ANIMATIONS": r"none|basic|full", "NO_COLOR": r"[ -~]{0,8}"}
#: Every client variable the door reads (as asyncssh keeps them: bytes); any other is dropped.
READ_ENV = frozenset(name.encode() for name in (*PASSED_ENV, "LC_ALL", "LC_MESSAGES", "LANG"))
#: Why a forwarding channel is refused, as the guest's ssh shows it.
REFUSED = "this door only runs the game"
TERM_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,63}")
#: A session's stages before its game client runs.
PROMPT_STAGES = frozenset({"new", "name", "password", "waiting", "watch"})
_ARRIVALS = itertools.count()
ANSI_RE = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-_]|[\x00-\x08\x0b-\x1f\x7f]")


@dataclass(frozen=True)
class Limits:
    """How many guests the door lets in, and how long it waits for them."""

    per_address: int = 4
    total: int = 16
    #: Seconds to type a name (and the table password) before the door hangs up.
    name_seconds: float = 120.0
    #: Seconds for the SSH handshake and authentication.
    login_seconds: float = 30.0
    #: Game clients one address may start: a burst, then one per `spawn_seconds` (`SpawnBudget`).
    spawn_burst: int = SPAWN_BURST
    spawn_seconds: float = SPAWN_SECONDS


class TableInfo(Protocol):
    """What the door needs of the table: its name and seats for the prompt, its password."""

    name: str
    password: str | None

    def summary(self) -> tuple[int, int, str, bool]: ...


def load_host_key(folder: Path) -> asyncssh.SSHKey:
    """The door's host key, generated on first use and kept 0600 (with its `.pub` beside it), so
    guests see the same fingerprint every time the host runs."""
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    path = folder / HOST_KEY_FILE
    try:
        key = asyncssh.read_private_key(str(path))
    except (asyncssh.KeyImportError, UnicodeDecodeError, IsADirectoryError) as exc:
        # Never replaced silently: guests who know the old fingerprint would be told to distrust
        # the new one, and the host may want the old key back.
        raise ValueError(f"{path} is not a private key ({exc}); move it aside and start again to make "
                         "a new one (guests' ssh will then warn of a changed host key)") from None
    except FileNotFoundError:
        key = asyncssh.generate_private_key("ssh-ed25519", comment="fengsheng ssh door")
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:  # another host started at the same moment: use its key
            return asyncssh.read_private_key(str(path))
        with os.fdopen(fd, "wb") as out:
            out.write(key.export_private_key())
        key.write_public_key(str(path) + ".pub")
        return key
    if os.stat(path).st_mode & 0o077:
        os.chmod(path, 0o600)
        log.warning("ssh: %s was readable by others; now 0600", path)
    return key


def guest_id(key: asyncssh.SSHKey | None, address: str, username: str) -> str:
    """The folder name of a guest: his key's fingerprint, else his address and SSH user name."""
    basis = f"key {key.get_fingerprint()}" if key is not None else f"address {address} user {username}"
    return hashlib.sha256(basis.encode()).hexdigest()[:24]


def printable(text: str, limit: int = 200) -> str:
    """Text as every screen shows untrusted text (`net.text.shown`), at most `limit` characters."""
    return shown(text)[:limit]


def cells(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


class LineEditor:
    """One line of input from a raw terminal: printable characters, Backspace, Ctrl+U, Enter, Ctrl+C
    (Tabs are counted in `tabs`, for the caller to give a meaning).

    Escape sequences (arrows, function keys, OSC strings) are skipped whole; invalid UTF-8 is dropped.
    """

    def __init__(self, text: str = "", secret: bool = False, limit: int = NAME_LIMIT) -> None:
        self.text = text
        self.secret = secret
        self.limit = limit
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="ignore")
        self._escape = ""
        #: Tabs pressed since the caller last looked (never part of the text).
        self.tabs = 0

    @property
    def shown(self) -> str:
        return "*" * len(self.text) if self.secret else self.text

    def feed(self, data: bytes) -> str | None:
        """Take keys; return "enter" or "cancel" when one of them ends the line, else None."""
        for ch in self._decoder.decode(data):
            if self._escape:
                self._escape += ch
                kind = self._escape[1]
                if len(self._escape) > 64 or (
                    len(self._escape) == 2 and kind not in "[O]"
                ) or (kind in "[O" and len(self._escape) > 2 and "@" <= ch <= "~") or (
                    kind == "]" and (ch == "\x07" or self._escape.endswith("\x1b\\"))
                ):
                    self._escape = ""
                continue
            if ch == "\x1b":
                self._escape = ch
            elif ch in "\r\n":
                return "enter"
            elif ch == "\t":
                self.tabs += 1
            elif ch in "\x03\x04":
                return "cancel"
            elif ch in "\x7f\x08":
                self.text = self.text[:-1]
            elif ch == "\x15":
                self.text = ""
            elif ch.isprintable() and len(self.text) < self.limit and shown(self.text + ch) == self.text + ch:
                self.text += ch
        return None


class SshDoor:
    """The SSH server of one table. `start()` listens; `close()` hangs up every guest."""

    def __init__(self, table: TableInfo, game_host: str, game_port: int, data_dir: Path,
                 limits: Limits | None = None) -> None:
        self.table = table
        self.game_host = "127.0.0.1" if game_host in ("", "0.0.0.0") else game_host
        self.game_port = game_port
        #: Guests' clients come from their own loopback address (`guest.loopback_source`, one per
        #: guest machine) when the game listens on loopback.
        self.sources = self.game_host.startswith("127.")
        self.data_dir = data_dir
        self.limits = limits or Limits()
        self.key: asyncssh.SSHKey | None = None
        self.port = 0
        #: The address guests are told to connect to (set by `open_door`).
        self.address = ""
        self.connections: set[_Connection] = set()
        self.sessions: set[_Session] = set()
        #: Failed table passwords per address: (failures in a row, monotonic time of the last).
        self.failures: dict[str, tuple[int, float]] = {}
        self._acceptor: Any = None
        self._spare: _Client | None = None
        self._spare_task: asyncio.Task[None] | None = None
        self._closing = False
        self._refusals = QuietLog(log, "ssh: ")
        self._prompt_lines = QuietLog(log, "ssh: ", lines=30, level=logging.INFO, what="lines")
        self.spawns = SpawnBudget(self.limits.spawn_burst, self.limits.spawn_seconds)
        #: Spare clients started (door-wide): connections reaching the prompt and leaving in a loop
        #: would otherwise start and end one each time.
        self._spares = SpawnBudget(3, 10.0)

    @property
    def fingerprint(self) -> str:
        assert self.key is not None
        return str(self.key.get_fingerprint())

    async def start(self, host: str, port: int) -> None:
        logging.getLogger("asyncssh").setLevel(logging.WARNING)
        self.key = load_host_key(self.data_dir)
        self._acceptor = await asyncssh.create_server(
            lambda: _Connection(self), host, port, server_host_keys=[self.key], encoding=None,
            line_editor=False, allow_pty=True, x11_forwarding=False, agent_forwarding=False,
            allow_scp=False, sftp_factory=None, gss_host=None, host_based_auth=False,
            public_key_auth=True, kbdint_auth=True, password_auth=False,
            login_timeout=self.limits.login_seconds, keepalive_interval=15, keepalive_count_max=4,
            server_version="fengsheng",
        )
        self.port = int(self._acceptor.get_port())

    async def close(self) -> None:
        self._closing = True
        if self._acceptor is not None:
            self._acceptor.close()
        if self._spare_task is not None:
            await asyncio.shield(self._spare_task)
        if self._spare is not None:
            spare, self._spare = self._spare, None
            spare.discard()
            try:
                await asyncio.wait_for(spare.process.wait(), 5)
            except TimeoutError:
                pass
        sessions = list(self.sessions)
        for session in sessions:
            session.hang_up()
        for conn in list(self.connections):
            conn.conn.close()
        await asyncio.gather(*(s.gone() for s in sessions), return_exceptions=True)
        if self._acceptor is not None:
            await self._acceptor.wait_closed()

    async def client(self) -> _Client:
        """A client process for a guest who has typed his name: the spare if one is ready (it has
        imported the game already, which is most of a client's start-up), else a new one."""
        if self._spare_task is not None:
            await asyncio.shield(self._spare_task)
        spare, self._spare = self._spare, None
        if spare is not None and spare.process.returncode is None:
            client = spare
        else:
            if spare is not None:
                spare.discard()
            client = await _Client.spawn(self.data_dir / GUESTS_DIR)
        self.want_spare()
        return client

    def want_spare(self) -> None:
        """Start the spare client if a guest is at the prompt and none is ready or coming: at most
        one process waits, however many connections sit at the prompt."""
        if self._spare is not None or self._spare_task is not None or self._closing:
            return
        if not any(s.stage in ("name", "password", "waiting", "watch") for s in self.sessions):
            return
        if self._spares.wait("spare") > 0:
            return
        self._spare_task = asyncio.get_running_loop().create_task(self._make_spare())

    def spare_unneeded(self) -> None:
        """The last guest at the prompt has gone: end the waiting spare rather than keep it idle."""
        if self._spare is not None and not any(
            s.stage in ("name", "password", "waiting", "watch") for s in self.sessions
        ):
            spare, self._spare = self._spare, None
            spare.discard()

    async def _make_spare(self) -> None:
        try:
            spare = await _Client.spawn(self.data_dir / GUESTS_DIR)
        except OSError as exc:
            log.warning("ssh: no spare client: %s", exc)
            return
        finally:
            self._spare_task = None
        if self._closing:
            spare.discard()
        else:
            self._spare = spare

    def command(self, address: str | None = None) -> str:
        """What a guest types to come in."""
        return f"ssh -p {self.port} NAME@{address or self.address or 'HOST'}"

    def guest_dir(self, guest: str) -> Path:
        return self.data_dir / GUESTS_DIR / guest

    def last_name(self, guest: str) -> str | None:
        try:
            data = load_json(self.guest_dir(guest) / "door.json")
        except (OSError, ValueError):
            return None
        name = data.get("name") if isinstance(data, dict) else None
        return printable(name, NAME_LIMIT) if isinstance(name, str) else None

    def prepare_guest(self, guest: str, name: str) -> Path:
        """The guest's folder (0700), remembering the name he plays under for his next login."""
        folder = self.guest_dir(guest)
        folder.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        folder.mkdir(exist_ok=True, mode=0o700)
        try:
            fd = os.open(folder / "door.json", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump({"name": name}, out, ensure_ascii=False)
        except OSError as exc:
            log.warning("ssh: cannot keep guest %s's name: %s", guest, exc)
        return folder

    def guest_settings(self, guest: str) -> Path:
        """The guest's settings.json (his client's XDG_CONFIG_HOME is `config` in his folder)."""
        return self.guest_dir(guest) / "config" / "fengsheng" / "settings.json"

    def prompt_log(self, line: str) -> None:
        """Log what a connection did before any game client (logged in, left, timed out), at most
        30 lines a minute: connections that come and go in a loop cost a few lines, not thousands."""
        self._prompt_lines.log_line(line)

    def quiet_log(self, line: str) -> None:
        """Log a refusal, at most 10 lines a minute (`QuietLog`): a flood is those lines and a count."""
        self._refusals.log_line(line)

    def password_wait(self, address: str) -> float:
        """Seconds this address must still wait after its failed passwords (1, 2, 4 … 30)."""
        count, last = self.failures.get(address, (0, 0.0))
        if not count:
            return 0.0
        return max(0.0, last + min(30.0, 2.0 ** (count - 1)) - time.monotonic())

    def check_password(self, address: str, given: str) -> bool:
        expected = self.table.password
        if not expected or secrets.compare_digest(given.encode(), expected.encode()):
            self.failures.pop(address, None)
            return True
        now = time.monotonic()
        count, last = self.failures.get(address, (0, 0.0))
        count = 1 if now - last > PASSWORD_FORGET else count + 1
        if len(self.failures) > 4096:  # bounded: forget the quiet addresses first
            self.failures = {a: v for a, v in self.failures.items() if now - v[1] <= PASSWORD_FORGET}
        self.failures[address] = (count, now)
        log.warning("ssh: wrong table password from %s (%d in a row)", address, count)
        return False

    def push_out(self, address: str, admitted: list[_Connection]) -> bool:
        """Make room in a full door for a guest from `address`: the oldest connection still before
        the game (`_Connection.before_game`) of the address holding the most places goes, if
        that address holds at least two more than `address` (a fair share: a stranger with a few
        addresses cannot keep the door full for its idle time, re-connecting as each place times
        out, and nobody's game is ever ended for a newcomer). False if no one may be pushed out."""
        counts: dict[str, int] = {}
        for conn in admitted:
            counts[conn.address] = counts.get(conn.address, 0) + 1
        mine = counts.get(address, 0)
        waiting = [c for c in admitted if c.before_game and counts[c.address] >= mine + 2]
        if not waiting:
            return False
        busiest = max(counts[c.address] for c in waiting)
        evict = min((c for c in waiting if counts[c.address] == busiest), key=lambda c: c.order)
        self.quiet_log(f"door full: a place at the prompt of {evict.address} ({busiest} guests) "
                       f"went to {address} ({mine})")
        evict.pushed_out()
        return True

    async def take_over(self, session: _Session) -> bool:
        """A guest who logs in again under the same name ends his older session first, so that
        his seat has no live connection when the new client claims it. Only a key proves it is
        the same guest: two people behind one address (a NAT, a shared machine) may both log in
        without one under the same SSH user name, so a keyless login never ends a live session
        (False: the name is in use; the older session's seat is given back only once it is gone)."""
        for other in list(self.sessions):
            if (other is not session and other.guest == session.guest and other.name == session.name
                    and other.child is not None):
                if session.conn.key is None:
                    log.info("ssh: %s asked for %r, which a live session of that address and user "
                             "holds: refused", session.who, session.name)
                    return False
                log.info("ssh: %s logged in again as %r; the older session ends", session.who, session.name)
                other.hang_up()
                other.conn.conn.close()
                try:
                    await asyncio.wait_for(other.gone(), 5)
                except TimeoutError:
                    pass
        return True


class _Connection(asyncssh.SSHServer):
    """One SSH connection: admission, authentication (anything goes), one session at most."""

    def __init__(self, door: SshDoor) -> None:
        self.door = door
        self.conn: Any = None
        self.address = "?"
        self.username = ""
        self.key: asyncssh.SSHKey | None = None
        self.refusal: str | None = None
        self.admitted = False
        self.session: _Session | None = None
        self._idle: asyncio.TimerHandle | None = None
        self.lost = False
        #: Arrival order, oldest first (`SshDoor.push_out` pushes out the oldest).
        self.order = next(_ARRIVALS)

    def connection_made(self, conn: Any) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername") or ("?", 0)
        self.address = str(peer[0])
        door, limits = self.door, self.door.limits
        if len(door.connections) >= 2 * limits.total + limits.per_address or sum(
            c.address == self.address for c in door.connections
        ) >= 2 * limits.per_address:  # past what a refusal line is worth: drop it at once
            door.quiet_log(f"connections from {self.address} dropped at once: too many connections")
            conn.abort()
            return
        # Logged in but never asking for the game (no session, or a session that never starts a
        # shell) would hold a place in the limits for as long as it answers keepalives.
        self._idle = asyncio.get_running_loop().call_later(limits.login_seconds + limits.name_seconds,
                                                           self._idle_check)
        admitted = [c for c in door.connections if c.admitted]
        if sum(c.address == self.address for c in admitted) >= limits.per_address:
            self.refusal = f"too many guests from {self.address} ({limits.per_address}); try again later"
        elif len(admitted) >= limits.total and not door.push_out(self.address, admitted):
            self.refusal = f"the door is full ({limits.total} guests); try again later"
        else:
            self.admitted = True
        door.connections.add(self)

    @property
    def before_game(self) -> bool:
        """Admitted and not yet playing (logging in, at the prompt, or offered to watch): a place
        the door may give to a newcomer (`SshDoor.push_out`); a guest whose client runs keeps his."""
        return self.admitted and (self.session is None or self.session.stage in PROMPT_STAGES)

    def pushed_out(self) -> None:
        """Give this connection's place to a newcomer: say why, and hang up."""
        self.admitted = False
        reason = ("the door is full: your place at the prompt went to a guest from an address with "
                  "fewer guests; try again later")
        session = self.session
        if session is not None and session.stage != "new" and session.chan is not None and not session.closed:
            session._write("\n")
            session._finish(f"fengsheng: {reason}", 1)
        else:
            self.refusal = reason
            self.conn.close()

    def _idle_check(self) -> None:
        if self.session is None or self.session.stage == "new":
            self.door.prompt_log(f"{self.address} never asked for the game: hung up")
            self.conn.close()

    def session_over(self) -> None:
        """The connection's one session has ended: close the connection too, once the guest's ssh
        has had a moment to read the last words and exit status (it usually closes first)."""
        if self.lost:
            return
        if self._idle is not None:
            self._idle.cancel()
        self._idle = asyncio.get_running_loop().call_later(SESSION_LINGER, self.conn.close)

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost = True
        if self._idle is not None:
            self._idle.cancel()
        self.door.connections.discard(self)
        if self.session is not None:
            self.session.hang_up()

    def begin_auth(self, username: str) -> bool:
        """Anyone may come in; the name is kept printable (it is logged and drawn as a default)."""
        self.username = printable(username, 64)
        return True

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        """Every key is welcome: it is the guest's identity (asyncssh checks the signature after)."""
        self.key = key
        return True

    def kbdint_auth_supported(self) -> bool:
        return True

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> bool:
        """A guest with no key gets in with no question (keyboard-interactive, zero prompts)."""
        self.key = None
        return True

    def password_auth_supported(self) -> bool:
        return False

    def session_requested(self) -> Any:
        if self.session is not None:
            self.door.quiet_log(f"{self.address} asked for a second session on one connection: refused")
            return False
        self.session = _Session(self)
        return self.session

    def connection_requested(self, dest_host: str, dest_port: int, orig_host: str, orig_port: int) -> bool:
        self.door.quiet_log(f"{self.address} asked to connect to {printable(dest_host, 80)}:{dest_port}: refused")
        raise asyncssh.ChannelOpenError(asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED, REFUSED)

    def server_requested(self, listen_host: str, listen_port: int) -> bool:
        self.door.quiet_log(f"{self.address} asked to listen on {printable(listen_host, 80)}:{listen_port}: refused")
        return False

    def unix_connection_requested(self, dest_path: str) -> bool:
        self.door.quiet_log(f"{self.address} asked to connect to {printable(dest_path, 80)}: refused")
        raise asyncssh.ChannelOpenError(asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED, REFUSED)

    def unix_server_requested(self, listen_path: str) -> bool:
        self.door.quiet_log(f"{self.address} asked to listen on {printable(listen_path, 80)}: refused")
        return False


def _set_size(fd: int, size: tuple[int, int], pixels: tuple[int, int]) -> None:
    cols, rows = size
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, pixels[0], pixels[1]))


@dataclass
class _Client:
    """A game client process on its own pty, waiting for its guest on a pipe (`ssh_guest`)."""

    process: asyncio.subprocess.Process
    master: int
    config_fd: int

    @classmethod
    async def spawn(cls, folder: Path) -> _Client:
        """Start `ssh_guest` with an environment built from scratch (the guest's part comes with
        his config); `-s -P`: no user site-packages, no current folder on the import path."""
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        env = {"TERM": "xterm-256color", "LANG": "C.UTF-8", "HOME": str(folder), "PATH": os.defpath,
               "PYTHONPATH": str(Path(__file__).resolve().parents[2]),
               # A guest starts in the language the host's locale names (Settings switches it).
               "LC_MESSAGES": "zh_CN.UTF-8" if locale_lang() == "zh" else "C.UTF-8"}
        master, slave = os.openpty()
        read_end, write_end = os.pipe()
        try:
            process = await asyncio.create_subprocess_exec(
                sys.executable, "-s", "-P", "-m", "fengsheng_tui.doors.ssh_guest", str(read_end),
                stdin=slave, stdout=slave, stderr=slave, cwd=folder, env=env, start_new_session=True,
                pass_fds=(read_end,),
            )
        except BaseException:
            os.close(master)
            os.close(write_end)
            raise
        finally:
            os.close(slave)
            os.close(read_end)
        return cls(process, master, write_end)

    def start(self, config: dict[str, Any]) -> None:
        """Hand the client its guest: it reads the config to the end of the pipe, then plays."""
        try:
            os.write(self.config_fd, json.dumps(config).encode())
        finally:
            os.close(self.config_fd)
            self.config_fd = -1

    def discard(self) -> None:
        """End a client that never got a guest (closing its pipe is its signal to exit)."""
        if self.config_fd >= 0:
            os.close(self.config_fd)
            self.config_fd = -1
        os.close(self.master)
        if self.process.returncode is None:
            _signal_group(self.process.pid, signal.SIGHUP)


class _Session(asyncssh.SSHServerSession):
    """A guest's terminal: the door's prompt first, then his game client on a pty."""

    def __init__(self, conn: _Connection) -> None:
        self.conn = conn
        self.door = conn.door
        self.chan: Any = None
        self.pty = False
        self.term = "xterm-256color"
        self.size = DEFAULT_SIZE
        self.pixels = (0, 0)
        self.command: str | None = None
        self.stage = "new"
        self.editor = LineEditor()
        self.guest = ""
        self.name = ""
        #: The game's language the guest chose at the prompt with Tab (None: not chosen here).
        self.lang: str | None = None
        self.notice = ""
        self.password: str | None = None
        self.source: str | None = None
        self.attempts = 0
        self.child: asyncio.subprocess.Process | None = None
        self.master = -1
        self.reading = False
        self.pending = bytearray()
        self.tail = bytearray()
        self.output_done = asyncio.Event()
        self.closed = False
        self._timer: asyncio.TimerHandle | None = None
        self._task: asyncio.Task[None] | None = None
        self._gone = asyncio.Event()
        self._gone.set()

    @property
    def who(self) -> str:
        key = self.conn.key.get_fingerprint() if self.conn.key is not None else "no key"
        return f"{self.conn.username}@{self.conn.address} ({key})"

    # ------------------------------------------------------------------ asyncssh callbacks

    def connection_made(self, chan: Any) -> None:
        self.chan = chan
        # asyncssh keeps every variable a client sends, with no limit on their number (3000 of
        # 20 KB cost the host process 58 MB): the door keeps only those it reads.
        process_env = chan._process_env_request

        def env_request(packet: Any) -> bool:
            process_env(packet)
            for key in [key for key in chan._env if key not in READ_ENV]:
                del chan._env[key]
            return True

        chan._process_env_request = env_request

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int], term_modes: Any) -> bool:
        self.pty = True
        if TERM_RE.fullmatch(term_type or ""):
            self.term = term_type
        self._resize(*term_size)
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        self.command = command
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        self.door.quiet_log(f"{self.conn.address} asked for subsystem {printable(subsystem, 40)!r}: refused")
        return False

    def session_started(self) -> None:
        conn = self.conn
        if conn.refusal is not None:
            self.door.quiet_log(f"{self.who} refused: {conn.refusal}")
            self._finish(f"fengsheng: {conn.refusal}", 1)
            return
        if self.command is not None:
            self.door.quiet_log(f"{self.who} sent a command: answered with one line")
            local = conn.conn.get_extra_info("sockname") or ("HOST", self.door.port)
            self._finish(f"fengsheng: this door only runs the game; log in without a command: "
                         f"ssh -p {local[1]} {local[0]}", 2)
            return
        self.guest = guest_id(conn.key, conn.address, conn.username)
        self.door.sessions.add(self)
        self.door.prompt_log(f"{self.who} logged in")
        self.name = self.door.last_name(self.guest) or printable(conn.username, NAME_LIMIT)
        self.ask_name()

    def data_received(self, data: bytes, datatype: Any) -> None:
        if self.stage in ("name", "password", "watch"):
            self._key_in(data)
        elif self.stage == "playing" and self.master >= 0:
            if len(self.pending) < 65536:
                self.pending += data
            self._flush_input()

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        self._resize(width, height, pixwidth, pixheight)
        if self.master >= 0:
            try:
                _set_size(self.master, self.size, self.pixels)
            except OSError:
                pass

    def eof_received(self) -> bool:
        if self.stage != "playing":
            self._finish("fengsheng: the input ended before a name was given; log in from a terminal", 1)
        return True

    def pause_writing(self) -> None:
        self._stop_reading()

    def resume_writing(self) -> None:
        self._start_reading()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.guest and not self.closed:
            if self.stage == "playing":
                log.info("ssh: %s disconnected", self.who)
            else:
                self.door.prompt_log(f"{self.who} disconnected at the prompt")
        self.hang_up()

    # ------------------------------------------------------------------ the prompt

    def _resize(self, width: int, height: int, pixwidth: int = 0, pixheight: int = 0) -> None:
        """Follow the guest's window, within MAX_SIZE: a client paints every cell it is told of."""
        self.size = (min(width, MAX_SIZE[0]) or DEFAULT_SIZE[0], min(height, MAX_SIZE[1]) or DEFAULT_SIZE[1])
        self.pixels = (min(pixwidth, 65535), min(pixheight, 65535))

    def _write(self, text: str) -> None:
        if self.chan is not None and not self.closed:
            self.chan.write(text.replace("\n", "\r\n").encode())

    def _finish(self, line: str, status: int) -> None:
        """Say one line (if any) and end the session with `status`."""
        if self.chan is None or self.closed:
            return
        if line:
            self.chan.write_stderr((line + ("\r\n" if self.pty else "\n")).encode())
        self.chan.exit(status)
        self.closed = True
        self.hang_up()

    def _arm_timer(self) -> None:
        if self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(self.door.limits.name_seconds, self._timed_out)

    def _timed_out(self) -> None:
        self.door.prompt_log(f"{self.who} gave no name in {self.door.limits.name_seconds:.0f} s: hung up")
        self._write("\n")
        self._finish(f"fengsheng: no name after {self.door.limits.name_seconds:.0f} s; come back when ready", 1)

    def ask_name(self) -> None:
        self.stage = "name"
        self.editor = LineEditor(self.name)
        self._arm_timer()
        self._draw()
        self.door.want_spare()

    def _lines(self, text: str, style: str = "") -> str:
        """A paragraph folded to the guest's window, whole words (Chinese by 禁则), each line styled
        (an SGR code such as `1` bold): the terminal itself would break `seat` as `sea` + `t`."""
        from ..widgets.cjk_text import rows

        width = max(20, self.size[0] - 1)  # the last column left free: some terminals wrap there
        on, off = (f"\x1b[{style}m", "\x1b[0m") if style else ("", "")
        return "".join(f"{on}{row.plain}{off}\n" for row in rows(Text(text), width))

    def _header(self) -> str:
        taken, total, phase, _ = self.door.table.summary()
        title = printable(self.door.table.name, 40)
        text = "\x1b[H\x1b[2J" + self._lines(f"风声 The Message · {title} · {taken}/{total} · {phase}", "1") + "\n"
        if self.notice:
            text += self._lines(f" {printable(self.notice, 400)} ", "7") + "\n"
        return text

    def game_lang(self) -> str:
        """The language his game starts in: as he chose with Tab, else as his Settings keep it (his
        last game here), else his own locale (ssh sends LANG with SendEnv), else the host's."""
        if self.lang is not None:
            return self.lang
        try:
            data = load_json(self.door.guest_settings(self.guest)) if self.guest else None
        except (OSError, ValueError):
            data = None
        saved = data.get("lang") if isinstance(data, dict) else None
        if saved in ("zh", "en"):
            return str(saved)
        locale = self._sent_locale()
        if locale is not None:
            return "zh" if locale.lower().startswith("zh") else "en"
        return locale_lang()

    def _sent_locale(self) -> str | None:
        sent = self.chan.get_environment() if self.chan is not None else {}
        return next((sent[v] for v in ("LC_ALL", "LC_MESSAGES", "LANG") if isinstance(sent.get(v), str)
                     and sent[v]), None)

    def _draw(self) -> None:
        if self.stage == "name":
            keyless = ""
            if self.conn.key is None:
                user = printable(self.conn.username, 40)
                keyless = (self._lines(f"没有 SSH 密钥：掉线后请在同一台电脑上以 {user}@ 重新登录，即可回到座位。", "2")
                           + self._lines(f"No SSH key: after a drop, log in again from this machine as {user}@ "
                                         "to get your seat back.", "2"))
            language = "中文 · Tab: English" if self.game_lang() == "zh" else "English · Tab: 中文"
            self._write(self._header() + self._lines("输入你的名字，按 Enter（Ctrl+C 离开）")
                        + self._lines("Type your name at the table and press Enter (Ctrl+C leaves).") + keyless
                        + self._lines(f"游戏语言 Language: {language}", "1") + "\n")
        elif self.stage == "password":
            self._write(self._header() + self._lines("这张桌有密码 · This table has a password.") + "\n")
        elif self.stage == "watch":
            self._write(self._header() + self._lines("Enter 观战 watch the game · Ctrl+C 离开 leave"))
            return
        self._redraw_line()

    def _label(self) -> str:
        return "名字 Name: " if self.stage == "name" else "密码 Password: "

    def _redraw_line(self) -> None:
        self._write("\r\x1b[K" + self._label() + self.editor.shown)

    def _key_in(self, data: bytes) -> None:
        result = self.editor.feed(data)
        tabs, self.editor.tabs = self.editor.tabs, 0
        if tabs % 2 and self.stage == "name":  # Tab at the name prompt: the game's other language
            self.lang = "en" if self.game_lang() == "zh" else "zh"
        if result == "cancel":
            self.door.prompt_log(f"{self.who} left at the prompt")
            self._write("\n")
            self._finish("", 0)
        elif result == "enter":
            self._entered()
        elif tabs and self.stage == "name":
            self._draw()
        elif self.stage != "watch":
            self._redraw_line()

    def _entered(self) -> None:
        if self.stage == "watch":
            self._launch(spectate=True)
            return
        if self.stage == "name":
            name = self.editor.text.strip()
            if not name:
                self.notice = "名字不能为空 · a name, please"
                self._draw()
                return
            self.name = name
            if self.door.table.password:
                self.stage = "password"
                self.editor = LineEditor(secret=True, limit=200)
                self._draw()
                return
            self._launch()
            return
        given = self.editor.text
        wait = self.door.password_wait(self.conn.address)
        if wait <= 0 and self.door.check_password(self.conn.address, given):
            self.password = given
            self._launch()
            return
        self.notice = "密码不对 · wrong password"
        self.stage = "waiting"
        self._write(self._header())
        asyncio.get_running_loop().call_later(max(wait, self.door.password_wait(self.conn.address)),
                                              self._ask_password_again)

    def _ask_password_again(self) -> None:
        if self.closed:
            return
        self.stage = "password"
        self.editor = LineEditor(secret=True, limit=200)
        self._draw()

    # ------------------------------------------------------------------ the game client

    def _launch(self, spectate: bool = False) -> None:
        wait = self.door.spawns.wait(self.conn.address)
        if wait > 0:  # the prompt stays; Enter again later
            self.door.quiet_log(f"{self.who}: no client started: too many from {self.conn.address} lately")
            self.notice = (f"新会话太频繁，请 {wait:.0f} 秒后再按 Enter · too many new sessions from one "
                           f"address: press Enter again in {wait:.0f} s")
            if self.stage == "password":
                self.editor = LineEditor(secret=True, limit=200)
            self._draw()
            return
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.stage = "starting"
        self.notice = ""
        self._write("\n\n正在入座 · joining the table …\n")
        self._gone.clear()
        self._task = asyncio.get_running_loop().create_task(self._play(spectate))

    async def _play(self, spectate: bool) -> None:
        try:
            if not await self.door.take_over(self):
                self.notice = (f"{self.name} 正被同一地址、同一用户名的另一会话使用（掉线的会话一分钟内结束；用 SSH 密钥"
                               f"登录可立即接管）· {self.name} is in use by another session of this address and user "
                               "name: a dropped one ends within a minute; with an SSH key you take it over at once")
                if not self.closed:
                    self.ask_name()
                return
            if self.closed:
                return
            status = await self._run_client(spectate)
        except OSError as exc:
            log.warning("ssh: cannot start a client for %s: %s", self.who, exc)
            self._finish(f"fengsheng: the game could not start ({exc})", 1)
            return
        finally:
            self._gone.set()
        if self.closed:
            return
        if status == 0:
            log.info("ssh: %s (%r) left the game", self.who, self.name)
            self._finish("", 0)
            return
        self.attempts += 1
        if status == EXIT_FULL:
            reason = "没有空位（桌满或已开局）· no free seat: the table is full or its game has started"
        else:
            reason = self._last_words() or f"the game client stopped (status {status})"
        log.info("ssh: %s (%r): client ended with status %d: %s", self.who, self.name, status, reason)
        if self.attempts >= MAX_ATTEMPTS:
            self._finish(f"fengsheng: {reason}", 1)
            return
        self.notice = reason
        if status == EXIT_FULL and not spectate:
            self.stage = "watch"
            self.editor = LineEditor()
            self._draw()
        else:
            self.ask_name()

    def _keep_lang(self, lang: str) -> None:
        from dataclasses import replace

        from ..preferences import load_preferences, save_preferences

        path = self.door.guest_settings(self.guest)
        save_preferences(replace(load_preferences(path), lang=lang), path)

    async def _run_client(self, spectate: bool) -> int:
        folder = self.door.prepare_guest(self.guest, self.name)
        env = {"TERM": self.term, "HOME": str(folder), "XDG_CONFIG_HOME": str(folder / "config"),
               "XDG_DATA_HOME": str(folder / "data")}
        sent = self.chan.get_environment() if self.chan is not None else {}
        for variable, allowed in PASSED_ENV.items():
            value = sent.get(variable)
            if isinstance(value, str) and re.fullmatch(allowed, value):
                env[variable] = value
        if self.lang is not None:  # chosen at the prompt: kept in his Settings, as Settings `o` would
            self._keep_lang(self.lang)
            env["LC_MESSAGES"] = "zh_CN.UTF-8" if self.lang == "zh" else "C.UTF-8"
        elif (locale := self._sent_locale()) is not None:  # his own locale (SendEnv), else the host's
            env["LC_MESSAGES"] = "zh_CN.UTF-8" if locale.lower().startswith("zh") else "C.UTF-8"
        self.source = loopback_source(self.conn.address) if self.door.sources else None
        config = {"host": self.door.game_host, "port": self.door.game_port, "table": self.door.table.name,
                  "name": self.name, "password": self.password, "spectate": spectate, "env": env,
                  "cwd": str(folder), "source": self.source}
        client = await self.door.client()
        if self.closed:
            client.discard()
            return 0
        try:
            _set_size(client.master, self.size, self.pixels)
            client.start(config)
        except OSError:
            client.discard()
            raise
        self.child, master = client.process, client.master
        self.master = master
        os.set_blocking(master, False)
        self.tail.clear()
        self.output_done.clear()
        self.stage = "playing"
        log.info("ssh: %s plays as %r%s (client pid %d, %dx%d, from %s)", self.who, self.name,
                 " (watching)" if spectate else "", self.child.pid, *self.size, self.source or "loopback")
        if self.closed:
            self.hang_up()
        else:
            self._start_reading()
        status = await self.child.wait()
        try:
            await asyncio.wait_for(self.output_done.wait(), 2)
        except TimeoutError:
            pass
        self._close_master()
        self.child = None
        return -status if status < 0 else status

    def _start_reading(self) -> None:
        if self.master >= 0 and not self.reading and not self.output_done.is_set():
            asyncio.get_running_loop().add_reader(self.master, self._readable)
            self.reading = True

    def _stop_reading(self) -> None:
        if self.reading:
            asyncio.get_running_loop().remove_reader(self.master)
            self.reading = False

    def _readable(self) -> None:
        try:
            data = os.read(self.master, 65536)
        except BlockingIOError:
            return
        except OSError:  # EIO: the client closed its terminal
            data = b""
        if not data:
            self._stop_reading()
            self.output_done.set()
            return
        self.tail = (self.tail + data)[-4096:]
        if self.chan is not None and not self.closed:
            self.chan.write(data)

    def _flush_input(self) -> None:
        loop = asyncio.get_running_loop()
        while self.pending and self.master >= 0:
            try:
                written = os.write(self.master, self.pending)
            except BlockingIOError:
                loop.add_writer(self.master, self._flush_input)
                return
            except OSError:
                self.pending.clear()
                break
            del self.pending[:written]
        if self.master >= 0:
            loop.remove_writer(self.master)

    def _close_master(self) -> None:
        if self.master >= 0:
            self._stop_reading()
            asyncio.get_running_loop().remove_writer(self.master)
            os.close(self.master)
            self.master = -1

    def _last_words(self) -> str:
        """What the client printed after leaving the full screen (its reason for stopping), one line."""
        text = self.tail.decode("utf-8", "ignore").rpartition("\x1b[?1049l")[2]
        lines = [printable(ANSI_RE.sub("", line)).strip() for line in text.replace("\r", "\n").split("\n")]
        return " ".join(line for line in lines if line)[-300:]

    def hang_up(self) -> None:
        """End the session's client: close its terminal (SIGHUP), and SIGKILL it if it lingers."""
        self.closed = True
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.conn.session_over()
        self.door.sessions.discard(self)
        self.door.spare_unneeded()
        self._close_master()
        child = self.child
        if child is not None and child.returncode is None:
            _signal_group(child.pid, signal.SIGHUP)
            asyncio.get_running_loop().call_later(3.0, _kill_if_alive, child)

    async def gone(self) -> None:
        """Wait until the client process (if any) has exited."""
        await self._gone.wait()


def _signal_group(pid: int, sig: int) -> None:
    try:
        os.killpg(pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def _kill_if_alive(child: asyncio.subprocess.Process) -> None:
    if child.returncode is None:
        log.warning("ssh: client pid %d ignored the hang-up: killed", child.pid)
        _signal_group(child.pid, signal.SIGKILL)


def banner(door: SshDoor, address: str) -> list[str]:
    """What the host prints at start-up: where guests connect, and the key they should see."""
    return [
        f"ssh door on port {door.port}, host key {door.fingerprint} (ED25519)",
        f"guests type: {door.command(address)}",
    ]



def parse_listen(spec: str, default_host: str) -> tuple[str, int]:
    """`2222` or `127.0.0.1:2222` (what `--ssh` takes) as (address, port); port 0 picks a free one."""
    host, sep, port = spec.rpartition(":")
    try:
        number = int(port)
    except ValueError:
        raise ValueError(f"--ssh {spec!r}: give a port, or ADDRESS:PORT") from None
    if not 0 <= number <= 65535:
        raise ValueError(f"--ssh {spec!r}: the port must be in 0..65535")
    return (host if sep and host else default_host), number


def parse_limits(spec: str | None) -> Limits:
    """`PER_ADDRESS,TOTAL,NAME_SECONDS[,LOGIN_SECONDS[,SPAWN_BURST[,SPAWN_SECONDS]]]` (the hidden
    `--ssh-limits`, for tests); None: the defaults."""
    if not spec:
        return Limits()
    per_address, total, seconds, *more = spec.split(",")
    login, burst, every = (*more, "", "", "")[:3]
    defaults = Limits()
    return Limits(int(per_address), int(total), float(seconds), float(login or defaults.login_seconds),
                  int(burst or defaults.spawn_burst), float(every or defaults.spawn_seconds))


async def open_door(spec: str, table: TableInfo, game_host: str, game_port: int, data_dir: Path,
                    listen_host: str, shown_address: str, limits: str | None = None,
                    out: TextIO | None = None) -> SshDoor:
    """Start the door `--ssh SPEC` asks for and print where guests connect (raises ValueError or OSError).

    `data_dir` keeps the host key and the guests' folders; `shown_address` is the LAN address
    printed when the door listens on every interface."""
    host, port = parse_listen(spec, listen_host)
    door = SshDoor(table, game_host, game_port, data_dir, parse_limits(limits))
    await door.start(host, port)
    door.address = shown_address if host in ("0.0.0.0", "") else host
    for line in banner(door, door.address):
        print(line, file=out or sys.stdout, flush=True)
    return door
