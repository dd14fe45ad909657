"""致命香水 (CHARACTERS.md 致命香水): 攻守兼备 and 临危受命 (no secret task)."""

from __future__ import annotations

from set_b_table import Cards, choose, deal, events, options, pass_windows

from engine.characters import roster
from engine.game import Game

MIL_LAT = ["military", "latent", "military", "latent"]


def test_gongshou_after_a_lock_draws_two_and_puts_one_back() -> None:
    card = Cards()
    game = deal(["zhimingxiangshui", "daofeng", "daofeng", "daofeng"], MIL_LAT, [[card("锁定", "red")], [], [], []],
                pile=[card("识破"), card("识破"), card("截获"), card("破译")])
    choose(game, 0, "play", target_seat=1)
    assert not options(game, 0, "decline", name="攻守兼备")  # not optional: the text has no "may"
    assert len(game.state.seats[0].hand) == 4
    back = game.prompts[0].options[0].card
    choose(game, 0, "put_back", card=back)
    assert game.state.pile[-1] == back and len(game.state.seats[0].hand) == 3


def test_gongshou_also_for_a_lure() -> None:
    card = Cards()
    game = deal(["zhimingxiangshui", "daofeng", "daofeng", "daofeng"], MIL_LAT,
                [[card("调虎离山"), card("截获", "blue")], [], [], []], pile=[card("识破"), card("识破")])
    choose(game, 0, "end")
    choose(game, 0, "send", card=game.state.seats[0].hand[1])
    choose(game, 0, "play", target_seat=2)
    assert events(game, "skill_used")[-1]["skill"] == "攻守兼备"
    assert {o.verb for o in game.prompts[0].options} == {"put_back"}


def _dying_seat_1() -> tuple[Game, int, int]:
    card = Cards()
    red2, top = card("截获", "red"), card("截获", "blue")
    game = deal(["zhimingxiangshui", "laogui", "laogui", "laogui"], MIL_LAT,
                [[], [], [], [card("锁定", "black", "直达")]],
                messages=[[], [card("截获", "black"), card("试探", "black")], [red2], []],
                pile=[card("识破"), card("识破"), top], first=3)
    choose(game, 3, "end")
    choose(game, 3, "send", target_seat=1)
    pass_windows(game)
    choose(game, 1, "accept")
    return game, red2, top


def test_linwei_takes_the_dead_players_identity_and_swaps_a_message_with_the_pile() -> None:
    game, red2, top = _dying_seat_1()
    choose(game, 0, "use", name="临危受命")
    s = game.state
    assert s.seats[0].identity == "latent" and s.seats[1].identity == ""
    # "任一玩家面前": the dying player's messages too (swapping one does not undo his death)
    assert sorted(o.target_card for o in game.prompts[0].options) == sorted([red2, *s.seats[1].messages])
    choose(game, 0, "swap", target_card=red2)
    assert s.seats[2].messages == [top]
    assert red2 in s.seats[0].hand  # it lay on top of the pile: hers in the next draw phase
    died = events(game, "died")[0]
    assert died["seat"] == 1 and died["identity"] == ""  # his card is hers now: nothing to reveal
    taken = [e for e in game.events if e.kind == "identity_taken"][0]
    assert taken.project(2).get("identity") is None and taken.project(0)["identity"] == "latent"


def test_linwei_declined_keeps_identities() -> None:
    game, _, _ = _dying_seat_1()
    choose(game, 0, "decline", name="临危受命")
    assert game.state.seats[0].identity == "military"
    assert events(game, "died")[0]["identity"] == "latent"


def test_no_secret_task() -> None:
    assert roster()["zhimingxiangshui"].task is None
