"""A client keeps its own seat's replay from the frames it received: no server file is needed.

The recorder sees every `update` the client took (a patch arrives here as the update it stands
for, already checked by `net.client` and cleaned by `ClientState`), keeps the events once each (a
reconnect's snapshot repeats the log from `seq` 0) and a frame whenever the seat's hand, the
travelling message, the stack or its open prompt changed. At the game's end it hands back the
replay in the file format `fengsheng replay` reads (`replay_model.load_replay`).
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import msgpack

from net.journal import MAX_REPLAY, ReplayError
from net.replays import add_frame, frame_of

#: The replays a client keeps are named `<when>-<table>.seat<N>.replay` (prune_games groups by the
#: part before the first dot): the table's name reduced to safe characters.
UNSAFE = re.compile(r"[^\w-]+")
#: The most events and frames kept of one game: far above a long game (a few thousand each), so a
#: server that sends updates without end cannot make the client hold them without end.
MAX_EVENTS = 50_000
MAX_FRAMES = 50_000


class ReplayRecorder:
    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.events: list[dict[str, Any]] = []
        self.frames: list[dict[str, Any]] = []
        self.final: dict[str, Any] | None = None
        self.seat: int | None = None
        self._last_seq = -1
        #: Bytes of the events and frames kept (packed), and whether more came than a replay holds:
        #: past MAX_REPLAY nothing more is kept, and the game's replay is not saved.
        self.size = 0
        self.overflow = False

    def _room(self, item: Any) -> bool:
        """Whether `item` still fits in the replay; once one does not, nothing more is kept."""
        if not self.overflow:
            self.size += len(msgpack.packb(item, use_bin_type=True))
            self.overflow = self.size > MAX_REPLAY
        return not self.overflow

    def take(self, view: dict[str, Any] | None, events: list[Any]) -> None:
        """One update: its new events, then the view they led to."""
        for ev in events:
            if not isinstance(ev, dict):
                continue
            seq = ev.get("seq")
            if isinstance(seq, int):
                if seq == 0 and self.final is not None:
                    self.reset()  # the next game's first event
                if seq <= self._last_seq:
                    continue
                self._last_seq = seq
            if len(self.events) < MAX_EVENTS and self._room(ev):
                self.events.append(ev)
        if not isinstance(view, dict):
            return
        seat = view.get("seat")
        self.seat = seat if isinstance(seat, int) and not isinstance(seat, bool) else None
        if len(self.frames) < MAX_FRAMES and not self.overflow:
            kept = len(self.frames)
            add_frame(self.frames, frame_of(view, len(self.events)))
            if len(self.frames) > kept and not self._room(self.frames[-1]):
                self.frames.pop()
        if view.get("over"):
            self.final = view

    def replay(self, table: str | None) -> dict[str, Any] | None:
        """The finished game as a replay, or None while no game has ended."""
        if self.final is None:
            return None
        return {"table": table or "", "seat": self.seat, "config": self.final.get("config", {}),
                "events": list(self.events), "final": self.final, "frames": list(self.frames)}

    def save(self, folder: Path, table: str | None, when: float | None = None) -> Path | None:
        """Write the finished game's replay in `folder` (made private) and prune old ones there.

        Raises ReplayError, writing nothing, for a replay `fengsheng replay` could not read back
        (more than MAX_REPLAY bytes of frames, or arrays and maps denser than a replay may hold)."""
        from net.journal import pack_replay
        from net.private_files import write_private

        from .paths import private_dir, prune_games

        replay = self.replay(table)
        if replay is None:
            return None
        if self.overflow:
            raise ReplayError(f"the server sent more than the {MAX_REPLAY // (1024 * 1024)} MiB a replay may hold")
        data = pack_replay(replay)
        stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(when))
        name = UNSAFE.sub("_", table or "table").strip("_")[:40] or "table"
        label = "public" if self.seat is None else f"seat{self.seat}"
        private_dir(folder)
        path = folder / f"{stamp}-{name}.{label}.replay"
        number = 1
        while path.exists():
            number += 1
            path = folder / f"{stamp}-{name}-{number}.{label}.replay"
        write_private(path, data)
        prune_games(folder)
        return path
