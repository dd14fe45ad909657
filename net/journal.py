"""Append-only table journals and per-seat replays, so a `kill -9` of the host loses nothing.

A journal starts with the 8 bytes `MAGIC`, then holds records, each a 4-byte big-endian length,
the 4-byte big-endian CRC-32 of the body, and the body, one msgpack map: a `start` record (table
name, config, seed, seat names, tokens, bots, host token, password), then one `choice` record per
applied choice, then an `end` record. Each batch of choices is handed to the OS (`flush`) before
the server tells anyone about it, so whatever a client has seen survives the server process dying,
and fsynced just after the frames are sent (`sync`), so a power cut loses at most the batch in
flight.

Reading tells a torn tail (the last record cut short by a crash: nothing whole follows it) from
damage before the end (whole records follow a bad one). A torn tail is reported and dropped when
the table resumes; damage refuses the resume unless the loss is accepted, and the damaged file is
then kept aside before anything is cut (`Table.resume`). Journals, records and replays are
owner-only files in owner-only folders (net/private_files.py).
"""

from __future__ import annotations

import contextlib
import logging
import os
import stat
import struct
import zlib
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

import msgpack

from engine.config import GameConfig
from net.private_files import create_private, open_private, sync_dir, write_private
from net.protocol import PROTOCOL_VERSION

#: The first bytes of a journal of this format (2: checksummed records).
MAGIC = b"FSJRNL2\n"
_HEADER = struct.Struct(">II")  # body length, CRC-32 of the body
_OLD_HEADER = struct.Struct(">I")
#: A journal record larger than this is corruption, not data.
MAX_RECORD = 1024 * 1024
JOURNAL_SUFFIX = ".journal"
REPLAY_SUFFIX = ".replay"

log = logging.getLogger("fengsheng.journal")

#: Threads that fsync the journals of every table in the process (`Journal.sync_soon`), made on
#: first use. A few, so that one slow disk flush does not queue every other table's behind it.
SYNC_THREADS = 4
_syncers: ThreadPoolExecutor | None = None


class JournalError(ValueError):
    """The file is not a table journal (or its start record is unreadable)."""


class JournalDamaged(JournalError):
    """Whole records follow a bad one: resuming would lose the choices after it."""

    def __init__(self, message: str, damage: Damage) -> None:
        super().__init__(message)
        self.damage = damage


def _pack(record: dict[str, Any]) -> bytes:
    body: bytes = msgpack.packb(record, use_bin_type=True)
    return _HEADER.pack(len(body), zlib.crc32(body)) + body


