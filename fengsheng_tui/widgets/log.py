"""The event log (sentences built from events in the chosen language) with chat lines mixed in."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from ..client_state import ClientState
from ..i18n import Words
from .cjk_text import rows as cjk_rows


class EventLog(Static):
    """Shows the newest lines that fit; PageUp/PageDown scroll back through the whole log (kept in
    state), End returns to the newest line."""

    _shown: tuple[ClientState, Words] | None = None
    #: Lines scrolled back from the newest (0: the newest line is the last one shown).
    scrolled_back = 0

    def scroll_log(self, step: int) -> None:
        """Move a page (`step` pages; 0 jumps back to the newest line)."""
        if self._shown is None:
            return
        state, words = self._shown
        height = max(1, self.size.height) if self.size.height else 8
        total = len(state.log_lines(words))
        page = step * max(1, height - 1)
        self.scrolled_back = 0 if step == 0 else max(0, min(total - height, self.scrolled_back + page))
        self.show(state, words)

    def on_resize(self) -> None:
        """Another panel grew or shrank: as many lines as now fit."""
        if self._shown is not None:
            self.show(*self._shown, layout=False)

    def show(self, state: ClientState, words: Words, layout: bool = True) -> None:
        """Counts screen rows, not entries: a wrapped older line pushes the oldest rows off the top,
        never the newest line off the bottom."""
        self._shown = (state, words)
        height = max(1, self.size.height) if self.size.height else 8
        width = max(10, self.size.width) if self.size.width else 76
        entries = state.log_lines(words, height + self.scrolled_back)
        if self.scrolled_back:
            entries = entries[: max(0, len(entries) - self.scrolled_back)]
        self.border_title = Text(words("log_scrolled", n=self.scrolled_back) if self.scrolled_back else
                                 f"{words('log')} / {words('chat')}")
        rows: list[Text] = []
        for line, is_chat in reversed(entries):
            entry = Text(("» " if is_chat else "") + line, style="italic" if is_chat else "")
            rows[:0] = cjk_rows(entry, width)  # 禁则: a wrapped Chinese line never starts with `，`
            if len(rows) >= height:
                break
        self.update(Text("\n").join(rows[-height:]), layout=layout)
