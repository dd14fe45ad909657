"""Game over: who won and why, every identity revealed, and where the replay went."""

from __future__ import annotations

import os

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from ..keys import OVER_KEYS
from ..safe_text import plain
from ..widgets.render import counts_text
from ..widgets.seats import character_text
from .base import TextScreen

FACTION_COLOUR = {"military": "blue", "latent": "red"}


def short_path(path: str) -> str:
    """`~/…` for a path in the home directory: shorter, and still one to copy."""
    home = os.path.expanduser("~")
    return "~" + path[len(home):] if home not in ("", "/") and path.startswith(home + os.sep) else path


class GameOverScreen(TextScreen):
    DEFAULT_CSS = """
    GameOverScreen #over { padding: 1 2; }
    """
    KEYS = OVER_KEYS
    TEXT_ID = "over"

    def parts(self) -> list[RenderableType]:
        app = self.fs_app
        words, state = app.words, app.state
        view = state.view or {}
        seats = state.seats
        me = state.seat
        winners = list(view.get("winners") or [])
        parts: list[RenderableType] = [Text(words("game_over"), style="bold underline")]
        reason = view.get("win_reason")
        declarer = view.get("declarer")
        who = words.seat_name(seats, declarer, me)
        if reason == "faction" and isinstance(declarer, int) and 0 <= declarer < len(seats):
            identity = seats[declarer].get("identity")
            parts.append(plain(words("win_faction", who=who, colour=words.colour_word(FACTION_COLOUR.get(
                str(identity), "")), identity=words.identity(identity))))
        elif reason == "last_standing":
            parts.append(plain(words("win_last_standing", who=who)))
        elif reason == "nobody_left":
            parts.append(Text(words("win_nobody_left")))
        elif reason == "secret_task":
            parts.append(plain(words("win_secret_task", who=who)))
        names = ", ".join(words.seat_name(seats, s, me) for s in winners)
        parts.append(plain(f"{words('winners')}: {names or words('no_winner')}", style="bold"))
        table = Table(title=Text(words("reveal"), style="table.title"), title_justify="left", show_header=False, box=None, padding=(0, 1))
        with_characters = any(seat.get("character") for seat in seats)
        for seat in seats:
            index = seat.get("index")
            status = words("alive") if seat.get("alive", True) and not seat.get("lost") else (
                words("dead") if not seat.get("alive", True) else words("lost"))
            cells: list[RenderableType] = [
                Text("★" if index in winners else " "), plain(words.seat_name(seats, index, me)),
                plain(words.identity(seat.get("identity"))), plain(status),
                counts_text(seat.get("counts", {}), words, app.mono)]
            if with_characters:
                cells.insert(2, character_text(seat.get("character"), words))
            table.add_row(*cells)
        parts.append(table)
        if state.replay_path:
            # The path on a line of its own, never folded in the middle of a name.
            parts.append(Text(words("replay_saved_at"), style="italic"))
            folder, name = os.path.split(short_path(state.replay_path))
            parts.append(plain(f"  {folder}{os.sep}", style="italic", overflow="fold"))
            parts.append(plain(f"  {name}", style="italic", overflow="fold"))
        else:
            parts.append(Text(words("replay_unsaved"), style="italic"))
        if app.session is not None:
            parts.append(Text(""))
            parts.append(Text(words("next_game_host" if state.host else "next_game_guest"), style="bold"))
        return parts

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return action != "next_game" or self.fs_app.state.host

    def action_next_game(self) -> None:
        """The host starts the next game at once with everyone still here (empty seats get bots)."""
        self.fs_app.send(lambda s: s.op("start"))

    def action_back(self) -> None:
        self.app.pop_screen()

    async def action_leave(self) -> None:
        await self.fs_app.action_quit()

    def action_help(self) -> None:
        self.fs_app.show_help()
