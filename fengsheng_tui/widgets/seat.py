"""One seat at the table, as a small box on the ring: who, how he stands, what is in front of him.

Three lines (more only when a long name or character must wrap, never cut):
`▶ Name [红?]        ⏳12s` / `Character·M` (or the status when the game has no characters) /
`dead 3张 红1 蓝0 黑2 [锁]` (a flag where it fits). Another seat's hand is only ever its size.

English says it in words where the ring has the rows for every box to (`3 cards red 1 blue 0
black 2`, `Blade · male`), else every box in the short form (`3 cards R1 B0 Bk2`, `Blade·M`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.cells import cell_len
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from net.seats import REMOTE_BOT

from ..i18n import Words
from ..safe_text import plain
from .render import Remeasured, chips_text, measure_console

#: The identity note a player may put on a seat (local, never sent): style of its chip.
NOTE_STYLE = {"red": "bold white on red", "blue": "bold white on blue", "neutral": "bold black on yellow",
              "unknown": "reverse"}
MONO_NOTE_STYLE = {"red": "bold reverse", "blue": "underline reverse", "neutral": "italic reverse", "unknown": "reverse"}


def note_chip(note: str | None, words: Words, mono: bool) -> Text:
    if note not in NOTE_STYLE:
        return Text()
    return Text(words(f"note_{note}"), style=(MONO_NOTE_STYLE if mono else NOTE_STYLE)[note])


def character_line(character: Mapping[str, Any] | None, words: Words, width: int = 0) -> Text:
    """Name and gender when face-up, the 盖 marker when face-down; the whole name, wrapped if need be.
    The gender is a word when name and word fit `width` on one line, else its letter."""
    if not character:
        return Text("")
    text = Text(words.character(character), style="" if character.get("face_up", True) else "italic")
    worded = words.gender_suffix(character.get("gender"))
    text.append(worded if text.cell_len + cell_len(worded) <= width else
                words.gender_suffix(character.get("gender"), short=True), style="dim")
    return text


def status_text(seat: Mapping[str, Any], words: Words, show_identity: bool) -> Text:
    """`dead 潜伏战线`, `offline`, or nothing for a seat alive and present."""
    if seat.get("online") is False:
        text = Text(words("standin" if seat.get("bot") else "offline"), style="italic")
    elif seat.get("bot") == REMOTE_BOT:  # a client's own claim: not one of the table's bots
        text = Text(words("self_declared_bot"), style="italic")
    elif not seat.get("alive", True):
        text = Text("✗" + words("dead"), style="bold")
    elif seat.get("lost"):
        text = Text("✗" + words("lost"), style="bold")
    else:
        text = Text()
    identity = seat.get("identity")
    if identity and show_identity:
        text.append((" " if text else "") + words.identity(identity), style="italic")
    return text


def pack(units: list[Text], width: int) -> list[Text]:
    """`units` joined by spaces into lines of `width` cells, a unit never broken across lines
    (`3 cards`, `red 0`, `[locked]`); only a unit wider than a whole line folds."""
    lines: list[Text] = []
    line = Text()
    for unit in units:
        if not unit.plain:
            continue
        if line.plain and line.cell_len + 1 + unit.cell_len > width:
            lines.append(line)
            line = Text()
        if line.plain:
            line.append(" ")
        line.append_text(unit)
    if line.plain or not lines:
        lines.append(line)
    for done in lines:
        done.overflow = "fold"
    return lines


def rows(lines: list[Text], width: int) -> int:
    """Screen rows these lines take at `width` (a unit wider than the line folds)."""
    return sum(len(line.wrap(measure_console(), width)) if line.cell_len > width else 1 for line in lines)


def words_of(text: Text) -> list[Text]:
    """A text's words as units, each keeping its style: a long name may break between words only."""
    return [part for part in text.split(" ") if part.plain] if " " in text.plain else [text]


def chip_units(counts: Mapping[str, Any], words: Words, mono: bool, short: bool, width: int) -> list[Text]:
    """The three counts as one unit where a line holds them together, else one unit per colour."""
    chips = chips_text(counts, words, mono, short=short)
    if chips.cell_len <= width:
        return [chips]
    return [chips_text(counts, words, mono, short=short, colours=(c,)) for c in ("red", "blue", "black")]


def seat_body(seat: Mapping[str, Any], words: Words, *, head: Text, right: Text, status: Text, characters: bool,
              mono: bool, width: int, roomy: bool) -> tuple[list[Text], list[Text], Text]:
    """The box's lines under its name at `width`: (second lines, facts lines, the name's line).

    `roomy`: every field in words (`3 cards` / `red 0 blue 0 black 0`, `· male`, `[locked]`), each
    on a line of its own where the one before is full; otherwise every field in its short form
    (`R0 B0 Bk0`, `·M`, `[L]`): the ring uses one form for the whole table. Nothing is ever cut."""
    name_width = width - right.cell_len - (1 if right else 0)
    head = head.copy()
    # Second: the character (whole, wrapped between its words) with its gender, or the status.
    if characters:
        found = seat.get("character")
        character: Mapping[str, Any] = found if isinstance(found, Mapping) else {}
        second_units = words_of(Text(words.character(character), style="" if character.get(
            "face_up", True) else "italic")) if character else []
        gender = words.gender_suffix(character.get("gender"))
        if gender:
            # The gender goes with the name's last word: never `· male` alone at a line's start.
            worded = second_units[-1].copy() if second_units else Text()
            worded.append(gender if second_units else gender.lstrip(), style="dim")
            if roomy and worded.cell_len <= width:
                second_units[-1:] = [worded]
            else:
                mark = Text(words.gender_suffix(character.get("gender"), short=True), style="dim")
                if second_units:
                    last = second_units[-1].copy()
                    last.append_text(mark)
                    second_units[-1] = last
                else:
                    second_units.append(mark)
        lead = words_of(status) if status.plain else []
    else:
        second_units = words_of(status) if status.plain else [Text(words("alive"), style="dim")]
        lead = []
    # Facts: status (with characters), the hand's size, the counts.
    cards = Text(words.cards(seat.get("hand_count", 0)))
    counts = seat.get("counts", {})
    facts_units = [*lead, cards, *chip_units(counts, words, mono, not roomy, width)]
    second, facts = pack(second_units, width), pack(facts_units, width)
    # Flags: at the end of a line with room (in the box's form: `[locked]`, or `[L]` when compact).
    flags = [word for flag, word in (("locked", "locked"), ("skipped", "skipped"), ("auto", "auto_mark"))
             if seat.get(flag) is True]
    if flags:
        places = [(second, width), (facts, width), ([head], name_width)]
        marks = " ".join(f"[{words(f if roomy else f + '_short')}]" for f in flags)
        chosen = next((lines for lines, cells in places if lines[-1].cell_len + 1 + cell_len(marks) <= cells), None)
        mark = Text(marks, style="reverse")
        if chosen is None:
            facts.append(mark)
        else:
            chosen[-1].append(" ")
            chosen[-1].append_text(mark)
    return second, facts, head


