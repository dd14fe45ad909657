"""Step through a saved game as one seat saw it: ←/→ one event, Home/End to either end."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import Static

from ..client_state import ClientState, LogEntry
from ..keys import REPLAY_KEYS
from ..replay_model import view_at
from ..safe_text import clean_tree
from ..widgets.footer import GameFooter
from ..widgets.log import EventLog
from ..widgets.seats import SeatsPanel
from ..widgets.status import StatusBar
from .base import FsScreen


class ReplayScreen(FsScreen):
    DEFAULT_CSS = """
    ReplayScreen #replay-seats { height: auto; border: round $secondary; padding: 0 1; }
    ReplayScreen #replay-log { height: 1fr; border: round $panel; padding: 0 1; }
    ReplayScreen #replay-step { height: 1; padding: 0 1; }
    """
    KEYS = REPLAY_KEYS

    def __init__(self, replay: dict[str, Any]) -> None:
        super().__init__()
        #: A replay file may come from anyone: its strings are cleaned like a server's frames.
        self.replay: dict[str, Any] = clean_tree(replay)
        self.step = 0

    def compose(self) -> ComposeResult:
        yield StatusBar(id="replay-status")
        yield SeatsPanel(id="replay-seats")
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

    def state_at(self) -> ClientState:
        view = view_at(self.replay, self.step)
        state = ClientState(seat=self.replay.get("seat"), view=view)
        seats = list(view.get("seats", []))
        state.log = [LogEntry(event=ev, seats=seats) for ev in self.replay["events"][: self.step]]
        return state

    def refresh_view(self) -> None:
        if not self.shown:
            return
        words = self.fs_app.words
        state = self.state_at()
        self.query_one(StatusBar).show(state, words)
        self.query_one(SeatsPanel).show(state, words, self.fs_app.mono)
        self.query_one(EventLog).show(state, words)
        self.query_one("#replay-step", Static).update(
            Text(f"{words('replay')} · {words('step', i=self.step, n=self.length)} · {words('replay_hint')}"))

    def action_step(self, delta: int) -> None:
        self.step = max(0, min(self.length, self.step + delta))
        self.refresh_view()

    def action_jump(self, where: int) -> None:
        self.step = self.length if where < 0 else 0
        self.refresh_view()

    def action_help(self) -> None:
        self.fs_app.show_help()

    async def action_quit(self) -> None:
        await self.fs_app.action_quit()
