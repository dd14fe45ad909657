"""Engine benchmark: complete games and decisions per second with random choices, on one core.

Two figures per configuration: the bare engine (a random option of a random open prompt, no
projection) and full self-play (every decision through `view`, invariants after every step, as
the random-play tests run). Run: `.venv/bin/python bench/engine_bench.py [--games N] [--profile]`.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import time

from engine import Game, GameConfig, playable_configs
from engine.config import MAX_PLAYERS, MIN_PLAYERS
from engine.selfplay import play

TARGET_GAMES_PER_SECOND = 200


def bare_game(config: GameConfig, seed: int) -> Game:
    rng = random.Random(seed)
    game = Game.new(config, seed)
    while not game.over:
        prompts = game.pending()
        prompt = prompts[rng.randrange(len(prompts))] if len(prompts) > 1 else prompts[0]
        if prompt.kind == "response" and rng.random() < 0.8:
            option = prompt.default
        else:
            option = prompt.options[rng.randrange(len(prompt.options))].id
        game.choose(prompt.seat, prompt.id, option)
    return game


def random_decider(seed: int):
    rng = random.Random(seed)

    def decide(seat: int, v: dict) -> str:
        prompt = v["prompt"]
        if prompt["kind"] == "response" and rng.random() < 0.8:
            return str(prompt["default"])
        return str(rng.choice(prompt["options"])["id"])

    return decide


def measure(label: str, games: int, one) -> tuple[float, float, float]:
    decisions = 0
    start = time.process_time()  # CPU time: the machine is shared, wall time would measure the others
    for seed in range(games):
        decisions += one(seed).state.decisions
    seconds = time.process_time() - start
    gps, dps = games / seconds, decisions / seconds
    print(f"  {label:<28} {gps:8.1f} games/s {dps:10.0f} decisions/s  {decisions / games:6.1f} decisions/game")
    return gps, dps, decisions / games


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300, help="games per configuration (default 300)")
    parser.add_argument("--profile", action="store_true", help="cProfile the bare engine instead")
    args = parser.parse_args()
    playable = playable_configs(False)
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        for players, identities in playable:
            config = GameConfig(players=players, identities=identities)
            for seed in range(args.games):
                bare_game(config, seed)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
        return 0
    slow = []
    for players, identities in playable:
        config = GameConfig(players=players, identities=identities)
        print(f"{players} players, {identities}:")
        gps, _, _ = measure("bare engine", args.games, lambda seed, c=config: bare_game(c, seed))
        measure("self-play, views+invariants", args.games,
                lambda seed, c=config: play(c, seed, random_decider(seed)))
        if gps < TARGET_GAMES_PER_SECOND:
            slow.append(f"{players}/{identities}")
    waiting = [p for p in range(MIN_PLAYERS, MAX_PLAYERS + 1) if p not in {c[0] for c in playable}]
    print(f"not playable without characters yet (the character issue): {', '.join(map(str, waiting))} players")
    print(f"target {TARGET_GAMES_PER_SECOND} games/s (bare engine): "
          + ("met" if not slow else f"missed for {', '.join(slow)}"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
