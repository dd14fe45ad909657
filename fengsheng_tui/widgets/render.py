"""Rich text for cards and seats. Colour is never the only signal: 红/蓝/黑 (R/B/Bk) is written too."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from rich.console import Console
from rich.text import Text

from ..i18n import Words

STYLE = {"red": "bold red", "blue": "bold blue", "black": "bold bright_black"}
MONO_STYLE = {"red": "bold", "blue": "underline", "black": "reverse"}


def colour_style(colour: object, mono: bool) -> str:
    return (MONO_STYLE if mono else STYLE).get(str(colour), "")


def card_text(face: Mapping[str, Any] | None, words: Words, mono: bool = False) -> Text:
    """`锁定[红·直达]` (`Lock [red·Direct]`) with the colour styled; a face-down card as a plain label."""
    if not face or "colour" not in face:
        return Text(words.card(face) if face else words("face_down"), style="italic")
    colour = face["colour"]
    gap = words("bracket_gap")
    text = Text(words.function(face.get("function", "?")) + gap)
    text.append("[")
    text.append(words.colour_word(colour), style=colour_style(colour, mono))
    text.append("·" + words.method(face.get("method", "?")) + "]")
    tag = words.probe_tag(face)
    if tag:
        text.append(gap + tag, style="italic")
    return text


def counts_text(counts: Mapping[str, Any], words: Words, mono: bool = False) -> Text:
    """Messages in front of a seat as `红1 蓝0 黑2`."""
    text = Text()
    for i, colour in enumerate(("red", "blue", "black")):
        if i:
            text.append(" ")
        n = int(counts.get(colour, 0) or 0)
        text.append(f"{words.colour(colour)}{n}", style=colour_style(colour, mono) if n else "dim")
    return text


@cache
def measure_console() -> Console:
    """A console only for measuring how text wraps (Textual's own console is busy drawing)."""
    return Console(width=200, color_system=None)


#: Messages in front of a seat as coloured marks: the colour's letter and the count on its colour.
CHIP_STYLE = {"red": "bold white on red", "blue": "bold white on blue", "black": "bold white on grey23"}
MONO_CHIP_STYLE = {"red": "bold reverse", "blue": "underline reverse", "black": "reverse"}


def chips_text(counts: Mapping[str, Any], words: Words, mono: bool = False, short: bool = True,
               colours: tuple[str, ...] = ("red", "blue", "black")) -> Text:
    """`red 1 blue 0 black 2` (`short`: `R1 B0 Bk2`; Chinese `红1 蓝0 黑2` either way), each colour a
    mark on its own colour (none held: dim), the colour always written too."""
    text = Text()
    for i, colour in enumerate(colours):
        if i:
            text.append(" ")
        n = int(counts.get(colour, 0) or 0)
        label = words.colour(colour) if short else words.colour_word(colour)
        text.append(words("chip", colour=label, n=n) if not short else f"{label}{n}",
                    style=(MONO_CHIP_STYLE if mono else CHIP_STYLE)[colour] if n else "dim")
    return text


class Remeasured:
    """Mixin for a ring widget that counts its wrapped lines at its width: once layout gives it
    another width than it counted with, the ring is planned again (so the count never depends on
    whether some later refresh happened to come)."""

    measured = 0

    def current_width(self) -> int:
        """The width its line count depends on."""
        widget: Any = self
        return int(widget.content_region.width)

    def on_resize(self) -> None:
        widget: Any = self
        if self.current_width() != self.measured:
            fit = getattr(widget.screen, "fit_ring", None)
            if fit is not None:
                widget.call_after_refresh(fit)


class FixedLines(Remeasured):
    """A ring widget whose height is the line count it last drew (the message's route, the stack):
    the ring plans its rows from `lines`, and the layout never measures the text."""

    #: Lines the last `show` drew at the widget's width.
    lines = 1

    #: What the last `show` drew from: the same again redraws nothing.
    _shown: object = None

    def set_lines(self, lines: int) -> None:
        widget: Any = self
        if lines != self.lines or widget.styles.height is None:
            widget.styles.height = lines
        self.lines = lines
