"""Help, all in-app: rules summary, the nine cards, characters, and the key bindings in force."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Footer, Static

from ..i18n import CARD_HELP, RULES_SUMMARY
from ..keys import HELP_KEYS, REPLAY_KEYS, TABLE_KEYS, config_path, describe
from .base import FsScreen


class HelpScreen(FsScreen):
    DEFAULT_CSS = """
    HelpScreen #help { padding: 0 1; }
    """
    KEYS = HELP_KEYS

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="scroll"):
            yield Static(id="help")
        yield Footer()

    def on_mount(self) -> None:
        self.shown = True
        self.refresh_view()

    def refresh_view(self) -> None:
        if not self.shown:
            return
        app = self.fs_app
        words = app.words
        lang = words.lang
        parts: list[Text | Table] = [Text(words("rules_summary"), style="bold underline")]
        parts += [Text("• " + line) for line in RULES_SUMMARY[lang]]
        parts.append(Text(""))
        parts.append(Text(words("card_reference"), style="bold underline"))
        cards = Table.grid(padding=(0, 1))
        cards.add_column(no_wrap=True, style="bold")
        cards.add_column()
        for name, text in CARD_HELP[lang].items():
            cards.add_row(words.function(name), text)
        parts.append(cards)
        parts.append(Text(""))
        parts.append(Text(words("characters"), style="bold underline"))
        parts.append(Text(words("characters_coming")))
        parts.append(Text(""))
        parts.append(Text(words("key_bindings"), style="bold underline"))
        keys = Table.grid(padding=(0, 2))
        keys.add_column(no_wrap=True, style="bold")
        keys.add_column()
        seen: set[str] = set()
        for k, what in describe(TABLE_KEYS + REPLAY_KEYS, words, app.keymap):
            if what not in seen:
                seen.add(what)
                keys.add_row(k, what)
        parts.append(keys)
        parts.append(Text(words("keys_file", path=str(config_path())), style="italic"))
        self.query_one("#help", Static).update(Group(*parts))

    def action_close(self) -> None:
        self.app.pop_screen()

    def action_scroll(self, step: int) -> None:
        self.query_one("#scroll", VerticalScroll).scroll_relative(y=step * 3, animate=False)
