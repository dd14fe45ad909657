"""Waiting out response windows: with nothing playable we pass by ourselves after a random pause
(never at once, so the timing does not tell the table our hand); the log scrolls back and forth."""

from __future__ import annotations

import time

import pytest

from engine import Game
from engine.state import TURN_STEPS
from fengsheng_tui.app import FengshengApp
from fengsheng_tui.screens.table import AUTO_PASS_DELAY, TURN_AUTO_PASS_DELAY
from fengsheng_tui.widgets.log import EventLog

from .screen_text import screen_text
from .states import ScriptedSession, play_until, update, welcome


def frozen() -> float:
    return 1000.0


def nothing_playable(g: Game, turn_window: bool = False) -> bool:
    """Seat 0 is asked in a window (a turn-start/turn-end one, or another) with nothing to play."""
    prompt = g.prompts.get(0)
    w = g.state.window
    return prompt is not None and prompt.kind == "response" and all(o.verb == "pass" for o in prompt.options) \
        and g.state.turn > 3 and w is not None and (w.step in TURN_STEPS) == turn_window


@pytest.mark.parametrize("turn_window", [False, True])
async def test_a_window_with_nothing_playable_passes_after_a_random_pause(turn_window: bool) -> None:
    """Shorter at turn start and turn end (TURN_AUTO_PASS_DELAY), where windows come twice a turn."""
    game = play_until(6, lambda g: nothing_playable(g, turn_window))
    assert nothing_playable(game, turn_window)
    bounds = TURN_AUTO_PASS_DELAY if turn_window else AUTO_PASS_DELAY
    prompt = game.prompts[0]
    for auto in (True, False):
        session = ScriptedSession([welcome(0), update(game, 0)])
        app = FengshengApp(session, lang="zh", clock=frozen, keymap={})
        app.auto_pass = auto
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.table_screen()
            for _ in range(150):
                if session.sent:
                    break
                await pilot.pause(0.02)
            if auto:
                assert screen.auto_pass_due is not None
                scheduled, delay = screen.auto_pass_due
                assert bounds[0] <= delay <= bounds[1]
                assert session.sent == [("choose", (prompt.id, prompt.default))]
                assert time.monotonic() - scheduled >= delay  # never at once: only after the pause
            else:
                assert screen.auto_pass_due is None and session.sent == []


async def test_the_log_scrolls_back_and_returns_to_the_newest_line() -> None:
    game = play_until(6, lambda g: g.state.turn > 6)
    app = FengshengApp(ScriptedSession([welcome(0), update(game, 0)]), lang="en", clock=frozen, keymap={})
    # Seat 0 may hold nothing playable there: a pass by itself midway would change the prompt line.
    app.auto_pass = False
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        log = app.screen.query_one(EventLog)
        newest = screen_text(app)
        assert log.scrolled_back == 0
        await pilot.press("pageup")
        await pilot.pause()
        assert log.scrolled_back > 0 and "scrolled up" in screen_text(app)
        await pilot.press("pageup", "pagedown")
        await pilot.pause()
        await pilot.press("end")
        await pilot.pause()
        assert log.scrolled_back == 0 and screen_text(app) == newest
