"""The table as people sit round it: our seat at the bottom, the others in 顺位 round the ring.

The next seat (seat+1) is on our right (RULES.md §9.1), so the ring runs up the right side, right
to left along the top and down the left side back to us: counter-clockwise on the screen, the way a
message passes right. The message's route, the stack and our own seat fill the middle.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import Container, Horizontal, Vertical
from textual.widget import Widget

from ..client_state import ClientState
from ..i18n import Words
from .message_path import MessagePath
from .seat import SeatBox
from .stack import StackView


def sides(others: int) -> tuple[int, int, int]:
    """How many of the other seats sit on the right, along the top and on the left."""
    side = 0 if others <= 2 else 1 if others <= 5 else 2
    return side, others - 2 * side, side


def placement(n: int, anchor: int) -> tuple[list[int], list[int], list[int]]:
    """(right side bottom to top, top row right to left, left side top to bottom) for `n` seats
    with `anchor` (our seat) at the bottom."""
    order = [(anchor + i) % n for i in range(1, n)]
    right, top, _ = sides(n - 1)
    return order[:right], order[right:right + top], order[right + top:]


#: Rows a seat box takes without and with its frame.
SEAT_ROWS = 3
BOXED_ROWS = 5
#: Rows of the message's route (method and way, route, face) and its tight form.
PATH_ROWS = 3


class Ring(Widget):
    """`Ring(n, anchor)`: built for a number of seats and our place; the table builds a new one
    when either changes. Seat boxes have ids `seat-<index>`."""

    #: The most lines a seat box took at the last `show` (three unless a name wraps).
    seat_lines = SEAT_ROWS

    def __init__(self, n: int = 0, anchor: int = 0, **kw: Any) -> None:
        super().__init__(**kw)
        self.n = n
        self.bottom = anchor
        self.on_right, self.on_top, self.on_left = placement(n, anchor) if n else ([], [], [])

    def compose(self) -> ComposeResult:
        with Horizontal(classes="ring-top"):
            for seat in reversed(self.on_top):
                yield SeatBox(id=f"seat-{seat}")
        with Horizontal(classes="ring-middle"):
            if self.on_left or self.on_right:
                with Vertical(classes="ring-side ring-left"):
                    for seat in self.on_left:
                        yield SeatBox(id=f"seat-{seat}")
            with Vertical(classes="ring-center"):
                with Container(classes="ring-message"):
                    yield MessagePath(id="path")
                    yield StackView(id="stack")
                if self.n:
                    yield SeatBox(id=f"seat-{self.bottom}", classes="-bottom")
            if self.on_left or self.on_right:
                with Vertical(classes="ring-side ring-right"):
                    for seat in reversed(self.on_right):
                        yield SeatBox(id=f"seat-{seat}")

    def on_mount(self) -> None:
        """A ring built for new seats draws itself as soon as its boxes exist."""
        fit = getattr(self.screen, "ring_mounted", None)
        if fit is not None:
            fit()

    def rows_needed(self, boxed: bool, gap: bool, stack_lines: int, wide: bool, path_lines: int = PATH_ROWS) -> int:
        """Screen rows this ring takes in a mode (seats as their usual three or five lines)."""
        seat = self.seat_lines + (BOXED_ROWS - SEAT_ROWS if boxed else 0)
        side = max(len(self.on_left), len(self.on_right))
        side_rows = side * seat + (max(0, side - 1) if not boxed else 0)
        message = max(path_lines, stack_lines) if wide else path_lines + stack_lines
        center = message + (seat if self.n else 0)
        return (seat + int(gap) if self.on_top else 0) + max(side_rows, center)

    def show(self, state: ClientState, words: Words, mono: bool, notes: dict[int, str], room: int,
             wide: bool) -> None:
        """Draw every seat and the message; choose frames and gaps from the `room` (rows) given."""
        view = state.view or {}
        seats = state.seats
        characters = any(s.get("character") for s in seats)
        countdowns = state.countdowns()
        m = view.get("message") if isinstance(view.get("message"), dict) else None
        stack_lines = 1 + len(view.get("stack") or [])
        # The middle's width: two shares of four when there are sides, less the padding.
        width = self.size.width or self.app.size.width
        center = (width // 2 if self.on_left or self.on_right else width) - 2
        path = self.query_one(MessagePath)
        path.show(state, words, mono, width=center // 2 if wide else center)
        lines = path.lines
        for seat in seats:
            index = seat.get("index")
            if not isinstance(index, int):
                continue
            try:
                box = self.query_one(f"#seat-{index}", SeatBox)
            except Exception:  # noqa: BLE001 - a seat the ring was not built for: the next ring has it
                continue
            box.show(seat, words, me=state.seat, seats=seats, current=view.get("current"),
                     over=bool(view.get("over")), countdown=countdowns.get(index, False) if index in countdowns
                     else False, note=notes.get(index), holder=m is not None and m.get("position") == index,
                     sender=m is not None and m.get("sender") == index, characters=characters, mono=mono)
        self.seat_lines = max([SEAT_ROWS, *(b.lines for b in self.query(SeatBox))])
        boxed = self.rows_needed(True, False, stack_lines, wide, lines) <= room
        gap = not boxed and self.rows_needed(False, True, stack_lines, wide, lines) <= room
        self.styles.max_height = max(3, room)
        self.set_class(boxed, "-boxed")
        self.set_class(gap, "-gap")
        self.set_class(wide, "-wide")
        # The stack gets the rows the rest of the ring leaves (its newest entries first).
        others = self.rows_needed(boxed, gap, 0, wide, 0)
        self.query_one(StackView).show(state, words, mono, max_lines=max(1, room - others - (0 if wide else lines)))
