"""译电员: what 速译 lets her see stays hers (the scenario format checks events, not who sees them)."""

from __future__ import annotations

from engine import view
from engine.scenario import build_game, run_step
from engine.view import events_for

SETUP = {
    "identities": ["潜伏战线", "潜伏战线", "军情处", "军情处"],
    "characters": ["shanling", "yidianyuan", "yidianyuan", "shanling"],
    "hands": [["破译/red/密电"], [], [], []],
    "pile": ["调虎离山/black", "调虎离山/blue", "烧毁/blue", "烧毁/black"],
}


def test_suyi_shows_the_message_to_her_alone() -> None:
    game = build_game(SETUP)
    for step in ({"seat": 0, "end": True}, {"seat": 0, "send": "破译/red"}, {"seat": 1, "skill": "速译"},
                 {"all_pass": True}):
        run_step(game, step)
    mine = [e for e in events_for(game, 1) if e["kind"] == "message_inspected"]
    theirs = [e for e in events_for(game, 2) if e["kind"] == "message_inspected"]
    assert mine and mine[0]["card"]["function"] == "破译"  # type: ignore[index]
    assert theirs and "card" not in theirs[0]
    assert view(game, 1)["message"]["card"]["function"] == "破译"  # type: ignore[index]
    assert view(game, 2)["message"]["card"] is None  # type: ignore[index]
    assert view(game, 2)["seats"][1]["character"]["id"] == "yidianyuan"  # type: ignore[index]


def test_dongxi_hides_her_character_from_the_others_again() -> None:
    game = build_game({**SETUP, "hands": [["破译/red/密电"], ["破译/blue"], [], []], "face_up": [2]})
    assert view(game, 0)["seats"][2]["character"]["id"] == "yidianyuan"  # type: ignore[index]
    for step in ({"seat": 0, "end": True}, {"seat": 0, "send": "破译/red"}, {"all_pass": True},
                 {"seat": 1, "play": "破译"}, {"all_pass": True}, {"seat": 2, "skill": "洞悉"}):
        run_step(game, step)
    assert view(game, 0)["seats"][2]["character"] == {"face_up": False}  # type: ignore[index]
    assert view(game, 2)["seats"][2]["character"]["id"] == "yidianyuan"  # type: ignore[index]
