"""The smallest Textual app the TUI benchmark compares the game with (bench/tui_bench.py).

It starts like the game (a new Python process importing Textual, one screen with a footer) and
answers `?` by showing or hiding one line, so under any machine load the benchmark can say how
much slower than bare Textual the game's start and keys are. Not part of the game.
"""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import Footer, Static

SHOWN = "REFERENCE HELP"
READY = "REFERENCE READY"


class Reference(App[None]):
    BINDINGS = [Binding("question_mark", "toggle", "help"), Binding("q", "quit", "quit")]

    def compose(self) -> ComposeResult:
        yield Static(READY)
        yield Static(id="help")
        yield Footer()

    def action_toggle(self) -> None:
        help_line = self.query_one("#help", Static)
        help_line.update("" if str(help_line.render()) == SHOWN else SHOWN)


if __name__ == "__main__":
    Reference().run()
