"""Quick chat: a few set phrases ("我是好人", "求截", "别传给我") one digit away, sent as chat."""

from __future__ import annotations

from rich.console import Group
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from ..i18n import QUICK_CHAT
from ..keys import QUICK_CHAT_KEYS
from ..widgets.footer import GameFooter
from .base import FsModal


class QuickChatScreen(FsModal):
    DEFAULT_CSS = """
    QuickChatScreen { align: center middle; }
    QuickChatScreen > Vertical { width: 48; max-width: 100%; height: auto; border: round $accent; background: $surface;
                                 padding: 0 1; }
    QuickChatScreen #phrases { width: 100%; height: auto; }
    """
    KEYS = QUICK_CHAT_KEYS

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(id="phrases")
        yield GameFooter()

    def on_mount(self) -> None:
        self.shown = True
        self.refresh_view()

    def refresh_view(self) -> None:
        if not self.shown:
            return
        words = self.fs_app.words
        lines = [Text(words("quick_chat_title"), style="bold"), Text(words("quick_chat_hint"), style="dim")]
        for i, phrase in enumerate(QUICK_CHAT[words.lang]):
            line = Text(f" {i + 1} ", style="bold")
            line.append(phrase)
            lines.append(line)
        self.query_one("#phrases", Static).update(Group(*lines))

    def action_say(self, i: int) -> None:
        phrases = QUICK_CHAT[self.fs_app.words.lang]
        if 0 <= i < len(phrases):
            text = phrases[i]
            self.fs_app.send(lambda s: s.chat(text))
        self.dismiss(True)

    def action_close(self) -> None:
        self.dismiss(False)
