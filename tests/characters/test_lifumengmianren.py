"""礼服蒙面人 (CHARACTERS.md 礼服蒙面人): 英雄, 救美 and the secret task "a female character declares"."""

from __future__ import annotations

from set_b_table import Cards, choose, deal, events, options, pass_windows

from engine.game import Game

MIL_LAT = ["military", "latent", "military", "latent"]


def _send(game: Game, sender: int, to: int) -> None:
    choose(game, sender, "end")
    choose(game, sender, "send", target_seat=to)
    pass_windows(game)
    choose(game, to, "accept")


def test_yingxiong_draws_two_on_a_black_message() -> None:
    card = Cards()
    game = deal(["lifumengmianren", "laogui", "laogui", "laogui"], MIL_LAT,
                [[], [card("锁定", "black", "直达")], [], []], pile=[card("识破"), card("识破")], first=1)
    _send(game, 1, 0)
    choose(game, 0, "use", name="英雄")
    assert len(game.state.seats[0].hand) == 2


def test_yingxiong_not_on_a_red_message() -> None:
    card = Cards()
    game = deal(["lifumengmianren", "laogui", "laogui", "laogui"], MIL_LAT,
                [[], [card("锁定", "red", "直达")], [], []], pile=[card("识破"), card("识破")], first=1)
    _send(game, 1, 0)
    assert not options(game, 0, "use", name="英雄") and game.state.seats[0].hand == []


def _woman_dying(female: str, face_up: bool = True) -> Game:
    card = Cards()
    return _deal_dying(card, female, face_up)


def _deal_dying(card: Cards, female: str, face_up: bool) -> Game:
    game = deal(["lifumengmianren", "laogui", female, "laogui"], MIL_LAT,
                [[], [card("锁定", "black", "直达")], [], []],
                messages=[[card("截获", "black")], [], [card("截获", "black"), card("试探", "black"),
                                                          card("截获", "red")], []],
                pile=[card("识破"), card("识破")], first=1, face_up=[True, False, face_up, False])
    _send(game, 1, 2)
    return game


def test_jiumei_burns_every_black_message_of_both_and_saves_her() -> None:
    game = _woman_dying("dameinv")
    choose(game, 0, "use", name="救美")
    s = game.state
    assert s.seats[2].alive and len(s.seats[2].messages) == 1 and s.seats[0].messages == []
    assert s.seats[0].revealed and events(game, "saved") == [{"seat": 2}]
    assert len(events(game, "burned")) == 4


def test_jiumei_not_for_a_face_down_woman() -> None:
    game = _woman_dying("fuping", face_up=False)
    assert not options(game, 0, "use", name="救美")
    assert not game.state.seats[2].alive


def test_task_a_female_declarer_makes_him_win() -> None:
    card = Cards()
    game = deal(["lifumengmianren", "dameinv", "laogui", "laogui"], ["neutral", "latent", "military", "neutral"],
                [[], [], [card("锁定", "red", "直达")], []],
                messages=[[], [card("截获", "red"), card("试探", "red")], [], []],
                pile=[card("识破"), card("识破")], first=2)
    _send(game, 2, 1)
    assert game.over and game.state.declarer == 1 and game.state.winners == [0, 1]
