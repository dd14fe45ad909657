"""A skill cannot be stacked on top of its own pending use (rules-notes: the character framework)."""

from __future__ import annotations

from engine import Game, GameConfig, Setup
from engine.cards import build_deck
from engine.scenario import pass_turn_windows

COVER = "掩护"


def test_cover_is_not_offered_again_while_it_waits_on_the_stack() -> None:
    deck = build_deck()
    black = [c.id for c in deck if c.colour == "black"]
    red = [c.id for c in deck if c.colour == "red"]
    config = GameConfig(players=4, identities="default", characters=True)
    setup = Setup(["neutral", "latent", "military", "neutral"], [[red[0]], [red[1]], [red[2]], [red[3]]],
                  messages=[[], [black[0], black[1]], [], []], first=0,
                  characters=["gangtietegong", "laogui", "laoqiang", "daili"], face_up=[True, False, False, True])
    game = Game.new(config, 0, setup)
    pass_turn_windows(game)
    prompt = game.prompts[0]
    covers = [o for o in prompt.options if o.verb == "skill" and o.name == COVER]
    assert covers, "掩护 is offered in the play phase"
    game.choose(0, prompt.id, covers[0].id)
    assert any(item.skill == COVER for item in game.state.stack)
    again = game.prompts.get(0)
    assert again is not None and again.kind == "response"
    assert not [o for o in again.options if o.name == COVER]
