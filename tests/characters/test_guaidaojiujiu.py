"""怪盗九九 (CHARACTERS.md 怪盗九九): the card taken by 阴谋 is seen by thief and victim only, and
taking it can complete the hand task at once."""

from __future__ import annotations

from set_b_table import pass_windows
from set_c_table import card, choose, deal

from engine.view import events_for


def test_yinmou_card_is_secret_and_can_complete_the_task() -> None:
    used: set[int] = set()
    hand = [card("截获", "black", used)] + [card("识破", c, used) for c in ("red", "blue", "black")] \
        + [card("锁定", c, used) for c in ("red", "blue")]
    victim_card = card("退回", "red", used)
    game = deal(["guaidaojiujiu", "daili", "fuermosi", "xiaobai"], ["neutral", "military", "latent", "neutral"],
                [hand, [], [victim_card], []], pile=[card("破译", "red", used), card("破译", "blue", used)])
    choose(game, 0, "end")
    choose(game, 0, "send", card=hand[0])
    pass_windows(game)
    choose(game, 1, "accept")
    assert len(game.state.seats[0].hand) == 7
    choose(game, 0, "use", name="阴谋", target_seat=2)
    taken = [e for e in events_for(game, 3) if e["kind"] == "hand_card_taken"]
    assert taken and "card" not in taken[0]
    for seat in (0, 2):
        seen = [e for e in events_for(game, seat) if e["kind"] == "hand_card_taken"]
        assert seen[0]["card"]["id"] == victim_card  # type: ignore[index]
    assert not game.over  # 8 cards: one short of the task
