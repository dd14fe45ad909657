"""`fengsheng sim`: whole games between bots, headless, with every invariant checked after every step.

`play_one(config, seed, levels)` plays one game given one bot level per seat, so an arena (different
levels per seat) is a loop over it; `summarise` turns results into the printed or JSON report.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from fengsheng_tui.commands import options

if TYPE_CHECKING:
    from engine import GameConfig


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=options.count(1, 1_000_000), default=100, metavar="N", help="games to play (default: 100)")
    parser.add_argument("--players", type=options.players, default=4, metavar="P", help="seats per game (default: 4)")
    parser.add_argument("--seed", type=int, default=0, metavar="S",
                        help="seed of the first game; game k uses S+k (default: 0)")
    parser.add_argument("--identities", metavar="NAME",
                        help="identity configuration (default: the first one playable for P players)")
    parser.add_argument("--characters", action="store_true",
                        help="play with characters (a pick at the start; needed for 3, 5, 7–9 players "
                             "and for every configuration with neutrals, who win by secret tasks)")
    parser.add_argument("--level", type=options.bot_level, default="random", help="bot level for every seat (default: random)")
    parser.add_argument("--seats", metavar="L1,L2,...", type=seat_levels,
                        help="arena: one bot level per seat, comma-separated (sets the player count); "
                             "reports win rates per level and per faction with 95%% confidence intervals")
    parser.add_argument("--think", type=options.seconds, default=None, metavar="S",
                        help="seconds the hard level thinks per decision (default: 1)")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress bar on stderr")


def seat_levels(text: str) -> list[str]:
    """`--seats normal,basic,...`: one bot level per seat, 3 to 9 seats."""
    levels = [options.bot_level(x.strip()) for x in text.split(",")]
    options.players(str(len(levels)))
    return levels


@dataclass
class GameResult:
    seed: int
    levels: tuple[str, ...]
    decisions: int = 0
    turns: int = 0
    win_reason: str | None = None
    winners: list[int] = field(default_factory=list)
    winning_identities: list[str] = field(default_factory=list)
    tasks: list[str] = field(default_factory=list)  # characters whose secret task was completed
    identities: list[str] = field(default_factory=list)  # every seat's identity at the end
    problem: str | None = None  # an invariant violation, a game too long, or an engine crash


def bot_seed(seed: int, seat: int) -> int:
    """Each seat's bot has its own RNG, derived from the game's seed."""
    return seed * 16 + seat


def play_one(config: GameConfig, seed: int, levels: Sequence[str], check: bool = True,
             think: float | None = None) -> GameResult:
    """One game with `levels[seat]` playing each seat; a broken game is reported, not raised."""
    from bots import make_bot
    from engine.selfplay import GameTooLong, InvariantViolation, play

    bots = [make_bot(level, seat, bot_seed(seed, seat), think) for seat, level in enumerate(levels)]
    result = GameResult(seed, tuple(levels))
    try:
        game = play(config, seed, lambda seat, view: bots[seat].decide(view), check=check,
                    observe=lambda seat, events: bots[seat].observe(events))
    except (InvariantViolation, GameTooLong) as exc:
        result.problem = str(exc)
        return result
    except Exception as exc:  # an engine or bot crash is what the simulation is looking for
        result.problem = f"seed {seed}: {type(exc).__name__}: {exc}"
        return result
    s = game.state
    result.decisions = s.decisions
    result.turns = s.turn
    result.win_reason = s.win_reason
    result.winners = list(s.winners)
    result.winning_identities = sorted({s.seats[w].identity for w in s.winners})
    result.identities = [p.identity for p in s.seats if p.identity]
    result.tasks = [str(e.data["character"]) for e in game.events if e.kind == "task_completed"]
    return result


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a win rate: honest at small n and near 0% or 100%."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def rate(wins: int, n: int) -> dict[str, object]:
    low, high = wilson(wins, n)
    return {"wins": wins, "of": n, "rate": wins / n if n else 0.0, "ci95": [round(low, 4), round(high, 4)]}


def arena(results: Sequence[GameResult], identities: Sequence[Sequence[str]]) -> dict[str, object]:
    """Win rates per level (seats of that level that won / seats played) and per faction (games won)."""
    seats: Counter[str] = Counter()
    won: Counter[str] = Counter()
    factions: Counter[str] = Counter()
    for result in results:
        if result.problem is not None:
            continue
        for seat, level in enumerate(result.levels):
            seats[level] += 1
            won[level] += seat in result.winners
        factions.update(result.winning_identities)
    games = sum(1 for r in results if r.problem is None)
    present = sorted({i for dealt in identities for i in dealt})
    return {"levels": {level: rate(won[level], seats[level]) for level in sorted(seats)},
            "factions": {ident: rate(factions[ident], games) for ident in present}}


def summarise(results: Sequence[GameResult], seconds: float) -> dict[str, object]:
    finished = [r for r in results if r.problem is None]
    turns = [r.turns for r in finished]
    decisions = sum(r.decisions for r in finished)
    return {
        "games": len(results),
        "finished": len(finished),
        "decisions": decisions,
        "mean_decisions": decisions / len(finished) if finished else 0.0,
        "mean_turns": sum(turns) / len(turns) if turns else 0.0,
        "max_turns": max(turns, default=0),
        "win_reasons": dict(Counter(str(r.win_reason) for r in finished)),
        "faction_wins": dict(Counter(i for r in finished for i in r.winning_identities)),
        "secret_tasks": dict(Counter(t for r in finished for t in r.tasks)),
        "seconds": round(seconds, 3),
        "games_per_second": round(len(results) / seconds, 1) if seconds > 0 else 0.0,
        "problems": [r.problem for r in results if r.problem is not None],
    }


def _print_summary(summary: dict[str, object], label: str) -> None:
    print(f"{label}: {summary['games']} games, {summary['decisions']} decisions "
          f"({summary['mean_decisions']:.1f} per game)")
    print(f"turns: mean {summary['mean_turns']:.1f}, max {summary['max_turns']}")
    print("win reasons: " + ", ".join(f"{k} {v}" for k, v in sorted(summary["win_reasons"].items())))  # type: ignore[attr-defined]
    print("faction wins: " + ", ".join(f"{k} {v}" for k, v in sorted(summary["faction_wins"].items())))  # type: ignore[attr-defined]
    if summary["secret_tasks"]:
        print("secret tasks completed: "
              + ", ".join(f"{k} {v}" for k, v in sorted(summary["secret_tasks"].items())))  # type: ignore[attr-defined]
    print(f"{summary['games_per_second']} games/s ({summary['seconds']} s)")
    if "arena" in summary:
        for group, rows in summary["arena"].items():  # type: ignore[attr-defined]
            for name, r in rows.items():
                low, high = r["ci95"]
                print(f"{group[:-1]} {name}: {r['rate']:.1%} of {r['of']} (95% CI {low:.1%}–{high:.1%})")
    problems: list[str] = summary["problems"]  # type: ignore[assignment]
    for problem in problems:
        print(f"VIOLATION {problem}", file=sys.stderr)
    if problems:
        print(f"{len(problems)} game(s) broke an invariant", file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    from engine import ConfigError, GameConfig, playable_configs
    from fengsheng_tui.progress import progress

    levels = args.seats or [args.level]
    if args.seats:
        args.players = len(levels)
    identities = args.identities
    if identities is None:
        playable = [name for players, name in playable_configs(args.characters) if players == args.players]
        if not playable:
            print(f"fengsheng sim: no configuration for {args.players} players is playable"
                  + ("" if args.characters else " without characters: add --characters"), file=sys.stderr)
            return 2
        identities = playable[0]
    config = GameConfig(players=args.players, identities=identities, characters=args.characters)
    try:
        config.validate()
    except ConfigError as exc:
        print(f"fengsheng sim: {exc}" + ("" if args.characters else " (or add --characters)"), file=sys.stderr)
        return 2
    if not args.seats:
        levels = [args.level] * args.players
    start = time.perf_counter()
    results = []
    with progress("games", args.games, enabled=not args.quiet) as advance:
        for k in range(args.games):
            results.append(play_one(config, args.seed + k, levels, think=args.think))
            advance(1)
    summary = summarise(results, time.perf_counter() - start)
    if args.seats:
        from engine import Game

        if config.characters:  # identities are dealt after the character pick
            dealt = [r.identities for r in results]
        else:
            dealt = [[p.identity for p in Game.new(config, args.seed + k).state.seats] for k in range(args.games)]
        summary["arena"] = arena(results, dealt)
    if args.json:
        print(json.dumps(summary, ensure_ascii=False))
    else:
        label = f"{args.players} players, {identities}{', characters' if args.characters else ''}"
        _print_summary(summary, f"{label}, level {','.join(levels)}")
    return 1 if summary["problems"] else 0
