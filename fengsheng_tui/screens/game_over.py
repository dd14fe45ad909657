"""Game over: who won and why, every identity revealed, and where the replay went."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import RenderableType
from rich.text import Text

from ..i18n import Words
from ..i18n.characters import character_info
from ..keys import OVER_KEYS
from ..safe_text import plain
from ..widgets.render import chips_text
from ..widgets.seat import character_line, pack
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
                 me: int | None, words: Words) -> list[str]:
    """`alive`, or `dead`, `turn 5`, `killed by Bot 2` / `lost`, `turn 3` (RULES.md §8.1: the killer
    is whoever put the lethal black message there; nobody when that was the victim himself)."""
    if gone is None:
        if not seat.get("alive", True):
            return [words("dead")]
        return [words("lost") if seat.get("lost") else words("alive")]
    parts = [words("dead" if gone.get("died") else "lost")]
    if isinstance(gone.get("turn"), int) and gone["turn"] > 0:
        parts.append(words("in_turn", turn=gone["turn"]))
    if gone.get("died"):
        by = gone.get("by")
        parts.append(words("killed_by", who=words.seat_name(seats, by, me)) if isinstance(by, int)
                     else words("killed_by_nobody"))
    return parts


#: Cells between the columns of the identities table.
GUTTER = 2


def identity_rows(entries: list[dict[str, Any]], words: Words, mono: bool, width: int) -> list[Text]:
    """Every seat as one entry: `★ name  character  identity  messages  how it ended`, in columns.

    Where that row would not fit `width`, the entry takes a second line, indented under the
    character, for how it ended (the status word stays in the row); where it still would not,
    the character moves to that line too. Nothing is abbreviated (no `R1 B0 Bk2`, no `·M`): a
    long table scrolls. Each line holds whole words, never a cell wrapped in its column."""
    forms = [(False, False, False, False), (False, False, False, True), (False, False, True, True)]
    for short_counts, short_gender, character_below, detail_below in forms:
        rows = []
        for e in entries:
            character = character_line(e["character"], words, 0 if short_gender else 10_000) \
                if e["character"] else None
            counts = chips_text(e["counts"], words, mono, short=short_counts)
            how = e["how"]
            status = Text(" · ".join(how) if not detail_below else how[0])
            cells = [Text(e["star"]), e["name"], *([character] if character is not None and not character_below
                                                   else []), e["identity"], counts, status]
            below = [*([character] if character is not None and character_below else []),
                     *(Text(part) for part in (how[1:] if detail_below else []))]
            rows.append((cells, below))
        columns = max(len(cells) for cells, _ in rows)
        widths = [max((cells[i].cell_len for cells, _ in rows if i < len(cells)), default=0) for i in range(columns)]
        if sum(widths) + GUTTER * (columns - 1) <= width or character_below:
            break
    indent = widths[0] + widths[1] + 2 * GUTTER
    out: list[Text] = []
    for cells, below in rows:
        line = Text()
        for i, cell in enumerate(cells):
            if i:
                line.append(" " * GUTTER)
            line.append_text(cell)
            if i < len(cells) - 1:
                line.append(" " * (widths[i] - cell.cell_len))
        line.overflow = "fold"
        out.append(line)
        if below:
            units: list[Text] = []
            for part in below:
                if units:
                    units[-1] = units[-1] + Text(" ·")
                units.append(part)
            for row in pack(units, max(10, width - indent)):
                out.append(Text(" " * indent) + row)
    return out


def task_text(task: Mapping[str, Any], seats: Sequence[Mapping[str, Any]], me: int | None, words: Words) -> Text:
    """A winner's secret task: the catalog's text for his character, else the one the server sent."""
    info = character_info(task.get("character"))
    text = (info.task(words.lang) if info is not None else None) or task.get(words.lang) or task.get("zh") or "?"
    name = info.name(words.lang) if info is not None else str(task.get("character") or "?")
    line = Text(words.label("winning_task", who=words.seat_name(seats, task.get("seat"), me), character=name),
                style="bold")
    line.append(str(text))
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
        names = words.listing([words.seat_name(seats, s, me) for s in winners])
        parts.append(plain(words.label("winners") + (names or words("no_winner")), style="bold"))
        found = view.get("ending")
        ending: dict[str, Any] = found if isinstance(found, dict) else {}
        left = {entry.get("seat"): entry for entry in ending.get("left") or [] if isinstance(entry, dict)}
        parts.append(Text(words("reveal"), style="table.title"))
        with_characters = any(seat.get("character") for seat in seats)
        entries = []
        for seat in seats:
            index = seat.get("index")
            gone = left.get(index)
            entries.append({
                "star": "★" if index in winners else " ", "name": plain(words.seat_name(seats, index, me)),
                "character": seat.get("character") if with_characters else None,
                "identity": plain(words.identity(seat.get("identity"))),
                "counts": seat.get("counts", {}) if gone is None else message_counts(gone.get("messages") or []),
                "how": how_it_ended(seat, gone, seats, me, words)})
        # The block's width: the screen less the block's padding and a scroll bar's room.
        parts += identity_rows(entries, words, app.mono, max(40, app.size.width - 6))
        for task in ending.get("tasks") or []:
            if isinstance(task, dict):
                parts.append(task_text(task, seats, me, words))
        # A winner beside the declarer's side by someone's skill (柒佰's 风度): why he won.
        for entry in state.log:
            if entry.event is not None and entry.event.get("kind") == "co_winner":
                parts.append(plain(words.event(entry.event, entry.seats or seats, me), style="bold"))
        if state.replay_path:
            # The path on a line of its own, never folded in the middle of a name.
            parts.append(Text(words.label("replay_saved_at").rstrip(), style="italic"))
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
