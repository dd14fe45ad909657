"""`fengsheng play --players 5`: five seats have no line-up without a neutral, so the game is played
with characters; the player reaches the pick screen, picks with keys, then sees the table.

The options go through `play`'s own argument parser and `start_table`, the server is real (TCP on
127.0.0.1, bots in the other seats) and the app is an ordinary client of it.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from fengsheng_tui.app import FengshengApp
from fengsheng_tui.commands import play
from fengsheng_tui.screens.character_pick import CharacterPickScreen
from fengsheng_tui.screens.table import TableScreen
from fengsheng_tui.session import NetSession

from .screen_text import screen_text


def play_args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="fengsheng play")
    play.add_arguments(parser)
    return parser.parse_args(list(argv))


async def wait_for(pilot: Pilot[Any], done: Any, steps: int = 500) -> None:
    for _ in range(steps):
        if done():
            return
        await pilot.pause(0.01)
    raise AssertionError("timed out waiting on the app")


async def test_play_with_five_players_picks_a_character_then_shows_the_table(tmp_path: Path) -> None:
    args = play_args("--players", "5", "--bots", "random", "--bot-delay", "0", "--seed", "2", "--lang", "en")
    local = await play.start_table(args, tmp_path)
    try:
        assert local.table.characters and local.table.identities == "default"
        app = FengshengApp(NetSession("127.0.0.1", local.port, "Me", token=local.host_token), lang="en", keymap={})
        async with app.run_test(size=(100, 40)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, CharacterPickScreen))
            assert app.state.view is not None
            choices = list(app.state.view["character_choices"])
            assert len(choices) == 3
            await pilot.press("2", "enter")
            await wait_for(pilot, lambda: isinstance(app.screen, TableScreen)
                           and (app.state.view or {}).get("phase") != "character_pick")
            game, view, seat = local.table.game, app.state.view, app.state.seat
            assert game is not None and view is not None and seat is not None
            assert game.state.seats[seat].character == choices[1]
            own = view["seats"][seat]["character"]
            assert own["id"] == choices[1]
            text = screen_text(app)
            assert own["name_en"] in text, "the table shows our character"
            assert "error" not in text.lower()
    finally:
        await local.close()


def test_play_keeps_four_players_without_characters_and_refuses_five_without_them(tmp_path: Path) -> None:
    """The default game stays the rules' first-game advice (no characters); `--characters` opts in."""
    import asyncio

    async def table_for(*argv: str) -> tuple[bool, str]:
        local = await play.start_table(play_args(*argv), tmp_path)
        try:
            return local.table.characters, local.table.identities
        finally:
            await local.close()

    assert asyncio.run(table_for()) == (False, "novice")
    assert asyncio.run(table_for("--characters")) == (True, "default")
    with pytest.raises(ValueError, match="only play with characters"):
        asyncio.run(table_for("--players", "5", "--no-characters"))


async def test_table_lobby_host_turns_characters_on_and_starts_a_character_game(tmp_path: Path) -> None:
    """The lobby keys end to end: h (characters), i (identities), s (start) reach the real server."""
    from fengsheng_tui.commands.host import serve_local
    from fengsheng_tui.screens.table_lobby import TableLobbyScreen

    local = await serve_local(players=4, bots=0, auto_start=False, data_dir=tmp_path, bot_delay=0, seed=3)
    try:
        app = FengshengApp(NetSession("127.0.0.1", local.port, "Host", token=local.host_token), lang="en", keymap={})
        async with app.run_test(size=(100, 40)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, TableLobbyScreen) and app.state.lobby)
            assert "Characters: off" in screen_text(app)
            await pilot.press("h")
            await wait_for(pilot, lambda: local.table.characters)
            await wait_for(pilot, lambda: "Characters: on" in screen_text(app))
            assert "Characters to pick from: 3" in screen_text(app)
            await pilot.press("i")
            await wait_for(pilot, lambda: "Identities: standard (Military 1, Latent 1, Neutral 2)" in screen_text(app))
            assert "Error" not in screen_text(app)
            await pilot.press("s")
            await wait_for(pilot, lambda: isinstance(app.screen, CharacterPickScreen))
            game = local.table.game
            assert game is not None and game.state.config.characters and game.state.config.identities == "default"
    finally:
        await local.close()
