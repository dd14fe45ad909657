"""Game over: who won and why, every identity revealed, and where the replay went."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from ..i18n import Words
from ..i18n.characters import character_info
from ..keys import OVER_KEYS
from ..safe_text import plain
from ..widgets.render import counts_text
from ..widgets.seat import character_line
from .base import TextScreen

FACTION_COLOUR = {"military": "blue", "latent": "red"}


def short_path(path: str) -> str:
    """`~/…` for a path in the home directory: shorter, and still one to copy."""
    home = os.path.expanduser("~")
    return "~" + path[len(home):] if home not in ("", "/") and path.startswith(home + os.sep) else path


def message_counts(messages: Sequence[Any]) -> dict[str, int]:
    """Messages by colour (a seat out of the game: those he held when he left)."""
    counts = dict.fromkeys(("red", "blue", "black"), 0)
    for card in messages:
        colour = card.get("colour") if isinstance(card, dict) else None
        if colour in counts:
            counts[colour] += 1
    return counts


def how_it_ended(seat: Mapping[str, Any], gone: Mapping[str, Any] | None, seats: Sequence[Mapping[str, Any]],
                 me: int | None, words: Words) -> str:
    """`alive`, or `dead · turn 5 · killed by Bot 2` / `lost · turn 3` (RULES.md §8.1: the killer is
    whoever put the lethal black message there; nobody when that was the victim himself)."""
    if gone is None:
        if not seat.get("alive", True):
            return words("dead")
        return words("lost") if seat.get("lost") else words("alive")
    parts = [words("dead" if gone.get("died") else "lost")]
    if isinstance(gone.get("turn"), int) and gone["turn"] > 0:
        parts.append(words("in_turn", turn=gone["turn"]))
    if gone.get("died"):
        by = gone.get("by")
        parts.append(words("killed_by", who=words.seat_name(seats, by, me)) if isinstance(by, int)
                     else words("killed_by_nobody"))
    return " · ".join(parts)


def task_text(task: Mapping[str, Any], seats: Sequence[Mapping[str, Any]], me: int | None, words: Words) -> Text:
    """A winner's secret task: the catalog's text for his character, else the one the server sent."""
    info = character_info(task.get("character"))
    text = (info.task(words.lang) if info is not None else None) or task.get(words.lang) or task.get("zh") or "?"
    name = info.name(words.lang) if info is not None else str(task.get("character") or "?")
    line = Text(words("winning_task", who=words.seat_name(seats, task.get("seat"), me), character=name),
                style="bold")
    line.append(" " + str(text))
    return line


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
        found = view.get("ending")
        ending: dict[str, Any] = found if isinstance(found, dict) else {}
        left = {entry.get("seat"): entry for entry in ending.get("left") or [] if isinstance(entry, dict)}
        table = Table(title=Text(words("reveal"), style="table.title"), title_justify="left", show_header=False,
                      box=None, padding=(0, 1))
        with_characters = any(seat.get("character") for seat in seats)
        for seat in seats:
            index = seat.get("index")
            gone = left.get(index)
            counts = seat.get("counts", {}) if gone is None else message_counts(gone.get("messages") or [])
            cells: list[RenderableType] = [
                Text("★" if index in winners else " "), plain(words.seat_name(seats, index, me)),
                plain(words.identity(seat.get("identity"))), counts_text(counts, words, app.mono),
                plain(how_it_ended(seat, gone, seats, me, words))]
            if with_characters:
                cells.insert(2, character_line(seat.get("character"), words))
            table.add_row(*cells)
        parts.append(table)
        for task in ending.get("tasks") or []:
            if isinstance(task, dict):
                parts.append(task_text(task, seats, me, words))
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
