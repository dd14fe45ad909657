"""The table at 80×24 keeps the prompt and the footer on screen whatever the stack holds, and a
smaller terminal gets a notice instead of a broken layout."""

from __future__ import annotations

import copy
from typing import Any

from fengsheng_tui.app import FengshengApp
from fengsheng_tui.i18n import Words
from fengsheng_tui.widgets.prompt import prompt_head

from .screen_text import screen_text
from .states import ScriptedSession, play_until, update, welcome


def frozen() -> float:
    return 1000.0


def response_window(stack_depth: int) -> list[dict[str, Any]]:
    """Seat 0 asked to respond, with the stack grown to `stack_depth` entries (a long 识破 chain)."""
    game = play_until(5, lambda g: bool(g.state.stack) and g.state.message is not None
                      and 0 in g.prompts and g.state.turn > 1)
    msg = update(game, 0)
    stack = msg["view"]["stack"]
    while len(stack) < stack_depth:
        entry = copy.deepcopy(stack[-1])
        entry["function"] = "识破"
        entry["card"] = {"id": 900 + len(stack), "function": "识破", "colour": "black", "method": "直达"}
        entry["target_card"] = stack[-1]["card"]
        stack.append(entry)
    return [welcome(0), msg]


async def test_a_long_stack_keeps_the_prompt_and_footer_on_screen() -> None:
    words = Words("zh")
    for depth in (1, 3, 12):
        messages = response_window(depth)
        app = FengshengApp(ScriptedSession(messages), lang="zh", clock=frozen, keymap={})
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("1")  # a card chosen: the prompt grows by its target rows
            await pilot.pause()
            lines = screen_text(app).splitlines()
            assert len(lines) == 24
            head = prompt_head(messages[1]["view"]["prompt"], words)
            assert any(head[:12] in line for line in lines[-6:]), "\n".join(lines)
            assert "q" in lines[-1] and words("quit") in lines[-1]
            text = "\n".join(lines)
            if depth == 12:
                assert "…还有" in text
            assert f"{depth}. " in text  # the newest entry (it resolves first) is always shown


async def test_a_small_terminal_shows_a_notice() -> None:
    app = FengshengApp(ScriptedSession(response_window(1)), lang="en", clock=frozen, keymap={})
    async with app.run_test(size=(70, 20)) as pilot:
        await pilot.pause()
        assert "Terminal too small: need 80×24 (now 70×20)" in screen_text(app)
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert "Terminal too small" not in screen_text(app)
