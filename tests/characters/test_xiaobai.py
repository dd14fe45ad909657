"""小白 (CHARACTERS.md 小白): 乔装 (both genders), the hidden cards of 收买, and the task's wipe-out
counting players who lost as out of the game."""

from __future__ import annotations

from set_b_table import pass_windows
from set_c_table import card, choose, deal

from engine import characters
from engine.view import events_for, view


def test_qiaozhuang_counts_as_male_and_female_while_face_up() -> None:
    game = deal(["xiaobai", "daili", "fuermosi", "liujie"], ["latent", "military", "neutral", "neutral"],
                [[], [], [], []])
    assert characters.is_male(game, 0) and characters.is_female(game, 0)
    assert characters.is_male(game, 1) and not characters.is_female(game, 1)
    assert not characters.is_male(game, 3) and characters.is_female(game, 3)
    assert view(game, 2)["seats"][0]["character"]["gender"] == characters.BOTH  # type: ignore[index]
    characters.cover(game, 0)
    assert not characters.is_male(game, 0) and not characters.is_female(game, 0)


def test_shoumai_cards_are_seen_by_giver_and_receiver_only() -> None:
    used: set[int] = set()
    hand = [card("锁定", "red", used), card("锁定", "blue", used), card("识破", "red", used), card("识破", "blue", used)]
    taken = card("截获", "red", used)
    game = deal(["xiaobai", "daili", "fuermosi", "beileimao"], ["latent", "military", "neutral", "neutral"],
                [hand, [], [], []], messages=[[], [taken], [], []])
    choose(game, 0, "skill", name="收买", target_seat=1)
    pass_windows(game)
    for c in hand:
        choose(game, 0, "give", card=c)
    choose(game, 0, "take", target_card=taken)
    assert game.state.seats[0].messages == [taken]
    assert set(hand) <= set(game.state.seats[1].hand)
    given = [e for e in events_for(game, 2) if e["kind"] == "card_given"]
    assert len(given) == 4 and all("card" not in e for e in given)
    assert all("card" in e for e in events_for(game, 1) if e["kind"] == "card_given")


def test_task_side_wiped_out_counts_a_player_who_lost() -> None:
    """Six seats, two 军情处: one has lost (not died), the other dies, so the side is out entirely."""
    used: set[int] = set()
    game = deal(["xiaobai", "daili", "fuermosi", "beileimao", "qingbaochuzhang", "zhiyeshashou"],
                ["neutral", "military", "latent", "latent", "military", "neutral"],
                [[card("锁定", "red", used), card("截获", "black", used)], [], [], [], [], []],
                messages=[[], [card("截获", "black", used), card("截获", "black", used)], [], [], [], []])
    game.state.seats[4].lost = True
    choose(game, 0, "play", target_seat=1)
    pass_windows(game)
    choose(game, 0, "end")
    choose(game, 0, "send")
    pass_windows(game)
    assert game.state.deaths == [1]
    assert game.over and game.state.winners == [0] and game.state.win_reason == "secret_task"
