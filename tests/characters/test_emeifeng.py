"""峨眉峰 (CHARACTERS.md 峨眉峰): 截上截, 计中计 and the secret task "3 blue messages"."""

from __future__ import annotations

from set_b_table import Cards, choose, deal, events, options, pass_windows

from engine.game import Game

MIL_LAT = ["military", "latent", "military", "latent"]


def test_jieshangjie_takes_the_message_even_from_under_an_intercept() -> None:
    card = Cards()
    sent = card("锁定", "red", "直达")
    game = deal(["daofeng", "emeifeng", "daofeng", "daofeng"], MIL_LAT,
                [[sent], [], [], [card("截获", "black")]], pile=[card("识破"), card("识破")])
    assert not options(game, 0, "skill", name="截上截")
    choose(game, 0, "end")
    choose(game, 0, "send", target_seat=2)
    assert options(game, 1, "skill", name="截上截")  # face-down, another player's message
    choose(game, 3, "play", card=game.state.seats[3].hand[0])
    choose(game, 1, "skill", name="截上截")
    assert game.state.seats[1].face_up
    pass_windows(game)
    s = game.state
    assert s.seats[1].messages == [sent] and s.seats[3].messages == [] and s.seats[2].messages == []
    assert events(game, "intercepted")[0] == {"seat": 1, "skill": "截上截"}
    assert events(game, "received")[-1]["by"] == 0


def test_jieshangjie_is_not_offered_for_his_own_message_nor_once_face_up() -> None:
    card = Cards()
    game = deal(["emeifeng", "daofeng", "emeifeng", "daofeng"], MIL_LAT,
                [[card("锁定", "red", "直达")], [], [card("截获")], []], pile=[card("识破"), card("识破")],
                face_up=[False, True, True, True])
    choose(game, 0, "end")
    choose(game, 0, "send", target_seat=1)
    assert not options(game, 0, "skill", name="截上截")
    assert not options(game, 2, "skill", name="截上截")


def _send_to_seat_2(colour: str, blacks_at_2: int, identities: list[str] = MIL_LAT) -> tuple[Game, int]:
    card = Cards()
    sent = card("锁定", colour, "直达")
    game = deal(["emeifeng", "daofeng", "daofeng", "daofeng"], identities, [[sent], [], [], []],
                messages=[[], [], [card("截获", "black") for _ in range(blacks_at_2)], []],
                pile=[card("识破"), card("识破")], face_up=[True, True, True, True])
    choose(game, 0, "end")
    choose(game, 0, "send", target_seat=2)
    pass_windows(game)
    choose(game, 2, "accept")
    return game, sent


def test_jizhongji_burns_a_black_message_of_whoever_obtains_his_true_message() -> None:
    game, sent = _send_to_seat_2("red", 2)
    burn = options(game, 0, "use", name="计中计")
    assert len(burn) == 2 and all(o.target_seat == 2 for o in burn)
    choose(game, 0, "use", name="计中计", target_card=burn[0].target_card)
    assert burn[0].target_card not in game.state.seats[2].messages
    assert set(game.state.seats[2].messages) == {sent, burn[1].target_card}
    assert events(game, "burned")[0]["by"] == 0


def test_jizhongji_not_for_a_black_message() -> None:
    game, _ = _send_to_seat_2("black", 1)
    assert not options(game, 0, "use", name="计中计")


def test_task_three_blue_messages_wins_as_neutral() -> None:
    card = Cards()
    game = deal(["emeifeng", "daofeng", "daofeng", "daofeng"], ["neutral", "latent", "military", "neutral"],
                [[], [card("锁定", "blue", "直达")], [], []],
                messages=[[card("截获", "blue"), card("破译", "blue")], [], [], []],
                pile=[card("识破"), card("识破")], first=1)
    choose(game, 1, "end")
    choose(game, 1, "send", target_seat=0)
    pass_windows(game)
    choose(game, 0, "accept")
    assert game.over and game.state.winners == [0] and game.state.win_reason == "secret_task"
