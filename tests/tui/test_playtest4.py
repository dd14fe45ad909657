"""Grates a new player met in tmux (session 8's playtest): each test drives the real screens.

- The character pick at 80×24: the chosen choice is scrolled into view, and Chinese skill texts
  wrap by 禁则 (no line starts with `，`).
"""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot

from engine import Game
from fengsheng_tui.app import FengshengApp
from fengsheng_tui.i18n.characters import base_characters
from fengsheng_tui.screens.character_pick import CharacterPickScreen
from fengsheng_tui.widgets.cjk_text import NO_START

from .screen_text import screen_text
from .states import ScriptedSession, play_with_characters, update, welcome
from .waiting import wait_until


def frozen() -> float:
    return 1000.0


def pick_app(lang: str) -> tuple[FengshengApp, Game]:
    game = play_with_characters(7, lambda g: True)
    session = ScriptedSession([welcome(0), update(game, 0)])
    return FengshengApp(session, lang=lang, clock=frozen, keymap={}), game


def stranded_marks(text: str) -> list[str]:
    """Screen lines whose first character (after indentation and box edges) may not start a line."""
    out = []
    for line in text.splitlines():
        body = line.strip(" │┃▁▂▃▄▅▆▇█")
        if body and body[0] in NO_START:
            out.append(line)
    return out


async def show_choices(pilot: Pilot[Any], app: FengshengApp, choices: list[str]) -> CharacterPickScreen:
    screen = app.screen
    assert isinstance(screen, CharacterPickScreen)
    app.state.view["character_choices"] = choices  # type: ignore[index]
    screen.refresh_view()
    await pilot.pause()
    return screen


async def test_the_chosen_character_is_scrolled_into_view_at_80_by_24() -> None:
    """English at 80×24: three choices are taller than the screen; a digit or an arrow that chooses
    the third must show its name and skills (main left it below the screen, chosen blind)."""
    app, game = pick_app("en")
    choices = game.state.seats[0].character_choices
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, CharacterPickScreen), what="the pick")
        for keys, index in ((("3",), 2), (("1",), 0), (("down",), 1), (("down",), 2), (("up", "up"), 0)):
            for key in keys:
                await pilot.press(key)
            info = base_characters()[choices[index]]
            wanted = [f"{index + 1}  {info.name_en}", *(s.title("en") for s in info.skills)]
            await wait_until(pilot, lambda wanted=wanted: all(w in screen_text(app) for w in wanted),
                             what=f"choice {index + 1} ({info.name_en}) on screen after {keys}")


async def test_no_line_of_the_pick_starts_with_a_closing_mark_for_any_character() -> None:
    """Every character's skills and task, in Chinese at 80 and 100 columns (and English at 80):
    main folded `…翻面朝上` / `，然后摸两张牌。` at any cell."""
    ids = sorted(base_characters())
    groups = [ids[i:i + 3] for i in range(0, len(ids), 3)]
    for lang, width in (("zh", 80), ("zh", 100), ("en", 80)):
        app, _ = pick_app(lang)
        async with app.run_test(size=(width, 60)) as pilot:
            await wait_until(pilot, lambda app=app: isinstance(app.screen, CharacterPickScreen), what="the pick")
            for group in groups:
                await show_choices(pilot, app, group)
                for n in range(1, len(group) + 1):
                    await pilot.press(str(n))
                    await pilot.pause()
                    assert stranded_marks(screen_text(app)) == [], (lang, width, group, n)
