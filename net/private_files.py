"""Files that hold a table's secrets: owner-only files (0600) in owner-only folders (0700).

A journal holds the seed (which fixes every hand and identity), every seat token and the table
password; a record and the replays hold the seed or the whole game. All of them are written
through here, so the one rule lives in one place (a future paths module can take it whole).
"""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path
from typing import BinaryIO

PRIVATE_FILE = 0o600
PRIVATE_DIR = 0o700

log = logging.getLogger("fengsheng.files")


def private_dir(path: Path) -> None:
    """Create `path` and any missing parent owner-only. A folder that already exists keeps its
    mode (it may be shared, like /tmp): the files in it are owner-only anyway, and a folder others
    can read is reported once."""
    missing = []
    folder = path
    while not folder.exists():
        missing.append(folder)
        if folder.parent == folder:
            break
        folder = folder.parent
    for folder in reversed(missing):
        try:
            os.mkdir(folder, PRIVATE_DIR)
        except FileExistsError:
            continue
        os.chmod(folder, PRIVATE_DIR)  # the umask may have taken bits away, never added any
    if not missing:
        mode = path.stat().st_mode
        if mode & (stat.S_IRWXG | stat.S_IRWXO) and not mode & stat.S_ISVTX:
            log.warning("%s can be read by others (mode %o); its game files are owner-only", path,
                        stat.S_IMODE(mode))


def create_private(path: Path) -> BinaryIO:
    """A new owner-only file open for writing; an existing file is an error (never overwritten)."""
    private_dir(path.parent)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE)
    os.fchmod(fd, PRIVATE_FILE)
    return os.fdopen(fd, "wb")


def open_private(path: Path) -> BinaryIO:
    """An existing file open for reading and writing, made owner-only first (a journal written by
    an older version was 0644)."""
    fd = os.open(path, os.O_RDWR)
    os.fchmod(fd, PRIVATE_FILE)
    return os.fdopen(fd, "r+b")


def write_private(path: Path, data: bytes) -> None:
    """Write a whole owner-only file atomically (a temporary file, fsynced, then renamed)."""
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.unlink(missing_ok=True)
    try:
        with create_private(tmp) as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)  # a full disk must not keep half a file as well
        raise


def sync_dir(path: Path) -> None:
    """Make a folder's entries durable (a new file's name must survive the crash too)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
