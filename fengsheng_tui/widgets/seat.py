"""One seat at the table, as a small box on the ring: who, how he stands, what is in front of him.

Three lines (more only when a long name or character must wrap, never cut):
`▶ Name [红?]        ⏳12s` / `Character·M` (or the status when the game has no characters) /
`dead 3张 红1 蓝0 黑2 [锁]` (a flag where it fits). Another seat's hand is only ever its size.

English says it in words where the box has room (`3 cards red 1 blue 0 black 2`, `Blade · male`)
and in the short form only where a line would not hold them (`3 cards R1 B0 Bk2`, `Blade·M`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

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
    gender = words.gender(character.get("gender"))
    if gender and text.cell_len + 3 + len(gender) <= width and words.lang == "en":
        text.append(" · " + gender, style="dim")
    elif gender:
        text.append("·" + words.gender(character.get("gender"), short=True), style="dim")
    return text


def facts_text(seat: Mapping[str, Any], words: Words, status: Text, mono: bool, width: int) -> Text:
    """`✗dead Latent 3 cards red 0 blue 1 black 2 [locked]`; the counts as `R0 B1 Bk2` when the
    words would not fit `width` on the hand size's line (a flag may wrap to the next line)."""
    facts = Text(words.cards(seat.get("hand_count", 0)) + " ")
    counts = seat.get("counts", {})
    chips = chips_text(counts, words, mono, short=False)
    if facts.cell_len + chips.cell_len > width:
        chips = chips_text(counts, words, mono)
    facts.append_text(chips)
    if status:
        # The status ends its own line when it would not leave the hand size whole on the next.
        gap = " " if status.cell_len + facts.cell_len < width else "\n"
        facts = Text.assemble(status, gap, facts)
    return facts


def add_flags(seat: Mapping[str, Any], words: Words, lines: tuple[Text, Text], width: int) -> None:
    """`[locked]` / `[lured away]` at the end of the first of the box's lines (second, facts) where
    the words fit without a wrap; else as the short mark (`[L]`, `[S]`) where that fits; else in
    words on the facts line, wrapping it (the help explains the short marks)."""
    flags = [word for flag, word in (("locked", "locked"), ("skipped", "skipped"), ("auto", "auto_mark"))
             if seat.get(flag) is True]
    if not flags:
        return

    def last_row(text: Text) -> int:
        return text.wrap(measure_console(), width)[-1].cell_len if text.plain else 0

    for short in (False, True):
        marks = " ".join(f"[{words(flag + '_short' if short else flag)}]" for flag in flags)
        for line in lines:
            if last_row(line) + 1 + len(marks) <= width:
                break
        else:
            continue
        break
    else:
        line = lines[1]
        marks = " ".join(f"[{words(flag)}]" for flag in flags)
    if line.plain:
        line.append(" ")
    line.append(marks, style="reverse")


def status_text(seat: Mapping[str, Any], words: Words, show_identity: bool) -> Text:
    """`dead 潜伏战线`, `offline`, or nothing for a seat alive and present."""
    if seat.get("online") is False:
        text = Text(words("standin" if seat.get("bot") else "offline"), style="italic")
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


class SeatBox(Remeasured, Static):
    """A seat on the ring; the table sets its classes: -me, -current, -holder (the message is
    here), -your-move (our prompt is open), -out (dead or lost), -skipped."""

    _shown: object = None

    def forget(self) -> None:
        """The box shows another seat now: draw it afresh at the next `show`."""
        self._shown = None
    #: Lines the last `show` drew in a frame (a long name or character wraps), and without one
    #: (two cells wider): the ring plans its rows from them.
    lines = 3
    plain_lines = 3

    def show(self, seat: Mapping[str, Any], words: Words, *, me: int | None, seats: list[dict[str, Any]],
             current: object, over: bool, countdown: int | None | bool, note: str | None, holder: bool,
             sender: bool, characters: bool, mono: bool, hint: int = 18) -> None:
        """`countdown`: seconds left when prompted (None: prompted with no deadline; False: not
        prompted). `hint`: the width to count with while the box has none (hidden, not laid out)."""
        index = seat.get("index")
        out = not seat.get("alive", True) or bool(seat.get("lost"))
        # Counted framed and unframed (the ring puts frames on or off after counting), the text
        # chosen for the framed width: the same words either way.
        framed = self.styles.border_left[0] not in ("", "none", "hidden")
        width = max(8, (self.content_region.width or hint) - (0 if framed else 2))
        key = (dict(seat), words.lang, me, current, over, countdown, note, holder, sender, characters, mono, width)
        self.set_class(index == me, "-me")
        self.set_class(index == current and not over, "-current")
        self.set_class(holder, "-holder")
        self.set_class(out, "-out")
        self.set_class(bool(seat.get("skipped")), "-skipped")
        if key == self._shown:
            return
        self._shown = key
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
        top = Table.grid(expand=True)
        top.add_column(ratio=1, overflow="fold")
        top.add_column(no_wrap=True, justify="right")
        top.add_row(head, right)
        # Our own identity is in the status bar while we play; once out (or over) our seat says it too.
        show_identity = index != me or out or over
        status = status_text(seat, words, show_identity)
        if characters:
            second = character_line(seat.get("character"), words, width)
        else:
            second = status if status else Text(words("alive"), style="dim")
        lead = status if characters else Text()
        facts = facts_text(seat, words, lead, mono, width)
        add_flags(seat, words, (second, facts), width)
        second.overflow = "fold"
        facts.overflow = "fold"
        self.measured = self.content_region.width
        self.lines = 1 + sum(len(t.wrap(measure_console(), width)) for t in (second, facts))
        self.plain_lines = 1 + sum(len(t.wrap(measure_console(), width + 2)) for t in (second, facts))
        self.update(Group(top, second, facts), layout=False)

    def fit(self, frame: int) -> None:
        """A fixed height, its lines and the `frame` rows of a border: no measuring at each layout."""
        height = (self.lines if frame else self.plain_lines) + frame
        if self.styles.height is None or self.styles.height.value != height:
            self.styles.height = height
