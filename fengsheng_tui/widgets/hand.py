"""Our hand, numbered 1–9 (the digit keys), with function, colour and method of each card."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from ..client_state import ClientState
from ..i18n import Words
from .render import card_text


class HandPanel(Static):
    def show(self, state: ClientState, words: Words, selected: int | None, usable: set[int],
             mono: bool = False) -> None:
        identity = state.view.get("identity") if state.view else None
        self.border_title = f"{words('hand')} · {words('identity')}: {words.identity(identity)}"
        width = max(20, self.size.width - 4) if self.size.width else 76
        text = Text(no_wrap=True)
        used = 0
        for i, face in enumerate(state.hand):
            card_id = face.get("id")
            item = Text()
            key = f"{i + 1}" if i < 9 else "·"
            style = "reverse bold" if card_id == selected else ("bold" if card_id in usable else "dim")
            item.append(key, style=style)
            item.append(" ")
            item.append_text(card_text(face, words, mono))
            item.append("*" if card_id in usable else " ", style="bold")
            if used and used + 2 + item.cell_len > width:
                text.append("\n")
                used = 0
            elif used:
                text.append("  ")
                used += 2
            text.append_text(item)
            used += item.cell_len
        if not state.hand:
            text.append("—", style="dim")
        self.update(text)
