"""Step through a saved game as one seat saw it, on the same ring as the live table.

←/→ one event, ↑/↓ (PgUp/PgDn) to the previous or next turn, `n`/`p` to the seat's next or
previous decision, Home/End to either end. It opens on the first event, not on an empty table.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import Static

from ..client_state import ClientState, LogEntry
from ..i18n.catalogs import TIMER_KIND
from ..keys import REPLAY_KEYS
from ..replay_model import decisions, frame_index, turn_steps, view_at
from ..safe_text import clean_tree
from ..widgets.footer import GameFooter
from ..widgets.hand import HandPanel
from ..widgets.log import EventLog
from ..widgets.ring import Ring
from ..widgets.status import Banner, StatusBar
from .base import FsScreen

#: The live table's widget style sheets: the replay draws the same widgets.
WIDGET_CSS = ("status", "ring", "seat", "message_path", "stack", "hand", "log")
#: Rows the log keeps at least.
LOG_MIN = 3
#: Columns from which the stack stands beside the message's route.
WIDE = 110


class ReplayScreen(FsScreen):
    CSS_PATH = [f"../widgets/{name}.tcss" for name in WIDGET_CSS]
    DEFAULT_CSS = """
    ReplayScreen #replay-step { height: 1; padding: 0 1; }
    """
    KEYS = REPLAY_KEYS

    def __init__(self, replay: dict[str, Any]) -> None:
        super().__init__()
        #: A replay file may come from anyone: its strings are cleaned like a server's frames.
        self.replay: dict[str, Any] = clean_tree(replay)
        self.decision_frames = decisions(self.replay)
        self.turns = turn_steps(self.replay)
        #: Steps are events shown; it starts on the first one (an empty table tells nothing).
        self.step = min(1, self.length)
        #: The frame shown when a jump chose one (a decision), else None: the last frame by `step`.
        self.frame: int | None = None
        self.hand_rows = 3

    def compose(self) -> ComposeResult:
        yield StatusBar(id="replay-status")
        yield Banner(id="replay-banner")
        yield Ring()
        yield HandPanel(id="replay-hand")
        yield EventLog(id="replay-log")
        yield Static(id="replay-step")
        yield GameFooter(show_command_palette=False)

    def on_mount(self) -> None:
        self.shown = True
        self.refresh_view()

    def on_resize(self) -> None:
        self.refresh_view()

    @property
    def length(self) -> int:
        return len(self.replay["events"])

    def shown_frame(self) -> int | None:
        return self.frame if self.frame is not None else frame_index(self.replay, self.step)

    def state_at(self) -> ClientState:
        view = view_at(self.replay, self.step, self.frame)
        state = ClientState(seat=self.replay.get("seat"), view=view)
        seats = list(view.get("seats", []))
        state.log = [LogEntry(event=ev, seats=seats) for ev in self.replay["events"][: self.step]]
        return state

    def refresh_view(self) -> None:
        if not self.shown:
            return
        app = self.fs_app
        words = app.words
        state = self.state_at()
        deciding = (state.view or {}).get("deciding")
        # A record, not a live table: "Alice's turn", "this step", "you were to decide".
        self.query_one(StatusBar).show(state, words, record=True)
        self.query_one(Banner).show(state, words, False, label="replay_last")
        hand = self.query_one(HandPanel)
        hand.record = True
        hand.show(state, words, None, set(), app.mono)
        self.hand_rows = hand.lines + 2
        hand.styles.height = self.hand_rows
        self.fit_ring(state)
        self.query_one(EventLog).show(state, words)
        line = Text(f"{words('replay')} · {words('step', i=self.step, n=self.length)}")
        if isinstance(deciding, dict):
            line.append(f" · {words('replay_deciding', kind=TIMER_KIND[words.lang].get(str(deciding.get('kind')), str(deciding.get('kind'))))}", style="bold")
        line.append(f" · {words('replay_hint')}")
        self.query_one("#replay-step", Static).update(line)

    def fit_ring(self, state: ClientState | None = None) -> None:
        """The ring gets what the status lines, the hand, the step line, the footer and a short log leave."""
        if state is None:
            state = self.state_at()
        app = self.fs_app
        most = app.size.height - (2 + self.hand_rows + 1 + 1) - LOG_MIN
        self.query_one(Ring).show(state, app.words, app.mono, {}, most - 2, app.size.width >= WIDE, most=most)

    def show_step(self, step: int, frame: int | None = None) -> None:
        self.step = max(min(1, self.length), min(self.length, step))
        self.frame = frame
        self.refresh_view()

    def action_step(self, delta: int) -> None:
        self.show_step(self.step + delta)

    def action_jump(self, where: int) -> None:
        self.show_step(self.length if where < 0 else 0)

    def action_turn(self, delta: int) -> None:
        """To the start of the next turn (or of this one, then the one before)."""
        if delta > 0:
            later = [s for s in self.turns if s > self.step]
            self.show_step(later[0] if later else self.length)
        else:
            earlier = [s for s in self.turns if s < self.step]
            self.show_step(earlier[-1] if earlier else 0)

    def action_decision(self, delta: int) -> None:
        """To the seat's next (or previous) decision: the moment its prompt opened."""
        frames = self.replay.get("frames") or []
        shown = self.shown_frame()
        here = -1 if shown is None else shown
        if delta > 0:
            ahead = [i for i in self.decision_frames if i > here]
        else:
            ahead = [i for i in reversed(self.decision_frames) if i < here]
        if not ahead:
            self.notify(self.fs_app.words("replay_no_decision"), timeout=2, markup=False)
            return
        index = ahead[0]
        self.show_step(frames[index]["at"], index)

    def action_help(self) -> None:
        self.fs_app.show_help()

    async def action_quit(self) -> None:
        await self.fs_app.action_quit()
