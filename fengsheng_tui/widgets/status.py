"""The top line (turn, whose turn, phase, our identity) and the lost-connection banner."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from ..client_state import ClientState
from ..i18n import Words
from ..safe_text import plain


class StatusBar(Static):
    """One line of fields; where they do not all fit, whole fields give way (the game's title
    first, then our identity, which the hand's title also shows, then the turn number), never a
    field cut in the middle (`Identity:` with its word past the edge)."""

    _shown: Text | None = None

    def show(self, state: ClientState, words: Words, layout: bool = True, your_move: bool = False,
             record: bool = False) -> None:
        """`record`: a replay's line, read as a record ("Alice's turn"), never a live call to act."""
        view = state.view or {}
        badge = Text(f" {words('your_move')} ", style="bold reverse") if your_move and not record else None
        #: (text, style, rank): the field with the lowest rank gives way first; None never does.
        fields: list[tuple[str, str, int | None]] = [(words("title"), "bold", 0)]
        if view:
            # Who paused comes first after the title.
            if view.get("paused"):
                fields.append((words.paused(state.paused_by or ""), "bold reverse", None))
            fields.append((words("turn", n=view.get("turn", 0)), "", 2))
            current = words.seat_name(state.seats, view.get("current"), state.seat)
            fields.append((words("turn_of", name=current) if record else current, "", None))
            fields.append((words.phase(view.get("phase")), "bold", None))
            if state.seat is None:
                fields.append((words("spectator"), "", None))
            else:
                fields.append((words.label("identity") + words.identity(view.get("identity")), "", 1))
            if state.auto:
                fields.append((words("auto_on"), "bold reverse", None))
            if view.get("fast_forward") is True and not view.get("over"):
                fields.append((words("fast_forwarding") + " ⏩", "bold reverse", None))
        width = (self.size.width or self.app.size.width) - 2  # less the padding
        text = status_line(badge, fields, width)
        if text != self._shown:
            self._shown = text
            self.update(text, layout=layout)


def status_line(badge: Text | None, fields: list[tuple[str, str, int | None]], width: int) -> Text:
    """The badge and the fields joined by ` · `, without the lowest-ranked fields that do not fit."""
    kept = list(fields)

    def line() -> Text:
        text = Text(style="bold")
        if badge is not None:
            text = badge.copy()
            text.append(" ")
        for i, (part, style, _) in enumerate(kept):
            text.append((" · " if i else "") + part, style=style)
        return text

    text = line()
    while text.cell_len > width and any(rank is not None for _, _, rank in kept):
        lowest = min(rank for _, _, rank in kept if rank is not None)
        kept = [f for f in kept if f[2] != lowest]
        text = line()
    return text


class Banner(Static):
    """One line under the status bar: what just happened (`Bot 2截获了情报`), so a glance after
    looking away tells it; while the connection is down, that instead."""

    _shown: Text | None = None

    def show(self, state: ClientState, words: Words, lost: bool, label: str = "last_action") -> None:
        """`label`: what the line is called (a replay's says "this step", not "just now")."""
        self.set_class(lost, "-lost")
        if lost:
            text = Text(words("lost_conn"))
        else:
            text = Text(words.label(label), style="dim")
            text.append_text(plain(state.last_action(words) or ""))
            text.no_wrap = True
            text.overflow = "ellipsis"
        if text != self._shown:
            self._shown = text
            self.update(text)
