"""The footer offers only what works now, a wrong key gets a hint, and after the game is over
`q` leaves without asking."""

from __future__ import annotations

from engine import Game
from fengsheng_tui.app import FengshengApp
from fengsheng_tui.screens.confirm import ConfirmQuit
from fengsheng_tui.screens.game_over import GameOverScreen
from fengsheng_tui.screens.table import TableScreen

from .screen_text import screen_text
from .states import ScriptedSession, play_until, update, welcome
from .waiting import wait_exit, wait_until


def frozen() -> float:
    return 1000.0


def prompted(kind: str) -> Game:
    return play_until(4, lambda g: 0 in g.prompts and g.prompts[0].kind == kind and g.state.turn > 2)


async def footer_of(game: Game, *keys: str) -> tuple[str, FengshengApp]:
    app = FengshengApp(ScriptedSession([welcome(0), update(game, 0)]), lang="en", clock=frozen, keymap={})
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for key in keys:
            await pilot.press(key)
        await pilot.pause()
        return screen_text(app), app


async def test_space_is_offered_only_where_it_passes() -> None:
    response = prompted("response")
    assert any(o.verb == "pass" for o in response.prompts[0].options)
    text, _ = await footer_of(response)
    assert "Space pass" in text.splitlines()[-1]
    send = prompted("send")
    assert not any(o.verb == "pass" for o in send.prompts[0].options)
    text, _ = await footer_of(send)
    assert "Space" not in text.splitlines()[-1] and "1–9 card" in text.splitlines()[-1]


async def test_a_key_bound_to_nothing_says_so() -> None:
    text, app = await footer_of(prompted("send"), "z")
    assert app.words("wrong_key") in text


async def test_after_the_game_q_leaves_at_once() -> None:
    game = play_until(3, lambda g: False)
    assert game.over
    app = FengshengApp(ScriptedSession([welcome(1), update(game, 1)]), lang="en", clock=frozen, keymap={})
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        await pilot.press("escape")  # back to the table, where `q` used to ask first
        await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
        footer = screen_text(app).splitlines()[-1]
        assert "Space" not in footer and "confirm" not in footer and "card" not in footer
        await pilot.press("q")
        await wait_exit(app)
        assert not isinstance(app.screen, ConfirmQuit)
    assert app.return_code == 0


async def test_after_esc_r_brings_the_game_result_back() -> None:
    game = play_until(3, lambda g: False)
    app = FengshengApp(ScriptedSession([welcome(1), update(game, 1)]), lang="en", clock=frozen, keymap={})
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, GameOverScreen) and "r result" in screen_text(app).splitlines()[-1]
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
