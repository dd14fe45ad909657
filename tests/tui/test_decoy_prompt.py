"""A decoy offer on screen: a face-down seat asked as a 就计 or 弃卒保帅 owner would be (so the
table cannot tell) says that nothing of ours answers; like a response window with nothing
playable it goes on by itself after a random pause, unless auto-pass is off (then Space does)."""

from __future__ import annotations

from typing import Any

from engine.characters import is_decoy
from fengsheng_tui.app import FengshengApp
from fengsheng_tui.screens.table import AUTO_PASS_DELAY, TableScreen

from .screen_text import screen_text
from .states import ScriptedSession, play_with_characters, update, welcome
from .waiting import wait_until


def frozen() -> float:
    return 1000.0


def decoy_offer() -> tuple[list[dict[str, Any]], int, str]:
    game = play_with_characters(0, lambda g: any(is_decoy(p) for p in g.prompts.values()))
    prompt = next(p for p in game.prompts.values() if is_decoy(p))
    return [welcome(prompt.seat), update(game, prompt.seat)], prompt.id, prompt.default


async def test_a_decoy_offer_says_nothing_answers_and_space_goes_on() -> None:
    messages, prompt_id, default = decoy_offer()
    session = ScriptedSession(messages)
    app = FengshengApp(session, lang="en", clock=frozen, keymap={})
    app.auto_pass = False
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: "Nothing of yours answers this, and the others cannot tell" in screen_text(app))
        await pilot.press("space")
        await wait_until(pilot, lambda: ("choose", (prompt_id, default)) in session.sent)
    assert ("choose", (prompt_id, default)) in session.sent


async def test_a_decoy_offer_goes_on_by_itself_after_a_random_pause() -> None:
    messages, prompt_id, default = decoy_offer()
    session = ScriptedSession(messages)
    app = FengshengApp(session, lang="en", clock=frozen, keymap={})
    app.auto_pass = True
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, TableScreen) and app.screen.auto_pass_due is not None)
        screen = app.screen
        assert isinstance(screen, TableScreen) and screen.auto_pass_due is not None
        low, high = AUTO_PASS_DELAY
        assert low <= screen.auto_pass_due[1] <= high
        await wait_until(pilot, lambda: ("choose", (prompt_id, default)) in session.sent)
    assert session.sent.count(("choose", (prompt_id, default))) == 1
