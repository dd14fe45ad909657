"""The door guest's first screen: his name (and the table password if there is one), then the table.

A guest of a door has no command line to give `--name`: this prompt is where he says who he is.
It is keyboard-only (Enter sits down, Tab moves between fields, Esc leaves) and gives up after
`GuestDoor.idle_seconds` so that an abandoned tab or connection does not hold a client forever.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Input, Static

from ..doors.guest import NAME_MAX, GuestDoor
from ..safe_text import clean


class GuestScreen(Screen[None]):
    DEFAULT_CSS = """
    GuestScreen { align: center middle; }
    GuestScreen #guest-box { width: 60; height: auto; border: round $secondary; padding: 1 2; }
    GuestScreen Input { margin: 1 0 0 0; }
    """
    BINDINGS = [Binding("escape", "leave", show=False)]

    def __init__(self, door: GuestDoor, notice: str | None = None, ask_password: bool = False) -> None:
        super().__init__()
        self.door = door
        self.notice = notice
        #: The table has a password (the door said so, or the server refused us for want of it).
        self.ask_password = ask_password or door.ask_password

    def words(self, key: str, **kw: object) -> str:
        return str(self.app.words(f"door_{key}", **kw))  # type: ignore[attr-defined]

    def compose(self) -> ComposeResult:
        from textual.containers import Vertical

        with Vertical(id="guest-box"):
            yield Static(id="guest-title", classes="title")
            yield Input(value=self.last_name(), max_length=NAME_MAX, id="guest-name")
            if self.ask_password:
                yield Input(password=True, id="guest-password")
            yield Static(id="guest-hint", classes="hint")

    def last_name(self) -> str:
        """The name the prompt starts with: the door's (the SSH user name), else, where seats are
        kept (a browser's own folder), the name this browser last sat under at this table: a
        reloaded tab takes its seat back with Enter alone."""
        name = str(getattr(self.app, "player_name", "") or "")
        if not name and self.door.keep_seats:
            from ..seat_tokens import SeatTokens

            name = SeatTokens().saved_name(f"{self.door.host}:{self.door.port}") or ""
        return name[:NAME_MAX]

    def on_mount(self) -> None:
        self.query_one("#guest-title", Static).update(Text(self.words("title", table=clean(self.door.table, 40))))
        self.query_one("#guest-name", Input).placeholder = self.words("name")
        if self.ask_password:
            self.query_one("#guest-password", Input).placeholder = self.words("password")
        self.show_hint(self.notice)
        self.query_one("#guest-name", Input).focus()
        self.set_timer(self.door.idle_seconds, self.idle)

    def show_hint(self, notice: str | None) -> None:
        hint = Text(self.words("hint"))
        if notice:
            hint = Text.assemble((notice, "bold reverse"), "\n", hint)
        self.query_one("#guest-hint", Static).update(hint)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        name = self.query_one("#guest-name", Input).value.strip()
        if not name:
            self.show_hint(self.words("empty"))
            self.query_one("#guest-name", Input).focus()
            return
        if self.ask_password and event.input.id == "guest-name":
            self.query_one("#guest-password", Input).focus()
            return
        password = self.query_one("#guest-password", Input).value if self.ask_password else None
        self.sit_down(name, password or None)

    def sit_down(self, name: str, password: str | None) -> None:
        """Join under this name; with `keep_seats`, a seat held under it before (in this config
        folder's seats file) comes back."""
        from ..seat_tokens import SeatTokens
        from ..session import NetSession

        app = self.app
        app.player_name = name  # type: ignore[attr-defined]
        app.pop_screen()
        seats = SeatTokens() if self.door.keep_seats else None
        app.open_table(NetSession(self.door.host, self.door.port, name, password=password,  # type: ignore[attr-defined]
                                  seats=seats, source=self.door.source))

    def idle(self) -> None:
        if self.is_current:
            self.app.exit(return_code=1, message=self.words("idle"))

    def action_leave(self) -> None:
        self.app.exit(0)
