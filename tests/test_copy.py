"""`Game.copy()`: a copy played on goes where the original goes with the same choices, and the two
share no mutable object (a search plays many copies of one position on)."""

from __future__ import annotations

import random
from dataclasses import fields, is_dataclass

import pytest

from engine import Game, GameConfig, Option
from engine.cards import Card
from engine.characters import Cast
from engine.config import GameConfig as Config
from engine.events import Event
from engine.prompts import Prompt

CONFIGS = [(4, "novice", False), (6, "3v3", False), (5, "default", True), (9, "default", True)]
# Shared on purpose: immutable (a frozen config, a card face, an option, the cast), or never changed
# once made (a logged event).
SHARED = (Config, Card, Option, Cast, Event)


def step(game: Game, rand: random.Random) -> None:
    """One random decision, as the bare bench makes them: a window is mostly passed without reading
    its options, so copies are also taken while a prompt's options are still unbuilt."""
    prompts = game.pending()
    prompt = prompts[int(rand.random() * len(prompts))]
    if prompt.kind == "response" and rand.random() < 0.8:
        option = prompt.default
    else:
        options = prompt.options
        option = options[int(rand.random() * len(options))].id
    game.choose(prompt.seat, prompt.id, option)


def finish(game: Game, seed: int) -> Game:
    rand = random.Random(seed)
    while not game.over:
        step(game, rand)
    return game


def summary(game: Game) -> tuple[str, list[dict[str, object]], list[tuple[int, int, str]]]:
    return game.state_hash(), [e.project(None) for e in game.events], list(game.choices)


def mid_game(config: GameConfig, seed: int, at: int) -> Game:
    """A game of random play stopped after `at` decisions (or at its end)."""
    game = Game.new(config, seed)
    rand = random.Random(seed)
    while not game.over and game.state.decisions < at:
        step(game, rand)
    return game


@pytest.mark.parametrize(("players", "identities", "characters"), CONFIGS)
def test_a_copy_played_on_is_the_original_played_on(players: int, identities: str, characters: bool) -> None:
    config = GameConfig(players=players, identities=identities, characters=characters)
    for seed in range(12):
        game = mid_game(config, seed, at=random.Random(seed).randrange(1, 400))
        before = game.state_hash()
        first, second = game.copy(), game.copy()
        assert first.state_hash() == before
        finish(first, seed + 1000)
        assert game.state_hash() == before, "playing a copy on changed the original"
        finish(game, seed + 1000)
        assert second.state_hash() == before, "playing the original on changed a copy"
        finish(second, seed + 1000)
        assert summary(first) == summary(game) == summary(second)
        assert Game.replay(first.record()).state_hash() == game.state_hash()


def test_copies_of_one_position_diverge_independently() -> None:
    """Different choices after the copy: each game follows its own, and the original stays put."""
    config = GameConfig(players=5, identities="default", characters=True)
    game = mid_game(config, 3, at=120)
    before = game.state_hash()
    ends = {summary(finish(game.copy(), seed))[0] for seed in range(6)}
    assert len(ends) > 1
    assert game.state_hash() == before


def _mutables(root: object) -> dict[int, object]:
    """Every mutable object reachable from `root`, by id, not looking inside what `SHARED` lists."""
    found: dict[int, object] = {}
    todo = [root]
    while todo:
        obj = todo.pop()
        if obj is None or isinstance(obj, (int, float, str, bytes, frozenset, *SHARED)):
            continue
        if isinstance(obj, tuple):
            todo.extend(obj)
            continue
        if id(obj) in found:
            continue
        found[id(obj)] = obj
        if isinstance(obj, dict):
            todo.extend(obj.keys())
            todo.extend(obj.values())
        elif isinstance(obj, (list, set)):
            todo.extend(obj)
        elif isinstance(obj, random.Random):
            pass
        elif isinstance(obj, Prompt):
            todo.append(obj._options)
        elif is_dataclass(obj):
            todo.extend(getattr(obj, f.name) for f in fields(obj))
        elif callable(obj):
            pass
        else:
            raise AssertionError(f"unexpected {type(obj).__name__} in a game: teach this test about it")
    return found


def _game_parts(game: Game) -> list[object]:
    return [game.state, game.prompts, game.events, game.choices, game._shown_cache]


@pytest.mark.parametrize(("players", "identities", "characters"), CONFIGS)
def test_a_copy_shares_no_mutable_object(players: int, identities: str, characters: bool) -> None:
    config = GameConfig(players=players, identities=identities, characters=characters)
    checked_steps = checked_tables = 0
    for seed in range(8):
        game = Game.new(config, seed)
        rand = random.Random(seed)
        while not game.over:
            if rand.random() < 0.05:
                copy = game.copy()
                original = _mutables(_game_parts(game))
                shared = [type(original[i]).__name__ for i in _mutables(_game_parts(copy)) if i in original]
                assert not shared, f"seed {seed}, decision {game.state.decisions}: shares {shared}"
                checked_steps += len(game.state.agenda) + (game.state.asking is not None)
                checked_tables += len(game.state.table)
            step(game, rand)
    if characters:
        assert checked_steps, "no copy was taken with a step pending: the steps' data went unchecked"


def test_a_copy_can_draw_its_future_from_its_own_rng() -> None:
    """`copy(rng=...)`: the copy reshuffles from the given RNG; the original's stays untouched."""
    config = GameConfig(players=6, identities="3v3")
    game = mid_game(config, 5, at=60)
    before, state = game.state_hash(), game.state.rng.getstate()
    own = random.Random(99)
    copy = game.copy(rng=own)
    assert copy.state.rng is own
    finish(copy, 7)
    assert game.state.rng.getstate() == state and game.state_hash() == before
    again = game.copy(rng=random.Random(99))
    assert summary(finish(again, 7)) == summary(copy)
