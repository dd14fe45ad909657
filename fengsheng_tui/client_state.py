"""What the client knows, as plain data: the last view, the log, chat, the connection state.

The app applies every server message here and widgets render from it, so the rules of
"what we show" are testable without Textual. Countdowns are computed from the time an
update arrived, through an injectable clock, so snapshot tests can freeze them.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from net.protocol import time_left

from .i18n import Words
from .replay_recorder import ReplayRecorder
from .safe_text import clean_tree

LOG_LIMIT = 500


@dataclass
class LogEntry:
    """An event (rendered in the current language on demand) or a chat line."""

    event: dict[str, Any] | None = None
    chat: tuple[str, str] | None = None  # (name, text)
    seats: list[dict[str, Any]] = field(default_factory=list)
    #: The chat line is a spectator's (the server sends it with no seat): shown as such, so a
    #: spectator cannot pass for a player.
    spectator: bool = False

    #: The seat that said the chat line (None: a spectator, or not sent).
    seat: int | None = None

    def speaker(self, words: Words, me: int | None = None) -> str:
        """Who said the chat line, marked the way every name is: `(spectating)` for a spectator,
        `(you)` for our own seat (`me`)."""
        name = words.name(self.chat[0]) if self.chat is not None else ""
        if self.spectator:
            return words.marked(name, words("spectator"))
        return words.you(name) if me is not None and self.seat == me else name


@dataclass
class ClientState:
    clock: Callable[[], float] = time.monotonic
    seat: int | None = None
    token: str | None = None
    table: str | None = None
    host: bool = False
    view: dict[str, Any] | None = None
    lobby: dict[str, Any] | None = None
    received_at: float = 0.0
    log: list[LogEntry] = field(default_factory=list)
    connected: bool = False
    error: str | None = None
    error_code: str | None = None
    #: The prompt of ours whose choice the server refused (paused, illegal …): it is open again.
    refused: int | None = None
    replay_path: str | None = None
    #: (target, face) of the last 试探 we saw played face-up to us, until its answer is logged.
    _probe: tuple[Any, dict[str, Any]] | None = None
    #: `seq` of the last event logged, and whether that game has ended (the next `seq` 0 is a new
    #: game, not a reconnect's snapshot repeating what is logged already).
    _last_seq: int = -1
    _game_ended: bool = False
    #: Identity notes the player put on seats (seat -> red/blue/neutral/unknown): kept here on
    #: this machine for this game only, never sent; the next game starts with none.
    notes: dict[int, str] = field(default_factory=dict)
    #: What this seat was shown of the game so far, for the replay the client keeps of it.
    recorder: ReplayRecorder = field(default_factory=ReplayRecorder)

    def apply(self, msg: dict[str, Any]) -> str:
        """Take one server message; returns its type so the app can route it.

        Every string in it is cleaned of control and format characters first (`safe_text`):
        what the client keeps, every widget may show."""
        msg = clean_tree(msg)
        kind = str(msg.get("type", ""))
        if kind == "welcome":
            self.seat = msg.get("seat")
            self.token = msg.get("token") or self.token
            self.table = msg.get("table")
            self.host = bool(msg.get("host"))
            self.connected = True
        elif kind == "lobby":
            table = msg.get("table")
            self.lobby = table if isinstance(table, dict) else {}
            self._game_ended = True
            # Host rights move (the host left the lobby): what the newest lobby says holds.
            self.host = bool(self.lobby.get("host", self.host))
            you = self.lobby.get("you", self.seat)
            # Seats are renumbered when someone leaves: our seat is what the newest frame says.
            self.seat = you if isinstance(you, int) and not isinstance(you, bool) else None
        elif kind == "update":
            view = msg.get("view")
            if isinstance(view, dict):
                self.view = view
                self.received_at = self.clock()
                seat = view.get("seat", self.seat)
                self.seat = seat if isinstance(seat, int) and not isinstance(seat, bool) else None
                replay = view.get("replay")
                if isinstance(replay, str):
                    self.replay_path = replay
            seats = list(self.view.get("seats", [])) if self.view else []
            self.recorder.take(view if isinstance(view, dict) else None, list(msg.get("events") or []))
            for ev in msg.get("events") or []:
                if isinstance(ev, dict):
                    self.log_event(ev, seats)
            if self.view is not None and self.view.get("over"):
                self._game_ended = True
            if self.error_code == "paused" and not (self.view or {}).get("paused"):
                self.error = self.error_code = None  # the table runs again: choose again
        elif kind == "chat":
            seat = msg.get("seat")
            self.log.append(LogEntry(chat=(str(msg.get("name", "?")), str(msg.get("text", ""))),
                                     spectator="seat" in msg and seat is None,
                                     seat=seat if isinstance(seat, int) and not isinstance(seat, bool) else None))
        elif kind == "error" and msg.get("code") == "timed_out":
            # What happened, not what to fix: a log line, not a note on the next prompt.
            self.log.append(LogEntry(event={"kind": "timed_out"}))
        elif kind == "error":
            self.error = str(msg.get("message", msg.get("code", "")))
            self.error_code = str(msg.get("code", ""))
            ref = msg.get("ref")
            self.refused = ref if isinstance(ref, int) and not isinstance(ref, bool) else None
        del self.log[:-LOG_LIMIT]
        return kind

    def log_event(self, ev: dict[str, Any], seats: list[dict[str, Any]]) -> None:
        """Log an event once: a reconnect's snapshot repeats the game's whole log, and a new
        game's first event gets a line between the two games."""
        seq = ev.get("seq")
        if isinstance(seq, int):
            if seq == 0 and self._game_ended and self._last_seq >= 0:
                self.log.append(LogEntry(event={"kind": "new_game"}))
                self._last_seq = -1
                self.notes.clear()
            if seq <= self._last_seq:
                return
            self._last_seq = seq
            self._game_ended = False
        self.add_event(ev, seats)

    def add_event(self, ev: dict[str, Any], seats: list[dict[str, Any]]) -> None:
        """Log an event, joining what belongs together into one line.

        A skill that counts as a card logs `skill_used` then `played`: only the `played` line
        stays. The answer to a 试探 we used or received carries the probe's face, which we saw
        when it was played (the answer itself is public and names no card)."""
        kind = ev.get("kind")
        card = ev.get("card")
        if kind == "played" and isinstance(card, dict) and card.get("skill") and self.log:
            last = self.log[-1].event
            if last is not None and last.get("kind") == "skill_used" and last.get("seat") == ev.get("seat") \
                    and last.get("skill") == card.get("skill"):
                self.log.pop()
        if kind == "played" and isinstance(card, dict) and isinstance(card.get("probe"), dict):
            self._probe = (ev.get("target"), card)
        elif kind == "probe_answer" and self._probe is not None and self._probe[0] == ev.get("seat"):
            ev = {**ev, "probe": self._probe[1]}
            self._probe = None
        self.log.append(LogEntry(event=ev, seats=seats))

    @property
    def prompt(self) -> dict[str, Any] | None:
        if self.view is None:
            return None
        prompt = self.view.get("prompt")
        return prompt if isinstance(prompt, dict) else None

    @property
    def seats(self) -> list[dict[str, Any]]:
        return list(self.view.get("seats", [])) if self.view else []

    @property
    def auto(self) -> bool:
        """Our seat is handed to a stand-in bot (托管): its prompts are the bot's to answer."""
        seats = self.seats
        seat = self.seat
        return seat is not None and 0 <= seat < len(seats) and isinstance(seats[seat], dict) \
            and seats[seat].get("auto") is True

    @property
    def out(self) -> bool:
        """Our seat is out of the game (dead or lost), or we only watch: fast-forward is ours to ask."""
        seats = self.seats
        seat = self.seat
        if seat is None:
            return True
        entry = seats[seat] if 0 <= seat < len(seats) and isinstance(seats[seat], dict) else {}
        return entry.get("alive") is False or entry.get("lost") is True

    @property
    def paused_by(self) -> str | None:
        """Who paused the table: None (it runs), "you" (we hold the host rights), else the host's
        name as the lobby showed it ("" when it named no single host: host rights only move in
        the lobby, so its last frame still tells)."""
        view = self.view or {}
        if not view.get("paused") or view.get("over"):
            return None
        if self.host:
            return "you"
        seats = (self.lobby or {}).get("seats")
        hosts = [s.get("name") for s in seats or [] if isinstance(s, dict) and s.get("host") is True]
        return str(hosts[0]) if len(hosts) == 1 and isinstance(hosts[0], str) else ""

    def error_text(self, words: Words) -> str:
        """The last error from the server in words (a `paused` refusal names who paused)."""
        return words.error(self.error_code, self.error, self.paused_by)

    @property
    def hand(self) -> list[dict[str, Any]]:
        return list(self.view.get("hand", [])) if self.view else []

    def seconds_left(self, entry: dict[str, Any]) -> int | None:
        """Seconds left on a prompt, or None when the server stamped no deadline on it.

        The server sends `deadline` on its table clock and the view's `clock` when it left; we
        count down from the moment the view arrived.
        """
        remaining = time_left(self.view, entry) if self.view is not None else None
        if remaining is None:
            return None
        if self.view is not None and self.view.get("paused"):
            return max(0, math.ceil(remaining))  # the table clock stands still
        return max(0, math.ceil(remaining - (self.clock() - self.received_at)))

    def countdowns(self) -> dict[int, int | None]:
        """Prompted seat -> seconds left (None when the server sent no deadline)."""
        out: dict[int, int | None] = {}
        if self.view is None:
            return out
        for w in self.view.get("waiting") or []:
            if isinstance(w, dict) and isinstance(w.get("seat"), int):
                out[w["seat"]] = self.seconds_left(w)
        return out

    def last_action(self, words: Words) -> str | None:
        """The newest logged event as a sentence (chat lines aside): the table's banner."""
        for entry in reversed(self.log):
            if entry.event is not None:
                text = words.event(entry.event, entry.seats or self.seats, self.seat)
                if text:
                    return text
        return None

    def log_lines(self, words: Words, limit: int | None = None) -> list[tuple[str, bool]]:
        """(text, is_chat) for the last `limit` log entries (all by default) in the current language."""
        lines: list[tuple[str, bool]] = []
        for entry in reversed(self.log):
            if limit is not None and len(lines) >= limit:
                break
            if entry.chat is not None:
                lines.append((words.label("said", who=entry.speaker(words, self.seat)) + entry.chat[1], True))
            elif entry.event is not None:
                text = words.event(entry.event, entry.seats or self.seats, self.seat)
                if text:
                    lines.append((text, False))
        lines.reverse()
        return lines
