"""The table as people sit round it: our seat at the bottom, the others in 顺位 round the ring.

The next seat (seat+1) is on our right (RULES.md §9.1), so the ring runs up the right side, right
to left along the top and down the left side back to us: counter-clockwise on the screen, the way a
message passes right. The message's route, the stack and our own seat fill the middle.
"""

from __future__ import annotations

from dataclasses import dataclass
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


#: The narrowest a side column gets to widen the middle for the route: a framed box whose lines
#: still hold `red 0 blue 0 black 0` (20 cells) and a name with its countdown.
SIDE_MIN = 26

#: Seat places on the ring: at most four along the top and two on each side (nine seats).
TOP_SLOTS = 4
SIDE_SLOTS = 2


class Ring(Widget):
    """The ring has a place for every seat of the largest table, built once: `show` puts each seat
    in its place for the number of seats and our own (a new game, a renumbering) and hides the
    places nobody takes. The box showing seat `i` has the class `seat-i`."""

    #: Our seat's box gave way (a very short screen): the hand panel's title carries its facts.
    merged = False
    #: (what the plan was made for, the plan): kept while the room and the table stay and it fits.
    kept: tuple[object, Plan] | None = None
    #: The game the message's rows were seen in, its latest turn, and width -> the most rows.
    seen_game: object = None
    seen_turn = 0
    message_rows: dict[int, int]

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.n = 0
        self.bottom = 0
        self.on_right: list[int] = []
        self.on_top: list[int] = []
        self.on_left: list[int] = []
        #: seat index -> the box showing it.
        self.boxes: dict[int, SeatBox] = {}
        self.message_rows = {}

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

    def show(self, state: ClientState, words: Words, mono: bool, notes: dict[int, str], room: int,
             wide: bool, most: int | None = None) -> None:
        """Draw every seat and the message; choose frames, gaps, each box's form and where the
        stack goes from the `room` (rows) given. When even the tightest ring needs more, it takes up
        to `most` rows (the log gives them up): a seat is never cut.

        `wide`: the screen has the columns for the stack beside the route; it goes there unless the
        route or the stack would wrap there and not under it."""
        view = state.view or {}
        seats = state.seats
        self.place(len(seats), state.seat)
        characters = any(s.get("character") for s in seats)
        countdowns = state.countdowns()
        m = view.get("message") if isinstance(view.get("message"), dict) else None
        found = self.query(MessagePath)
        if not found:  # asked to draw before its children are mounted: the next refresh draws it
            return
        path = found.first()
        stack = self.query_one(StackView)
        # The middle's width: two shares of four when there are sides; the route and stack's padding.
        width = self.size.width or self.app.size.width
        side = self.side_width(width, path.natural(state, words, mono) if wide else 0)
        column = width - 2 * side
        full, half = max(10, column - 2), max(10, column // 2 - 2)
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
                     hint=self.hint(index, width, column))
        # The ring plans with the most rows a message has taken this game, whether one travels now
        # or not, and with the most the stack's title and newest entry took (older entries get the
        # rows left): a message that comes and goes, or a stack that grows and empties, never
        # changes the ring's shape back and forth.
        at = view.get("turn")
        turn = at if isinstance(at, int) else 0
        if self.seen_game != (self.n, self.bottom, words.lang) or turn < self.seen_turn:
            self.seen_game, self.message_rows = (self.n, self.bottom, words.lang), {}
        self.seen_turn = turn
        path_lines = {False: self.message_most(full, path.count(state, words, mono, full))}
        stack_rows = {False: self.message_most(-full, stack.least(state, words, mono, full))}
        arrangements = [False]
        if wide:
            path_lines[True] = self.message_most(half, path.count(state, words, mono, half))
            stack_rows[True] = self.message_most(-half, stack.least(state, words, mono, half))
            # Beside only where neither wraps more there than under: else under, rows allowing.
            wraps = path.count(state, words, mono, half) > path.count(state, words, mono, full) \
                or stack.need(state, words, mono, half) > stack.need(state, words, mono, full)
            arrangements = [False, True] if wraps else [True, False]
        # Within a turn the plan is kept while it fits (rule decided): it changes only when it must.
        key = (turn, width, self.n, self.bottom, words.lang, characters, mono, tuple(arrangements))
        plan = self.kept[1] if self.kept is not None and self.kept[0] == key else None
        if plan is None or not self.fits(plan, room, path_lines, stack_rows):
            plan = self.plan(room, arrangements, path_lines, stack_rows)
            # Short of rows: the log gives up its spare rows, only as many as a seat needs.
            for more in range(room + 1, (most or room) + 1):
                if plan is not None:
                    break
                room = more
                plan = self.plan(room, arrangements, path_lines, stack_rows)
        if plan is None:  # nothing fits even so: the tightest, cut at the bottom
            plan = Plan(arrangements[-1], False, False, True, True, dict.fromkeys(self.boxes, False))
        self.kept = (key, plan)
        self.merged = plan.merged
        if self.n and self.bottom in self.boxes:
            self.boxes[self.bottom].display = not plan.merged
        if self.styles.max_height != Scalar.from_number(max(3, room)):
            self.styles.max_height = max(3, room)
        for index, box in self.boxes.items():
            box.use(plan.roomy.get(index, False), plan.boxed)
        self.set_class(plan.boxed, "-boxed")
        self.set_class(plan.gap, "-gap")
        self.set_class(plan.tight, "-tight")
        self.set_class(plan.beside, "-wide")
        path.show(state, words, mono, width=half if plan.beside else full)
        # The stack gets the rows the rest of the ring leaves (its newest entries first).
        others = self.rows(plan, 0, 0)
        lines = path.lines
        stack.show(state, words, mono, max_lines=max(1, room - others - (0 if plan.beside else lines)),
                   width=half if plan.beside else full)
        # Our seat sits at the bottom of the ring: level with the lowest seats of the sides.
        if self.n and self.bottom in self.boxes:
            mine = self.boxes[self.bottom]
            side_rows = max(self.side_rows(plan, self.on_left), self.side_rows(plan, self.on_right))
            message = max(lines, stack.lines) if plan.beside else lines + stack.lines
            drop = max(0, side_rows - message - mine.rows(plan.roomy.get(self.bottom, False), plan.boxed))
            # Centred in the middle (its width stops at 60: see ring.tcss).
            left = max(0, (column - 60) // 2)
            if (mine.styles.margin.top, mine.styles.margin.left) != (drop, left):
                mine.styles.margin = (drop, 0, 0, left)

    def side_width(self, width: int, route: int) -> int:
        """Columns of each side (none without side seats): a quarter of the ring, less where the
        route (`route` cells on one line) needs the middle wider and the side seats can spare it,
        down to SIDE_MIN (a box that still holds `red 0 blue 0 black 0` on a line)."""
        if not (self.on_left or self.on_right):
            side = 0
        else:
            side = width // 4
            if route + 2 > width - 2 * side:
                side = max(min(side, SIDE_MIN), (width - route - 2) // 2)
        for column in self.query(".ring-side"):
            wanted = Scalar.parse(f"{side}" if side != width // 4 else "1fr")
            if column.styles.width != wanted:
                column.styles.width = wanted
        center = self.query_one(".ring-center")
        wanted = Scalar.parse("2fr" if side in (0, width // 4) else "1fr")
        if center.styles.width != wanted:
            center.styles.width = wanted
        return side

    def hint(self, index: int, width: int, column: int) -> int:
        """The unframed width a box will have once laid out (see ring.tcss), to count with before."""
        if index == self.bottom:
            outer = min(column, 61)
        elif index in self.on_top:
            outer = min(45, width // max(1, len(self.on_top)))
        else:
            outer = (width - column) // 2
        return max(8, outer - 3)

    def side_rows(self, plan: Plan, side: list[int]) -> int:
        gaps = max(0, len(side) - 1) if not plan.boxed and not plan.tight else 0
        return sum(self.boxes[i].rows(plan.roomy.get(i, False), plan.boxed) for i in side if i in self.boxes) + gaps

    def rows(self, plan: Plan, path_lines: int, stack_rows: int) -> int:
        """Screen rows the ring takes with this plan and a message of these rows."""
        top = max((self.boxes[i].rows(plan.roomy.get(i, False), plan.boxed) for i in self.on_top if i in self.boxes),
                  default=0)
        message = max(path_lines, stack_rows) if plan.beside else path_lines + stack_rows
        me = self.boxes.get(self.bottom) if self.n and not plan.merged else None
        center = message + (me.rows(plan.roomy.get(self.bottom, False), plan.boxed) if me is not None else 0)
        return (top + int(plan.gap) if self.on_top else 0) + max(
            self.side_rows(plan, self.on_left), self.side_rows(plan, self.on_right), center)

    def message_most(self, width: int, rows: int) -> int:
        """The most rows the message (`width`) or the stack's least (`-width`) has taken this game,
        `rows` (now) included."""
        most = max(rows, self.message_rows.get(width, 0))
        self.message_rows[width] = most
        return most

    def fits(self, plan: Plan, room: int, path_lines: dict[bool, int], stack_rows: dict[bool, int]) -> bool:
        return plan.beside in path_lines and self.rows(plan, path_lines[plan.beside], stack_rows[plan.beside]) <= room

    def plan(self, room: int, arrangements: list[bool], path_lines: dict[bool, int],
             stack_rows: dict[bool, int]) -> Plan | None:
        """The first plan that fits `room`, in this order of preference: every box in words (framed,
        then a blank under the top row, then neither); then the same shapes and the tight ones (no
        blank between side seats; our seat's facts in the hand panel's title) with every box in
        the short forms. One form for the whole table (rule decided): a screen never mixes
        `red 0 blue 0 black 0` on one seat with `R0 B0 Bk0` on another. Words beat frames and gaps."""
        shapes = [(True, False, False, False), (False, True, False, False), (False, False, False, False)]
        for roomy, more in ((True, []), (False, [(False, False, True, False), (False, False, True, True)])):
            for beside in arrangements:
                for boxed, gap, tight, merged in [*shapes, *more]:
                    plan = Plan(beside, boxed, gap, tight, merged, dict.fromkeys(self.boxes, roomy))
                    if self.fits(plan, room, path_lines, stack_rows):
                        return plan
        return None


@dataclass(frozen=True)
class Plan:
    """How the ring is drawn: the stack `beside` the route (or under it), seats `boxed` (framed),
    a `gap` under the top row, `tight` (no blank between side seats), our seat `merged` into the
    hand panel's title, and which boxes are `roomy` (every field in words)."""

    beside: bool
    boxed: bool
    gap: bool
    tight: bool
    merged: bool
    roomy: dict[int, bool]
