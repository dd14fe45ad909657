"""The character pick before the deal (RULES.md §3.2): each choice with its skills and secret task.

Shown over the table while the game is in its pick phase; it leaves by itself when the phase ends.
A digit (or the arrows) chooses, Enter confirms. The texts come from the rules data, so a player
reads the same summaries here as in the help screen.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from ..i18n import Words
from ..i18n.characters import character_info
from ..keys import PICK_KEYS
from ..widgets.cjk_text import CjkText
from ..widgets.footer import GameFooter
from .base import FsScreen


def choice_block(cid: str, n: int, words: Words, selected: bool) -> Group:
    """`1. 老鬼 · 女 · 开局盖伏` (in English `1. Old Ghost 老鬼 · F · ...`, the name printed on the
    card alongside), its skills, its secret task."""
    info = character_info(cid)
    head = Text(f" {n} ", style="reverse bold" if selected else "bold")
    if info is None:
        head.append(" " + cid)
        return Group(head)
    head.append(" " + info.name(words.lang), style="bold underline" if selected else "bold")
    head.append(words.gender_suffix(info.gender))
    other = f" {info.name_zh}" if words.lang == "en" else ""
    head.append(f"{other} · ")
    head.append(words("hidden_character" if info.hidden else "open_character"), style="italic")
    rows = Table.grid(padding=(0, 1))
    rows.add_column(no_wrap=True, style="bold")
    rows.add_column()  # CjkText wraps Chinese by 禁则: no line starts with `，`
    for skill in info.skills:
        title = words.marked(skill.title(words.lang), words("flip_skill")) if skill.flip else skill.title(words.lang)
        rows.add_row(Text("   " + title), CjkText(skill.summary(words.lang)))
    task = info.task(words.lang)
    if task:
        rows.add_row(Text("   " + words("task_if_neutral")), CjkText(Text(task, style="italic")))
    return Group(head, rows)


class CharacterPickScreen(FsScreen):
    DEFAULT_CSS = """
    CharacterPickScreen #pick-head { height: auto; padding: 0 1; background: $primary-background; }
    CharacterPickScreen .pick-choice { padding: 0 1; }
    CharacterPickScreen .pick-gap { height: 1; }
    """
    KEYS = PICK_KEYS
    #: Choosing here is playing: a solo game is not paused for it (`FengshengApp.update_cover`).
    plays_the_game = True

    def __init__(self) -> None:
        super().__init__()
        self.index = 0
        #: The choice last scrolled into view (None: not yet).
        self.scrolled_to: int | None = None
        self.sent_for: int | None = None
        self.picked: str | None = None
        #: Why Enter sent nothing (the table is paused), shown while it is.
        self.note: str | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="pick-head")
        scroll = VerticalScroll(id="pick-scroll")
        scroll.can_focus = False  # ↑/↓ choose (and scroll to the choice); PgUp/PgDn scroll
        yield scroll
        yield GameFooter(show_command_palette=False)

    def on_mount(self) -> None:
        self.shown = True
        self.refresh_view()

    @property
    def view(self) -> dict[str, Any]:
        return self.fs_app.state.view or {}

    @property
    def choices(self) -> list[str]:
        return [str(c) for c in self.view.get("character_choices") or []]

    def open_prompt(self) -> dict[str, Any] | None:
        prompt = self.fs_app.state.prompt
        if prompt is None or prompt.get("kind") != "character_pick" or prompt.get("id") == self.sent_for:
            return None
        return prompt

    def refresh_view(self) -> None:
        if not self.shown:
            return
        app = self.fs_app
        words, state = app.words, app.state
        if self.view.get("phase") != "character_pick":
            if app.screen is self:
                app.pop_screen()
            return
        if state.refused is not None and state.refused == self.sent_for:
            self.sent_for = self.picked = None  # the server refused it (paused …): pick again
            state.refused = None
        choices = self.choices
        self.index = min(self.index, max(0, len(choices) - 1))
        prompt = self.open_prompt()
        head = Text(words("pick_title"), style="bold")
        table = app.table_screen()
        paused = table.pause_line() if table is not None else None
        if paused:
            head.append("\n" + paused, style="bold reverse")
        if prompt is not None:
            left = state.seconds_left(prompt)
            if left is not None:
                head.append("  ⏳" + words("countdown", s=left))
            head.append("\n" + words("pick_hint"), style="dim")
        else:
            name = words.character_name(self.picked) if self.picked else "…"
            head.append("\n" + words("picked_wait", name=name), style="italic")
        if self.note and paused:
            head.append("\n" + self.note, style="italic")
        if state.error:
            head.append("\n" + state.error_text(words), style="italic")
        self.query_one("#pick-head", Static).update(head)
        self.show_choices(choices, words, prompt is not None)

    def show_choices(self, choices: list[str], words: Words, open_: bool) -> None:
        """One widget per choice, so the chosen one can be scrolled into view: at 80×24 the third
        choice lies below the screen, and a digit or arrow that chose it must show it."""
        scroll = self.query_one("#pick-scroll", VerticalScroll)
        blocks = list(scroll.query(".pick-choice").results(Static))
        if len(blocks) != len(choices):
            scroll.remove_children()
            blocks = [Static(classes="pick-choice") for _ in choices]
            for i, block in enumerate(blocks):
                scroll.mount_all([Static(classes="pick-gap"), block] if i else [block])
        for i, (cid, block) in enumerate(zip(choices, blocks, strict=True)):
            block.update(choice_block(cid, i + 1, words, selected=i == self.index and open_))
        if blocks and self.index != self.scrolled_to:
            self.scrolled_to = self.index
            chosen = blocks[self.index]
            self.call_after_refresh(lambda: scroll.scroll_to_widget(chosen, animate=False, top=True))

    def action_choice(self, i: int) -> None:
        if 0 <= i < len(self.choices):
            self.index = i
            self.refresh_view()

    def action_move(self, step: int) -> None:
        if self.choices:
            self.index = (self.index + step) % len(self.choices)
            self.refresh_view()

    def action_page(self, step: int) -> None:
        scroll = self.query_one("#pick-scroll", VerticalScroll)
        scroll.scroll_relative(y=step * max(1, scroll.size.height - 1), animate=False)

    def action_confirm(self) -> None:
        prompt = self.open_prompt()
        choices = self.choices
        if prompt is None or not choices:
            return
        cid = choices[self.index]
        option = next((o for o in prompt.get("options", []) if o.get("name") == cid), None)
        if option is None:
            return
        if self.fs_app.state.paused_by is not None:
            self.note = self.fs_app.paused_note()  # the server would refuse it
            self.refresh_view()
            return
        self.sent_for = int(prompt["id"])
        self.picked = cid
        self.fs_app.choose(int(prompt["id"]), str(option["id"]))
        self.refresh_view()

    def on_screen_suspend(self) -> None:
        """Help or settings over the pick pause a solo game, as over the table."""
        self.fs_app.update_cover()

    def on_screen_resume(self) -> None:
        self.fs_app.update_cover()

    def action_help(self) -> None:
        self.fs_app.show_help()

    def action_quit(self) -> None:
        table = self.fs_app.table_screen()
        if table is not None:
            table.action_quit()
