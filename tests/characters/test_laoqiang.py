"""老枪: 合谋 shows his identity to everyone and blanks the covered character for the table."""

from __future__ import annotations

from engine import view
from engine.scenario import build_game, run_step


def test_hemou_reveals_identity_and_covers_in_every_view() -> None:
    game = build_game({
        "identities": ["潜伏战线", "潜伏战线", "军情处", "军情处"],
        "characters": ["laoqiang", "laoqiang", "shanling", "laogui"],
        "face_up": [0, 3],
        "hands": [["截获/black"], [], [], []],
        "pile": ["调虎离山/black", "调虎离山/blue"],
    })
    assert view(game, 2)["seats"][0]["identity"] is None  # type: ignore[index]
    run_step(game, {"seat": 0, "skill": "合谋", "target": 3})
    run_step(game, {"all_pass": True})
    seats = view(game, 2)["seats"]
    assert seats[0]["identity"] == "latent"  # type: ignore[index]
    assert seats[3]["character"] == {"face_up": False}  # type: ignore[index]
    assert view(game, 3)["seats"][3]["character"]["face_up"] is False  # type: ignore[index]
