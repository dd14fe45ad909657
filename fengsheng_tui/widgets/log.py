"""The event log (sentences built from events in the chosen language) with chat lines mixed in."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from ..client_state import ClientState
from ..i18n import Words


class EventLog(Static):
    """Shows the newest lines that fit; old lines scroll away (the whole log stays in state)."""

    _shown: tuple[ClientState, Words] | None = None

    def on_resize(self) -> None:
        """Another panel grew or shrank: as many lines as now fit."""
        if self._shown is not None:
            self.show(*self._shown, layout=False)

    def show(self, state: ClientState, words: Words, layout: bool = True) -> None:
        self._shown = (state, words)
        self.border_title = f"{words('log')} / {words('chat')}"
        height = max(1, self.size.height) if self.size.height else 8
        lines = state.log_lines(words, height)
        text = Text()
        for i, (line, is_chat) in enumerate(lines):
            if i:
                text.append("\n")
            text.append(("» " if is_chat else "") + line, style="italic" if is_chat else "")
        self.update(text, layout=layout)
