"""A whole game against bots, played to its end with keys only, at 80×24, over real TCP.

The app and the server (`fengsheng play`'s `start_local_table`) share one event loop; the app is
an ordinary client on 127.0.0.1. The test reads the screen state only to decide which key a
player would press; every action goes through `pilot.press`.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from textual.pilot import Pilot

from engine import events_for
from fengsheng_tui.app import FengshengApp
from fengsheng_tui.local_game import LocalTable, start_local_table
from fengsheng_tui.replay_model import load_replay
from fengsheng_tui.screens.game_over import GameOverScreen
from fengsheng_tui.session import NetSession

from .screen_text import screen_text
from .waiting import wait_until

PASSING = ("pass", "end", "decline")


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[LocalTable]:
    """The conftest's table with a seed whose games are short (these tests play three whole games:
    with seed 5 they took 230 s of the suite once a rules fix made that game longer)."""
    local = await start_local_table(4, seed=7, bot_level="random", bot_delay=0.0, replay_dir=tmp_path / "games")
    try:
        yield local
    finally:
        await local.close()


def keys_for(app: FengshengApp) -> list[str]:
    """What a player would type for the open prompt: use a card now and then, else pass/accept."""
    prompt = app.state.prompt
    table = app.table_screen()
    if prompt is None or table is None or table.chooser.sent_for == prompt["id"]:
        return []
    hand = [c["id"] for c in app.state.hand]
    usable = [hand.index(o["card"]) + 1 for o in prompt["options"] if o.get("card") in hand]
    kind = prompt["kind"]
    if kind == "receive":
        return ["enter"] if prompt["id"] % 2 else ["space"]
    if kind in ("send", "probe_discard"):
        return [str(usable[0]), "right", "enter"]
    if usable and prompt["id"] % 3 == 0:
        return [str(usable[0]), "enter"]
    return ["space"]


async def play_to_the_end(app: FengshengApp, pilot: Pilot[int]) -> int:
    """Press keys until the game-over screen shows; returns how many were pressed."""
    pressed = 0
    for _ in range(3000):
        await pilot.pause(0.01)
        if isinstance(app.screen, GameOverScreen):
            break
        for key in keys_for(app):
            await pilot.press(key)
            pressed += 1
    assert isinstance(app.screen, GameOverScreen), "the game did not end"
    return pressed


async def test_whole_game_with_keys_only(table: LocalTable) -> None:
    session = NetSession("127.0.0.1", table.port, "Me", token=table.host_token)
    app = FengshengApp(session, lang="en", keymap={}, replay_dir=table.replay_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        pressed = await play_to_the_end(app, pilot)
        text = screen_text(app)
        assert "Game over" in text and "Winners:" in text
        winners = app.state.view["winners"] if app.state.view else None
        assert winners == table.table.game.state.winners
        for seat in app.state.seats:  # every identity revealed on the game-over screen
            assert seat["identity"] is not None
        assert "Replay saved:" in text and ".seat3.replay" in text
        assert pressed > 5
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code == 0


@pytest.mark.parametrize("kept", [False, True], ids=["server replay", "client-kept replay"])
async def test_the_host_starts_the_next_game_from_the_game_over_screen(table: LocalTable, tmp_path: Path,
                                                                        kept: bool) -> None:
    """`s` on the game-over screen (the host's key) starts a rematch with everyone here: the old
    result goes, and when the second game ends its result is shown again, naming the second game's
    replay: the file the screen names holds the second game, whether the local server wrote it or
    our client kept it (`fengsheng play` does both and names the client's)."""
    session = NetSession("127.0.0.1", table.port, "Me", token=table.host_token)
    app = FengshengApp(session, lang="en", keymap={}, replay_dir=table.replay_dir,
                       keep_replays=tmp_path / "own" if kept else None)
    async with app.run_test(size=(80, 24)) as pilot:
        await play_to_the_end(app, pilot)
        assert "Press s to start the next game" in screen_text(app)
        first = table.table.game
        first_replay = app.state.replay_path
        assert first_replay and first_replay.endswith(".seat3.replay")
        await pilot.press("s")
        await wait_until(pilot, lambda: table.table.game is not first and not isinstance(app.screen, GameOverScreen))
        began = time.time()
        assert app.state.view is not None and not app.state.view["over"] and app.state.seat == 3
        await play_to_the_end(app, pilot)
        assert table.table.games_finished == 2
        # The second result names the second game's replay, not the first one's.
        second = app.state.replay_path
        assert second and second != first_replay and Path(second).parent == Path(first_replay).parent
        assert Path(second).name in "".join(screen_text(app).split())  # the name may fold at 80 columns
        game = table.table.game
        assert game is not None and game is not first
        assert load_replay(Path(second))["events"] == events_for(game, 3, 0)
        # The table's seed is fixed, so both games may be alike: the file is the one written after
        # the second game began, and the first game's file is still there as it was.
        assert Path(second).stat().st_mtime >= began > Path(first_replay).stat().st_mtime
