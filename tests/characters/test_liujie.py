"""六姐 (CHARACTERS.md 六姐): 拷问, 搜取 and the secret task "6 messages"."""

from __future__ import annotations

from set_b_table import Cards, choose, deal, events, options, pass_windows

from engine.game import Game

MIL_LAT = ["military", "latent", "military", "latent"]


def test_kaowen_takes_a_random_card_from_the_probed_player() -> None:
    card = Cards()
    hand1 = [card("截获"), card("破译")]
    game = deal(["liujie", "daofeng", "daofeng", "daofeng"], MIL_LAT, [[card("试探")], hand1, [], []],
                pile=[card("识破"), card("识破")])
    choose(game, 0, "play", target_seat=1)
    assert game.prompts[0].kind == "skill"
    choose(game, 0, "use", name="拷问")
    s = game.state
    assert len(s.seats[1].hand) == 1 and len(s.seats[0].hand) == 3
    (taken,) = set(hand1) - set(s.seats[1].hand)
    assert taken in s.seats[0].hand
    assert events(game, "cards_taken")[0]["source"] == 1


def test_kaowen_declined_takes_nothing() -> None:
    card = Cards()
    game = deal(["liujie", "daofeng", "daofeng", "daofeng"], MIL_LAT,
                [[card("试探")], [card("截获"), card("破译")], [], []], pile=[card("识破"), card("识破")])
    choose(game, 0, "play", target_seat=1)
    choose(game, 0, "decline", name="拷问")
    assert len(game.state.seats[1].hand) == 2


def _kill_seat_1(identities: list[str] = MIL_LAT, liujie_messages: int = 0) -> tuple[Cards, Game]:
    card = Cards()
    hand1 = [card("截获", "red")]
    game = deal(["liujie", "laogui", "laogui", "laogui"], identities,
                [[card("锁定", "black", "直达")], hand1, [], []],
                messages=[[card("破译") for _ in range(liujie_messages)],
                          [card("截获", "black"), card("截获", "black")], [], []],
                pile=[card("识破"), card("识破")])
    choose(game, 0, "end")
    choose(game, 0, "send", target_seat=1)
    pass_windows(game)
    choose(game, 1, "accept")
    return card, game


def test_souqu_looks_at_a_random_card_of_the_dying_and_makes_it_a_message() -> None:
    _, g = _kill_seat_1()
    seen = events(g, "card_seen")[0]  # the look is not optional: what she does with the card is
    assert seen["source"] == 1
    looked = g.prompts[0].options[0].card
    choose(g, 0, "to_message")
    assert looked in g.state.seats[0].messages
    assert not g.state.seats[1].alive


def test_souqu_into_her_hand() -> None:
    _, g = _kill_seat_1()
    looked = g.prompts[0].options[0].card
    choose(g, 0, "to_hand")
    assert looked in g.state.seats[0].hand and g.state.seats[0].messages == []


def test_task_six_messages_wins_as_neutral() -> None:
    card = Cards()
    game = deal(["liujie", "daofeng", "daofeng", "daofeng"], ["neutral", "latent", "military", "neutral"],
                [[], [card("锁定", "black", "直达")], [], []],
                messages=[[card("破译", "black"), card("截获", "red"), card("截获", "blue"), card("试探", "red"),
                           card("试探", "blue")], [], [], []],
                pile=[card("识破"), card("识破")], first=1)
    choose(game, 1, "end")
    choose(game, 1, "send", target_seat=0)
    pass_windows(game)
    assert not options(game, 0, "skill")
    choose(game, 0, "accept")
    assert game.over and game.state.winners == [0] and game.state.win_reason == "secret_task"
