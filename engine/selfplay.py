"""Whole games driven by any decision function, seeing only each seat's projection.

Used by random-play tests, `fengsheng sim` and the benchmark. It is bot-agnostic: `decide(seat,
view)` returns an option id for `view["prompt"]`. When several seats are prompted at once (a
response window), who answers first is drawn from an RNG seeded by the game's seed, so a game is
reproducible from (config, seed, decide) alone and the engine's own RNG is never touched.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from . import invariants
from .config import GameConfig
from .game import Game
from .prompts import Prompt
from .view import events_for, view

Decide = Callable[[int, dict], str]
Observe = Callable[[int, list[dict]], None]
Pick = Callable[[Prompt], str]

# Far above any honest game (random 4- and 6-player games end within a few hundred decisions);
# reaching it means the game cannot end.
MAX_DECISIONS = 20_000


class InvariantViolation(AssertionError):
    """A reachable state broke an invariant of `engine.invariants`."""

    def __init__(self, game: Game, problems: list[str]) -> None:
        self.game = game
        self.problems = problems
        record = game.record()
        super().__init__(
            f"seed {record['seed']}, after {game.state.decisions} decisions: " + "; ".join(problems)
        )


class GameTooLong(AssertionError):
    """The game did not end within the bound on decisions."""


def answer_order_rng(seed: int) -> random.Random:
    """The RNG that picks which simultaneously prompted seat answers first."""
    return random.Random(f"answer-order/{seed}")


def play(config: GameConfig, seed: int, decide: Decide, check: bool = True,
         max_decisions: int = MAX_DECISIONS, observe: Observe | None = None) -> Game:
    """Play one game to its end; raise InvariantViolation or GameTooLong instead of returning a bad game.

    Each seat decides from `view(game, seat)` only. With `observe`, a seat is first given the events
    projected for it since it last decided, as a client receives them before it answers a prompt.
    """
    seen = [0] * config.players
    game: Game | None = None

    def pick(prompt: Prompt) -> str:
        assert game is not None
        if observe is not None:
            observe(prompt.seat, events_for(game, prompt.seat, seen[prompt.seat]))
            seen[prompt.seat] = len(game.events)
        return decide(prompt.seat, view(game, prompt.seat))

    def started(new_game: Game) -> None:
        nonlocal game
        game = new_game

    return play_prompts(config, seed, pick, check, max_decisions, started)


def play_prompts(config: GameConfig, seed: int, pick: Pick, check: bool = True,
                 max_decisions: int = MAX_DECISIONS, started: Callable[[Game], None] | None = None) -> Game:
    """Like `play`, but `pick` answers the engine's prompt objects directly, with no projection:
    the cheap way to fuzz the rules (the projection has its own tests), and the bare-engine bench."""
    game = Game.new(config, seed)
    if started is not None:
        started(game)
    order = answer_order_rng(seed)
    if check:
        _check(game)
    while not game.over:
        prompts = game.pending()
        if len(prompts) > 1:
            prompts.sort(key=lambda p: p.seat)
            prompt = prompts[order.randrange(len(prompts))]
        elif prompts:
            prompt = prompts[0]
        else:
            raise InvariantViolation(game, ["no open prompt and the game is not over"])
        game.choose(prompt.seat, prompt.id, pick(prompt))
        if check:
            _check(game)
        if game.state.decisions >= max_decisions and not game.over:
            raise GameTooLong(f"seed {seed}: no end after {max_decisions} decisions")
    return game


def skill_biased(seed: int, skill_bias: float = 0.4, pass_rate: float = 0.8) -> Pick:
    """Random legal choices that often take a skill when one is offered, so every skill is exercised;
    otherwise a response window is passed `pass_rate` of the time, like the random bot."""
    rng = random.Random(f"skill-biased/{seed}")

    def pick(prompt: Prompt) -> str:
        options = prompt.options
        skills = [o for o in options if o.verb == "skill" or o.verb == "use"]
        if skills and rng.random() < skill_bias:
            return skills[rng.randrange(len(skills))].id
        if prompt.kind == "response" and rng.random() < pass_rate:
            return prompt.default
        return options[rng.randrange(len(options))].id

    return pick


def _check(game: Game) -> None:
    problems = invariants.check(game)
    if problems:
        raise InvariantViolation(game, problems)
