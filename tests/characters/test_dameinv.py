"""大美女 (CHARACTERS.md 大美女): 精明, 爱情 and the secret task judged at a male declarer's victory."""

from __future__ import annotations

from set_b_table import Cards, choose, deal, events, options, pass_windows

from engine.game import Game

MIL_LAT = ["military", "latent", "military", "latent"]


def test_jingming_draws_three_and_puts_one_back_on_top() -> None:
    card = Cards()
    top = [card("识破"), card("截获"), card("破译")]
    game = deal(["dameinv", "daofeng", "daofeng", "daofeng"], MIL_LAT, [[], [], [], []], pile=top)
    prompt = game.prompts[0]
    assert prompt.kind == "skill" and {o.card for o in prompt.options} == set(top)
    choose(game, 0, "put_back", card=top[1])
    s = game.state
    assert s.pile[-1] == top[1] and sorted(s.seats[0].hand) == sorted([top[0], top[2]])
    assert game.prompts[0].kind == "play"
    assert events(game, "put_back")[0]["card"]["id"] == top[1]  # type: ignore[index]


def test_jingming_only_in_her_own_draw_phase() -> None:
    card = Cards()
    game = deal(["daofeng", "dameinv", "daofeng", "daofeng"], MIL_LAT, [[], [], [], []],
                pile=[card("识破"), card("截获"), card("破译")])
    assert game.prompts[0].kind == "play" and len(game.state.seats[0].hand) == 2


def test_aiqing_shows_her_identity_and_burns_two_black_messages() -> None:
    card = Cards()
    b2, b3, red = card("截获", "black"), card("试探", "black"), card("截获", "red")
    game = deal(["dameinv", "daofeng", "daofeng", "daofeng"], MIL_LAT, [[], [], [], []],
                messages=[[], [], [b2, red], [b3]], pile=[card("识破"), card("截获"), card("破译")])
    choose(game, 0, "put_back")
    assert {o.target_card for o in options(game, 0, "skill", name="爱情")} == {b2, b3}
    choose(game, 0, "skill", name="爱情", target_card=b2)
    assert not options(game, 0, "skill", name="爱情")  # not twice on the stack
    pass_windows(game)
    assert game.state.seats[0].revealed and events(game, "identity_revealed")[0]["identity"] == "military"
    choose(game, 0, "burn", target_card=b3)
    s = game.state
    assert s.seats[2].messages == [red] and s.seats[3].messages == []
    assert not options(game, 0, "skill", name="爱情")  # the identity card is shown only once


def _male_declares(blacks: int) -> object:
    card = Cards()
    game = deal(["dameinv", "daofeng", "daofeng", "daofeng"], ["neutral", "latent", "military", "neutral"],
                [[], [], [card("锁定", "red", "直达")], []],
                messages=[[card("截获", "black") for _ in range(blacks)], [card("截获", "red"), card("试探", "red")],
                          [], []],
                pile=[card("识破"), card("识破")], first=2)
    choose(game, 2, "end")
    choose(game, 2, "send", target_seat=1)
    pass_windows(game)
    choose(game, 1, "accept")
    return game


def test_task_a_male_declares_and_she_holds_at_most_one_black() -> None:
    game = _male_declares(1)
    assert isinstance(game, Game)
    assert game.over and game.state.declarer == 1 and game.state.winners == [0, 1]


def test_task_fails_with_two_black_messages() -> None:
    game = _male_declares(2)
    assert isinstance(game, Game)
    assert game.over and game.state.winners == [1]
