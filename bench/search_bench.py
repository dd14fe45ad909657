"""Search benchmark: what a bot that plays positions on (issue 16) pays per copy and per rollout.

- copy: `Game.copy()` of positions taken from random games (every 25th decision), in µs, beside
  `copy.deepcopy` of the same positions, the baseline it replaces;
- rollout: a copy of a mid-game position (after `--at` decisions of random play) played to its end
  by fresh `normal` bots, which first observe the events their seat saw so far, in ms per rollout;
  and the same played by random choices straight on the engine (the cheapest policy), for scale;
- hard rollout: what `hard` pays per rollout (bots.hard: a world sampled at a real decision of a
  random game, the option, `normal` everywhere to the horizon), in µs, with the views a rollout's
  bots read built key by key as they read them (`engine.worlds.LazyView`, what `play_out` does)
  beside whole views (`engine.view.view`, as before), in one run: the ratio, and the check that
  both give every rollout the same score.

Times are CPU time of this process (the machine is shared); each figure is the best of `--repeats`.
Run: `.venv/bin/python bench/search_bench.py [--positions N] [--rollouts N] [--hard N] [--repeats R] [--compiled]`;
`--compiled`: with the engine compiled by mypyc (bench/compiled.py: rules, views and worlds; bots stay interpreted).
"""

from __future__ import annotations

import argparse
import copy
import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parent.parent))  # after PYTHONPATH: --compiled puts the build there

from bots import make_bot  # noqa: E402
from bots.hard import HardBot  # noqa: E402
from bots.worlds import Sampler  # noqa: E402
from engine import Game, GameConfig, events_for, view  # noqa: E402
from engine import worlds as W  # noqa: E402
from engine.selfplay import answer_order_rng  # noqa: E402

CONFIGS = [(5, "default", True), (6, "3v3", False), (9, "default", True)]


def random_step(game: Game, rand: Callable[[], float]) -> None:
    """The bare bench's random decision: a window mostly passed without reading its options."""
    prompts = game.pending()
    prompt = prompts[int(rand() * len(prompts))]
    if prompt.kind == "response" and rand() < 0.8:
        option = prompt.default
    else:
        options = prompt.options
        option = options[int(rand() * len(options))].id
    game.choose(prompt.seat, prompt.id, option)


def positions(config: GameConfig, count: int, every: int = 25) -> list[Game]:
    """Copies of random games' positions, one every `every` decisions, until `count` are taken."""
    found: list[Game] = []
    seed = 0
    while len(found) < count:
        game = Game.new(config, seed)
        rand = random.Random(seed).random
        while not game.over and len(found) < count:
            random_step(game, rand)
            if game.state.decisions % every == 0:
                found.append(game.copy())
        seed += 1
    return found


def mid_game(config: GameConfig, seed: int, at: int) -> Game:
    game = Game.new(config, seed)
    rand = random.Random(seed).random
    while not game.over and game.state.decisions < at:
        random_step(game, rand)
    return game


def bot_rollout(game: Game, seed: int) -> Game:
    """Play `game` to its end with a fresh `normal` bot per seat (which first reads what its seat
    saw so far); simultaneous prompts are answered in an order drawn as `selfplay.play` does."""
    n = game.n()
    bots = [make_bot("normal", seat, seed * 16 + seat) for seat in range(n)]
    seen = [0] * n
    order = answer_order_rng(seed)
    while not game.over:
        prompts = game.pending()
        if len(prompts) > 1:
            prompts.sort(key=lambda p: p.seat)
            prompt = prompts[order.randrange(len(prompts))]
        else:
            prompt = prompts[0]
        seat = prompt.seat
        bots[seat].observe(events_for(game, seat, seen[seat]))
        seen[seat] = len(game.events)
        game.choose(seat, prompt.id, bots[seat].decide(view(game, seat)))
    return game


def random_rollout(game: Game, seed: int) -> Game:
    rand = random.Random(seed).random
    while not game.over:
        random_step(game, rand)
    return game


HardCase = tuple[HardBot, Game, int, int, str]


def hard_cases(config: GameConfig, count: int) -> list[HardCase]:
    """`count` rollouts as `hard` starts them: at a real decision (one in five) of random games, the
    seat's hard bot having read its log, a world sampled from its view, and the option tried."""
    rng = random.Random(0)
    found: list[HardCase] = []
    seed = 0
    while len(found) < count:
        game = Game.new(config, seed)
        bots = [make_bot("random", s, seed * 16 + s) for s in range(config.players)]
        seed += 1
        while not game.over and len(found) < count:
            prompt = min(game.pending(), key=lambda p: p.seat)
            seat_view, events = view(game, prompt.seat), events_for(game, prompt.seat)
            if len(prompt.options) > 1 and rng.random() < 0.2:
                try:
                    sampler = Sampler(seat_view, events)
                    world = sampler.sample(rng)
                    hard = HardBot(prompt.seat, seed)
                    hard.observe(events)
                    hard._load(seat_view)
                    hard._feed_shadows(seat_view)
                    option = str(rng.choice(prompt.options).id)
                    found.append((hard, sampler.game(world), world.seed, prompt.id, option))
                except W.Unsupported:
                    pass
            game.choose(prompt.seat, prompt.id, bots[prompt.seat].decide(seat_view))
    return found


