"""The table before the game: seats and who is ready; the host changes options with `op` commands."""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Input, Static

from net.seats import REMOTE_BOT

from ..i18n import Words
from ..keys import TABLE_LOBBY_KEYS
from ..safe_text import plain
from ..widgets.cjk_text import ListText
from ..widgets.footer import GameFooter
from .base import FsScreen

OPTION_KEYS = ("players", "identities", "deck", "characters", "character_choices", "timers", "bot_delay", "bots",
               "password")


def seat_entries(table: dict[str, Any]) -> list[dict[str, Any]]:
    """Seats as dicts whatever the server sent (None for empty, a name, or a dict)."""
    out: list[dict[str, Any]] = []
    for seat in table.get("seats") or []:
        if seat is None:
            out.append({})
        elif isinstance(seat, str):
            out.append({"name": seat})
        elif isinstance(seat, dict):
            out.append(seat)
    return out


def identities_label(name: Any, players: Any, words: Words) -> str:
    """`新手（军情处2 潜伏战线2 打酱油的0）`, so everyone sees who is in the game."""
    from engine import identity_options

    try:
        counts = identity_options(players)[name] if isinstance(players, int) else None
    except KeyError:
        counts = None
    return words.lineup(name, counts)


#: Chat lines the lobby shows (the newest); the whole log is there once the game starts.
LOBBY_CHAT_LINES = 5


def players_note(players: int, characters: bool, taken: int, words: Words) -> str | None:
    """Why the table cannot have `players` seats now, in one line; None when it can."""
    from engine.config import MAX_PLAYERS, MIN_PLAYERS, identity_options

    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        return words("players_range", lo=MIN_PLAYERS, hi=MAX_PLAYERS)
    if players < taken:
        return words("seats_taken", n=taken)
    if not characters and all(counts[2] for counts in identity_options(players).values()):
        return words("players_need_characters", n=players)
    return None


#: Actions only the host may take: hidden from everyone else's footer, and their keys do nothing.
HOST_ACTIONS = frozenset({"start", "bot", "bot_level", "players", "identities", "characters", "deck",
                          "mute_spectators", "timers"})


