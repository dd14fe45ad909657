"""Append-only table journals and per-seat replays, so a `kill -9` of the host loses nothing.

A journal is a file of records, each a 4-byte big-endian length and one msgpack map:
a `start` record (table name, config, seed, seat names, tokens, bots, host token), then one
`choice` record per applied choice, then an `end` record. Each batch of choices is handed to the
OS (`flush`) before the server tells anyone about it, so whatever a client has seen survives the
server process dying, and fsynced just after the frames are sent (`sync`), so a power cut loses at
most the batch in flight.
A record cut short by the crash is ignored on reading and truncated away on resume.
"""

from __future__ import annotations

import os
import struct
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

import msgpack

from net.protocol import PROTOCOL_VERSION

_HEADER = struct.Struct(">I")
#: A journal record larger than this is corruption, not data.
MAX_RECORD = 1024 * 1024
JOURNAL_SUFFIX = ".journal"
REPLAY_SUFFIX = ".replay"


class JournalError(ValueError):
    """The file is not a table journal (or its start record is unreadable)."""


def _pack(record: dict[str, Any]) -> bytes:
    body: bytes = msgpack.packb(record, use_bin_type=True)
    return _HEADER.pack(len(body)) + body


class Journal:
    """One table's journal, open for appending."""

    def __init__(self, path: Path, handle: BinaryIO) -> None:
        self.path = path
        self._file = handle

    @classmethod
    def create(cls, path: Path, start: dict[str, Any]) -> Journal:
        path.parent.mkdir(parents=True, exist_ok=True)
        journal = cls(path, open(path, "xb"))  # noqa: SIM115 - lives as long as the table
        journal.append({"t": "start", "version": PROTOCOL_VERSION, **start}, sync=True)
        # The directory entry must be durable too, or the file may vanish with the crash.
        dir_fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
        return journal

    @classmethod
    def reopen(cls, path: Path, valid_bytes: int) -> Journal:
        """Open an existing journal for appending after its last complete record."""
        handle = open(path, "r+b")  # noqa: SIM115
        handle.truncate(valid_bytes)
        handle.seek(valid_bytes)
        return cls(path, handle)

    def append(self, record: dict[str, Any], sync: bool = False) -> None:
        self._file.write(_pack(record))
        if sync:
            self.sync()

    def flush(self) -> None:
        """Hand what was appended to the OS: enough to survive a `kill -9` of the server."""
        self._file.flush()

    def sync(self) -> None:
        """Flush and fsync: called once per batch of choices, right after the clients are told."""
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        if not self._file.closed:
            self.sync()
            self._file.close()


@dataclass
class JournalContents:
    """What `read_journal` recovered: the start record, the choices, and how many bytes were whole."""

    start: dict[str, Any]
    choices: list[tuple[int, int, str]] = field(default_factory=list)
    end: dict[str, Any] | None = None
    valid_bytes: int = 0


def read_journal(path: Path) -> JournalContents:
    data = path.read_bytes()
    offset = 0
    records: list[dict[str, Any]] = []
    while offset + _HEADER.size <= len(data):
        (length,) = _HEADER.unpack_from(data, offset)
        if length > MAX_RECORD or offset + _HEADER.size + length > len(data):
            break  # cut short by the crash
        body = data[offset + _HEADER.size : offset + _HEADER.size + length]
        try:
            record = msgpack.unpackb(body, raw=False, strict_map_key=True)
        except Exception:  # a torn write: everything before it is still good
            break
        if not isinstance(record, dict):
            break
        records.append(record)
        offset += _HEADER.size + length
    if not records or records[0].get("t") != "start":
        raise JournalError(f"{path} is not a table journal")
    contents = JournalContents(start=records[0], valid_bytes=offset)
    for record in records[1:]:
        if record.get("t") == "choice":
            seat, prompt_id, option = record["c"]
            contents.choices.append((int(seat), int(prompt_id), str(option)))
        elif record.get("t") == "end":
            contents.end = record
    return contents


def write_replay(path: Path, replay: dict[str, Any]) -> None:
    """One seat's replay: only what that seat was shown (its projected events and final view)."""
    tmp = path.with_suffix(path.suffix + ".tmp")
    with open(tmp, "wb") as handle:
        handle.write(msgpack.packb({"version": PROTOCOL_VERSION, **replay}, use_bin_type=True))
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)


def read_replay(path: Path) -> dict[str, Any]:
    replay: dict[str, Any] = msgpack.unpackb(path.read_bytes(), raw=False, strict_map_key=True)
    return replay
