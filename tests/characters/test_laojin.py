"""老金: the cards 弃卒保帅 puts back on the pile are seen by him alone."""

from __future__ import annotations

from engine.scenario import build_game, run_step
from engine.view import events_for


def test_returned_cards_are_secret() -> None:
    game = build_game({
        "identities": ["潜伏战线", "潜伏战线", "军情处", "军情处"],
        "characters": ["laojin", "shanling", "shanling", "shanling"],
        "hands": [["锁定/black"], ["识破/red"], [], []],
        "pile": ["调虎离山/black", "调虎离山/blue", "烧毁/blue", "烧毁/black", "退回/black", "退回/blue",
                 "退回/red"],
    })
    for step in ({"seat": 0, "play": "锁定", "target": 1}, {"seat": 1, "play": "识破"}, {"all_pass": True},
                 {"seat": 0, "skill": "弃卒保帅"}, {"seat": 0, "choose": "return", "card": "退回/red"},
                 {"seat": 0, "choose": "return", "card": "退回/blue"}):
        run_step(game, step)
    top = [game.card(c).function + "/" + game.card(c).colour for c in game.state.pile[-2:]]
    assert top == ["退回/blue", "退回/red"]
    mine = [e for e in events_for(game, 0) if e["kind"] == "returned_to_pile"]
    theirs = [e for e in events_for(game, 1) if e["kind"] == "returned_to_pile"]
    assert [e["card"]["colour"] for e in mine] == ["red", "blue"]  # type: ignore[index]
    assert len(theirs) == 2 and all("card" not in e for e in theirs)
