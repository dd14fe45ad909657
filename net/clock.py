"""The table clock: every prompt's deadline, when a bot may answer it, and the host's pause.

A paused clock stops the table: nothing is due (no default on expiry, no bot move, no stand-in)
and nothing wakes the table; on resume every deadline and bot time shifts by the pause, so each
seat gets back exactly the time it had left (the table refuses every choice while paused, see
`Table._human_choice`). A prompt issued during a pause counts from the moment of the pause.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.prompts import KINDS

#: Seconds per kind of decision; the host changes them with `set_timers`.
DEFAULT_TIMERS: dict[str, float] = {
    "play": 30.0,
    "send": 20.0,
    "response": 10.0,
    "receive": 10.0,
    "probe_discard": 15.0,
}
#: The response prompts of a turn-start or turn-end window (RULES.md §4): most seats have nothing
#: to play then, so these windows keep their own, shorter timer.
TURN_WINDOW = "turn_window"
#: Timers used unless the host's `timers` names them: the kinds only character games have, and
#: the turn windows' timer.
EXTRA_TIMERS: dict[str, float] = {"character_pick": 30.0, "skill": 15.0, TURN_WINDOW: 5.0}
#: Every timer the host may set.
TIMER_NAMES = (*KINDS, TURN_WINDOW)


class TableClock:
    def __init__(self, now: Callable[[], float]) -> None:
        self.now = now
        #: Zero of the clock the views carry (`clock`, and every prompt's `deadline`).
        self.epoch = now()
        self.deadlines: dict[int, float] = {}
        #: Prompt id -> when a bot may answer it.
        self.bot_at: dict[int, float] = {}
        #: Deadlines of window prompts already answered, shown until their window closes.
        self.answered: dict[int, float] = {}
        #: When the pause began (None: running), and who paused ("host").
        self.paused_since: float | None = None
        self.paused_by: str | None = None
        #: Deadlines as the views show them, by the moment they stand for: `round` is slow, and
        #: every flush shows each waiting seat's deadline.
        self._shown: dict[float, float] = {}

    def clear(self) -> None:
        self.deadlines.clear()
        self.bot_at.clear()
        self.answered.clear()
        self.paused_since = None
        self.paused_by = None

    @property
    def paused(self) -> bool:
        return self.paused_since is not None

    def table_now(self) -> float:
        """The moment deadlines count from: frozen at the pause's start while paused."""
        return self.now() if self.paused_since is None else self.paused_since

    def view_clock(self) -> float:
        return round(self.table_now() - self.epoch, 3)

    def deadline(self, prompt_id: int) -> float:
        """When a prompt expires on the table clock of the views (0.0: no deadline, expired)."""
        deadline = self.deadlines.get(prompt_id) or self.answered.get(prompt_id)
        if deadline is None:
            return 0.0
        shown = self._shown.get(deadline)
        if shown is None:
            if len(self._shown) >= 256:
                self._shown.clear()
            shown = self._shown[deadline] = round(deadline - self.epoch, 3)
        return shown

    def show_deadlines(self, waiting: list[dict[str, Any]]) -> dict[int, float]:
        """Give each entry of a view's `waiting` its prompt's `deadline`; those by prompt id.
        `deadline` for each, without a call per entry: every flush shows every waiting seat's."""
        deadlines, answered, shown = self.deadlines, self.answered, self._shown
        found: dict[int, float] = {}
        for entry in waiting:
            prompt_id = entry["prompt_id"]
            deadline = deadlines.get(prompt_id) or answered.get(prompt_id)
            value = 0.0 if deadline is None else shown.get(deadline)
            if value is None:
                value = self.deadline(prompt_id)  # rounded once, then kept by the moment
            entry["deadline"] = found[prompt_id] = value
        return found

    def issue(self, prompt_id: int, seconds: float, cap: float | None, bot_wait: float) -> None:
        """A new prompt's deadline `seconds` from now (at most `cap` seconds, for a dropped seat),
        and a bot's answer `bot_wait` from now."""
        now = self.table_now()
        deadline = now + seconds
        if cap is not None:
            deadline = min(deadline, now + cap)
        self.deadlines[prompt_id] = deadline
        self.bot_at[prompt_id] = now + bot_wait

    def pause(self, by: str) -> bool:
        """Stop the clock; False if it already was."""
        if self.paused_since is not None:
            return False
        self.paused_since = self.now()
        self.paused_by = by
        return True

    def resume(self) -> float | None:
        """Run again, every deadline shifted by the pause; the pause's length (None: not paused)."""
        if self.paused_since is None:
            return None
        shift = self.now() - self.paused_since
        for times in (self.deadlines, self.bot_at, self.answered):
            for key in times:
                times[key] += shift
        self.paused_since = None
        self.paused_by = None
        return shift
