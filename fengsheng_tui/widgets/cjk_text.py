"""Text that wraps Chinese by the rules of Chinese typesetting (禁则): no line starts with a closing
mark (。，、）」 …) and none ends with an opening one (（「 …).

Rich folds Chinese at any cell, since it has no spaces to wrap at, so a `。` can be left alone at the
start of a line. `CjkText` wraps itself instead: English words stay whole, Chinese breaks between
characters, and a break that would strand a mark moves back by one character.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.text import Text

#: Marks that may not start a line.
NO_START = frozenset("。．，、；：？！）」』】》〉〕”’…·%％,.;:?!)]}")
#: Marks that may not end a line.
NO_END = frozenset("（「『【《〈〔“‘([{")
#: A wrap unit: a run of spaces, a run of anything that is not space and not wide (an English word,
#: a number), or one other character (a Chinese character or mark).
TOKEN = re.compile(r"\s+|[^\s\u1100-\u11ff\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]+|.")


class CjkText:
    """A `Text` rendered with 禁则 line breaking at whatever width it is given."""

    def __init__(self, text: Text | str) -> None:
        self.text = text if isinstance(text, Text) else Text(text)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self.text)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for paragraph in self.text.split("\n", allow_blank=True):
            for line in wrap(paragraph, options.max_width):
                line.end = "\n"
                line.no_wrap = True
                line.overflow = "fold"
                yield line


class ListText(CjkText):
    """A hint that lists keys (`s 开始，b/x 加减机器人，…`, `s starts, b/x add/remove a bot, …`):
    broken only after a list separator, so a key never parts from what it does (`l` at the end
    of one line, `机器人水平` on the next); an item wider than a line wraps by 禁则."""

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for paragraph in self.text.split("\n", allow_blank=True):
            for line in list_lines(paragraph, options.max_width):
                for row in wrap(line, options.max_width):
                    row.end = "\n"
                    row.no_wrap = True
                    row.overflow = "fold"
                    yield row


#: Where a list of keys may break: after its separators.
ITEM = re.compile(r".+?(?:[，、；]|[,;] |$)")


def list_lines(line: Text, width: int) -> list[Text]:
    """`line` in lines of whole list items where they fit `width` (see `ListText`)."""
    plain = line.plain
    cuts: list[int] = []
    start = 0
    for item in ITEM.finditer(plain):
        if item.start() > start and cell_len(plain[start:item.end()].rstrip()) > width:
            cuts.append(item.start())
            start = item.start()
    return _pieces(line, cuts)


def wrap(line: Text, width: int) -> list[Text]:
    """`line` cut into lines of at most `width` cells (a word wider than that is folded by Rich)."""
    plain = line.plain
    tokens = [(m.start(), m.end()) for m in TOKEN.finditer(plain)]
    if width < 2 or cell_len(plain) <= width:
        return [line]
    cuts: list[int] = []
    start, used = 0, 0  # first token of the current line, and its width so far
    i = 0
    while i < len(tokens):
        a, b = tokens[i]
        w = cell_len(plain[a:b])
        if used + w <= width or i == start:
            used += w
            i += 1
            continue
        brk = i
        while brk - 1 > start and (_starts(plain, tokens[brk]) or _ends(plain, tokens[brk - 1])):
            brk -= 1
        while brk < len(tokens) and plain[tokens[brk][0]].isspace():
            brk += 1  # a line never starts with the spaces it was broken at
        if brk >= len(tokens):
            break
        cuts.append(tokens[brk][0])
        start, i = brk, brk
        used = 0
    return _pieces(line, cuts)


def rows(line: Text, width: int) -> list[Text]:
    """The screen rows `line` takes at `width`, as `CjkText` draws them: 禁则 breaks, and a word
    wider than a row folded. Widgets that count their rows count these, and draw them."""
    from .render import measure_console

    return [row for piece in wrap(line, width) for row in piece.wrap(measure_console(), max(1, width))]


def _pieces(line: Text, cuts: Iterable[int]) -> list[Text]:
    out = []
    for piece in line.divide(cuts):
        piece.rstrip()
        out.append(piece)
    return out


def _starts(plain: str, token: tuple[int, int]) -> bool:
    return plain[token[0]] in NO_START


def _ends(plain: str, token: tuple[int, int]) -> bool:
    return plain[token[1] - 1] in NO_END