class Journal:
    """One table's journal, open for appending.

    A write that fails (a full disk, a removed folder) must not stop the game the journal is
    for: the first failure is logged as an error naming the file and why, and the journal
    writes nothing more (`failed` says why); the table plays on without it."""

    def __init__(self, path: Path, handle: BinaryIO) -> None:
        self.path = path
        self._file = handle
        self.failed: str | None = None
        #: Records were appended since the last `sync_soon` (a batch with none has nothing to fsync).
        self.unsynced = False

    def _write(self, action: Callable[[], object]) -> None:
        if self.failed is not None:
            return
        try:
            action()
        except (OSError, ValueError) as exc:  # ValueError: the file is closed
            self.failed = str(exc)
            log.error("cannot write the journal %s (%s): the game goes on, but from here on a crash of the "
                      "server loses its choices", self.path, exc)

    @classmethod
    def create(cls, path: Path, start: dict[str, Any]) -> Journal:
        handle = create_private(path)  # lives as long as the table
        handle.write(MAGIC)
        journal = cls(path, handle)
        journal.append({"t": "start", "version": PROTOCOL_VERSION, **start}, sync=True)
        if journal.failed is not None:
            journal.close()
            path.unlink(missing_ok=True)
            raise OSError(f"cannot write {path}: {journal.failed}")
        sync_dir(path.parent)  # the directory entry must be durable too, or the file may vanish
        return journal

    @classmethod
    def reopen(cls, path: Path, valid_bytes: int) -> Journal:
        """Open an existing journal for appending after its last whole record. Whatever lies past
        `valid_bytes` must already have been reported (a torn tail) or kept aside (accepted damage)."""
        handle = open_private(path)
        handle.truncate(valid_bytes)
        handle.seek(valid_bytes)
        return cls(path, handle)

    def append(self, record: dict[str, Any], sync: bool = False) -> None:
        self.unsynced = True
        self._write(lambda: self._file.write(_pack(record)))
        if sync:
            self.sync()
            self.unsynced = False

    def flush(self) -> None:
        """Hand what was appended to the OS: enough to survive a `kill -9` of the server."""
        self._write(self._file.flush)

    def sync(self) -> None:
        """Flush and fsync: called once per batch of choices, right after the clients are told."""
        self._write(self._flush_and_fsync)

    def sync_soon(self) -> Future[None]:
        """`sync` in one of the process's fsync threads; done once it has returned. Nothing on the
        event loop is woken when it is done: a table looks at the future when it next needs it
        (measured: an `asyncio.to_thread` per batch cost the loop about as much as the batch's
        fan-out, in the future's wake-up and the table task's extra steps)."""
        global _syncers
        self.unsynced = False  # here, on the loop: a record appended after this sets it again
        if _syncers is None:
            _syncers = ThreadPoolExecutor(SYNC_THREADS, thread_name_prefix="fengsheng-fsync")
        return _syncers.submit(self.sync)

    def _flush_and_fsync(self) -> None:
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        if not self._file.closed:
            self.sync()
            with contextlib.suppress(OSError):  # a failed flush was reported by `sync`
                self._file.close()


@dataclass(frozen=True)
class Damage:
    """Where reading stopped, and what lies after it.

    `torn`: nothing whole follows (the crash cut the last record short: `size` bytes at `offset`).
    Otherwise whole records follow the bad one: `choices_after` choices (and the end, if
    `end_after`) would be lost by resuming from `offset`."""

    offset: int
    size: int
    torn: bool
    choices_after: int = 0
    end_after: bool = False

    def describe(self, path: Path) -> str:
        if self.torn:
            return (f"{path}: the last record is torn ({self.size} bytes at offset {self.offset}, cut short "
                    "by a crash); it is dropped")
        lost = f"{self.choices_after} recorded choice{'s' if self.choices_after != 1 else ''}"
        if self.end_after:
            lost += " and the game's end"
        return (f"{path}: damaged record at byte offset {self.offset}: resuming would lose it and the "
                f"{lost} after it")


@dataclass
class JournalContents:
    """What `read_journal` recovered: the start record, the choices, how many bytes were whole,
    and the damage after them, if any."""

    start: dict[str, Any]
    choices: list[tuple[int, int, str]] = field(default_factory=list)
    end: dict[str, Any] | None = None
    valid_bytes: int = 0
    damage: Damage | None = None


def _record_at(data: bytes, offset: int) -> tuple[dict[str, Any], int] | None:
    """The whole, checksummed record at `offset` and the offset after it, or None."""
    if offset + _HEADER.size > len(data):
        return None
    length, crc = _HEADER.unpack_from(data, offset)
    end = offset + _HEADER.size + length
    if length > MAX_RECORD or end > len(data):
        return None
    body = data[offset + _HEADER.size : end]
    if zlib.crc32(body) != crc:
        return None
    try:
        record = msgpack.unpackb(body, raw=False, strict_map_key=True)
    except Exception:  # a checksum collision on garbage: not a record
        return None
    if not isinstance(record, dict):
        return None
    return record, end


def _records_from(data: bytes, offset: int) -> tuple[list[dict[str, Any]], int]:
    records = []
    while (found := _record_at(data, offset)) is not None:
        record, offset = found
        records.append(record)
    return records, offset


def _after_damage(data: bytes, offset: int) -> list[dict[str, Any]] | None:
    """The whole records after a bad one at `offset` (found by looking for the next record whose
    checksum holds), or None when nothing whole follows: a torn tail."""
    for candidate in range(offset + 1, len(data) - _HEADER.size + 1):
        if _record_at(data, candidate) is not None:
            return _records_from(data, candidate)[0]
    return None


