"""The Textual app: owns the connection in a worker; state flows down to screens, keys flow up.

The connection worker belongs to the App, not to a screen, so pushing help or settings never
drops the game. When the connection is lost it shows a banner and reconnects by itself,
presenting the seat token from the last `welcome`.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path
from typing import Any

from textual import work
from textual.app import App, SystemCommand
from textual.binding import BindingsMap
from textual.screen import Screen

from . import paths
from .client_state import ClientState
from .doors.guest import DOOR_META, GuestDoor
from .i18n import Words
from .keys import KeySpec, bindings, capital, check_keymap, load_keymap
from .preferences import Preferences, resolve, save_preferences
from .safe_text import clean
from .session import Session, SessionClosed

RECONNECT_DELAYS = (0.2, 0.5, 1.0, 2.0, 5.0)
#: Refusals that trying again cannot change: the player is told why and goes back.
FATAL_CODES = ("auth", "version", "full")
#: Refusals of a first join only: a wrong address or table name (later, a server restart is retried).
FIRST_JOIN_CODES = ("connect", "bad_state", "bad_message")
#: The server broke the protocol (net.client.BAD_SERVER): the error screen, never a retry.
BAD_SERVER = "bad_server"


#: Bindings the footer does not show that the command palette still offers.
PALETTE_EXTRA = frozenset({"settings", "log_newest", "add_bot", "remove_bot", "identities", "characters", "deck"})


class FengshengApp(App[int]):
    """风声 in the terminal. Give it a `Session` (a game), or `lobby=True` to browse the LAN first.

    `lang` and `mono` are the command-line flags: None means "as saved in Settings".
    """

    CSS_PATH = "app.tcss"
    TITLE = "风声"
    #: ctrl+p: the game's commands and the colour themes (see `get_system_commands`).
    ENABLE_COMMAND_PALETTE = True

    def __init__(
        self,
        session: Session | None = None,
        *,
        lang: str | None = None,
        player_name: str = "玩家",
        clock: Callable[[], float] = time.monotonic,
        lobby: bool = False,
        interfaces: list[str] | None = None,
        keymap: dict[str, str] | None = None,
        mono: bool | None = None,
        replay: dict[str, Any] | None = None,
        replay_dir: Path | None = None,
        keep_replays: Path | None = None,
        guest: GuestDoor | None = None,
        notices: list[str] | None = None,
    ) -> None:
        super().__init__()
        start = resolve(lang, mono)
        self.player_name = player_name
        #: The player named himself (`--name`); else a saved seat's name may be used instead.
        self.name_given = True
        self.state = ClientState(clock=clock)
        self.session = session
        self.start_in_lobby = lobby
        self.interfaces = interfaces
        loaded = load_keymap() if keymap is None else check_keymap(dict(keymap))
        #: The player's remapping (binding id -> keys), applied when each screen builds its bindings.
        self.keymap = loaded.keys
        self.words = Words(start.lang, self.keymap)
        self.mono = start.mono
        if start.theme in self.available_themes:
            self.theme = start.theme
        #: Pass a response window by itself when nothing in it is playable (Settings `a`).
        self.auto_pass = start.auto_pass
        #: Ring the terminal bell when a prompt of ours opens (Settings `b`).
        self.bell_on_move = start.bell
        self.replay_data = replay
        self.replay_dir = replay_dir
        #: Where this client keeps its own seat's replays (None: it keeps none, e.g. a door's guest).
        self.keep_replays = keep_replays
        #: A door's guest (browser, SSH): a name prompt first, and back to it when refused.
        self.guest = guest
        #: Shown once at start-up, for a long while (`play --web`: the address guests open).
        self.notices = [*(notices or []), *loaded.problems]
        self.started_at = time.time()
        self.connection_lost = False
        self.closing = False
        self.game_over_shown = False
        #: Why this host wants the table paused: "key" (the pause key), "cover" (a screen over the
        #: table in a solo game). The table is asked to pause while any reason holds.
        self.pause_reasons: set[str] = set()

    # ------------------------------------------------------------------ screens

    def on_mount(self) -> None:
        # A theme picked in the command palette is kept like one picked in Settings.
        self.theme_changed_signal.subscribe(self, lambda _theme: self.save_settings())
        for notice in self.notices:
            self.notify(clean(notice), timeout=60, markup=False)
        # Config files found damaged (moved aside, `paths.set_aside`): before now, and from now on.
        for notice in paths.DAMAGE_NOTICES:
            self.notify(clean(notice), severity="warning", timeout=60, markup=False)
        paths.DAMAGE_NOTICES.clear()
        paths.damage_listener = self._config_damaged
        if self.guest is not None:
            from .screens.guest import GuestScreen

            self.push_screen(GuestScreen(self.guest))
        elif self.replay_data is not None:
            from .screens.replay import ReplayScreen

            self.push_screen(ReplayScreen(self.replay_data))
        elif self.session is not None:
            self.open_table(self.session)
        else:
            from .screens.lobby import LobbyScreen

            self.push_screen(LobbyScreen(self.interfaces))

    def on_unmount(self) -> None:
        if paths.damage_listener == self._config_damaged:
            paths.damage_listener = None

    def _config_damaged(self, notice: str) -> None:
        paths.DAMAGE_NOTICES.remove(notice)
        self.notify(clean(notice), severity="warning", timeout=60, markup=False)

    def screen_bindings(self, specs: tuple[KeySpec, ...]) -> BindingsMap:
        """A screen's bindings after the player's remapping, in the current language."""
        return BindingsMap(bindings(specs, self.words, self.keymap))  # type: ignore[arg-type]

    def open_table(self, session: Session) -> None:
        from .screens.table import TableScreen

        self.session = session
        self.push_screen(TableScreen())
        self.run_session()

    def table_screen(self) -> Any:
        from .screens.table import TableScreen

        for screen in self.screen_stack:
            if isinstance(screen, TableScreen):
                return screen
        return None

    def refresh_all(self) -> None:
        """Repaint every screen that renders state (after a message or a language change)."""
        for screen in self.screen_stack:
            refresh = getattr(screen, "refresh_view", None)
            if refresh is not None:
                refresh()

    def set_language(self, lang: str) -> None:
        self.words = Words(lang, self.keymap)
        for screen in self.screen_stack:
            relabel = getattr(screen, "relabel", None)
            if relabel is not None:
                relabel()
        self.refresh_all()

    def save_settings(self) -> None:
        """Keep the Settings screen's choices for the next run (settings.json)."""
        save_preferences(Preferences(lang=self.words.lang, mono=self.mono, auto_pass=self.auto_pass,
                                     theme=self.theme, bell=self.bell_on_move))

    def cycle_theme(self) -> None:
        """The next of the colour themes Textual ships (Settings `t`), kept for the next run."""
        names = sorted(self.available_themes)
        self.theme = names[(names.index(self.theme) + 1) % len(names)] if self.theme in names else names[0]

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """The command palette (ctrl+p) offers what the current screen's keys do, in words, and the
        colour themes; not Textual's screenshot or key panel, which would write files on a door's host
        or show binding ids."""
        words = self.words
        seen: set[str] = set()
        for key, found in screen._bindings.key_to_bindings.items():
            for b in found:
                if b.id is None or b.id in seen or b.id.startswith(("card_", "target_", "pick_")):
                    continue
                if b.show or b.id in PALETTE_EXTRA:
                    seen.add(b.id)
                    yield SystemCommand(capital(str(b.description)), words("palette_key", shown=b.key_display or key),
                                        partial(screen.run_action, b.action))
        yield SystemCommand(words("palette_theme"), words("palette_theme_help"), self.action_change_theme)

    # ------------------------------------------------------------------ the connection

    @work(exclusive=True, group="net", exit_on_error=False)
    async def run_session(self) -> None:
        session = self.session
        assert session is not None
        attempt = 0
        welcomed = False
        while not self.closing:
            try:
                await session.connect()
                welcomed = True
                attempt = 0
                async for msg in session.messages():
                    self.handle_message(msg)
                    if self.closing:
                        return
                return
            except (TimeoutError, SessionClosed, OSError, ConnectionError) as exc:
                code = getattr(exc, "code", None)
                if code == BAD_SERVER:
                    await self.server_broke(str(exc))
                    return
                if code in FATAL_CODES or (code in FIRST_JOIN_CODES and not welcomed):
                    self.refused(code, str(exc))
                    return
                if self.closing or (self.state.view or {}).get("over"):
                    return
                self.set_connection_lost(True)
                await asyncio.sleep(RECONNECT_DELAYS[min(attempt, len(RECONNECT_DELAYS) - 1)])
                attempt += 1

    def refused(self, code: object, message: str) -> None:
        """The server would not seat us: say why, back in the LAN lobby if the player came from it;
        a direct `join HOST:PORT` ends with the reason and exit code 1."""
        reason = clean(self.words.refusal(code, message))
        if not self.can_leave_table:
            self.exit(return_code=1, message=reason)
            return
        self.leave_table(reason, ask_password=code == "auth")

    @property
    def can_leave_table(self) -> bool:
        """The player chose the table here (the LAN lobby, a door's guest screen), not on the
        command line: leaving it goes back there rather than ending the program."""
        return self.guest is not None or self.start_in_lobby

    def leave_table(self, notice: str | None = None, ask_password: bool = False) -> None:
        """Back to where the player chose the table, with a fresh state and `notice` saying why."""
        from .screens.lobby import LobbyScreen

        self.session = None
        self.state = ClientState(clock=self.state.clock)
        self.connection_lost = False
        self.game_over_shown = False
        self.closing = False
        while len(self.screen_stack) > 1:
            self.pop_screen()
        if self.guest is not None:
            from .screens.guest import GuestScreen

            self.tell_door(False)
            self.push_screen(GuestScreen(self.guest, notice=notice, ask_password=ask_password))
            return
        self.push_screen(LobbyScreen(self.interfaces, notice=notice))

    def tell_door(self, at_table: bool) -> None:
        """Tell the browser door whether this guest is at the table (seated or watching) or back at
        its name prompt: a full door gives a newcomer only a place still at the prompt
        (`doors.web.WebDoor.push_out`). A meta packet of textual-serve's pipe; nothing elsewhere."""
        write_meta = getattr(self._driver, "write_meta", None)
        if self.guest is not None and write_meta is not None:
            write_meta({"type": DOOR_META, "at_table": at_table})

    async def server_broke(self, detail: str) -> None:
        """The server sent what this client will not take: close, and show the error screen."""
        from .screens.server_error import ServerErrorScreen

        session, self.session = self.session, None
        self.closing = True
        if session is not None:
            try:
                await asyncio.wait_for(session.close(), 2)
            except (TimeoutError, OSError, ConnectionError, SessionClosed):
                pass
        while len(self.screen_stack) > 1:
            self.pop_screen()
        self.push_screen(ServerErrorScreen(clean(detail), can_go_back=self.can_leave_table))

    def handle_message(self, msg: dict[str, Any]) -> None:
        """Apply one server message and repaint. Whatever goes wrong in showing it (a server that
        passed the schema with something no screen expects) ends on the error screen: a server
        can never crash the client."""
        try:
            self._handle_message(msg)
        except Exception as exc:  # untrusted input: any failure to show it is the server's
            self.log.error(f"could not show a server message: {exc!r}")
            self.run_worker(self.server_broke(f"{type(exc).__name__}: {exc}"), group="net", exclusive=True)

    def _handle_message(self, msg: dict[str, Any]) -> None:
        from .screens.table_lobby import TableLobbyScreen

        kind = self.state.apply(msg)
        if kind == "welcome":
            self.set_connection_lost(False)
            self.tell_door(True)
        elif kind == "lobby":
            self.close_game_over()
            # A screen over the lobby (its timers, help) stays: the lobby under it shows the frame.
            if not any(isinstance(screen, TableLobbyScreen) for screen in self.screen_stack):
                self.push_screen(TableLobbyScreen())
        elif kind == "update":
            view = self.state.view or {}
            if not view.get("over"):
                self.close_game_over()  # the next game has begun
            if any(isinstance(screen, TableLobbyScreen) for screen in self.screen_stack):
                while not isinstance(self.screen, TableLobbyScreen):
                    self.pop_screen()
                self.pop_screen()
            self.show_character_pick(view)
            if view.get("over") and not self.game_over_shown:
                from .screens.game_over import GameOverScreen

                self.game_over_shown = True
                self.state.replay_path = self.state.replay_path or self.keep_replay() or self.find_replay()
                self.refresh_all()
                self.push_screen(GameOverScreen())
                return
        self.refresh_all()

    def close_game_over(self) -> None:
        """The table has moved on (to its lobby, or straight into a rematch): the last game's
        result goes, and the next game over is shown again."""
        from .screens.game_over import GameOverScreen

        if self.game_over_shown:
            self.state.replay_path = None  # the last game's: the next game over names its own
        self.game_over_shown = False
        while isinstance(self.screen, GameOverScreen):
            self.pop_screen()

    def show_character_pick(self, view: dict[str, Any]) -> None:
        """Open the pick screen when this seat has characters to choose from (it closes itself)."""
        from .screens.character_pick import CharacterPickScreen

        if view.get("phase") != "character_pick" or not view.get("character_choices"):
            return
        if not any(isinstance(screen, CharacterPickScreen) for screen in self.screen_stack):
            self.push_screen(CharacterPickScreen())

    def show_help(self) -> None:
        """Help is built once and kept (installed): opening it again only shows it."""
        from .screens.help import HelpScreen

        if not self.is_screen_installed("help"):
            self.install_screen(HelpScreen(), "help")
        help_screen = self.get_screen("help")
        if help_screen not in self.screen_stack:
            self.push_screen(help_screen)

    def is_solo(self) -> bool:
        """We host a game in which every other seat is a bot (`fengsheng play`): nobody else waits."""
        view = self.state.view or {}
        seats = view.get("seats") or []
        return self.state.host and bool(seats) and all(
            s.get("bot") for s in seats if isinstance(s, dict) and s.get("index") != self.state.seat)

    def update_cover(self) -> None:
        """A solo game is paused while a screen covers the table (help, settings, a question…),
        but not for a screen that plays the game (`plays_the_game`: the character pick), since
        nobody can choose while paused. Called whenever a screen over the table comes or goes."""
        table = self.table_screen()
        stack = self.screen_stack
        above = stack[stack.index(table) + 1:] if table is not None and table in stack else []
        covered = any(not getattr(screen, "plays_the_game", False) for screen in above)
        self.want_pause("cover", covered and self.is_solo())

    def paused_note(self) -> str:
        """What a key that would send a choice says while the table is paused (naming who paused)."""
        return self.words("paused_no_send", who=self.words.paused(self.state.paused_by or ""))

    def want_pause(self, reason: str, on: bool) -> None:
        """Add or drop a reason to pause; the host's table is paused while any reason holds.

        Only the host may pause (the server refuses anyone else); a finished game has no clock."""
        before = bool(self.pause_reasons)
        if on:
            self.pause_reasons.add(reason)
        else:
            self.pause_reasons.discard(reason)
        after = bool(self.pause_reasons)
        view = self.state.view or {}
        if before != after and self.state.host and view and not view.get("over"):
            command = "pause" if after else "resume"
            self.send(lambda s: s.op(command))

    def keep_replay(self) -> str | None:
        """Write our seat's replay from the frames we received (`keep_replays`), if we keep them."""
        if self.keep_replays is None:
            return None
        from net.journal import ReplayError

        try:
            path = self.state.recorder.save(self.keep_replays, self.state.table)
        except (OSError, ReplayError) as exc:  # a full disk; a replay `fengsheng replay` would refuse
            self.log.error(f"could not keep the replay: {exc!r}")
            reason = exc.strerror or str(exc) if isinstance(exc, OSError) else str(exc)
            self.notify(clean(self.words("replay_not_kept", reason=reason)), severity="warning", timeout=20,
                        markup=False)
            return None
        return str(path) if path is not None else None

    def find_replay(self) -> str | None:
        """Our seat's replay, written by a server on this machine (`fengsheng play`), if any."""
        if self.replay_dir is None or self.state.seat is None:
            return None
        try:
            found = [p for p in self.replay_dir.glob(f"*.seat{self.state.seat}.replay")
                     if p.stat().st_mtime >= self.started_at - 1]
        except OSError:
            return None
        return str(max(found, key=lambda p: p.stat().st_mtime)) if found else None

    def set_connection_lost(self, lost: bool) -> None:
        if lost != self.connection_lost:
            self.connection_lost = lost
            self.refresh_all()

    def send(self, coro_factory: Callable[[Session], Any]) -> None:
        """Run one outgoing request without blocking the UI; errors show up as a lost connection."""
        session = self.session
        if session is None:
            return

        async def go() -> None:
            try:
                await coro_factory(session)
            except (OSError, ConnectionError, SessionClosed):
                self.set_connection_lost(True)

        self.run_worker(go(), group="send", exit_on_error=False)

    def choose(self, prompt_id: int, option: str) -> None:
        self.state.error = None
        self.send(lambda s: s.choose(prompt_id, option))

    async def action_quit(self) -> None:
        self.closing = True
        if self.session is not None:
            try:
                await asyncio.wait_for(self.session.close(), 2)
            except (TimeoutError, OSError, ConnectionError, SessionClosed):
                pass
        self.exit(0)
