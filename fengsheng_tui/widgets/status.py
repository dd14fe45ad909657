"""The top line (turn, whose turn, phase, our identity) and the lost-connection banner."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from ..client_state import ClientState
from ..i18n import Words


class StatusBar(Static):
    def show(self, state: ClientState, words: Words, layout: bool = True) -> None:
        view = state.view or {}
        text = Text(words("title"), style="bold")
        if view:
            text.append(" · " + words("turn", n=view.get("turn", 0)))
            text.append(" · " + words.seat_name(state.seats, view.get("current"), state.seat))
            text.append(" · " + words.phase(view.get("phase")), style="bold")
            if state.seat is None:
                text.append(" · " + words("spectator"))
            else:
                text.append(f" · {words('identity')}: {words.identity(view.get('identity'))}")
            if view.get("paused"):
                text.append(" · " + words("paused_you" if state.host else "paused_by_host"), style="bold reverse")
        self.update(text, layout=layout)


class Banner(Static):
    """Shown only while the connection is down."""
