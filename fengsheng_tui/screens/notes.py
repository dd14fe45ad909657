"""Identity notes: the player marks each seat red / blue / neutral / unknown (or clears it).

The marks live in `ClientState.notes` on this machine, for this game only (a new game starts with
none), and are drawn on the ring; nothing here is ever sent to the server."""

from __future__ import annotations

from rich.console import RenderableType
from rich.text import Text

from ..keys import NOTES_KEYS, TARGET_LETTERS, target_letters
from ..safe_text import plain
from ..widgets.seat import note_chip
from .base import BoxModal

#: Digit → note (0 clears).
MARKS = {1: "red", 2: "blue", 3: "neutral", 4: "unknown"}


class NotesScreen(BoxModal):
    DEFAULT_CSS = """
    NotesScreen { align: center middle; }
    NotesScreen > Vertical { width: 72; max-width: 100%; height: auto; border: round $accent;
                             background: $surface; padding: 0 1; }
    NotesScreen #notes { width: 100%; height: auto; }
    """
    BODY_ID = "notes"
    KEYS = NOTES_KEYS

    def __init__(self) -> None:
        super().__init__()
        state = self.fs_app.state
        seats = [int(s["index"]) for s in state.seats if isinstance(s.get("index"), int)]
        #: Seats that can be marked: everyone but us.
        self.seats: list[int] = [s for s in seats if s != state.seat][: len(TARGET_LETTERS)]
        self.cursor = 0

    def lines(self) -> list[RenderableType]:
        app = self.fs_app
        words, state = app.words, app.state
        letters = target_letters(app.keymap, "notes")
        lines: list[RenderableType] = [Text(words("notes_title"), style="bold"),
                 Text(words("notes_hint", letters="/".join(letters[: len(self.seats)])), style="dim")]
        for i, seat in enumerate(self.seats):
            line = Text(f" {letters[i]} ", style="bold")
            line.append_text(plain(words.seat_name(state.seats, seat, state.seat)))
            chip = note_chip(state.notes.get(seat), words, app.mono)
            if chip:
                line.append(" ")
                line.append_text(chip)
            if i == self.cursor:
                line.stylize("reverse", 0, 3)
            lines.append(line)
        return lines

    def action_move(self, step: int) -> None:
        if self.seats:
            self.cursor = (self.cursor + step) % len(self.seats)
            self.refresh_view()

    def action_seat(self, i: int) -> None:
        if i < len(self.seats):
            self.cursor = i
            self.refresh_view()

    def action_mark(self, n: int) -> None:
        if not self.seats:
            return
        notes = self.fs_app.state.notes
        seat = self.seats[self.cursor]
        if n in MARKS:
            notes[seat] = MARKS[n]
        else:
            notes.pop(seat, None)
        self.refresh_view()
        self.fs_app.refresh_all()

    def action_close(self) -> None:
        self.dismiss(True)