class SeatBox(Remeasured, Static):
    """A seat on the ring; the table sets its classes: -me, -current, -holder (the message is
    here), -your-move (our prompt is open), -out (dead or lost), -skipped.

    `show` lays the seat out four ways, roomy (every field in words) or compact (short forms
    where words would take a line), framed or not, each with the rows it takes; the ring, which
    knows the rows it has, chooses one per box with `use`."""

    _shown: object = None
    #: (roomy, framed) -> (what to draw, rows it takes).
    forms: dict[tuple[bool, bool], tuple[RenderableType, int]]
    #: The form drawn now.
    chosen: tuple[bool, bool] | None = None

    def forget(self) -> None:
        """The box shows another seat now: draw it afresh at the next `show`."""
        self._shown = None
        self.chosen = None

    def current_width(self) -> int:
        """The cells the box and its right margin take: the same framed or not (see `widths`)."""
        return self.region.width + self.styles.margin.right if self.region.width else 0

    def widths(self, hint: int) -> tuple[int, int]:
        """Content cells framed and unframed: a frame and its padding take two cells each side;
        unframed, the padding and the margin on the right three. `hint`: the unframed width to
        count with while the box has none (hidden, not laid out yet)."""
        outer = self.current_width() or hint + 3
        return max(8, outer - 4), max(8, outer - 3)

    def rows(self, roomy: bool, framed: bool) -> int:
        """Rows the box takes in that form, its frame included."""
        return self.forms[(roomy, framed)][1] + (2 if framed else 0)

    def show(self, seat: Mapping[str, Any], words: Words, *, me: int | None, seats: list[dict[str, Any]],
             current: object, over: bool, countdown: int | None | bool, note: str | None, holder: bool,
             sender: bool, characters: bool, mono: bool, hint: int = 18) -> None:
        """`countdown`: seconds left when prompted (None: prompted with no deadline; False: not
        prompted). `hint`: the width to count with while the box has none (hidden, not laid out)."""
        index = seat.get("index")
        out = not seat.get("alive", True) or bool(seat.get("lost"))
        framed_width, plain_width = self.widths(hint)
        key = (dict(seat), words.lang, me, current, over, countdown, note, holder, sender, characters, mono,
               framed_width)
        self.set_class(index == me, "-me")
        self.set_class(index == current and not over, "-current")
        self.set_class(holder, "-holder")
        self.set_class(out, "-out")
        self.set_class(bool(seat.get("skipped")), "-skipped")
        self.measured = self.current_width()
        if key == self._shown:
            return
        self._shown = key
        self.chosen = None
        head = Text()
        head.append("▶ " if index == current and not over else "", style="bold")
        if holder:
            head.append("✉ ", style="bold")
        head.append_text(plain(words.seat_name(seats, index, me), style="bold"))
        chip = note_chip(note, words, mono)
        if chip:
            head.append(" ")
            head.append_text(chip)
        right = Text()
        if countdown is not False:
            right.append("⏳" + (words("countdown", s=countdown) if countdown is not None else "…"), style="bold")
        # Our own identity is in the status bar while we play; once out (or over) our seat says it too.
        show_identity = index != me or out or over
        status = status_text(seat, words, show_identity)
        self.forms = {}
        for framed, width in ((True, framed_width), (False, plain_width)):
            for roomy in (True, False):
                second, facts, name = seat_body(seat, words, head=head, right=right, status=status,
                                                characters=characters, mono=mono, width=width, roomy=roomy)
                name.overflow = "fold"
                top = Table.grid(expand=True)
                top.add_column(ratio=1, overflow="fold")
                top.add_column(no_wrap=True, justify="right")
                top.add_row(name, right)
                name_rows = len(name.wrap(measure_console(), max(1, width - right.cell_len - (1 if right else 0))))
                self.forms[(roomy, framed)] = (Group(top, *second, *facts),
                                               name_rows + rows(second, width) + rows(facts, width))

    def use(self, roomy: bool, framed: bool) -> None:
        """Draw the form the ring chose, at a fixed height (no measuring at each layout)."""
        if self.chosen != (roomy, framed):
            self.chosen = (roomy, framed)
            self.update(self.forms[(roomy, framed)][0], layout=False)
        height = self.rows(roomy, framed)
        if self.styles.height is None or self.styles.height.value != height:
            self.styles.height = height
