"""The message in transit (method, where, which way, its face if we may see it) and the stack."""

from __future__ import annotations

from rich.cells import cell_len
from rich.console import Group
from rich.text import Text
from textual.widgets import Static

from ..client_state import ClientState
from ..i18n import Words
from .render import card_text, measure_console


def keep_names(text: Text, names: list[str], width: int) -> list[Text]:
    """`text` broken at spaces into lines of `width` cells, never inside a seat name: `at Bot` over
    `3` reads as two things. A part wider than a line is left for Rich to fold."""
    plain = text.plain
    glued: set[int] = set()
    for name in names:
        at = plain.find(name) if " " in name else -1
        while at >= 0:
            glued.update(at + i for i, ch in enumerate(name) if ch == " ")
            at = plain.find(name, at + 1)
    cuts: list[int] = []
    start = 0
    space: int | None = None
    for i, ch in enumerate(plain + " "):
        if ch != " " or i in glued:
            continue
        if space is not None and cell_len(plain[start:i]) > width:
            cuts.append(space)
            start = space + 1
        space = i
    lines: list[Text] = []
    for part in text.divide(cuts):
        if lines:
            part = part[1:]  # the space the line was broken at
        part.overflow = "fold"
        lines.append(part)
    return lines


class TransitPanel(Static):
    #: Lines the last `show` drew: the table fixes the panel's height from it.
    lines = 1

    def show(self, state: ClientState, words: Words, mono: bool = False, layout: bool = True,
             max_lines: int | None = None) -> None:
        """At most `max_lines` lines: a long 识破 chain shows its newest entries and `…还有N项`."""
        self.border_title = Text(words("message"))
        view = state.view or {}
        seats = state.seats
        me = state.seat
        lines: list[Text] = []
        m = view.get("message")
        if isinstance(m, dict):
            name = lambda s: words.seat_name(seats, s, me)  # noqa: E731
            if m.get("returning"):
                way = words("returning")
            elif m.get("method") == "直达" and m.get("target") is not None:
                way = words("direction_target", target=name(m.get("target")))
            else:
                # RULES.md §9.1: the next seat (seat+1, down the seat list) is on your right.
                way = words("direction_right" if m.get("direction", 1) == 1 else "direction_left")
            head = Text(words.method(m.get("method")) + " ", style="bold")
            head.append(words("from_to", sender=name(m.get("sender")), pos=name(m.get("position")), dir=way))
            if m.get("intercepted_by") is not None:
                head.append(" · " + words("intercepted", who=name(m.get("intercepted_by"))))
            names = [name(i) for i in range(len(seats))]
            lines += keep_names(head, names, max(10, self.size.width) if self.size.width else 28)
            face = Text("  ")
            face.append_text(card_text(m.get("card"), words, mono))
            lines.append(face)
        else:
            lines.append(Text(words("no_message"), style="dim"))
        stack = view.get("stack") or []
        title = Text(words("stack") + ": ", style="bold")
        if not stack:
            title.append(words("stack_empty"), style="dim")
        lines.append(title)
        width = max(10, self.size.width) if self.size.width else 28
        used = sum(len(line.wrap(measure_console(), width)) for line in lines)
        room = len(stack) if max_lines is None else max(1, max_lines - used)
        hidden = max(0, len(stack) - room)
        if hidden:
            # The newest entries resolve first (后发先至): those are the ones to see.
            title.append(words("more_entries", n=hidden), style="dim")
        for depth, item in list(enumerate(stack))[hidden:]:
            line = Text(f" {depth + 1}. {words.seat_name(seats, item.get('user'), me)} ")
            line.append_text(card_text(item.get("card"), words, mono))
            if item.get("target_seat") is not None:
                line.append(" → " + words.seat_name(seats, item.get("target_seat"), me))
            if isinstance(item.get("target_card"), dict):
                line.append(f" ({words('on')} ")
                line.append_text(card_text(item["target_card"], words, mono))
                line.append(")")
            line.no_wrap = True
            line.overflow = "ellipsis"
            lines.append(line)
        self.lines = used + len(stack) - hidden
        self.update(Group(*lines), layout=layout)
