"""Replay files may come from anyone (a friend sends one): one built to cost memory is refused
quickly with a ReplayError, never decoded whole. An honest replay is about 40 bytes per array or
map; a file of empty arrays is one byte each, and decoded cost about 64 bytes of memory per byte of
file (a 64 MiB file: 4 GiB). A FIFO or a device is not a replay either (read, it never ends)."""

from __future__ import annotations

import os
import struct
import tracemalloc
from pathlib import Path

import pytest

from fengsheng_tui.replay_model import load_replay
from net.journal import ReplayError


def test_a_replay_of_millions_of_empty_arrays_is_refused_without_decoding_it(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.replay"
    count = 4 * 1024 * 1024
    bomb.write_bytes(b"\x81\xa6events\xdd" + struct.pack(">I", count) + b"\x90" * count)
    tracemalloc.start()
    try:
        with pytest.raises(ReplayError, match="arrays or maps"):
            load_replay(bomb)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 40 * 1024 * 1024, f"{peak // 2**20} MiB to refuse a {count // 2**20} MiB file"


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_a_replay_that_is_not_a_regular_file_is_refused(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "x.replay"
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/zero")
    with pytest.raises(ReplayError, match="not a regular file"):
        load_replay(path)
