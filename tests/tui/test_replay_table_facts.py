"""A replay shows the table as it was at each step, not as it ended: a seat handed to a bot (托管)
late in the game, or a pause, must not mark the replay from its first step."""

from __future__ import annotations

from pathlib import Path

from fengsheng_tui.app import FengshengApp
from fengsheng_tui.local_game import start_local_table
from fengsheng_tui.replay_model import load_replay
from fengsheng_tui.screens.game_over import GameOverScreen
from fengsheng_tui.screens.replay import ReplayScreen
from fengsheng_tui.session import NetSession

from .screen_text import screen_text
from .waiting import wait_until


async def test_a_seat_put_on_auto_play_during_the_game_is_not_shown_on_auto_from_the_start(tmp_path: Path) -> None:
    quick = dict.fromkeys(("play", "send", "response", "receive", "probe_discard", "turn_window"), 0.05)
    local = await start_local_table(4, seed=5, bot_level="random", bot_delay=0.0, replay_dir=None, timers=quick)
    own = tmp_path / "own"
    try:
        session = NetSession("127.0.0.1", local.port, "Me", token=local.host_token)
        app = FengshengApp(session, lang="en", keymap={}, keep_replays=own)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: app.state.view and app.state.view.get("turn", 0) >= 2, timeout=30)
            await pilot.press("m")  # 托管 from turn 2 on
            await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen), timeout=60)
            seat = app.state.seat
            assert seat is not None
    finally:
        await local.close()
    (kept,) = own.glob("*.replay")
    replay = load_replay(kept)
    assert replay["final"]["seats"][seat]["auto"]  # the game ended with the seat on 托管

    app = FengshengApp(lang="en", replay=replay, keymap={})
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen) and screen.step == 1
        view = screen.state_at().view or {}
        assert not any(s.get("auto") for s in view["seats"])
        assert view.get("paused") is None and not view.get("fast_forward")
        text = screen_text(app)
        assert "Auto-play on" not in text and "[auto]" not in text
