"""The server broke the protocol: say so in the player's words, never with a traceback."""

from __future__ import annotations

from rich.console import RenderableType
from rich.text import Text

from ..keys import SERVER_ERROR_KEYS
from ..safe_text import plain
from .base import TextScreen


class ServerErrorScreen(TextScreen):
    """Shown when a server sent a frame the client will not read (it breaks the schema, or the
    client could not show it): the table is left, and `detail` (cleaned, never markup) says what
    was wrong. Esc goes back to the LAN lobby when the player came from it; Enter or q quits."""

    DEFAULT_CSS = """
    ServerErrorScreen #server-error { padding: 1 2; }
    """
    KEYS = SERVER_ERROR_KEYS
    TEXT_ID = "server-error"

    def __init__(self, detail: str, can_go_back: bool) -> None:
        super().__init__()
        self.detail = detail
        self.can_go_back = can_go_back

    def parts(self) -> list[RenderableType]:
        words = self.fs_app.words
        return [
            Text(words("bad_server_title"), style="bold underline"),
            Text(words("bad_server")),
            Text(""),
            plain(words("bad_server_detail", detail=self.detail), style="italic", limit=600),
            Text(""),
            Text(words("bad_server_back" if self.can_go_back else "bad_server_quit"), style="dim"),
        ]

    def action_back(self) -> None:
        if self.can_go_back:
            self.fs_app.leave_table()

    def action_leave(self) -> None:
        self.app.exit(return_code=1)
