"""Our hand, numbered 1–9 (the digit keys), with function, colour and method of each card; below it
our character (skills on offer now starred, `u` to use them) and its secret task."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from rich.console import Group
from rich.text import Text
from textual.widgets import Static

from ..client_state import ClientState
from ..i18n import Words
from .cjk_text import wrap
from .render import card_text, chips_text

#: Below this many terminal rows our secret task follows on our character's line (one row fewer).
FLOW_BELOW = 30


class HandPanel(Static):
    #: Lines the last `show` drew: the table fixes the panel's height from it.
    lines = 1
    #: The title also says what our seat on the ring would (its box gave way on a short screen).
    own_seat = False

    #: A replay's hand: a record, with no "* playable now" (nothing is played from it).
    record = False

    def retitle(self, state: ClientState, words: Words, mono: bool, own_seat: bool) -> None:
        """`Hand (* playable now) · Identity: Military`, and with `own_seat` our hand size, the
        messages in front of us and our countdown."""
        self.own_seat = own_seat
        view = state.view or {}
        if state.view is not None and view.get("seat") is None:
            return
        hand = words("hand") if self.record else words.marked(words("hand"), words("hand_star"))
        title = Text(f"{hand} · {words.label('identity')}{words.identity(view.get('identity'))}")
        seats = state.seats
        if own_seat and state.seat is not None and 0 <= state.seat < len(seats):
            seat = seats[state.seat]
            title.append(f" · {words.cards(seat.get('hand_count', 0))} ")
            left = state.countdowns().get(state.seat, False)
            clock = "" if left is False else " ⏳" + (words("countdown", s=left) if left is not None else "…")
            counts = seat.get("counts", {})
            # Our seat gave way to the title only where the ring is in its short forms: the same here.
            title.append_text(chips_text(counts, words, mono))
            title.append(clock)
        self.border_title = title

    def show(self, state: ClientState, words: Words, selected: int | None, usable: set[int],
             mono: bool = False, skills: Collection[str] = (), chosen_skill: str | None = None,
             layout: bool = True) -> None:
        view = state.view or {}
        if state.view is not None and view.get("seat") is None:
            self.border_title = Text(words("spectator"))
            lines = wrap(Text(words("spectator_hand"), style="dim italic"), max(20, self.size.width or 76))
            self.lines = len(lines)
            self.update(Text("\n").join(lines), layout=layout)
            return
        self.retitle(state, words, mono, self.own_seat)
        width = max(20, self.size.width) if self.size.width else 76
        text = Text(no_wrap=True)
        used = 0
        rows = 1
        for i, face in enumerate(state.hand):
            card_id = face.get("id")
            item = Text()
            key = f"{i + 1}" if i < 9 else "·"
            style = "reverse bold" if card_id == selected else ("bold" if card_id in usable else "dim")
            item.append(key, style=style)
            item.append(" ")
            item.append_text(card_text(face, words, mono))
            item.append("*" if card_id in usable else " ", style="bold")
            if used and used + 2 + item.cell_len > width:
                text.append("\n")
                rows += 1
                used = 0
            elif used:
                text.append("  ")
                used += 2
            text.append_text(item)
            used += item.cell_len
        if not state.hand:
            text.append("—", style="dim")
        extra = own_character_lines(view, state.seat, words, skills, chosen_skill, width,
                                    flow=self.app.size.height < FLOW_BELOW if self.is_attached else False)
        self.lines = rows + len(extra)
        self.update(Group(text, *extra) if extra else text, layout=layout)


def own_character_lines(view: dict[str, Any], seat: int | None, words: Words, skills: Collection[str],
                        chosen_skill: str | None, width: int, flow: bool) -> list[Text]:
    """`角色：浮萍·女 技能：先机* 后著` and the secret task, wrapped to `width` and never cut (our own
    task must always be readable in full). `flow`: the task may follow on the character's line
    where that saves a row (a short screen), else each starts a line of its own."""
    seats = view.get("seats") or []
    if seat is None or not 0 <= seat < len(seats):
        return []
    character = seats[seat].get("character")
    if not isinstance(character, dict) or "id" not in character:
        return []
    line = Text(words.label("character"), style="bold")
    line.append(words.character(character))
    line.append(words.gender_suffix(character.get("gender")), style="dim")
    names = list(character.get("skills") or [])
    if names:
        line.append("  " + words.label("skills"), style="bold")
        for i, name in enumerate(names):
            style = "reverse bold" if name == chosen_skill else ("bold" if name in skills else "")
            if i:
                line.append(" ")
            line.append(words.skill(name) + ("*" if name in skills else ""), style=style)
    task = view.get("task")
    text = task.get(words.lang) if isinstance(task, dict) else None
    if not text:
        return wrap(line, width)
    label = "task" if view.get("identity") in ("neutral", None) else "task_if_neutral"
    task_line = Text(words.label(label), style="bold")
    task_line.append(str(text), style="italic")
    apart = [*wrap(line, width), *wrap(task_line, width)]
    together = wrap(Text.assemble(line, "  ", task_line), width) if flow else apart
    return together if len(together) < len(apart) else apart

