"""Engine benchmark: complete games and decisions per second with random choices, on one core.

Configurations: 4 and 6 players without characters, 5 and 9 players with characters (the pick,
skills, secret tasks). Two figures each: the bare engine (a random option of a random open prompt,
no projection) and full self-play (every decision through `view`, invariants after every step, as
the random-play tests run). Times are CPU time of this process (the machine is shared).
Run: `.venv/bin/python bench/engine_bench.py [--games N] [--repeats R] [--profile] [--compiled]`;
the bare engine's figure is the best of R runs over the same seeds, with their median beside it.
`--compiled` also measures the engine compiled by mypyc (the build `fengsheng engine build` makes,
in the user's cache; bench/compiled.py makes it first if there is none for this source, `nice -n 10
.venv/bin/python bench/compiled.py` ahead): each configuration's bare games are played interpreted here, then the same seeds compiled
in a child process right after, and both figures are printed with their ratio, so that the two are
measured in the same minutes. `--bare-only` skips self-play.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bots.random_bot import random_decider
from engine import Game, GameConfig
from engine.selfplay import play

TARGET_GAMES_PER_SECOND = 400  # five players with characters, bare engine (issue 16: 2x the 200 of issue 11)
CHARACTER_FACTOR = 2.0  # decisions/s with characters within this factor of the figure without

CONFIGS = [(4, "novice", False), (6, "3v3", False), (5, "default", True), (9, "default", True)]


def bare_game(config: GameConfig, seed: int) -> Game:
    """Random play straight on the engine; `random()` scaled rather than `randrange`, whose cost
    (a third of the engine's own per decision) would otherwise be measured as the engine's."""
    rand = random.Random(seed).random
    game = Game.new(config, seed)
    while not game.over:
        prompts = game.pending()
        prompt = prompts[int(rand() * len(prompts))]
        if prompt.kind == "response" and rand() < 0.8:
            option = prompt.default
        else:
            options = prompt.options
            option = options[int(rand() * len(options))].id
        game.choose(prompt.seat, prompt.id, option)
    return game


def measure(label: str, games: int, one, repeats: int = 1) -> tuple[float, float, float]:
    """Games per second over the same `games` seeds, best of `repeats` runs (the median is printed
    beside it). CPU time, since the machine is shared; and the best run, as `timeit` advises: slower
    runs measure the neighbours (on this VM the same code swings by 1.7× within an hour)."""
    runs, decisions = timed_runs(games, one, repeats)
    seconds = min(runs)
    gps, dps = games / seconds, decisions / seconds
    spread = f"  (median of {repeats}: {games / statistics.median(runs):.1f})" if repeats > 1 else ""
    print(f"  {label:<28} {gps:8.1f} games/s {dps:10.0f} decisions/s  {decisions / games:6.1f} decisions/game{spread}")
    return gps, dps, decisions / games


def timed_runs(games: int, one, repeats: int) -> tuple[list[float], int]:
    """CPU seconds of each of `repeats` runs over the same seeds, and the decisions of one run."""
    runs = []
    decisions = 0
    for _ in range(repeats):
        decisions = 0
        start = time.process_time()
        for seed in range(games):
            decisions += one(seed).state.decisions
        runs.append(time.process_time() - start)
    return runs, decisions


def label(players: int, identities: str, characters: bool) -> str:
    return f"{players} players, {identities}, " + ("characters" if characters else "no characters")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300, help="games per configuration (default 300)")
    parser.add_argument("--repeats", type=int, default=5, help="runs of the bare engine, best reported (default 5)")
    parser.add_argument("--profile", action="store_true", help="cProfile the bare engine instead")
    parser.add_argument("--compiled", action="store_true",
                        help="also the bare engine compiled by mypyc (bench/compiled.py), same seeds, with the ratio")
    parser.add_argument("--bare-only", action="store_true", help="skip the self-play figures")
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)  # --compiled's child: one configuration, as JSON
    args = parser.parse_args()
    if args.child is not None:
        return child(CONFIGS[args.child], args.games, args.repeats)
    import engine
    print(f"engine: {'compiled' if engine.game.__file__.endswith('.so') else 'interpreted'} ({Path(engine.__file__).parent})")
    compiled_env = compiled_environment() if args.compiled else None
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        for players, identities, characters in CONFIGS:
            config = GameConfig(players=players, identities=identities, characters=characters)
            for seed in range(args.games):
                bare_game(config, seed)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
        return 0
    bare: dict[tuple[int, str, bool], tuple[float, float, float]] = {}
    compiled: dict[tuple[int, str, bool], float] = {}
    for index, (players, identities, characters) in enumerate(CONFIGS):
        config = GameConfig(players=players, identities=identities, characters=characters)
        print(label(players, identities, characters) + ":")
        bare[players, identities, characters] = measure(
            "bare engine", args.games, lambda seed, c=config: bare_game(c, seed), args.repeats)
        if compiled_env is not None:
            compiled[players, identities, characters] = run_child(index, args.games, args.repeats, compiled_env,
                                                                  bare[players, identities, characters][0])
        if not args.bare_only:
            measure("self-play, views+invariants", args.games,
                    lambda seed, c=config: play(c, seed, random_decider(seed)))
    five = bare[5, "default", True][0]
    print(f"target {TARGET_GAMES_PER_SECOND} five-player games/s (bare engine, characters): {five:.1f} — "
          + ("met" if five >= TARGET_GAMES_PER_SECOND else "missed"))
    if compiled:
        five_compiled = compiled[5, "default", True]
        print(f"  compiled: {five_compiled:.1f} — " + ("met" if five_compiled >= TARGET_GAMES_PER_SECOND else "missed"))
    plain = min(bare[4, "novice", False][1], bare[6, "3v3", False][1])
    with_characters = min(bare[5, "default", True][1], bare[9, "default", True][1])
    factor = plain / with_characters
    print(f"decisions/s without characters / with: {factor:.2f} (want at most {CHARACTER_FACTOR}) — "
          + ("met" if factor <= CHARACTER_FACTOR else "missed"))
    return 0


def compiled_environment() -> dict[str, str]:
    """The environment of a process that imports the mypyc build of the engine (built now if stale)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from compiled import environment

    return environment()


def run_child(index: int, games: int, repeats: int, env: dict[str, str], interpreted: float) -> float:
    """One configuration's bare games on the compiled engine, in a child process; prints its figure
    beside the interpreted one just measured, and returns its games/s."""
    command = [sys.executable, __file__, "--games", str(games), "--repeats", str(repeats), "--child", str(index)]
    out = subprocess.run(command, env=env, check=True, capture_output=True, text=True).stdout
    result = json.loads(out.splitlines()[-1])
    if not result["compiled"]:
        raise SystemExit("the child process did not import the compiled engine")
    gps = result["games_per_second"]
    print(f"  {'bare engine, compiled':<28} {gps:8.1f} games/s {result['decisions_per_second']:10.0f} decisions/s"
          f"  {result['decisions_per_game']:6.1f} decisions/game  (median of {repeats}: {result['median']:.1f};"
          f" {gps / interpreted:.2f}x interpreted)")
    return float(gps)


def child(configuration: tuple[int, str, bool], games: int, repeats: int) -> int:
    """`--compiled`'s child: the bare games of one configuration, measured as in `measure`, as one JSON line."""
    import engine

    players, identities, characters = configuration
    config = GameConfig(players=players, identities=identities, characters=characters)
    runs, decisions = timed_runs(games, lambda seed: bare_game(config, seed), repeats)
    seconds = min(runs)
    print(json.dumps({"compiled": engine.game.__file__.endswith(".so"), "games_per_second": games / seconds,
                      "decisions_per_second": decisions / seconds, "decisions_per_game": decisions / games,
                      "median": games / statistics.median(runs)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
