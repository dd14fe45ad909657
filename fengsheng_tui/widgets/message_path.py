"""The message in transit drawn as its route round the ring: from the sender, the way it moves,
every seat it will reach (skipped ones struck through), where it is now, where it came from."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.cells import cell_len
from rich.console import Group
from rich.text import Text
from textual.widgets import Static

from ..client_state import ClientState
from ..i18n import Words
from ..safe_text import plain
from .render import FixedLines, card_text, measure_console


def in_game(seat: Mapping[str, Any]) -> bool:
    return bool(seat.get("alive", True)) and not seat.get("lost")


def route(seats: list[dict[str, Any]], message: Mapping[str, Any]) -> list[int]:
    """Seats from the sender round the ring the way the message moves, back to the sender; a
    直达 message goes to its target only."""
    n = len(seats)
    sender = message.get("sender")
    if not isinstance(sender, int) or not 0 <= sender < n:
        return []
    target = message.get("target")
    if message.get("method") == "直达" and isinstance(target, int) and not message.get("returning"):
        return [sender, target]
    step = 1 if message.get("direction", 1) == 1 else -1
    order = [sender]
    seat = sender
    for _ in range(n - 1):
        seat = (seat + step) % n
        if in_game(seats[seat]) or seat == message.get("position"):
            order.append(seat)
    return [*order, sender]



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

class MessagePath(FixedLines, Static):
    """`密电 · 老王传出 · 向右传（逆时针）` over `老王 → Alice → [✉小李] → ~~Bob~~ → 老王` and its face."""

    #: (what it was built from) -> (lines, rows) for the widths the ring asked about.
    _built: dict[object, tuple[list[Text], int]]

    def natural(self, state: ClientState, words: Words, mono: bool) -> int:
        """Cells of the route's longest line when nothing wraps."""
        return max(line.cell_len for line in self.build(state, words, mono, 10_000)[0])

    def count(self, state: ClientState, words: Words, mono: bool, width: int) -> int:
        """Rows the route takes at `width` (the ring plans with it before choosing one)."""
        return self.build(state, words, mono, width)[1]

    def show(self, state: ClientState, words: Words, mono: bool = False, width: int = 40) -> None:
        """Drawn at the width the ring chose; again only when the view, the words or the width changed."""
        key = (id(state.view), words.lang, mono, width, len(state.seats))
        if key == self._shown:
            return
        self._shown = key
        lines, rows = self.build(state, words, mono, width)
        self.set_lines(rows)
        self.update(Group(*lines), layout=False)

    def current_width(self) -> int:
        return 0  # drawn at the width the ring planned, not the one layout gives: nothing to measure again

    def build(self, state: ClientState, words: Words, mono: bool, width: int) -> tuple[list[Text], int]:
        key = (id(state.view), words.lang, mono, width, len(state.seats))
        built = getattr(self, "_built", {})
        if key not in built:
            if len(built) > 8:
                built = {}
            built[key] = self.lines_at(state, words, mono, max(10, width))
            self._built = built
        return built[key]

    def lines_at(self, state: ClientState, words: Words, mono: bool, width: int) -> tuple[list[Text], int]:
        view = state.view or {}
        seats, me = state.seats, state.seat
        m = view.get("message")
        if not isinstance(m, dict):
            return [Text(words("no_message"), style="dim")], 1

        def name(s: object) -> str:
            return words.seat_name(seats, s, me)

        if m.get("returning"):
            way = words("returning")
        elif m.get("method") == "直达" and m.get("target") is not None:
            way = words("direction_target", target=name(m.get("target")))
        else:
            # RULES.md §9.1: the next seat (seat+1) is on your right: counter-clockwise on the ring.
            way = words("direction_right" if m.get("direction", 1) == 1 else "direction_left")
        head = Text(words.method(m.get("method")), style="bold")
        head.append(" · ")
        head.append_text(plain(words("sent_by", sender=name(m.get("sender"))) + " · " + way))
        if m.get("intercepted_by") is not None:
            head.append(" · ")
            head.append_text(plain(words("intercepted", who=name(m.get("intercepted_by"))), style="bold"))
        path = Text()
        position, origin = m.get("position"), m.get("origin")
        order = route(seats, m)
        reached = order.index(position) if position in order[:-1] else None
        arrow = " ⇒ " if m.get("method") == "直达" and len(order) == 2 else " → "
        for i, seat in enumerate(order):
            if i:
                path.append(arrow, style="dim")
            label = name(seat)
            skipped = 0 <= seat < len(seats) and bool(seats[seat].get("skipped"))
            if seat == position and i == reached:
                path.append_text(plain(f"✉{label}", style="bold reverse"))
            elif skipped:
                path.append_text(plain(label, style="strike dim"))
            elif reached is not None and i < reached:
                path.append_text(plain(label, style="dim"))
            else:
                path.append_text(plain(label))
        # Where it came from, when the route does not say it already (a 退回 or a 截获 moved it).
        before = order[reached - 1] if reached else None
        if origin is not None and origin not in (position, m.get("sender"), before):
            path.append_text(plain("  " + words("came_from", origin=name(origin)), style="italic"))
        face = Text(words.label("message_face"), style="bold")
        card = card_text(m.get("card"), words, mono)
        face.append_text(card)
        # Broken at spaces between names, never inside one (`Bot` over `3` reads as two seats), nor
        # inside the card's name (`Send Back [red·Text]`).
        names = [name(i) for i in range(len(seats))]
        lines = [*keep_names(head, names, width), *keep_names(path, names, width),
                 *keep_names(face, [card.plain], width)]
        return lines, sum(len(line.wrap(measure_console(), width)) for line in lines)
