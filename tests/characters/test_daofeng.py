"""刀锋 (CHARACTERS.md 刀锋): 亮剑, 嗜血 and the secret task "a 潜伏战线 and a 军情处 player are dead"."""

from __future__ import annotations

from set_b_table import Cards, choose, deal, options, pass_windows

from engine.cards import LOCK
from engine.game import Game

MIL_LAT = ["military", "latent", "military", "latent"]


def test_liangjian_probe_and_send_back_are_played_as_lock() -> None:
    card = Cards()
    probe, back = card("试探"), card("退回")
    game = deal(["daofeng", "laogui", "daofeng", "daofeng"], MIL_LAT, [[probe, back], [], [], []],
                pile=[card("识破"), card("识破")])
    assert options(game, 0, "play", card=back, name=LOCK, target_seat=2)
    choose(game, 0, "play", card=probe, name=LOCK, target_seat=2)
    pass_windows(game)
    assert game.state.locked == {2} and probe in game.state.discard and game.state.removed == []


def test_liangjian_is_his_alone() -> None:
    card = Cards()
    game = deal(["qibai", "daofeng", "daofeng", "daofeng"], MIL_LAT, [[card("试探")], [], [], []],
                pile=[card("识破"), card("识破")])
    assert not options(game, 0, "play", name=LOCK)


def _kill_seat_1(identities: list[str], dead_before: int | None = None) -> Game:
    card = Cards()
    game = deal(["daofeng", "laogui", "laogui", "laogui"], identities,
                [[], [], [], [card("锁定", "black", "直达")]],
                messages=[[], [card("截获", "black"), card("试探", "black")], [], []],
                pile=[card("识破"), card("识破")] + [card("破译") for _ in range(4)], first=3)
    if dead_before is not None:
        game.state.seats[dead_before].alive = False
        game.state.deaths.append(dead_before)
        game.state.killers[dead_before] = None  # deaths start in this order (Game.died_before)
    choose(game, 3, "end")
    choose(game, 3, "send", target_seat=1)
    pass_windows(game)
    choose(game, 1, "accept")
    return game


def test_shixue_draws_four_and_gives_one_away() -> None:
    game = _kill_seat_1(MIL_LAT)
    choose(game, 0, "use", name="嗜血")
    assert len(game.state.seats[0].hand) == 4
    given = options(game, 0, "give", target_seat=2)[0].card
    choose(game, 0, "give", card=given, target_seat=2)
    assert game.state.seats[2].hand == [given] and given not in game.state.seats[0].hand
    assert not game.state.seats[1].alive
    assert len(game.state.seats[0].hand) == 3 + 2  # and his own turn has begun with its draw


def test_task_a_latent_and_a_military_player_dead() -> None:
    identities = ["neutral", "latent", "military", "neutral"]
    game = _kill_seat_1(identities)
    choose(game, 0, "decline", name="嗜血")
    assert not game.over  # only a 潜伏战线 player is dead
    game = _kill_seat_1(identities, dead_before=2)
    choose(game, 0, "decline", name="嗜血")
    assert game.over and game.state.winners == [0] and game.state.win_reason == "secret_task"
