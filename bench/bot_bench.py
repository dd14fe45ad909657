"""Bot benchmark: decision time per level, and arenas between levels with 95% Wilson intervals.

    .venv/bin/python bench/bot_bench.py            # 1,000 games per arena (several minutes)
    .venv/bin/python bench/bot_bench.py --games 100 --json
    .venv/bin/python bench/bot_bench.py --characters-only   # only the arenas with characters
    .venv/bin/python bench/bot_bench.py --hard --games 400 --rollouts 36 --candidates 3   # hard vs normal
    .venv/bin/python bench/bot_bench.py --hard --games 400 --compiled   # the same games, about 2x sooner
    .venv/bin/python bench/bot_bench.py --hard-timing 3   # hard's decision time at its default budget

`--hard` runs only the two arenas of `hard` against `normal` (6 players 3v3; 5 players with
characters), hard searching a fixed number of rollouts per decision (`--rollouts`, deterministic)
among at most `--candidates` options instead of its default 1 s budget among 6, which 400 games
could not afford here. The default, 36 rollouts among 3 (4 worlds for 3 options, then 12 more for
normal's choice and the best other), stays below what 1 s reaches on this 2-core machine at an
ordinary load (per search: median 376, 10th percentile 212 at load 2-4; median 184, least 76 at
load 5; at load 19 median 58, 10th percentile 34), so the measured hard is no stronger than the
one players get. 12 rollouts give only 4 worlds (hard overrules normal only on 4 worlds or more);
24 won 58.25 % of 400 games of 6 players, 36 won 66.5 % (95 % CI 61.7-70.9). `--compiled` plays on the engine compiled
by mypyc (bench/compiled.py, the build `fengsheng engine build` makes): the same games with the
same results (a fixed rollout count makes them deterministic), in about half the time. `--hard-timing N` plays
N games of each arena at the default budget and reports hard's decision time (median, p99) and
the rollouts its searches reach in that time (median, 10th percentile, least): interpreted, what
players run without a build; with `--compiled`, what they run after `fengsheng engine build`.

Arenas give each faction each level in alternate games (the harness reads the deal to seat the
levels; the bots themselves only ever see their own projection). Decision time covers `observe`
of the events since the seat's last decision plus `decide`, i.e. what a server waits for; it is
given over every prompt and again over "real choices" (prompts with two or more options), per
level and separately for games with characters. With characters a neutral (打酱油的) seat plays
for its secret task; its win rate is reported with the factions'.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

# After PYTHONPATH: --compiled's child finds the compiled engine there (first, this put the source ahead of it).
sys.path.append(str(Path(__file__).resolve().parent.parent))

from bots import make_bot  # noqa: E402
from bots.hard import HardBot  # noqa: E402
from engine import Game, GameConfig  # noqa: E402
from engine.selfplay import play  # noqa: E402
from fengsheng_tui.commands.sim import rate  # noqa: E402
from fengsheng_tui.progress import progress  # noqa: E402

HARD_ARENAS = [
    ("hard vs normal, 6 3v3", 6, "3v3", "hard", "normal", False),
    ("hard vs normal, 5 players, characters", 5, "default", "hard", "normal", True),
]
SPENT: dict[str, list[int]] = {}  # rollouts per searched decision of hard, per arena
HARD_OPTIONS: dict[str, object] = {}  # HardBot keyword arguments for the arenas (--rollouts, --budget)
LOG: list[str] = []  # --log FILE: one line per game, so a long run's partial results can be read
ARENAS = [
    ("normal vs random", 6, "3v3", "normal", "random", False),
    ("basic vs random", 6, "3v3", "basic", "random", False),
    ("normal vs basic", 6, "3v3", "normal", "basic", False),
    ("all normal, 4 novice", 4, "novice", "normal", "normal", False),
    ("all normal, 6 3v3", 6, "3v3", "normal", "normal", False),
    ("all normal, 5 players, characters", 5, "default", "normal", "normal", True),
    ("normal vs random, 6 3v3, characters", 6, "3v3", "normal", "random", True),
    ("normal vs basic, 6 3v3, characters", 6, "3v3", "normal", "basic", True),
]
SIDES = ("latent", "military", "neutral")


def run_arena(players: int, identities: str, first: str, second: str, games: int, seed0: int,
              times: dict[str, list[float]], characters: bool = False) -> dict[str, object]:
    """Win rates per level and per identity. A game counts for every identity among its winners
    (a neutral can win alongside a faction, through 风度 or a task judged at the declaration)."""
    config = GameConfig(players=players, identities=identities, characters=characters)
    wins = {first: 0, second: 0}
    side_wins = dict.fromkeys(SIDES, 0)
    turns = 0
    with progress(f"{first} vs {second}", games) as advance:
        for k in range(games):
            seed = seed0 + k
            dealt = identities_dealt(config, seed)
            latent, military = (first, second) if k % 2 == 0 else (second, first)
            levels = [latent if i == "latent" else military for i in dealt]
            game = timed_game(config, seed, levels, times)
            turns += game.state.turn
            winners = game.state.winners
            for side in {dealt[w] for w in winners}:
                side_wins[side] += 1
            if winners and first != second:
                wins[levels[winners[0]]] += 1
            if LOG:
                with open(LOG[0], "a", encoding="utf-8") as out:
                    out.write(f"{first} vs {second} players={players} characters={characters} game={k + 1} "
                              f"seed={seed} {first}={wins[first]} {second}={wins[second]}\n")
            advance(1)
    present = [side for side in SIDES if side in dealt]
    result: dict[str, object] = {
        "games": games, "mean_turns": round(turns / games, 2),
        "factions": {f: rate(side_wins[f], games) for f in present},
    }
    if first != second:
        result["levels"] = {level: rate(w, games) for level, w in wins.items()}
    return result


def identities_dealt(config: GameConfig, seed: int) -> list[str]:
    """The identity of each seat in game `seed`: with characters they are dealt after the pick, so
    the pick is answered with defaults on a copy (the deal does not depend on what is picked)."""
    game = Game.new(config, seed)
    while game.state.seats[0].identity == "":
        for prompt in game.pending():
            game.choose(prompt.seat, prompt.id, prompt.default)
    return [p.identity for p in game.state.seats]


def timed_game(config: GameConfig, seed: int, levels: list[str], times: dict[str, list[float]]) -> Game:
    bots = [HardBot(seat, seed * 16 + seat, **HARD_OPTIONS) if level == "hard"  # type: ignore[arg-type]
            else make_bot(level, seat, seed * 16 + seat) for seat, level in enumerate(levels)]
    spent = [0.0] * len(levels)

    def observe(seat: int, events: list[dict]) -> None:
        start = time.perf_counter()
        bots[seat].observe(events)
        spent[seat] = time.perf_counter() - start

    def decide(seat: int, view: dict) -> str:
        start = time.perf_counter()
        choice = bots[seat].decide(view)
        took = spent[seat] + time.perf_counter() - start
        key = levels[seat] + (", characters" if config.characters else "")
        times.setdefault(key, []).append(took)
        if len(view["prompt"]["options"]) > 1:
            times.setdefault(f"{key}, real choices", []).append(took)
        return choice

    game = play(config, seed, decide, check=False, observe=observe)
    key = f"{config.players} players" + (", characters" if config.characters else "")
    for bot in bots:
        if isinstance(bot, HardBot):
            SPENT.setdefault(key, []).extend(bot.spent)
    return game


def world_timing(moments: int, seed: int) -> dict[str, object]:
    """µs per world sampled and built from a seat's view and log (bots.worlds), and ms per hard
    rollout (a copy of the world, the option, `normal` everywhere to the horizon), over decisions
    of random games (6 players 3v3, and 5 with characters). CPU time of this process."""
    import random

    from bots.worlds import Sampler
    from engine import events_for, view
    from engine import worlds as W

    report: dict[str, object] = {}
    for label, config in (("6 3v3", GameConfig(players=6, identities="3v3")),
                          ("5 characters", GameConfig(players=5, identities="default", characters=True))):
        rng = random.Random(seed)
        sampled = rolled = 0
        sample_time = roll_time = 0.0
        k = 0
        while sampled < moments:
            game = Game.new(config, seed + k)
            bots = [make_bot("random", s, k * 16 + s) for s in range(config.players)]
            k += 1
            while not game.over and sampled < moments:
                prompt = min(game.pending(), key=lambda p: p.seat)
                seat_view, events = view(game, prompt.seat), events_for(game, prompt.seat)
                if len(prompt.options) > 1 and rng.random() < 0.2:
                    try:
                        start = time.process_time()
                        sampler = Sampler(seat_view, events)
                        world = sampler.sample(rng)
                        built = sampler.game(world)
                        sample_time += time.process_time() - start
                        sampled += 1
                        hard = HardBot(prompt.seat, k)
                        hard.observe(events)
                        hard._load(seat_view)
                        start = time.process_time()
                        hard._rollout(built.copy(), world.seed, prompt.id, prompt.default)
                        roll_time += time.process_time() - start
                        rolled += 1
                    except W.Unsupported:
                        pass
                game.choose(prompt.seat, prompt.id, bots[prompt.seat].decide(seat_view))
        report[label] = {"worlds": sampled, "us_per_world": round(sample_time / sampled * 1e6, 1),
                         "ms_per_rollout": round(roll_time / rolled * 1e3, 2)}
    return report


def percentiles(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {"choices": len(ordered), "median_ms": round(statistics.median(ordered) * 1e3, 4),
            "p99_ms": round(ordered[int(0.99 * (len(ordered) - 1))] * 1e3, 4),
            "max_ms": round(ordered[-1] * 1e3, 3)}


def spread(counts: list[int]) -> dict[str, float]:
    """How many rollouts hard's searches played: with a clock budget, what it reaches on this machine
    (a fixed `--rollouts` measured below that is a weaker hard than players get)."""
    ordered = sorted(counts)
    return {"searches": len(ordered), "median": statistics.median(ordered),
            "p10": ordered[len(ordered) // 10], "min": ordered[0]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per arena (default: 1000)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game of each arena")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--characters-only", action="store_true", help="only the arenas with characters")
    parser.add_argument("--hard", action="store_true", help="only hard vs normal, at --rollouts per decision")
    parser.add_argument("--only", default="", metavar="TEXT", help="only the arenas whose name contains TEXT")
    parser.add_argument("--log", default=None, metavar="FILE", help="append one line per game to FILE")
    parser.add_argument("--worlds", type=int, default=0, metavar="N",
                        help="only time N worlds sampled (and one hard rollout each) per table size")
    parser.add_argument("--rollouts", type=int, default=36, help="hard's rollouts per decision with --hard")
    parser.add_argument("--candidates", type=int, default=3, help="options hard searches at most with --hard")
    parser.add_argument("--hard-timing", type=int, default=0, metavar="N",
                        help="N games per hard arena at hard's default budget (decision time)")
    parser.add_argument("--compiled", action="store_true",
                        help="run on the engine compiled by mypyc (bench/compiled.py): same games, sooner; "
                             "with --hard-timing, the rollouts a compiled engine reaches")
    parser.add_argument("--child-compiled", action="store_true", help=argparse.SUPPRESS)  # --compiled's child
    args = parser.parse_args(argv)
    import engine.game

    report: dict[str, object] = {"engine": "compiled" if engine.game.__file__.endswith(".so") else "interpreted"}
    if args.child_compiled and report["engine"] != "compiled":
        print(f"the compiled engine is not the one imported ({engine.game.__file__})", file=sys.stderr)
        return 1
    if args.compiled:
        return run_compiled(args, sys.argv[1:] if argv is None else argv)
    if not args.json:
        print(f"engine: {report['engine']} ({engine.game.__file__})")
    times: dict[str, list[float]] = {}
    if args.worlds:
        print(json.dumps(world_timing(args.worlds, args.seed), indent=1))
        return 0
    arenas = ARENAS
    if args.log:
        LOG[:] = [args.log]
    if args.hard or args.hard_timing:
        arenas = HARD_ARENAS
        HARD_OPTIONS.clear()
        if args.hard_timing:
            args.games = args.hard_timing
        else:
            HARD_OPTIONS.update(budget=None, rollouts=args.rollouts, candidates=args.candidates)
    for name, players, identities, first, second, characters in arenas:
        if args.only not in name:
            continue
        if args.characters_only and not characters:
            continue
        start = time.perf_counter()
        report[name] = run_arena(players, identities, first, second, args.games, args.seed, times, characters)
        report[name]["seconds"] = round(time.perf_counter() - start, 1)  # type: ignore[index]
        if not args.json:
            print_arena(name, report[name])  # type: ignore[arg-type]
    report["decision_time"] = {level: percentiles(t) for level, t in times.items() if t}
    if SPENT:
        report["hard_rollouts_per_search"] = {key: spread(n) for key, n in SPENT.items() if n}
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=1))
    else:
        for level, t in report["decision_time"].items():  # type: ignore[attr-defined]
            print(f"decision time {level}: median {t['median_ms']} ms, p99 {t['p99_ms']} ms, "
                  f"max {t['max_ms']} ms over {t['choices']} choices")
        for key, n in report.get("hard_rollouts_per_search", {}).items():  # type: ignore[attr-defined]
            print(f"hard rollouts per searched decision, {key}: median {n['median']}, p10 {n['p10']}, "
                  f"min {n['min']} over {n['searches']} searches")
    return 0


def run_compiled(args: argparse.Namespace, argv: list[str]) -> int:
    """This bench again in a child process that imports the compiled engine ahead of the source
    (`-P`: the script's own directory is not put first)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from compiled import environment

    rest = [a for a in argv if a != "--compiled"]
    probe = [sys.executable, "-P", "-c", "import engine.game; print(engine.game.__file__)"]
    env = environment()
    where = subprocess.run(probe, env=env, check=True, capture_output=True, text=True).stdout.strip()
    if not where.endswith(".so"):
        print(f"the compiled engine is not the one imported ({where})", file=sys.stderr)
        return 1
    return subprocess.run([sys.executable, "-P", __file__, *rest, "--child-compiled"], env=env, check=False).returncode


def print_arena(name: str, result: dict) -> None:
    print(f"{name}: {result['games']} games, {result['mean_turns']} turns on average, {result['seconds']} s")
    for group in ("levels", "factions"):
        for key, r in result.get(group, {}).items():
            low, high = r["ci95"]
            print(f"  {key}: {r['rate']:.1%} (95% CI {low:.1%}–{high:.1%})")


if __name__ == "__main__":
    sys.exit(main())
