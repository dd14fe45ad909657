"""Settings survive a restart: toggles are written to settings.json at once, a new app starts from
them, a command-line flag still wins, and a bad or unwritable file only loses the settings.

Every test runs under the autouse `isolated_config` fixture (XDG_CONFIG_HOME in tmp).
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from types import ModuleType

import pytest

from engine import Game
from fengsheng_tui.app import FengshengApp
from fengsheng_tui.commands import join, play, replay
from fengsheng_tui.preferences import (
    Preferences,
    load_preferences,
    resolve_lang,
    save_preferences,
    settings_path,
)
from fengsheng_tui.screens.settings import SettingsScreen

from .screen_text import screen_text
from .states import ScriptedSession, play_until, update, welcome
from .waiting import wait_until

_GAME: list[Game] = []


def frozen() -> float:
    return 1000.0


def table_app(**flags: object) -> FengshengApp:
    """A table mid-game (no open prompt for seat 0 needed: Settings opens from any table)."""
    if not _GAME:
        _GAME.append(play_until(5, lambda g: g.state.turn > 1))
    game = _GAME[0]
    return FengshengApp(ScriptedSession([welcome(0), update(game, 0)]), clock=frozen, keymap={},
                        **flags)  # type: ignore[arg-type]


def saved() -> dict[str, object]:
    data: dict[str, object] = json.loads(settings_path().read_text(encoding="utf-8"))
    return data


def test_the_file_lives_beside_the_keys_file() -> None:
    assert settings_path() == Path(os.environ["FENGSHENG_CONFIG"]).parent / "settings.json"


async def test_settings_toggles_are_written_at_once_and_a_new_app_starts_from_them() -> None:
    app = table_app()
    assert not settings_path().exists()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert (app.words.lang, app.mono, app.auto_pass) == ("zh", False, True)  # the defaults
        await pilot.press("o")
        assert isinstance(app.screen, SettingsScreen)
        await pilot.press("l")
        assert saved() == {"lang": "en", "mono": False, "auto_pass": True, "theme": "textual-dark", "bell": False}
        await pilot.press("m")
        assert saved() == {"lang": "en", "mono": True, "auto_pass": True, "theme": "textual-dark", "bell": False}
        await pilot.press("a")
        assert saved() == {"lang": "en", "mono": True, "auto_pass": False, "theme": "textual-dark", "bell": False}
        await pilot.press("b", "b")  # the terminal bell on our move: on, then off again
        assert saved() == {"lang": "en", "mono": True, "auto_pass": False, "theme": "textual-dark", "bell": False}

    again = table_app()
    assert (again.words.lang, again.mono, again.auto_pass) == ("en", True, False)
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("o")
        text = screen_text(again)
        assert "Language: English" in text and "Colour mode: mono" in text and "Auto-pass" in text
        assert "Ring the terminal bell when it is my move: off" in text
        await pilot.press("l")  # and back: the second run's changes are kept too
    assert saved() == {"lang": "zh", "mono": True, "auto_pass": False, "theme": "textual-dark", "bell": False}
    assert table_app().words.lang == "zh"


@pytest.mark.parametrize("command", [play, join, replay], ids=lambda m: m.__name__.rsplit(".", 1)[-1])
def test_a_command_line_flag_wins_over_the_saved_value(command: ModuleType) -> None:
    save_preferences(Preferences(lang="en", mono=True, auto_pass=False))
    parser = argparse.ArgumentParser()
    command.add_arguments(parser)
    extra = ["game.replay"] if command is replay else []

    plain = parser.parse_args(extra)
    assert (plain.lang, plain.mono) == (None, None)  # not given: nothing to override
    assert resolve_lang(plain.lang) == "en"
    app = FengshengApp(lang=plain.lang, mono=plain.mono, keymap={})
    assert (app.words.lang, app.mono, app.auto_pass) == ("en", True, False)

    flagged = parser.parse_args([*extra, "--lang", "zh", "--no-mono"])
    assert resolve_lang(flagged.lang) == "zh"
    app = FengshengApp(lang=flagged.lang, mono=flagged.mono, keymap={})
    assert (app.words.lang, app.mono, app.auto_pass) == ("zh", False, False)
    assert saved() == {"lang": "en", "mono": True, "auto_pass": False, "theme": "textual-dark", "bell": False}  # a flag is for this run only

    save_preferences(Preferences())
    mono = parser.parse_args([*extra, "--mono"])
    assert FengshengApp(lang=mono.lang, mono=mono.mono, keymap={}).mono is True


def test_without_a_file_or_flag_the_defaults_hold() -> None:
    assert load_preferences() == Preferences(lang="zh", mono=False, auto_pass=True)
    assert resolve_lang(None) == "zh"


@pytest.mark.parametrize("content", [b"{not json", b"", b"[1, 2]", b"null", b'"en"', b"\xff\xfe{"])
def test_a_corrupt_file_is_ignored(content: bytes) -> None:
    path = settings_path()
    path.parent.mkdir(parents=True)
    path.write_bytes(content)
    assert load_preferences() == Preferences()
    app = FengshengApp(keymap={})
    assert (app.words.lang, app.mono, app.auto_pass) == ("zh", False, True)


def test_bad_values_are_ignored_one_by_one() -> None:
    path = settings_path()
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"lang": "fr", "mono": "yes", "auto_pass": False, "theme": "textual-dark", "bell": False}), encoding="utf-8")
    assert load_preferences() == Preferences(lang="zh", mono=False, auto_pass=False)
    path.write_text(json.dumps({"lang": "en", "mono": 1, "auto_pass": None, "extra": 3}), encoding="utf-8")
    assert load_preferences() == Preferences(lang="en", mono=False, auto_pass=True)


async def test_an_unwritable_config_only_loses_the_settings(monkeypatch: pytest.MonkeyPatch,
                                                           tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where the config directory should be", encoding="utf-8")
    monkeypatch.setenv("FENGSHENG_CONFIG", str(blocker / "keys.toml"))
    save_preferences(Preferences(lang="en"))  # no exception
    app = table_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("o", "l", "m")
        assert (app.words.lang, app.mono) == ("en", True)  # the game goes on, in the new settings
    assert load_preferences() == Preferences()


@pytest.mark.parametrize(("env", "lang"), [
    ({"LANG": "zh_CN.UTF-8"}, "zh"),
    ({"LANG": "zh_TW.UTF-8"}, "zh"),
    ({"LANG": "en_GB.UTF-8"}, "en"),
    ({"LANG": "C.UTF-8"}, "en"),
    ({}, "en"),
    ({"LANG": "zh_CN.UTF-8", "LC_ALL": "de_DE.UTF-8"}, "en"),
    ({"LANG": "en_US.UTF-8", "LC_MESSAGES": "zh_CN.UTF-8"}, "zh"),
])
def test_the_language_defaults_from_the_locale(monkeypatch: pytest.MonkeyPatch, env: dict[str, str],
                                               lang: str) -> None:
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert resolve_lang(None) == lang
    assert resolve_lang("zh" if lang == "en" else "en") != lang  # a flag wins
    save_preferences(Preferences(lang="zh" if lang == "en" else "en"))
    assert resolve_lang(None) != lang  # and so does the language saved in Settings


async def test_a_theme_picked_in_settings_is_kept_for_the_next_run() -> None:
    app = table_app(lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        before = app.theme
        await pilot.press("o", "t")
        await pilot.pause()
        assert app.theme != before and app.theme in app.available_themes
        assert f"Colour theme: {app.theme}" in screen_text(app)
        picked = app.theme
    assert saved()["theme"] == picked
    again = table_app(lang="en")
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert again.theme == picked


async def test_the_command_palette_offers_the_game_commands_and_themes_not_screenshots() -> None:
    from textual.command import CommandList, CommandPalette

    app = table_app(lang="en")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert {"Help", "Chat", "Settings", "Quit", "Pass", "Colour theme"} <= set(titles)
        assert len(titles) == len(set(titles))  # a binding on two keys is one command
        assert not any("screenshot" in t.lower() or t.lower() == "keys" for t in titles)
        await pilot.press("ctrl+p")
        await wait_until(pilot, lambda: isinstance(app.screen, CommandPalette))
        await pilot.press(*"help")
        await wait_until(pilot, lambda: app.screen.query_one(CommandList).option_count > 0)
        await pilot.press("enter")
        await wait_until(pilot, lambda: type(app.screen).__name__ == "HelpScreen")
