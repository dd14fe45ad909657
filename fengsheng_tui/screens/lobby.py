"""The LAN lobby: tables advertised on the LAN (live, via zeroconf), recent servers, or an address."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from ..keys import LOBBY_KEYS
from ..recent import load_recent, parse_address, remember
from ..safe_text import plain
from ..widgets.footer import GameFooter
from .base import FsScreen

#: Seconds of silence after which "searching" becomes "nothing found yet (m to type an address)".
SEARCH_SECONDS = 4.0


class LobbyScreen(FsScreen):
    DEFAULT_CSS = """
    LobbyScreen #games { height: 1fr; border: round $secondary; }
    LobbyScreen #address { display: none; }
    """
    KEYS = LOBBY_KEYS

    def __init__(self, interfaces: list[str] | None = None, notice: str | None = None) -> None:
        super().__init__()
        self.interfaces = interfaces
        #: Why the last join failed (the server's refusal).
        self.notice = notice
        self.games: dict[str, Any] = {}
        self.recent = load_recent()
        #: Set once discovery has had time to hear from the LAN (SEARCH_SECONDS).
        self.searched = False

    def compose(self) -> ComposeResult:
        yield Static(id="lobby-title", classes="title")
        yield OptionList(id="games")
        yield Static(id="lobby-hint", classes="hint")
        yield Input(id="address", disabled=True)
        yield GameFooter(show_command_palette=False)

    def on_mount(self) -> None:
        self.shown = True
        self.refresh_view()
        self.query_one("#games", OptionList).focus()
        self.set_timer(SEARCH_SECONDS, self.search_done)
        self.browse()

    def search_done(self) -> None:
        self.searched = True
        self.refresh_view()

    def refresh_view(self) -> None:
        if not self.shown:
            return
        words = self.fs_app.words
        self.query_one("#lobby-title", Static).update(Text(words("lobby")))
        hint = Text(words("lobby_hint"))
        if self.notice:
            hint = Text.assemble(plain(self.notice, style="bold reverse"), "\n", hint)
        self.query_one("#lobby-hint", Static).update(hint)
        self.query_one("#address", Input).placeholder = words("address")
        games = self.query_one("#games", OptionList)
        highlighted = games.highlighted
        games.clear_options()
        for key, game in sorted(self.games.items()):
            lock = " 🔒" if game.password else ""
            # Another version's table is listed (so the player knows it is there) but cannot be joined.
            other = "" if game.compatible else "  " + words("lan_incompatible", v=game.version)
            games.add_option(Option(plain(f"{game.table}  {game.host}:{game.port}  "
                                          f"{game.seats_taken}/{game.seats_total}  "
                                          f"{words.ui.get(f'table_phase_{game.phase}', game.phase)}{lock}{other}"),
                                    id=f"lan:{key}", disabled=not game.compatible))
        if not self.games:
            games.add_option(Option(Text(words("lobby_none" if self.searched else "lobby_empty")), id="none",
                                    disabled=True))
        for host, port in self.recent:
            games.add_option(Option(plain(f"{words.label('recent')}{host}:{port}"), id=f"recent:{host}:{port}"))
        if highlighted is not None and highlighted < games.option_count:
            games.highlighted = highlighted
        else:  # Enter joins the first table at once, without ↓ first
            games.highlighted = next((i for i in range(games.option_count)
                                      if not games.get_option_at_index(i).disabled), None)

    @work(exclusive=True, group="browse", exit_on_error=False)
    async def browse(self) -> None:
        from net.discovery import Browser, DiscoveryError

        if self.interfaces == []:
            return  # told to browse on no interface: address entry and recent servers only
        try:
            async with Browser(self.interfaces) as browser:
                async for _event in browser:
                    self.games = browser.games
                    self.refresh_view()
        except (DiscoveryError, OSError):
            return

    def action_refresh(self) -> None:
        self.recent = load_recent()
        self.refresh_view()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.join_option(event.option.id or "")

    def action_join(self) -> None:
        games = self.query_one("#games", OptionList)
        if games.highlighted is not None:
            self.join_option(games.get_option_at_index(games.highlighted).id or "")

    def join_option(self, option_id: str) -> None:
        kind, _, rest = option_id.partition(":")
        if kind == "lan" and rest in self.games and self.games[rest].compatible:
            game = self.games[rest]
            self.join(game.host, game.port)
        elif kind == "recent":
            host, _, port = rest.rpartition(":")
            self.join(host, int(port))

    def action_manual(self) -> None:
        field = self.query_one("#address", Input)
        field.disabled = False
        field.display = True
        field.focus()

    def action_back(self) -> None:
        field = self.query_one("#address", Input)
        if field.display:
            field.display = False
            field.disabled = True
            self.query_one("#games", OptionList).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        from net.server import DEFAULT_PORT

        try:
            host, port = parse_address(event.value, DEFAULT_PORT)
        except ValueError:
            event.input.value = ""
            return
        self.join(host, port)

    def join(self, host: str, port: int) -> None:
        from ..seat_tokens import SeatTokens
        from ..session import NetSession

        remember(host, port)
        app = self.fs_app
        app.pop_screen()
        seats = SeatTokens()
        # No --name: the name of our saved seat there, if any (see `SeatTokens.saved_name`).
        name = app.player_name if app.name_given else seats.saved_name(f"{host}:{port}") or app.player_name
        app.open_table(NetSession(host, port, name, seats=seats))

    def action_help(self) -> None:
        self.fs_app.show_help()

    async def action_quit(self) -> None:
        await self.fs_app.action_quit()
