"""Settings: language, colour mode, auto-pass (kept in settings.json) and the key bindings (keys file)."""

from __future__ import annotations

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from ..keys import SETTINGS_KEYS, TABLE_KEYS, config_path, describe
from .base import TextScreen


class SettingsScreen(TextScreen):
    DEFAULT_CSS = """
    SettingsScreen #settings { padding: 0 1; }
    """
    KEYS = SETTINGS_KEYS
    TEXT_ID = "settings"

    def parts(self) -> list[RenderableType]:
        app = self.fs_app
        words = app.words
        parts: list[RenderableType] = [Text(words("settings"), style="bold underline")]
        # Each row named by its key as bound now (keys.toml may remap them).
        rows = (("settings_language", "language", "中文" if words.lang == "zh" else "English"),
                ("settings_colour", "colour_mode", words("colour_off" if app.mono else "colour_on")),
                ("settings_auto_pass", "auto_pass", words("on_" if app.auto_pass else "off")),
                ("settings_bell", "bell", words("on_" if app.bell_on_move else "off")),
                ("settings_theme", "theme", app.theme))
        for binding, word, value in rows:
            parts.append(Text(f"{words.key(binding)}  {words.label(word)}{value}"))
        parts.append(Text(""))
        # The table's keys, not this screen's: here m, b … change the settings above.
        parts.append(Text(words("table_key_bindings"), style="bold underline"))
        keys = Table.grid(padding=(0, 2))
        keys.add_column(no_wrap=True, style="bold")
        keys.add_column()
        for k, what in describe(TABLE_KEYS, words, app.keymap):
            keys.add_row(Text(k), Text(what))
        parts.append(keys)
        parts.append(Text(words("keys_file", path=str(config_path())), style="italic"))
        return parts

    def action_language(self) -> None:
        self.fs_app.set_language("en" if self.fs_app.words.lang == "zh" else "zh")
        self.fs_app.save_settings()

    def action_colour(self) -> None:
        self.fs_app.mono = not self.fs_app.mono
        self.fs_app.save_settings()
        self.fs_app.refresh_all()

    def action_auto_pass(self) -> None:
        self.fs_app.auto_pass = not self.fs_app.auto_pass
        self.fs_app.save_settings()
        self.refresh_view()

    def action_bell(self) -> None:
        self.fs_app.bell_on_move = not self.fs_app.bell_on_move
        self.fs_app.save_settings()
        self.refresh_view()

    def action_theme(self) -> None:
        self.fs_app.cycle_theme()
        self.refresh_view()

    def action_close(self) -> None:
        self.app.pop_screen()
