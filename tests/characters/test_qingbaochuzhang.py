"""情报处长 (CHARACTERS.md 情报处长): after 偷龙转凤 nobody has seen the new message, and the old one
lies face-down on top of the pile."""

from __future__ import annotations

from set_b_table import pass_windows
from set_c_table import card, choose, deal

from engine.view import events_for, view


def test_toulong_zhuanfeng_hides_the_swapped_in_card() -> None:
    used: set[int] = set()
    sent = card("截获", "black", used)
    paid = card("锁定", "black", used)
    top = card("截获", "red", used)
    game = deal(["daili", "qingbaochuzhang", "fuermosi", "beileimao"], ["latent", "military", "neutral", "neutral"],
                [[sent], [paid], [], []], pile=[card("破译", "red", used), card("破译", "blue", used), top])
    choose(game, 0, "end")
    choose(game, 0, "send", card=sent)
    pass_windows(game)
    choose(game, 1, "use", name="偷龙转凤", card=paid)
    assert game.state.message is not None and game.state.message.card == top
    assert game.state.pile[-1] == sent
    for seat in range(4):
        assert view(game, seat)["message"]["card"] is None  # type: ignore[index]
        swapped = [e for e in events_for(game, seat) if e["kind"] == "message_swapped"]
        assert len(swapped) == 1 and swapped[0]["seat"] == 1 and swapped[0].get("card") is None
    pass_windows(game)
    choose(game, 1, "accept")
    assert game.state.seats[1].messages == [top]
