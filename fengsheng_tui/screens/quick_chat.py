"""Quick chat: a few set phrases ("我是好人", "求截", "别传给我") one digit away, sent as chat."""

from __future__ import annotations

from rich.console import RenderableType
from rich.text import Text

from ..i18n import QUICK_CHAT
from ..keys import QUICK_CHAT_KEYS
from .base import BoxModal


class QuickChatScreen(BoxModal):
    DEFAULT_CSS = """
    QuickChatScreen { align: center middle; }
    QuickChatScreen > Vertical { width: 48; max-width: 100%; height: auto; border: round $accent; background: $surface;
                                 padding: 0 1; }
    QuickChatScreen #phrases { width: 100%; height: auto; }
    """
    BODY_ID = "phrases"
    KEYS = QUICK_CHAT_KEYS

    def lines(self) -> list[RenderableType]:
        words = self.fs_app.words
        lines: list[RenderableType] = [Text(words("quick_chat_title"), style="bold"), Text(words("quick_chat_hint"), style="dim")]
        for i, phrase in enumerate(QUICK_CHAT[words.lang]):
            line = Text(f" {i + 1} ", style="bold")
            line.append(phrase)
            lines.append(line)
        return lines

    def action_say(self, i: int) -> None:
        phrases = QUICK_CHAT[self.fs_app.words.lang]
        if 0 <= i < len(phrases):
            text = phrases[i]
            self.fs_app.send(lambda s: s.chat(text))
        self.dismiss(True)

    def action_close(self) -> None:
        self.dismiss(False)
