"""The top line (turn, whose turn, phase, our identity) and the lost-connection banner."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from ..client_state import ClientState
from ..i18n import Words
from ..safe_text import plain


class StatusBar(Static):
    _shown: Text | None = None

    def show(self, state: ClientState, words: Words, layout: bool = True, your_move: bool = False,
             record: bool = False) -> None:
        """`record`: a replay's line, read as a record ("Alice's turn"), never a live call to act."""
        view = state.view or {}
        text = Text(words("title"), style="bold")
        if your_move and not record:
            text = Text(f" {words('your_move')} ", style="bold reverse")
            text.append(" " + words("title"), style="bold")
        if view:
            # Who paused comes first: the line ends wherever the screen does.
            if view.get("paused"):
                text.append(" · " + words.paused(state.paused_by or ""), style="bold reverse")
            text.append(" · " + words("turn", n=view.get("turn", 0)))
            current = words.seat_name(state.seats, view.get("current"), state.seat)
            text.append(" · " + (words("turn_of", name=current) if record else current))
            text.append(" · " + words.phase(view.get("phase")), style="bold")
            if state.seat is None:
                text.append(" · " + words("spectator"))
            else:
                text.append(f" · {words('identity')}: {words.identity(view.get('identity'))}")
            if state.auto:
                text.append(" · " + words("auto_on"), style="bold reverse")
            if view.get("fast_forward") is True and not view.get("over"):
                text.append(" · " + words("fast_forwarding") + " ⏩", style="bold reverse")
        if text != self._shown:
            self._shown = text
            self.update(text, layout=layout)


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
            text = Text(words(label), style="dim")
            text.append_text(plain(state.last_action(words) or ""))
            text.no_wrap = True
            text.overflow = "ellipsis"
        if text != self._shown:
            self._shown = text
            self.update(text)
