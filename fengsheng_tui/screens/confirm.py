"""A yes/no question before leaving the table: `y` quits, `n` or Esc stays."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from ..keys import CONFIRM_KEYS
from .base import FsModal


class ConfirmQuit(FsModal):
    DEFAULT_CSS = """
    ConfirmQuit { align: center middle; }
    ConfirmQuit > Vertical { width: 44; height: auto; border: thick $error; padding: 1 2; background: $surface; }
    """
    KEYS = CONFIRM_KEYS

    def compose(self) -> ComposeResult:
        words = self.fs_app.words
        with Vertical():
            yield Static(Text(words("quit_q")))

    def action_answer(self, really: bool) -> None:
        self.dismiss(really)
