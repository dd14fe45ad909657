"""The game-over screen: every seat's identity, character, messages, how each left the game and
by whom, and the secret task of a winner by one; the facts come from the server's projection."""

from __future__ import annotations

from engine import view
from fengsheng_tui.app import FengshengApp
from fengsheng_tui.screens.game_over import GameOverScreen
from net.protocol import VIEW

from .screen_text import screen_text
from .states import ScriptedSession, play_until, play_with_characters, update, welcome


def frozen() -> float:
    return 1000.0


def test_the_final_view_says_how_each_seat_left_and_nothing_before_the_end() -> None:
    """Seed 0 (4 seats): 老王 (seat 0) is out in turn 3 with nothing to send, Bob (seat 3) dies in
    turn 7 of Alice's (seat 1) lethal black message: the engine's killer, RULES.md §8.1 (and, since
    rules5 changed the games, Alice in turn 10 of 小李's)."""
    game = play_until(0, lambda g: False)
    assert game.over and game.state.killers == {3: 1, 1: 2}
    for seat in (None, 0, 1, 2, 3):
        ending = view(game, seat)["ending"]
        assert ending == view(game, None)["ending"]  # the same for everyone: the end is public
        left = {entry["seat"]: entry for entry in ending["left"]}  # type: ignore[index]
        assert set(left) == {0, 1, 3}
        assert left[1]["died"] and left[1]["by"] == 2 and left[1]["turn"] == 10
        assert left[3]["died"] and left[3]["by"] == 1 and left[3]["turn"] == 7
        assert [card["colour"] for card in left[3]["messages"]] == ["black"] * 3
        assert not left[0]["died"] and "by" not in left[0] and left[0]["turn"] == 3
        assert VIEW.check(view(game, seat)) is None
    before = play_until(0, lambda g: bool(g.state.killers))
    assert not before.over and view(before, 2)["ending"] is None


def test_a_hostile_ending_is_refused_like_any_inbound_view() -> None:
    game = play_until(0, lambda g: False)
    v = view(game, 2)
    v["ending"]["left"][0]["by"] = "Alice"  # type: ignore[index]
    assert VIEW.check(v) is not None
    v = view(game, 2)
    v["ending"]["tasks"] = [{"seat": 1, "zh": "x" * 501}]  # type: ignore[index]
    assert VIEW.check(v) is not None


async def test_game_over_names_how_each_died_and_by_whom() -> None:
    game = play_until(0, lambda g: False)
    app = FengshengApp(ScriptedSession([welcome(2), update(game, 2)]), lang="zh", clock=frozen, keymap={})
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        lines = screen_text(app).splitlines()
        bob = next(line for line in lines if "Bob" in line and "死亡" in line)
        assert "第7回合" in bob and "死于Alice之手" in bob and "黑3" in bob  # the messages he died with
        wang = next(line for line in lines if "老王" in line and "出局" in line)
        assert "第3回合" in wang and "之手" not in wang


async def test_game_over_shows_the_secret_task_of_its_winner() -> None:
    """Seed 126 with characters: seat 1 (蝮蛇, fushe) wins by his secret task. (Seed 1 was that game
    until 联动/攻守兼备/风度/搜取 became forced, then seed 46 until rules5 changed the games.)"""
    game = play_with_characters(126, lambda g: False)
    assert game.state.win_reason == "secret_task" and game.state.winners == [1]
    for lang, task in (("en", "When a player declares victory and no player has died yet"),
                       ("zh", "有玩家宣告胜利时，场上尚无人死亡")):
        app = FengshengApp(ScriptedSession([welcome(0), update(game, 0)]), lang=lang, clock=frozen, keymap={})
        async with app.run_test(size=(160, 40)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, GameOverScreen)
            text = " ".join(screen_text(app).split())
            assert task in text, text
            assert ("Alice's secret task" if lang == "en" else "Alice（") in text


