"""The grates issue 14's work left on the table: every line that says the table is paused names
who paused it; a name with the "you" marker, and a character with its gender, are written one
way on every screen; the ring uses one form at a time and keeps it while the room stays; our
own secret task is never cut; a replay's hand is the hand of the moment shown."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from fengsheng_tui.i18n import Words

from .screen_text import widget_text
from .states import play_until, update
from .test_ring import app_for, settle
from .waiting import wait_until

# ------------------------------------------------------------------ who paused

def paused_guest() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A LAN guest's last lobby frame (老王 holds the host rights), and its messages: a paused
    table with our prompt open, then the server's refusal of a choice sent as the pause arrived."""
    game = play_until(3, lambda g: 1 in g.prompts and g.state.turn > 1)
    msg = update(game, 1)
    msg["view"]["paused"] = True
    seats = [{"name": s["name"], "host": s["index"] == 0} for s in msg["view"]["seats"]]
    lobby = {"host": False, "you": 1, "seats": seats}
    welcome = {"type": "welcome", "seat": 1, "token": "t", "table": "lan", "host": False}
    refused = {"type": "error", "code": "paused", "message": "paused by the host", "ref": msg["view"]["prompt"]["id"]}
    return lobby, [welcome, msg, copy.deepcopy(refused)]


@pytest.mark.parametrize(("lang", "who"), [("en", "Paused by the host (老王)"), ("zh", "房主（老王）已暂停牌桌")])
async def test_every_line_that_says_the_table_is_paused_names_who_paused_it(lang: str, who: str) -> None:
    """The status bar, the prompt's pause line, the refusal and the note a held key leaves."""
    lobby, messages = paused_guest()
    app = app_for(messages, lang=lang)
    app.state.lobby = lobby  # the lobby before the game (its frame came before the first update)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await wait_until(pilot, lambda: app.state.error_code == "paused" and app.state.paused_by == "老王")
        assert who in widget_text(app, "#status")
        prompt = widget_text(app, "#prompt")
        assert f"⏸ {who}" in prompt
        assert prompt.count(who) == 2, prompt  # the pause line and the refusal
        await pilot.press("space")  # held by the pause: the note names him too
        await wait_until(pilot, lambda: widget_text(app, "#prompt").count(who) == 3)
        words = Words(lang)
        for line in (words.paused("老王"), app.paused_note(), app.state.error_text(words)):
            assert who in line
