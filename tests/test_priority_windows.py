"""Response windows apply answers in 顺位, never in arrival order (RULES.md §6.4 [DECISION]).

Every asked seat is prompted at once; whatever order their answers arrive in, the game must be
the one that polling the seats one at a time in priority order gives. Each seat here decides from
its own prompt alone (seeded by the prompt id), so two runs that differ only in arrival order
must end in the same state with the same log.
"""

from __future__ import annotations

import random

import pytest

from engine import Game, GameConfig
from engine import prompts as P
from engine.cards import build_deck
from engine.game import Setup
from engine.prompts import Prompt
from engine.scenario import CardSpec


def _decide(seed: int, prompt: Prompt) -> str:
    """A choice that depends on the prompt only; windows are answered with a card half the time."""
    rng = random.Random(f"{seed}/{prompt.seat}/{prompt.id}")
    options = prompt.options
    if prompt.kind == P.RESPONSE and rng.random() < 0.5:
        return prompt.default
    return options[rng.randrange(len(options))].id


def _play(config: GameConfig, seed: int, arrival: str) -> tuple[Game, int]:
    """A whole game; open prompts answered earliest-priority first, last first, or shuffled.
    Also counts the windows in which two or more seats played (the contested ones)."""
    game = Game.new(config, seed)
    shuffle = random.Random(seed)
    contested = 0
    played: set[int] = set()
    window = None
    while not game.over:
        prompts = sorted(game.pending(), key=lambda p: game.priority_key(p.seat))
        window_open = prompts[0].kind == P.RESPONSE  # only windows are under test
        if window_open and arrival == "last_first":
            prompts.reverse()
        elif window_open and arrival == "shuffled":
            shuffle.shuffle(prompts)
        prompt = prompts[0]
        if game.state.window is not window:
            window, played = game.state.window, set()
        option = _decide(seed, prompt)
        if prompt.kind == P.RESPONSE and option != P.PASS.id:
            played.add(prompt.seat)
            contested += len(played) == 2
        game.choose(prompt.seat, prompt.id, option)
        assert game.state.decisions < 20_000
    return game, contested


@pytest.mark.parametrize("players,identities,characters", [(4, "novice", False), (6, "3v3", False),
                                                          (5, "default", True)])
def test_arrival_order_never_changes_the_game(players: int, identities: str, characters: bool) -> None:
    config = GameConfig(players=players, identities=identities, characters=characters)
    contested = 0
    for seed in range(12):
        polled, n = _play(config, seed, "priority")
        contested += n
        for arrival in ("last_first", "shuffled"):
            other, _ = _play(config, seed, arrival)
            assert other.state_hash() == polled.state_hash(), f"seed {seed}: {arrival} differs from 顺位 polling"
            assert [e.project(None) for e in other.events] == [e.project(None) for e in polled.events]
    assert contested >= 5  # windows where two seats played at once: the case under test


def test_a_play_not_applied_stays_in_its_owners_hand_and_is_asked_again() -> None:
    """Two 截获 in one transmit window, the later seat's first: the earlier seat's is stacked, the
    other card never left its owner's hand, and every seat is asked again for the new top."""
    config = GameConfig(players=4, identities="novice")
    deck = build_deck(config.deck)
    taken: set[int] = set()

    def card(name: str) -> int:
        spec = CardSpec.parse(name)
        found = next(c.id for c in deck if c.id not in taken and spec.matches(c))
        taken.add(found)
        return found

    sent, first, second = card("破译/red"), card("截获/black"), card("截获/red")
    setup = Setup(["military", "latent", "military", "latent"], [[sent], [first], [], [second]],
                  pile_top=[card("退回/red"), card("退回/blue")])
    game = Game.new(config, 0, setup)
    game.choose(0, game.prompts[0].id, P.END_PLAY.id)
    game.choose(0, game.prompts[0].id, game.prompts[0].options[0].id)
    asked = dict(game.prompts)
    assert set(asked) == {0, 1, 3}  # seat 2 holds nothing, so by public facts it is not asked
    intercept = P.option("play", second)
    game.choose(3, asked[3].id, intercept.id)
    game.choose(0, asked[0].id, P.PASS.id)
    assert game.state.stack == [] and game.state.seats[3].hand == [second]  # waits for seat 1
    game.choose(1, asked[1].id, P.option("play", first).id)
    assert [(i.user, i.card) for i in game.state.stack] == [(1, first)]
    assert game.state.seats[3].hand == [second]
    assert set(game.prompts) == {0, 3} and game.prompts[3].id not in {p.id for p in asked.values()}
    assert game.prompts[3].find(intercept.id) is not None
    played = [e for e in game.events if e.kind == "played"]
    assert [e.data["seat"] for e in played] == [1]
