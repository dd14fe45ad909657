"""Pace and control in `fengsheng play`, over real TCP: a screen over the table and the pause key
stop the server's table clock."""

from __future__ import annotations

from textual.pilot import Pilot

from fengsheng_tui.app import FengshengApp
from fengsheng_tui.local_game import LocalTable
from fengsheng_tui.session import NetSession

from .screen_text import screen_text
from .waiting import settled


async def wait_for(pilot: Pilot[int], cond, rounds: int = 300) -> None:  # type: ignore[no-untyped-def]
    for _ in range(rounds):
        if cond():
            return
        await pilot.pause(0.01)
    assert cond()


async def test_help_settings_and_the_pause_key_pause_a_solo_game(table: LocalTable) -> None:
    session = NetSession("127.0.0.1", table.port, "Me", token=table.host_token)
    app = FengshengApp(session, lang="en", keymap={}, replay_dir=table.replay_dir)
    server = table.table
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.state.view is not None and app.table_screen() is not None)
        assert not server.timing.paused
        for key, back in (("question_mark", "escape"), ("o", "escape")):
            await pilot.press(key)
            await wait_for(pilot, lambda: server.timing.paused)
            await pilot.press(back)
            await wait_for(pilot, lambda: not server.timing.paused)
        await pilot.press("b")
        await wait_for(pilot, lambda: server.timing.paused and bool((app.state.view or {}).get("paused")))
        assert "Paused by you" in screen_text(app)
        await pilot.press("question_mark")  # a screen over a paused table keeps it paused
        await wait_for(pilot, lambda: app.screen is not app.table_screen())
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is app.table_screen())
        await settled(pilot, app)
        assert server.timing.paused and app.pause_reasons == {"key"}
        await pilot.press("b")
        await wait_for(pilot, lambda: not server.timing.paused and not (app.state.view or {}).get("paused"))