class TableLobbyScreen(FsScreen):
    DEFAULT_CSS = """
    TableLobbyScreen #table-lobby { padding: 0 1; }
    TableLobbyScreen #lobby-chat { display: none; }
    """
    KEYS = TABLE_LOBBY_KEYS

    def __init__(self) -> None:
        super().__init__()
        self.is_ready = False
        self.bot_level = "normal"  # what the host's next `b` seats (`l` cycles through the levels)
        self._shown_host: bool | None = None
        #: Why the host's last key did nothing (one line), until the next key does something.
        self.note: str | None = None

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(id="table-lobby")
        yield Input(id="lobby-chat", placeholder=self.fs_app.words("chat_placeholder"), max_length=200,
                    disabled=True)
        yield GameFooter(show_command_palette=False)

    def on_mount(self) -> None:
        self.shown = True
        self.refresh_view()

    def relabel(self) -> None:
        super().relabel()
        self.query_one("#lobby-chat", Input).placeholder = self.fs_app.words("chat_placeholder")

    @property
    def table(self) -> dict[str, Any]:
        return self.fs_app.state.lobby or {}

    @property
    def is_host(self) -> bool:
        return bool(self.table.get("host", self.fs_app.state.host))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.is_host or action not in HOST_ACTIONS

    @property
    def options(self) -> dict[str, Any]:
        table = self.table
        options = table.get("options", table)
        return options if isinstance(options, dict) else {}

    def refresh_view(self) -> None:
        if not self.shown:
            return
        app = self.fs_app
        words, state = app.words, app.state
        table = self.table
        parts: list[Text | Table | ListText] = [plain(words.label("table_lobby") + str(table.get("name", state.table or "")),
                                           style="bold underline")]
        seats = Table.grid(padding=(0, 2))
        for _ in range(3):
            seats.add_column(no_wrap=True)
        for i, seat in enumerate(seat_entries(table)):
            name = words.name(str(seat.get("name"))) if seat.get("name") else words("empty_seat")
            if i == state.seat:
                name = words.you(name)
            kind = words("bot") if seat.get("bot") else words("host_seat") if seat.get("host") else ""
            level = seat.get("bot")
            if level == REMOTE_BOT:  # a client's own claim: never shown as one of the table's bots
                kind = words("self_declared_bot")
            elif isinstance(level, str) and level != "normal":  # the usual level goes unsaid
                kind = words.marked(kind, words("level_" + level))
            if seat.get("muted") is True:
                kind = f"{kind} {words('muted')}".strip()
            ready = "✓ " + words("ready") if seat.get("ready") or seat.get("bot") else "· " + words("not_ready")
            seats.add_row(plain(f"{i + 1}. {name}"), plain(kind), plain(ready if seat else ""))
        parts.append(seats)
        parts.append(Text(""))
        host = self.is_host
        if host != self._shown_host:
            self._shown_host = host
            self.refresh_bindings()
        parts.append(Text(words("host_options" if host else "table_options"), style="bold underline"))
        opts = self.options
        for key in OPTION_KEYS:
            if key in opts:
                value = opts[key]
                if key == "character_choices" and not opts.get("characters"):
                    continue
                if key == "identities":
                    value = identities_label(value, opts.get("players"), words)
                elif key == "deck":
                    value = words.deck(value)
                if isinstance(value, bool):
                    value = words("on_") if value else words("off")
                elif isinstance(value, dict):
                    # The pick and skill timers only count in a game with characters.
                    value = words.timers({k: v for k, v in value.items()
                                          if opts.get("characters") or k not in ("character_pick", "skill")})
                elif key == "bot_delay" and isinstance(value, int | float):
                    value = words("seconds", s=f"{value:g}")
                parts.append(plain(f"{words.label(key)}{value}"))
        parts.append(Text(""))
        parts.append(ListText(Text(words("host_hint" if host else "guest_hint"), style="dim")))
        if self.note:
            parts.append(plain(self.note, style="italic"))
        elif state.error:
            parts.append(plain(state.error_text(words), style="italic"))
        chat = [entry for entry in state.log if entry.chat is not None][-LOBBY_CHAT_LINES:]
        if chat:
            parts.append(Text(""))
            parts.append(Text(words("chat"), style="bold underline"))
            parts += [plain(f"» {words.label('said', who=entry.speaker(words, state.seat))}{entry.chat[1]}", style="italic")
                      for entry in chat if entry.chat is not None]
        self.query_one("#table-lobby", Static).update(Group(*parts))

    def _op(self, command: str, **args: Any) -> None:
        self.note = None
        self.fs_app.send(lambda s: s.op(command, **args))

    def explain(self, note: str | None) -> bool:
        """Show why a key does nothing (True), or clear the last such line (False): the key acts."""
        self.note = note
        self.fs_app.state.error = None
        self.refresh_view()
        return note is not None

    def action_ready(self) -> None:
        self.is_ready = not self.is_ready
        ready = self.is_ready
        self.fs_app.send(lambda s: s.ready(ready))

    def action_start(self) -> None:
        self._op("start")

    def action_bot(self, step: int) -> None:
        if step > 0:
            self._op("add_bot", level=self.bot_level)
        else:
            self._op("remove_bot")

    def action_bot_level(self) -> None:
        from bots import LEVELS

        levels = list(LEVELS)
        self.bot_level = levels[(levels.index(self.bot_level) + 1) % len(levels)]
        words = self.fs_app.words
        self.explain(words("next_bot_level", level=words(f"level_{self.bot_level}")))

    def action_players(self, step: int) -> None:
        players = self.options.get("players")
        if not isinstance(players, int):
            return
        taken = sum(1 for seat in seat_entries(self.table) if seat)
        if not self.explain(players_note(players + step, bool(self.options.get("characters")), taken,
                                         self.fs_app.words)):
            self._op("set_players", players=players + step)

    def action_identities(self) -> None:
        from engine import identity_options

        players = self.options.get("players")
        current = self.options.get("identities")
        if not isinstance(players, int):
            return
        offered = self.options.get("identity_options")
        # The server offers only what it would accept now (no neutrals without characters).
        names = [str(n) for n in offered] if isinstance(offered, list) and offered else list(identity_options(players))
        if len(names) == 1 and current in names:
            words = self.fs_app.words
            self.explain(words("only_lineup", n=players, lineup=identities_label(current, players, words),
                               mode=words("with_characters" if self.options.get("characters") else
                                          "without_characters")))
            return
        self.explain(None)
        nxt = names[(names.index(current) + 1) % len(names)] if current in names else names[0]
        self._op("set_identities", identities=nxt)

    def action_characters(self) -> None:
        """Characters on or off; the server refuses (and says why) when the line-up needs them."""
        on = not bool(self.options.get("characters"))
        players = self.options.get("players")
        if not on and isinstance(players, int) and self.explain(players_note(players, False, 0, self.fs_app.words)):
            return
        self.explain(None)
        self._op("set_characters", characters=on)

    def action_deck(self) -> None:
        """The next deck variant (engine/data/deck.json: the resolved deck, its alternatives, `later`)."""
        from engine.cards import deck_variants

        names = list(deck_variants())
        current = self.options.get("deck")
        self._op("set_deck", deck=names[(names.index(current) + 1) % len(names)] if current in names else names[0])

    def action_timers(self) -> None:
        """The host's timers and the bots' delay, changed a step at a time (`screens/timers.py`)."""
        from .timers import TimersScreen

        self.app.push_screen(TimersScreen())

    def action_mute_spectators(self) -> None:
        """Mute every spectator's chat, or lift it (the host's `m`)."""
        self._op("mute", spectators=True, on=self.table.get("spectators_muted") is not True)

    def _mute_command(self, text: str) -> bool:
        """The host's `/mute N` and `/unmute N` in the chat line (N as the lobby numbers seats)."""
        command, _, arg = text.partition(" ")
        if command not in ("/mute", "/unmute") or not self.is_host:
            return False
        if not arg.strip().isdigit() or int(arg) < 1:
            self.explain(self.fs_app.words("mute_usage"))
            return True
        self._op("mute", seat=int(arg) - 1, on=command == "/mute")
        return True

    def action_chat(self) -> None:
        chat = self.query_one("#lobby-chat", Input)
        chat.disabled = False
        chat.display = True
        chat.focus()

    def action_back(self) -> None:
        """Esc closes the chat line without sending, as at the table."""
        self.close_chat(self.query_one("#lobby-chat", Input))

    def close_chat(self, chat: Input) -> None:
        chat.value = ""
        chat.display = False
        chat.disabled = True
        self.set_focus(None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        self.close_chat(event.input)
        if text and not self._mute_command(text):
            self.fs_app.send(lambda s: s.chat(text))

    def action_help(self) -> None:
        self.fs_app.show_help()

    def action_quit(self) -> None:
        from .confirm import ConfirmQuit

        def done(really: bool | None) -> None:
            if really:
                self.app.run_worker(self.fs_app.action_quit())

        self.app.push_screen(ConfirmQuit(), done)