def _old_format(data: bytes) -> bool:
    """A journal written before records had checksums: a bare length, then a `start` map."""
    if len(data) < _OLD_HEADER.size:
        return False
    (length,) = _OLD_HEADER.unpack_from(data)
    body = data[_OLD_HEADER.size : _OLD_HEADER.size + length]
    if length > MAX_RECORD or len(body) != length:
        return False
    try:
        record = msgpack.unpackb(body, raw=False, strict_map_key=True)
    except Exception:
        return False
    return isinstance(record, dict) and record.get("t") == "start"


def _start_problem(start: Any) -> str | None:
    """What in a journal's start record is not of the types `_start_record` writes (None: all is)."""
    def text(value: Any, nullable: bool = False) -> bool:
        return isinstance(value, str) or (nullable and value is None)

    if not isinstance(start, dict):
        return "the start record is not a map"
    config = start.get("config")
    if not isinstance(config, dict) or not all(isinstance(key, str) for key in config):
        return "the start record's config is not a map"
    try:
        GameConfig.from_dict(config).validate(deal_characters=False)
    except (TypeError, ValueError) as exc:
        return f"the start record's config is not a game ({str(exc)[:100]})"
    if not text(start.get("table")) or not text(start.get("host_token")) or not text(start.get("password"), True):
        return "the start record's table, host token or password is not text"
    if type(start.get("seed")) is not int:
        return "the start record's seed is not an integer"
    timers = start.get("timers", {})
    if not isinstance(timers, dict) or not all(
            isinstance(k, str) and type(v) in (int, float) for k, v in timers.items()):
        return "the start record's timers are not a map of seconds"
    seats = start.get("seats")
    if not isinstance(seats, list) or not all(
            isinstance(s, dict) and text(s.get("name")) and text(s.get("token"), True) and text(s.get("bot"), True)
            for s in seats):
        return "the start record's seats are not a list of seats"
    return None


def _is_choice(choice: Any) -> bool:
    return (isinstance(choice, list | tuple) and len(choice) == 3 and type(choice[0]) is int
            and type(choice[1]) is int and isinstance(choice[2], str))


#: Largest journal read: far above the longest game (a few thousand choices of about 30 bytes).
MAX_JOURNAL = 64 * 1024 * 1024


def read_journal(path: Path) -> JournalContents:
    data = _read_bounded(path, MAX_JOURNAL, "journal")
    if not data.startswith(MAGIC):
        if _old_format(data):
            raise JournalError(
                f"{path} is a journal of an older format (records without checksums): this version cannot "
                "resume it; finish that game with the version that wrote it")
        raise JournalError(f"{path} is not a table journal")
    records, offset = _records_from(data, len(MAGIC))
    if not records or records[0].get("t") != "start":
        raise JournalError(f"{path} is not a table journal (its start record is unreadable)")
    # Whole records (their checksums hold) of types this version never writes: refused by name.
    problem = _start_problem(records[0])
    if problem is not None:
        raise JournalError(f"{path}: not a journal this version can resume: {problem}")
    contents = JournalContents(start=records[0], valid_bytes=offset)
    for i, record in enumerate(records[1:], 1):
        if record.get("t") == "choice":
            choice: Any = record.get("c")
            if not _is_choice(choice):
                raise JournalError(f"{path}: not a journal this version can resume: record {i} is the choice "
                                   f"{choice!r:.60}, not [seat, prompt id, option]")
            contents.choices.append((choice[0], choice[1], choice[2]))
        elif record.get("t") == "end":
            contents.end = record
    if offset < len(data):
        after = _after_damage(data, offset)
        if after is None:
            contents.damage = Damage(offset, len(data) - offset, torn=True)
        else:
            contents.damage = Damage(
                offset, len(data) - offset, torn=False,
                choices_after=sum(1 for r in after if r.get("t") == "choice"),
                end_after=any(r.get("t") == "end" for r in after))
    return contents


