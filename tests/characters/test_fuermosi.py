"""福尔摩斯 (CHARACTERS.md 福尔摩斯): 真相 lets him alone read the 试探; the card he pays stays hidden."""

from __future__ import annotations

from set_b_table import pass_windows
from set_c_table import card, choose, deal

from engine.view import events_for


def test_zhenxiang_probe_is_read_by_holmes_only() -> None:
    used: set[int] = set()
    probe = card("试探", "red", used)
    paid = card("锁定", "red", used)
    game = deal(["daili", "xiaobai", "fuermosi", "beileimao"], ["latent", "military", "neutral", "neutral"],
                [[probe], [], [paid], []])
    choose(game, 0, "play", card=probe, target_seat=1)
    choose(game, 2, "use", name="真相", card=paid)
    read = {seat: [e for e in events_for(game, seat) if e["kind"] == "probe_read"] for seat in range(4)}
    assert read[2][0]["card"]["id"] == probe  # type: ignore[index]
    assert all("card" not in read[seat][0] for seat in (0, 1, 3))
    paid_seen = [e for e in events_for(game, 3) if e["kind"] == "discarded"]
    assert paid_seen and "card" not in paid_seen[0]
    pass_windows(game)
    assert game.state.stack == []