def whole_views_play_out(game: Game, decide: W.Decide, horizon: int | None = None) -> Game:
    """`engine.worlds.play_out` as it was, handing each decision a whole `view` (the baseline)."""
    seen = [len(game.events)] * len(game.state.seats)
    stop = None if horizon is None else game.state.turn + horizon
    for _ in range(5000):
        if game.over or (stop is not None and game.state.turn >= stop):
            break
        prompts = game.pending()
        if not prompts:
            break
        prompt = min(prompts, key=lambda p: p.seat) if len(prompts) > 1 else prompts[0]
        seat = prompt.seat
        if len(prompt.options) == 1:
            game.choose(seat, prompt.id, prompt.options[0].id)
            continue
        new = events_for(game, seat, seen[seat])
        seen[seat] = len(game.events)
        game.choose(seat, prompt.id, decide(seat, view(game, seat), new))
    return game


def hard_rollout(case: HardCase, play: Callable[..., Game]) -> float:
    """`HardBot._rollout` of `case`, played on by `play`."""
    hard, world, seed, prompt_id, option = case
    game = world.copy()
    game.choose(hard.seat, prompt_id, option)
    bots = hard._rollout_bots(game, seed)

    def decide(seat: int, seat_view: dict, events: list[dict]) -> str:
        bots[seat].observe(events)
        return bots[seat].decide(seat_view)

    play(game, decide, horizon=hard.horizon)
    return hard.score(game)


def best(repeats: int, run: Callable[[], int]) -> tuple[float, int]:
    """The best CPU time of `repeats` runs, and what the run counted."""
    times = []
    counted = 0
    for _ in range(repeats):
        start = time.process_time()
        counted = run()
        times.append(time.process_time() - start)
    return min(times), counted


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=200, help="positions copied per configuration")
    parser.add_argument("--rollouts", type=int, default=20, help="rollouts per configuration")
    parser.add_argument("--hard", type=int, default=150, help="hard rollouts per configuration")
    parser.add_argument("--at", type=int, default=150, help="decisions of random play before a rollout")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--compiled", action="store_true", help="the engine compiled by mypyc (bench/compiled.py)")
    args = parser.parse_args()
    if args.compiled:
        from compiled import environment

        env = environment()
        rest = [a for a in sys.argv[1:] if a != "--compiled"]
        return subprocess.run([sys.executable, __file__, *rest], env=env, check=False).returncode
    import engine.game
    compiled = engine.game.__file__.endswith(".so")
    print(f"engine: {'compiled' if compiled else 'interpreted'}")
    for players, identities, characters in CONFIGS:
        config = GameConfig(players=players, identities=identities, characters=characters)
        print(f"{players} players, {identities}, {'characters' if characters else 'no characters'}:")
        games = positions(config, args.positions)
        fast, _ = best(args.repeats, lambda g=games: sum(1 for game in g if game.copy()))
        if compiled:  # deepcopy cannot make a compiled Game: its __new__ wants the constructor's arguments
            print(f"  copy         {fast / len(games) * 1e6:8.1f} µs")
        else:
            slow, _ = best(args.repeats, lambda g=games: sum(1 for game in g if copy.deepcopy(game)))
            print(f"  copy         {fast / len(games) * 1e6:8.1f} µs   (deepcopy {slow / len(games) * 1e6:8.1f} µs, "
                  f"{slow / fast:.1f}×)")
        starts = [mid_game(config, seed, args.at) for seed in range(args.rollouts)]
        for name, rollout in (("normal bots", bot_rollout), ("random", random_rollout)):
            def run(rollout: Callable[[Game, int], Game] = rollout, starts: list[Game] = starts) -> int:
                return sum(rollout(game.copy(), seed).state.decisions - game.state.decisions
                           for seed, game in enumerate(starts))
            seconds, decisions = best(args.repeats, run)
            print(f"  rollout, {name:<12} {seconds / len(starts) * 1e3:8.2f} ms  "
                  f"({decisions / len(starts):.0f} decisions, {seconds / decisions * 1e6:.1f} µs each)")
        cases = hard_cases(config, args.hard)
        times: dict[str, list[float]] = {"whole": [], "lazy": []}
        scores: dict[str, list[float]] = {}
        for _ in range(args.repeats):  # interleaved, so that a change in the machine's load hits both
            for name, play in (("whole", whole_views_play_out), ("lazy", W.play_out)):
                start = time.process_time()
                scores[name] = [hard_rollout(case, play) for case in cases]
                times[name].append(time.process_time() - start)
        whole, lazy = min(times["whole"]), min(times["lazy"])
        same = "same scores" if scores["whole"] == scores["lazy"] else "SCORES DIFFER"
        print(f"  hard rollout {lazy / len(cases) * 1e6:8.0f} µs   (whole views {whole / len(cases) * 1e6:8.0f} µs, "
              f"{whole / lazy:.2f}×; {same}, {len(cases)} rollouts)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