def _read_bounded(path: Path, limit: int, what: str) -> bytes:
    """A regular file's bytes, at most `limit` (JournalError past it): a FIFO would block the read
    for good, `/dev/zero` never end, a huge file fill the memory."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise JournalError(f"{path} is not a regular file, so not a table {what}")
    with open(fd, "rb") as handle:
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise JournalError(f"{path} is over {limit // (1024 * 1024)} MiB: not a table {what} this game wrote")
    return data


def keep_aside(path: Path) -> Path:
    """Copy a damaged journal next to itself, whole, before a resume that accepted the loss cuts it."""
    number = 1
    while (aside := path.with_name(f"{path.name}.damaged-{number}")).exists():
        number += 1
    write_private(aside, path.read_bytes())
    return aside


#: Largest replay file read: far above a long game's events and frames (a 9-seat game's replay is
#: about 35 KiB).
MAX_REPLAY = 16 * 1024 * 1024
#: Bytes of file per array or map at the least: an honest replay has about 40, a file of empty
#: arrays 1 (and decoded, each costs some 64 bytes of memory), so such a file stops early.
REPLAY_BYTES_PER_CONTAINER = 16


class ReplayError(ValueError):
    """A file that is not a readable replay: what is wrong, in words, never a decoder's traceback."""


def pack_replay(replay: dict[str, Any]) -> bytes:
    """A replay's bytes, checked as `read_replay` will check them: a replay that could not be read
    back (over MAX_REPLAY, or denser in arrays and maps than a replay may be: what a hostile server's
    frames can make of a client's own replay) is a ReplayError here, and no file is written."""
    data: bytes = msgpack.packb({"version": PROTOCOL_VERSION, **replay}, use_bin_type=True)
    if len(data) > MAX_REPLAY:
        raise ReplayError(f"this replay would be {len(data)} bytes, over the {MAX_REPLAY} a replay may hold")
    decode_replay(data, "this replay")
    return data


def write_replay(path: Path, replay: dict[str, Any]) -> None:
    """One seat's replay: only what that seat was shown (its projected events and final view).
    Raises ReplayError, writing nothing, for a replay `read_replay` would refuse."""
    write_private(path, pack_replay(replay))


def read_replay(path: Path) -> dict[str, Any]:
    """Decode a replay strictly (a map with string keys, no ext types, under MAX_REPLAY): a replay
    may come from anyone, so any damage is a ReplayError. Its contents are checked by the reader."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        with open(fd, "rb") as handle:
            if not stat.S_ISREG(os.fstat(fd).st_mode):  # a FIFO or a device never ends
                raise ReplayError(f"{path}: not a regular file")
            data = handle.read(MAX_REPLAY + 1)
    except OSError as exc:
        raise ReplayError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    if len(data) > MAX_REPLAY:
        raise ReplayError(f"{path}: a replay over the cap of {MAX_REPLAY} bytes")
    return decode_replay(data, str(path))


def decode_replay(data: bytes, where: str) -> dict[str, Any]:
    """The replay in `data` (at most MAX_REPLAY bytes), decoded under the container budget."""
    budget = max(4096, len(data) // REPLAY_BYTES_PER_CONTAINER)
    containers = 0

    def count(container: Any) -> Any:
        nonlocal containers
        containers += 1
        if containers > budget:
            raise ReplayError(f"{where}: more arrays or maps than a replay of {len(data)} bytes holds")
        return container

    try:
        replay = msgpack.unpackb(data, raw=False, strict_map_key=True, ext_hook=_no_ext, max_ext_len=0,
                                 list_hook=count, object_hook=count)
    except ReplayError:
        raise
    except Exception as exc:  # untrusted bytes: any decoder failure means "damaged"
        raise ReplayError(f"{where} is damaged or not a fengsheng replay ({type(exc).__name__}: {exc})") from None
    if not isinstance(replay, dict):
        raise ReplayError(f"{where} is not a fengsheng replay (not a map)")
    return replay


def _no_ext(code: int, data: bytes) -> Any:
    raise ReplayError(f"msgpack ext type {code} is not allowed in a replay")
