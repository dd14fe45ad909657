"""The stack of cards played in this window, beside the message: whole entries, newest last (it
resolves first); when the screen has no room for all, the newest ones and `…还有N项`."""

from __future__ import annotations

from rich.console import Group
from rich.text import Text
from textual.widgets import Static

from ..client_state import ClientState
from ..i18n import Words
from ..safe_text import plain
from .cjk_text import rows as cjk_rows
from .render import FixedLines, card_text


def entry_text(depth: int, item: dict[str, object], state: ClientState, words: Words, mono: bool) -> Text:
    seats, me = state.seats, state.seat
    line = Text(f"{depth + 1}. ", style="bold")
    line.append_text(plain(words.seat_name(seats, item.get("user"), me) + " "))
    card = item.get("card")
    line.append_text(card_text(card if isinstance(card, dict) else None, words, mono))
    if item.get("target_seat") is not None:
        line.append_text(plain(" → " + words.seat_name(seats, item.get("target_seat"), me)))
    target_card = item.get("target_card")
    if isinstance(target_card, dict):
        line.append(f" ({words('on')} ")
        line.append_text(card_text(target_card, words, mono))
        line.append(")")
    line.overflow = "fold"
    return line


def entry_lines(depth: int, item: dict[str, object], state: ClientState, words: Words, mono: bool,
                width: int) -> list[Text]:
    """An entry's lines at `width`, broken between names and cards, never inside one."""
    from .message_path import keep_names

    whole = [words.seat_name(state.seats, i, state.seat) for i in range(len(state.seats))]
    whole += [card_text(c, words, mono).plain for c in (item.get("card"), item.get("target_card")) if isinstance(c, dict)]
    entry = entry_text(depth, item, state, words, mono)
    return [row for line in keep_names(entry, whole, width) for row in cjk_rows(line, width)]


class StackView(FixedLines, Static):
    def need(self, state: ClientState, words: Words, mono: bool, width: int) -> int:
        """Rows every entry takes at `width`, with the title line (the ring plans with it)."""
        stack = (state.view or {}).get("stack") or []
        return 1 + sum(len(entry_lines(i, item, state, words, mono, width)) for i, item in enumerate(stack))

    def least(self, state: ClientState, words: Words, mono: bool, width: int) -> int:
        """Rows the stack takes at the least: its title and its newest entry (always shown)."""
        stack = (state.view or {}).get("stack") or []
        if not stack:
            return 1
        return 1 + len(entry_lines(len(stack) - 1, stack[-1], state, words, mono, width))

    def current_width(self) -> int:
        return 0  # drawn at the width the ring planned (see MessagePath)

    def show(self, state: ClientState, words: Words, mono: bool = False, max_lines: int | None = None,
             width: int = 30) -> None:
        stack = (state.view or {}).get("stack") or []
        width = max(10, width)
        key = (id(state.view), words.lang, mono, max_lines, width)
        if key == self._shown:
            return
        self._shown = key
        title = Text(words.label("stack"), style="bold")
        if not stack:
            title.append(words("stack_empty"), style="dim")
            self.set_lines(1)
            self.update(title, layout=False)
            return
        entries = [entry_lines(i, item, state, words, mono, width) for i, item in enumerate(stack)]
        heights = [len(e) for e in entries]
        room = max(1, (max_lines or 10_000) - 1)
        shown = len(entries)
        while shown > 1 and sum(heights[-shown:]) > room:
            shown -= 1
        hidden = len(entries) - shown
        if hidden:
            title.append(words("more_entries", n=hidden), style="dim")
        self.set_lines(1 + sum(heights[-shown:]))
        self.update(Group(title, *(line for entry in entries[hidden:] for line in entry)), layout=False)
