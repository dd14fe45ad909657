"""Help, all in-app: rules summary, the nine cards, the 25 characters, and the key bindings in force.

The app builds this screen once and keeps it (`FengshengApp.show_help`): opening help is then a
repaint, not a rebuild. Its text is rebuilt only when the language or the keymap changed.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from ..i18n import ABBREVIATIONS, CARD_HELP, RULES_SUMMARY, Words
from ..i18n.characters import base_characters
from ..keys import HELP_KEYS, REPLAY_KEYS, TABLE_KEYS, config_path, describe
from ..widgets.cjk_text import CjkText
from ..widgets.footer import GameFooter
from .base import FsScreen


class HelpScreen(FsScreen):
    DEFAULT_CSS = """
    HelpScreen #help { padding: 0 1; }
    """
    KEYS = HELP_KEYS
    #: (language, keymap, deck) the text was built for: rebuilding the character reference costs a frame.
    built_for: tuple[str, str, str] | None = None

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="scroll"):
            yield Static(id="help")
        yield GameFooter(show_command_palette=False)

    def on_mount(self) -> None:
        self.shown = True
        self.refresh_view()

    def on_screen_resume(self) -> None:
        self.query_one("#scroll", VerticalScroll).scroll_home(animate=False)
        self.refresh_view()

    def refresh_view(self) -> None:
        if not self.shown:
            return
        app = self.fs_app
        deck = deck_in_play(app.state.view, app.state.lobby)
        key = (app.words.lang, repr(sorted(app.keymap.items())), deck)
        if key == self.built_for:
            return
        self.built_for = key
        words = app.words
        lang = words.lang
        parts: list[Text | Table | CjkText] = [Text(words("rules_summary"), style="bold underline")]
        parts += [CjkText("• " + line) for line in RULES_SUMMARY[lang]]
        parts.append(Text(""))
        parts.append(Text(words("card_reference"), style="bold underline"))
        cards = Table.grid(padding=(0, 1))
        cards.add_column(no_wrap=True, style="bold")
        cards.add_column(overflow="fold")  # Chinese has no spaces to wrap at: fold, never cut
        functions = deck_functions(deck)
        for name, text in CARD_HELP[lang].items():
            if name in functions:
                cards.add_row(Text(words.function(name)), CjkText(text))
        parts.append(cards)
        parts.append(Text(""))
        parts.append(Text(words("abbreviations"), style="bold underline"))
        parts += [CjkText("• " + line) for line in ABBREVIATIONS[lang]]
        parts.append(Text(""))
        parts += character_reference(words)
        parts.append(Text(""))
        parts.append(Text(words("key_bindings"), style="bold underline"))
        table_rows = describe(TABLE_KEYS, words, app.keymap)
        parts.append(key_table(table_rows))
        parts += [CjkText("• " + words(key)) for key in ("hand_star_help", "auto_pass_help", "log_scroll_help",
                                                        "palette_help")]
        # The replay viewer's keys under a heading of their own: ← and → mean other things there.
        parts.append(Text(words("replay"), style="bold"))
        parts.append(key_table([row for row in describe(REPLAY_KEYS, words, app.keymap) if row not in table_rows]))
        parts.append(Text(words("keys_file", path=str(config_path())), style="italic"))
        self.query_one("#help", Static).update(Group(*parts))

    def relabel(self) -> None:
        super().relabel()
        self.built_for = None

    def action_close(self) -> None:
        self.app.pop_screen()

    def action_scroll(self, step: int) -> None:
        self.query_one("#scroll", VerticalScroll).scroll_relative(y=step * 3, animate=False)

    def action_page(self, step: int) -> None:
        scroll = self.query_one("#scroll", VerticalScroll)
        scroll.scroll_relative(y=step * max(1, scroll.size.height - 1), animate=False)


def key_table(rows: list[tuple[str, str]]) -> Table:
    """(keys, what they do) as two columns, one row per meaning."""
    keys = Table.grid(padding=(0, 2))
    keys.add_column(no_wrap=True, style="bold")
    keys.add_column()
    seen: set[str] = set()
    for k, what in rows:
        if what not in seen:
            seen.add(what)
            keys.add_row(Text(k), Text(what))
    return keys


def deck_in_play(view: dict[str, Any] | None, lobby: dict[str, Any] | None) -> str:
    """The deck variant of the game (or of the table being set up); the standard one if unknown."""
    config = (view or {}).get("config")
    options = (lobby or {}).get("options", lobby or {})
    for source in (config, options):
        if isinstance(source, dict) and isinstance(source.get("deck"), str):
            return str(source["deck"])
    return "resolved"


def deck_functions(deck: str) -> frozenset[str]:
    """The card functions in a deck variant: the later-edition cards only in the `later` deck."""
    from engine.cards import FUNCTIONS, build_deck

    try:
        return frozenset(card.function for card in build_deck(deck))
    except ValueError:
        return frozenset(FUNCTIONS)


def character_reference(words: Words) -> list[Text | Table | CjkText]:
    """Every base character: both names, gender, whether it starts face-down, skills, secret task."""
    chars = base_characters()
    parts: list[Text | Table | CjkText] = [Text(words("character_reference", n=len(chars)), style="bold underline")]
    for info in chars.values():
        head = Text(info.name(words.lang), style="bold")
        head.append(words.gender_suffix(info.gender))
        head.append(f" {info.name_en if words.lang == 'zh' else info.name_zh} · ")
        head.append(words("hidden_character" if info.hidden else "open_character"), style="italic")
        parts.append(head)
        rows = Table.grid(padding=(0, 1))
        rows.add_column(no_wrap=True)
        rows.add_column(overflow="fold")
        for skill in info.skills:
            title = words.marked(skill.title(words.lang), words("flip_skill")) if skill.flip else skill.title(words.lang)
            rows.add_row(Text(f"  {title}"), CjkText(skill.summary(words.lang)))
        task = info.task(words.lang)
        if task:
            rows.add_row(Text(f"  {words('task')}"), CjkText(Text(task, style="italic")))
        parts.append(rows)
    return parts
