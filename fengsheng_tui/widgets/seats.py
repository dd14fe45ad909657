"""Every seat at the table, one line each: who, status, hand size, messages, markers, countdown."""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from ..client_state import ClientState
from ..i18n import Words
from .render import counts_text


class SeatsPanel(Static):
    """The seats, never a card of another seat's hand: only its size is shown."""

    #: Lines the last `show` drew: the table fixes the panel's height from it.
    lines = 1

    def show(self, state: ClientState, words: Words, mono: bool = False, layout: bool = True) -> None:
        self.border_title = words("seats")
        view = state.view or {}
        current = view.get("current")
        countdowns = state.countdowns()
        with_characters = any(seat.get("character") for seat in state.seats)
        rows: list[list[Text]] = []
        for seat in state.seats:
            index = seat.get("index")
            marker = Text("▶" if index == current and not view.get("over") else " ", style="bold")
            name = Text(words.seat_name(state.seats, index, state.seat),
                        style="bold" if index == state.seat else "")
            if seat.get("online") is False and not seat.get("bot"):
                status = Text(words("offline"), style="italic")
            elif not seat.get("alive", True):
                status = Text(words("dead"), style="strike")
            elif seat.get("lost"):
                status = Text(words("lost"), style="strike")
            else:
                status = Text(words("alive"))
            identity = seat.get("identity")
            # Our own identity is in the status bar while we play; once out, our row says it like the others.
            out = not seat.get("alive", True) or seat.get("lost")
            if identity and (index != state.seat or out):
                status.append(" " + words.identity(identity), style="italic")
            hand = Text(words("cards", n=seat.get("hand_count", 0)))
            marks = Text()
            if seat.get("locked"):
                marks.append(f"[{words('locked')}]", style="reverse")
            if seat.get("skipped"):
                marks.append(f"[{words('skipped')}]", style="reverse")
            if index in countdowns:
                left = countdowns[index]
                marks.append(" ⏳" + (words("countdown", s=left) if left is not None else "…"), style="bold")
            cells = [marker, name, status, hand, counts_text(seat.get("counts", {}), words, mono), marks]
            if with_characters:
                cells.insert(2, character_text(seat.get("character"), words))
            rows.append(cells)
        table = Table.grid(padding=(0, 1))
        for i in range(len(rows[0]) if rows else 0):
            if with_characters and i == 2:
                # The character gets what the other columns leave (cut with …): they never shrink.
                others = sum(max(row[j].cell_len for row in rows) + 1 for j in range(len(rows[0])) if j != 2)
                room = (self.size.width or 44) - others - 1
                table.add_column(no_wrap=True, max_width=max(4, min(14, room)), overflow="ellipsis")
            else:
                table.add_column(no_wrap=True)
        for cells in rows:
            table.add_row(*cells)
        self.lines = max(1, len(state.seats))
        self.update(table, layout=layout)


def character_text(character: dict[str, Any] | None, words: Words) -> Text:
    """A seat's character: name and gender when face-up, the 盖 marker when face-down."""
    if not character:
        return Text("")
    text = Text(words.character(character), style="" if character.get("face_up", True) else "italic")
    gender = words.gender(character.get("gender"), short=True)
    if gender:
        text.append("·" + gender, style="dim")
    return text
