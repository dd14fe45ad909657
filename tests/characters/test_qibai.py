"""柒佰 (CHARACTERS.md 柒佰): 敏锐, 联动, 风度 and the secret task "5 true messages"."""

from __future__ import annotations

from set_b_table import Cards, choose, deal, events, options, pass_windows

from engine.game import Game

MIL_LAT = ["military", "latent", "military", "latent"]


def test_minrui_locks_in_another_players_play_window_others_cannot() -> None:
    card = Cards()
    game = deal(["daofeng", "qibai", "daofeng", "daofeng"], MIL_LAT,
                [[card("锁定", "black")], [card("锁定", "red")], [], [card("锁定", "blue")]],
                pile=[card("识破"), card("识破")])
    choose(game, 0, "play", target_seat=2)
    assert not options(game, 3, "play")  # 锁定 is own turn only without 敏锐
    choose(game, 1, "play", target_seat=3)
    choose(game, 1, "give", target_seat=2)  # 联动 is not optional: he drew 2 and gives one
    pass_windows(game)
    assert game.state.locked == {2, 3}


def test_minrui_locks_in_another_players_transmit_window() -> None:
    card = Cards()
    game = deal(["daofeng", "qibai", "daofeng", "daofeng"], MIL_LAT,
                [[card("截获", "red")], [card("锁定", "red")], [], []], pile=[card("识破"), card("识破")])
    choose(game, 0, "end")
    choose(game, 0, "send")
    assert [o.target_seat for o in options(game, 1, "play")] == [2, 3, 0]
    choose(game, 1, "play", target_seat=2)
    choose(game, 1, "give", target_seat=3)  # 联动 is not optional: he drew 2 and gives one
    pass_windows(game)
    assert 2 in game.state.locked


def test_liandong_draws_two_and_gives_one_card_away() -> None:
    """Not optional: CHARACTERS.md "draw 2 cards, then give 1 hand card" has no "may"."""
    card = Cards()
    game = deal(["qibai", "daofeng", "daofeng", "daofeng"], MIL_LAT, [[card("锁定", "red")], [], [], []],
                pile=[card("识破"), card("识破"), card("截获"), card("破译")])
    choose(game, 0, "play", target_seat=1)
    assert not options(game, 0, "decline", name="联动")
    assert len(game.state.seats[0].hand) == 4
    given = options(game, 0, "give", target_seat=2)[0].card
    choose(game, 0, "give", card=given, target_seat=2)
    assert game.state.seats[2].hand == [given] and len(game.state.seats[0].hand) == 3
    assert events(game, "card_given")[0]["to"] == 2


def _qibai_declares() -> Game:
    card = Cards()
    game = deal(["qibai", "dameinv", "daofeng", "daofeng"], ["latent", "military", "military", "latent"],
                [[], [], [card("锁定", "red", "直达")], []],
                messages=[[card("截获", "red"), card("试探", "red")], [], [], []],
                pile=[card("识破"), card("识破")], first=2)
    choose(game, 2, "end")
    choose(game, 2, "send", target_seat=0)
    pass_windows(game)
    choose(game, 0, "accept")
    return game


def test_fengdu_a_female_character_wins_with_him() -> None:
    game = _qibai_declares()
    assert [o.target_seat for o in options(game, 0, "use", name="风度")] == [1]
    choose(game, 0, "use", name="风度", target_seat=1)
    assert game.over and game.state.winners == [0, 1, 3] and game.state.declarer == 0


def test_fengdu_cannot_be_declined() -> None:
    """CHARACTERS.md "choose one female character to win together with you": no "may"."""
    game = _qibai_declares()
    assert not options(game, 0, "decline", name="风度")
    assert [o.verb for o in game.prompts[0].options] == ["use"]


def test_task_five_true_messages_wins_as_neutral() -> None:
    card = Cards()
    four_true = [card("截获", "red"), card("截获", "blue"), card("试探", "red"), card("试探", "blue")]
    game = deal(["qibai", "daofeng", "daofeng", "daofeng"], ["neutral", "latent", "military", "neutral"],
                [[], [card("锁定", "blue", "直达")], [], []],
                messages=[[*four_true, card("破译", "black")], [], [], []],
                pile=[card("识破"), card("识破")], first=1)
    choose(game, 1, "end")
    choose(game, 1, "send", target_seat=0)
    pass_windows(game)
    assert not game.over  # four true messages are not enough
    choose(game, 0, "accept")
    assert game.over and game.state.winners == [0] and game.state.win_reason == "secret_task"
