"""浮萍 (CHARACTERS.md 浮萍): 先机, 后著 and the secret task "second or later to die"."""

from __future__ import annotations

from set_b_table import Cards, choose, deal, events, options, pass_windows

from engine.game import Game

MIL_LAT = ["military", "latent", "military", "latent"]


def test_xianji_flips_takes_three_random_cards_and_the_victim_draws_one() -> None:
    card = Cards()
    hand1 = [card("截获"), card("破译"), card("退回"), card("烧毁")]
    game = deal(["fuping", "laogui", "laogui", "laogui"], MIL_LAT, [[], hand1, [], []],
                pile=[card("识破"), card("识破")])
    assert not game.state.seats[0].face_up
    assert [o.target_seat for o in options(game, 0, "skill", name="先机")] == [1]
    choose(game, 0, "skill", name="先机", target_seat=1)
    pass_windows(game)
    s = game.state
    assert s.seats[0].face_up
    taken = events(game, "cards_taken")[0]
    assert taken["count"] == 3 and taken["source"] == 1
    assert len(s.seats[0].hand) == 5 and set(hand1) - set(s.seats[1].hand) <= set(s.seats[0].hand)
    assert len(s.seats[1].hand) == 2  # 4 - 3 + 1
    assert not options(game, 0, "skill", name="先机")  # face-up: the flip skill is spent


def test_xianji_is_a_response_in_another_players_window() -> None:
    card = Cards()
    game = deal(["daofeng", "fuping", "daofeng", "daofeng"], MIL_LAT,
                [[card("锁定", "black")], [], [card("截获"), card("破译")], []], pile=[card("识破"), card("识破")])
    choose(game, 0, "play", target_seat=2)
    assert options(game, 1, "skill", name="先机", target_seat=2)
    choose(game, 1, "skill", name="先机", target_seat=2)
    pass_windows(game)
    assert len(game.state.seats[1].hand) == 2 and len(game.state.seats[2].hand) == 1


def _dying_fuping(face_up: bool, identities: list[str]) -> tuple[Game, Cards]:
    card = Cards()
    hands = [[], [card("锁定", "black", "直达")], [card("截获", "red"), card("破译", "blue")], []]
    game = deal(["fuping", "laogui", "laogui", "laogui"], identities, hands,
                messages=[[card("截获", "black"), card("截获", "black")], [], [], []],
                pile=[card("识破"), card("识破")], first=1, face_up=[face_up, False, False, False])
    choose(game, 1, "end")
    choose(game, 1, "send", target_seat=0)
    pass_windows(game)
    choose(game, 0, "accept")
    return game, card


def test_houzhu_looks_at_a_hand_and_places_one_card_as_a_message() -> None:
    game, _ = _dying_fuping(True, MIL_LAT)
    assert [o.target_seat for o in options(game, 0, "use", name="后著")] == [1, 2]  # seats with cards
    choose(game, 0, "use", name="后著", target_seat=2)
    seen = events(game, "hand_seen")[0]
    assert len(seen["cards"]) == 2  # type: ignore[arg-type]
    placed = options(game, 0, "place", target_seat=3)[0]
    choose(game, 0, "place", card=placed.card, target_seat=3)
    s = game.state
    assert s.seats[3].messages == [placed.card] and placed.card not in s.seats[2].hand
    assert not s.seats[0].alive
    assert events(game, "obtained")[-1]["by"] == 0


def test_houzhu_needs_the_card_face_up() -> None:
    game, _ = _dying_fuping(False, MIL_LAT)
    assert not options(game, 0, "use", name="后著")
    assert not game.state.seats[0].alive


def test_task_second_to_die_wins_as_neutral() -> None:
    game, _ = _dying_fuping(False, ["neutral", "latent", "military", "neutral"])
    assert not game.over  # the first to die does not win
    game2, _ = _stage_earlier_death()
    assert game2.over and game2.state.winners == [0] and game2.state.win_reason == "secret_task"


def _stage_earlier_death() -> tuple[Game, Cards]:
    card = Cards()
    hands = [[], [card("锁定", "black", "直达")], [], [card("截获", "red")]]
    game = deal(["fuping", "laogui", "laogui", "laogui"], ["neutral", "latent", "military", "neutral"], hands,
                messages=[[card("截获", "black"), card("截获", "black")], [], [], []],
                pile=[card("识破"), card("识破")], first=1)
    game.state.seats[2].alive = False  # a player died earlier in the game
    game.state.deaths.append(2)
    game.state.killers[2] = None  # the order of death is the order deaths start (Game.died_before)
    choose(game, 1, "end")
    choose(game, 1, "send", target_seat=0)
    pass_windows(game)
    choose(game, 0, "accept")
    return game, card
