"""The host's timers in the table lobby: seconds per kind of decision and the bots' delay.

Every timer the server has is a row (the lobby frame lists them all: the five of every game, the
character pick and skills, the turn windows), then the bots' delay. Each step is sent at once as
an op (`set_timers`, `set_bot_delay`) within the bounds the server enforces (`net.protocol`); the
values shown are the lobby frame's, so the host sees what the server took, as everyone does.
"""

from __future__ import annotations

from typing import Any

from rich.console import RenderableType
from rich.text import Text

from net.protocol import BOT_DELAY_RANGE, TIMER_RANGE

from ..i18n import TIMER_KIND
from ..keys import TIMERS_KEYS
from .base import BoxModal

BOT_DELAY = "bot_delay"
#: (step, least, most) in seconds: a decision's timer, the turn windows' (short: most seats have
#: nothing to play then), and the bots' delay. The bounds are the server's.
TIMER_STEP = (5.0, *TIMER_RANGE)
TURN_WINDOW_STEP = (1.0, *TIMER_RANGE)
BOT_DELAY_STEP = (0.2, *BOT_DELAY_RANGE)
#: Timers only a game with characters uses.
CHARACTER_TIMERS = ("character_pick", "skill")


def step_for(kind: str) -> tuple[float, float, float]:
    return BOT_DELAY_STEP if kind == BOT_DELAY else TURN_WINDOW_STEP if kind == "turn_window" else TIMER_STEP


class TimersScreen(BoxModal):
    DEFAULT_CSS = """
    TimersScreen { align: center middle; }
    TimersScreen > Vertical { width: 52; max-width: 100%; height: auto; border: round $accent; background: $surface;
                              padding: 0 1; }
    TimersScreen #timer-rows { width: 100%; height: auto; }
    """
    BODY_ID = "timer-rows"
    KEYS = TIMERS_KEYS

    def __init__(self) -> None:
        super().__init__()
        self.row = 0

    def rows(self) -> list[tuple[str, float]]:
        """(kind, seconds) for every timer the lobby shows, then the bots' delay."""
        lobby: dict[str, Any] = self.fs_app.state.lobby or {}
        timers = lobby.get("timers")
        out = [(str(k), float(v)) for k, v in (timers.items() if isinstance(timers, dict) else ())
               if isinstance(v, int | float) and not isinstance(v, bool)]
        delay = lobby.get(BOT_DELAY)
        if isinstance(delay, int | float) and not isinstance(delay, bool):
            out.append((BOT_DELAY, float(delay)))
        return out

    def lines(self) -> list[RenderableType]:
        words = self.fs_app.words
        rows = self.rows()
        self.row = min(self.row, max(0, len(rows) - 1))
        lines: list[RenderableType] = [Text(words("timers_title"), style="bold"), Text(words("timers_hint"), style="dim")]
        characters = (self.fs_app.state.lobby or {}).get("characters") is True
        for i, (kind, seconds) in enumerate(rows):
            name = words(BOT_DELAY) if kind == BOT_DELAY else TIMER_KIND[words.lang].get(kind, kind)
            if kind in CHARACTER_TIMERS and not characters:
                name += words("timer_with_characters")
            line = Text(f" {name}{words.colon}", style="bold" if i == self.row else "")
            line.append(f"‹ {words('seconds', s=f'{seconds:g}')} ›")
            if i == self.row:
                line.stylize("reverse")
            lines.append(line)
        return lines

    def action_move(self, step: int) -> None:
        rows = self.rows()
        if rows:
            self.row = (self.row + step) % len(rows)
        self.refresh_view()

    def action_change(self, direction: int) -> None:
        rows = self.rows()
        if not rows:
            return
        kind, seconds = rows[self.row]
        step, least, most = step_for(kind)
        value = round(min(most, max(least, seconds + direction * step)), 1)
        if (value - seconds) * direction <= 0:
            return  # at a bound already (or outside it, set before: never a step the wrong way)
        if kind == BOT_DELAY:
            self.fs_app.send(lambda s: s.op("set_bot_delay", seconds=value))
        else:
            self.fs_app.send(lambda s: s.op("set_timers", **{kind: value}))

    def action_close(self) -> None:
        self.dismiss(False)
