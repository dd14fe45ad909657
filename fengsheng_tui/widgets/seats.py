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
    """The seats, never a card of another seat's hand: only its size is shown.

    When the rows are wider than the panel (80 columns, 6 seats, an identity shown, a `[L]`),
    the least telling text gives way first: the word "alive", then the identity's full name, then
    "dead"/"lost" (a ✗), then the character's name, then the seat names; hand size, messages,
    markers and the countdown are never cut."""

    #: Lines the last `show` drew: the table fixes the panel's height from it.
    lines = 1

    def show(self, state: ClientState, words: Words, mono: bool = False, layout: bool = True) -> None:
        self.border_title = Text(words("seats"))
        with_characters = any(seat.get("character") for seat in state.seats)
        room = self.size.width or 44
        for terse, need in enumerate((CHARACTER_MAX,) + (CHARACTER_MIN,) * (len(TERSE) - 1)):
            rows = self.rows(state, words, mono, terse)
            columns = widths(rows)
            if with_characters:
                columns[2] = min(columns[2], need)
            if sum(columns) + len(columns) - 1 <= room:
                break
        if not rows:
            self.lines = 1
            self.update("", layout=layout)
            return
        # Names, and the character after them, get what the other columns leave (cut with …).
        free = room - (sum(columns) + len(columns) - 1) + columns[1] + (columns[2] if with_characters else 0)
        character = min(columns[2], CHARACTER_MIN) if with_characters else 0
        name = max(4, min(columns[1], free - character))
        table = Table.grid(padding=(0, 1))
        for i in range(len(columns)):
            if i == 1:
                table.add_column(no_wrap=True, max_width=name, overflow="ellipsis")
            elif with_characters and i == 2:
                table.add_column(no_wrap=True, max_width=max(4, min(CHARACTER_ROOM, free - name)),
                                 overflow="ellipsis")
            else:
                table.add_column(no_wrap=True)
        for cells in rows:
            table.add_row(*cells)
        self.lines = max(1, len(state.seats))
        self.update(table, layout=layout)

    @staticmethod
    def rows(state: ClientState, words: Words, mono: bool, terse: int) -> list[list[Text]]:
        """One row of cells per seat, `terse` steps into TERSE."""
        drop_alive, short_identity, cross = TERSE[terse]
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
            if seat.get("online") is False:
                # Dropped: after a grace period a bot plays the seat until its owner returns.
                status = Text(words("standin" if seat.get("bot") else "offline"), style="italic")
            elif not seat.get("alive", True) or seat.get("lost"):
                status = Text(OUT if cross else words("dead" if not seat.get("alive", True) else "lost"),
                              style="strike")
            else:
                status = Text("" if drop_alive else words("alive"))
            identity = seat.get("identity")
            # Our own identity is in the status bar while we play; once out (or over), our row says it too.
            out = not seat.get("alive", True) or seat.get("lost") or view.get("over")
            if identity and (index != state.seat or out):
                status.append((" " if status and not cross else "") + words.identity(identity, short=short_identity),
                              style="italic")
            hand = Text(words.cards(seat.get("hand_count", 0)))
            marks = Text()
            if seat.get("locked"):
                marks.append(f"[{words('locked')}]", style="reverse")
            if seat.get("skipped"):
                marks.append(f"[{words('skipped')}]", style="reverse")
            if index in countdowns:
                left = countdowns[index]
                marks.append((" " if marks else "") + "⏳" + (words("countdown", s=left) if left is not None else "…"),
                             style="bold")
            cells = [marker, name, status, hand, counts_text(seat.get("counts", {}), words, mono), marks]
            if with_characters:
                cells.insert(2, character_text(seat.get("character"), words))
            rows.append(cells)
        return rows


#: (drop the word "alive", short identity names, OUT for dead or lost) for each step of tightening the rows.
TERSE = ((False, False, False), (True, False, False), (True, True, False), (True, True, True))
#: A dead or lost seat when the words do not fit: `✗Lat`.
OUT = "✗"
#: Cells a character's name may take, and takes at least before seat names are cut.
CHARACTER_MAX = 14
CHARACTER_MIN = 5
#: The most the character column takes when the panel has room to spare (English names are long).
CHARACTER_ROOM = 24


def widths(rows: list[list[Text]]) -> list[int]:
    """Each column's natural width."""
    return [max(row[i].cell_len for row in rows) for i in range(len(rows[0]))] if rows else []


def character_text(character: dict[str, Any] | None, words: Words) -> Text:
    """A seat's character: name and gender when face-up, the 盖 marker when face-down."""
    if not character:
        return Text("")
    text = Text(words.character(character), style="" if character.get("face_up", True) else "italic")
    gender = words.gender(character.get("gender"), short=True)
    if gender:
        text.append("·" + gender, style="dim")
    return text
