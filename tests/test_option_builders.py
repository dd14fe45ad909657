"""The engine's option builders, made cheaper, offer every seat exactly what the plain reading of
the rules offers it: the same options in the same order (seeded searches and golden games follow
option order)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import Game, GameConfig, characters
from engine import prompts as P
from engine.functions import OWN_PLAY, RULES
from engine.prompts import RESPONSE, Option
from engine.state import STEP_PLAY, WINDOW


def plain_card_options(game: Game, seat: int, moment: str) -> list[Option]:
    """`Game._card_options` as first written: every card in hand, its function's targets (and
    those of what the seat's character may use it as), asked once per function."""
    options: list[Option] = []
    targets_of: dict[str, list[Any] | None] = {}
    own_play_too = moment == STEP_PLAY and seat == game.state.current

    def targets(function: str) -> list[Any] | None:
        if function not in targets_of:
            found = RULES[function].targets(game, seat, moment)
            if found is None and own_play_too:
                found = RULES[function].targets(game, seat, OWN_PLAY)
            targets_of[function] = found
        return targets_of[function]

    play_as = characters.play_as_functions(game, seat) if game.state.config.characters else None
    for card_id in game.state.seats[seat].hand:
        for target_seat, target_card in targets(game.deck[card_id].function) or ():
            options.append(P.option("play", card_id, target_seat, target_card))
        if play_as:
            for as_function in characters.card_functions(game, seat, card_id, play_as):
                for target_seat, target_card in targets(as_function) or ():
                    options.append(P.option("play", card_id, target_seat, target_card, name=as_function))
    return options


def plain_skill_options(game: Game, seat: int, moment: str) -> list[Option]:
    """`characters.skill_options` as first written."""
    c = characters.character_of(game, seat)
    if c is None:
        return []
    waiting = {item.skill for item in game.state.stack if item.user == seat}
    return [P.option("skill", None, target_seat, target_card, name=skill.name)
            for skill in c.active_at.get(moment, ())
            if characters.usable(game, seat, skill) and skill.name not in waiting
            for target_seat, target_card in skill.targets(game, seat, moment) or ()]


@pytest.mark.parametrize(("players", "identities", "characters_on", "seeds"), [
    (9, "default", True, range(1, 7)), (6, "3v3", False, range(1, 4)), (5, "default", True, range(7, 10)),
])
def test_every_seat_is_offered_what_the_plain_rules_offer_it(players: int, identities: str, characters_on: bool,
                                                            seeds: range) -> None:
    """At every step of whole seeded games, for every seat at the open window's step and in its own
    play: the card and skill options are the plain builders' (with cards on the stack, skills
    still on it, empty hands, face-down characters), and each response prompt offers a pass and
    then exactly those."""
    seen: set[str] = set()
    for seed in seeds:
        game = Game.new(GameConfig(players=players, identities=identities, characters=characters_on), seed)
        rng = random.Random(seed)
        while not game.over:
            s = game.state
            moments = [OWN_PLAY] + ([s.window.step] if s.node == WINDOW and s.window is not None else [])
            for seat in range(players):
                for moment in moments:
                    cards = game._card_options(seat, moment)
                    assert cards == plain_card_options(game, seat, moment)
                    skills = characters.skill_options(game, seat, moment)
                    assert skills == plain_skill_options(game, seat, moment)
                    seen |= {name for name, hit in (("card", bool(cards)), ("skill", bool(skills)),
                                                    ("stack", bool(s.stack)), ("no hand", not s.seats[seat].hand),
                                                    ("skill on the stack", any(i.skill for i in s.stack)))
                             if hit}
            for prompt in game.pending():
                if prompt.kind == RESPONSE and s.asking is None:
                    step = s.window.step if s.window is not None else ""
                    plain = plain_card_options(game, prompt.seat, step)
                    if characters_on:
                        plain += plain_skill_options(game, prompt.seat, step)
                    assert prompt.options == (P.PASS, *plain)
            prompt = rng.choice(game.pending())
            game.choose(prompt.seat, prompt.id, rng.choice(prompt.options).id)
    assert seen == ({"card", "skill", "stack", "no hand", "skill on the stack"} if characters_on
                    else {"card", "stack", "no hand"})
