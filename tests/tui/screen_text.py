"""The screen as plain text, for assertions on what a player would read."""

from __future__ import annotations

from typing import Any

from textual.app import App


def screen_text(app: App[Any]) -> str:
    update: Any = app.screen._compositor.render_update(full=True)
    return "\n".join("".join(segment.text for strip in line for segment in strip) for line in update.strips)


def cells(line: str, start: int, end: int) -> str:
    """The characters of `line` between screen columns `start` and `end` (a CJK character is two)."""
    from rich.cells import cell_len

    out, column = [], 0
    for ch in line:
        if start <= column < end:
            out.append(ch)
        column += cell_len(ch)
    return "".join(out)


def widget_text(app: App[Any], selector: str) -> str:
    """What one widget shows (a seat box on the ring: `.seat-2`), its lines joined by spaces."""
    widget = app.screen.query_one(selector)
    region = widget.region
    lines = screen_text(app).splitlines()[region.y: region.bottom]
    return " ".join(" ".join(cells(line, region.x, region.right).strip("│┃╭╮╰╯─━┏┓┗┛ ").split()) for line in lines)


def counts_forms(words: Any, counts: dict[str, Any]) -> tuple[str, str]:
    """A seat's message counts as a seat box may write them: short (`R1 B0 Bk2`, `红1 蓝0 黑2`) and
    in words (`red 1 blue 0 black 2`) where the box has the room."""
    colours = ("red", "blue", "black")
    short = " ".join(f"{words.colour(c)}{counts.get(c, 0)}" for c in colours)
    full = " ".join(words("chip", colour=words.colour_word(c), n=counts.get(c, 0)) for c in colours)
    return short, full
