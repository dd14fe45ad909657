"""The table as people sit round it: our seat at the bottom, the others in 顺位 round the ring.

The next seat (seat+1) is on our right (RULES.md §9.1), so the ring runs up the right side, right
to left along the top and down the left side back to us: counter-clockwise on the screen, the way a
message passes right. The message's route, the stack and our own seat fill the middle.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import Container, Horizontal, Vertical
from textual.css.scalar import Scalar
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


#: Seat places on the ring: at most four along the top and two on each side (nine seats).
TOP_SLOTS = 4
SIDE_SLOTS = 2


class Ring(Widget):
    """The ring has a place for every seat of the largest table, built once: `show` puts each seat
    in its place for the number of seats and our own (a new game, a renumbering) and hides the
    places nobody takes. The box showing seat `i` has the class `seat-i`."""

    #: The most lines a seat box took at the last `show` (three unless a name wraps), framed and not.
    seat_lines = SEAT_ROWS
    plain_lines = SEAT_ROWS
    #: Our seat's box gave way (a very short screen): the hand panel's title carries its facts.
    merged = False

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.n = 0
        self.bottom = 0
        self.on_right: list[int] = []
        self.on_top: list[int] = []
        self.on_left: list[int] = []
        #: seat index -> the box showing it.
        self.boxes: dict[int, SeatBox] = {}

    def compose(self) -> ComposeResult:
        with Horizontal(classes="ring-top"):
            for j in reversed(range(TOP_SLOTS)):  # the first seat along the top is the rightmost
                yield SeatBox(id=f"slot-t{j}")
        with Horizontal(classes="ring-middle"):
            with Vertical(classes="ring-side ring-left"):
                for j in range(SIDE_SLOTS):
                    yield SeatBox(id=f"slot-l{j}")
            with Vertical(classes="ring-center"):
                with Container(classes="ring-message"):
                    yield MessagePath(id="path")
                    yield StackView(id="stack")
                yield SeatBox(id="slot-b", classes="-bottom")
            with Vertical(classes="ring-side ring-right"):
                for j in reversed(range(SIDE_SLOTS)):  # the first seat on the right is the lowest
                    yield SeatBox(id=f"slot-r{j}")

    def place(self, n: int, seat: int | None) -> None:
        """Put the seats in their places: us (or seat 0 for a spectator) at the bottom."""
        bottom = seat if seat is not None and 0 <= seat < n else 0
        if (n, bottom) == (self.n, self.bottom) and self.boxes:
            return
        self.n, self.bottom = n, bottom
        self.on_right, self.on_top, self.on_left = placement(n, bottom) if n else ([], [], [])
        wanted = {f"slot-r{j}": s for j, s in enumerate(self.on_right)}
        wanted |= {f"slot-t{j}": s for j, s in enumerate(self.on_top)}
        wanted |= {f"slot-l{j}": s for j, s in enumerate(self.on_left)}
        if n:
            wanted["slot-b"] = bottom
        self.boxes = {}
        for box in self.query(SeatBox):
            for name in [c for c in box.classes if c.startswith("seat-")]:
                box.remove_class(name)
            index = wanted.get(box.id or "")
            box.display = index is not None
            box.forget()
            if index is not None:
                box.add_class(f"seat-{index}")
                self.boxes[index] = box
        sides = bool(self.on_left or self.on_right)
        for column in self.query(".ring-side"):
            column.display = sides
        self.query_one(".ring-top").display = bool(self.on_top)

    def rows_needed(self, boxed: bool, gap: bool, stack_lines: int, wide: bool, path_lines: int = PATH_ROWS,
                    tight: bool = False, with_me: bool = True) -> int:
        """Screen rows this ring takes in a mode (seats as their usual three or five lines; `tight`:
        no blank line between the seats of a side)."""
        seat = self.seat_lines + BOXED_ROWS - SEAT_ROWS if boxed else self.plain_lines
        side = max(len(self.on_left), len(self.on_right))
        side_rows = side * seat + (max(0, side - 1) if not boxed and not tight else 0)
        message = max(path_lines, stack_lines) if wide else path_lines + stack_lines
        center = message + (seat if self.n and with_me else 0)
        return (seat + int(gap) if self.on_top else 0) + max(side_rows, center)

    def show(self, state: ClientState, words: Words, mono: bool, notes: dict[int, str], room: int,
             wide: bool, most: int | None = None) -> None:
        """Draw every seat and the message; choose frames and gaps from the `room` (rows) given.
        When even the tightest ring needs more, it takes up to `most` rows (the log gives them up):
        a seat is never cut."""
        view = state.view or {}
        seats = state.seats
        self.place(len(seats), state.seat)
        characters = any(s.get("character") for s in seats)
        countdowns = state.countdowns()
        m = view.get("message") if isinstance(view.get("message"), dict) else None
        stack_lines = 1 + len(view.get("stack") or [])
        # The middle's width: two shares of four when there are sides, less the padding.
        width = self.size.width or self.app.size.width
        center = (width // 2 if self.on_left or self.on_right else width) - 2
        found = self.query(MessagePath)
        if not found:  # asked to draw before its children are mounted: the next refresh draws it
            return
        path = found.first()
        path.show(state, words, mono, width=center // 2 if wide else center)
        lines = path.lines
        for seat in seats:
            index = seat.get("index")
            if not isinstance(index, int):
                continue
            box = self.boxes.get(index)
            if box is None:
                continue
            box.show(seat, words, me=state.seat, seats=seats, current=view.get("current"),
                     over=bool(view.get("over")), countdown=countdowns.get(index, False) if index in countdowns
                     else False, note=notes.get(index), holder=m is not None and m.get("position") == index,
                     sender=m is not None and m.get("sender") == index, characters=characters, mono=mono,
                     hint=center if index == self.bottom else 18)
        self.seat_lines = max([SEAT_ROWS, *(b.lines for b in self.boxes.values())])
        self.plain_lines = max([SEAT_ROWS, *(b.plain_lines for b in self.boxes.values())])
        boxed = self.rows_needed(True, False, stack_lines, wide, lines) <= room
        gap = not boxed and self.rows_needed(False, True, stack_lines, wide, lines) <= room
        tight = not boxed and not gap and self.rows_needed(False, False, stack_lines, wide, lines) > room
        # Tighter still, our own seat moves into the hand panel's title (it sits right below).
        self.merged = tight and self.rows_needed(False, False, 1, wide, lines, tight=True) > room
        if tight:
            need = self.rows_needed(False, False, 1, wide, lines, tight=True, with_me=not self.merged)
            room = max(room, min(most or room, need))
        if self.n and self.bottom in self.boxes:
            self.boxes[self.bottom].display = not self.merged
        if self.styles.max_height != Scalar.from_number(max(3, room)):
            self.styles.max_height = max(3, room)
        for box in self.boxes.values():
            box.fit(BOXED_ROWS - SEAT_ROWS if boxed else 0)
        self.set_class(boxed, "-boxed")
        self.set_class(gap, "-gap")
        self.set_class(tight, "-tight")
        self.set_class(wide, "-wide")
        # The stack gets the rows the rest of the ring leaves (its newest entries first).
        others = self.rows_needed(boxed, gap, 0, wide, 0, tight=tight, with_me=not self.merged)
        stack = self.query_one(StackView)
        stack.show(state, words, mono, max_lines=max(1, room - others - (0 if wide else lines)))
        # Our seat sits at the bottom of the ring: level with the lowest seats of the sides.
        if self.n and self.bottom in self.boxes:
            frame = BOXED_ROWS - SEAT_ROWS if boxed else 0
            side = max(len(self.on_left), len(self.on_right))
            seat_rows = self.seat_lines + frame if boxed else self.plain_lines
            side_rows = side * seat_rows + (max(0, side - 1) if not boxed and not tight else 0)
            message = max(lines, stack.lines) if wide else lines + stack.lines
            mine = self.boxes[self.bottom]
            drop = max(0, side_rows - message - (mine.lines + frame if boxed else mine.plain_lines))
            box = self.boxes[self.bottom]
            if box.styles.margin.top != drop:
                box.styles.margin = (drop, 0, 0, 0)
