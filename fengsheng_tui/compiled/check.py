"""The games both engines must play alike: how a compiled build is verified before it is used.

`python -P -m fengsheng_tui.compiled.check --source DIR` plays them on the interpreted engine of
DIR; `--build DIR` on a build (put first on `sys.path`; every module with a compiled file there
must be imported from it). Each prints one JSON line of fingerprints, and `build.py` compares the
two: the interpreted engine is the reference, so no pinned figure goes stale when a rule changes.

A fingerprint is, for one seeded game of random choices seen through views with the invariants
checked (the golden games' decider): the final state hash, a hash of every seat's event log, the
decision count, the engine's refusals (wrong seat, closed prompt, made-up option, game over: class,
code, message, as a server sends them back); and the same game replayed from its choices to
halfway, copied there, and the copy played on must end in the same state (search plays copies;
the check fails if not). The full set adds games
with a `hard` seat at a fixed rollout count (worlds sampled from a view and played out), whose
decisions must also be the same.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import sys
from pathlib import Path

#: (players, identities, characters): every table kind the engine plays, 3 to 9 seats.
TABLES = [(4, "novice", False), (6, "3v3", False), (3, "default", True), (5, "default", True),
          (6, "3v3", True), (7, "alt", True), (9, "default", True)]
SETS: dict[str, dict[str, list]] = {
    "full": {"random": [(*t, seed) for t in TABLES for seed in range(3)],
             "hard": [(6, "3v3", False, 0), (5, "default", True, 0)]},
    "quick": {"random": [(4, "novice", False, 0), (5, "default", True, 1)], "hard": []},
}
HARD_ROLLOUTS = 8


def random_game(players: int, identities: str, characters: bool, seed: int) -> list:
    from bots.random_bot import random_decider
    from engine import Game, GameConfig, events_for
    from engine.selfplay import play

    config = GameConfig(players=players, identities=identities, characters=characters)
    game = play(config, seed, random_decider(seed))
    logs = [events_for(game, seat) for seat in range(players)]
    seen = hashlib.sha256(json.dumps(logs, sort_keys=True, ensure_ascii=False).encode()).hexdigest()
    replayed = Game.new(config, seed)
    half = len(game.choices) // 2
    for seat, prompt_id, option in game.choices[:half]:
        replayed.choose(seat, prompt_id, option)
    refused = refusals(replayed) + refusals(game)
    copy = replayed.copy()
    for seat, prompt_id, option in game.choices[half:]:
        copy.choose(seat, prompt_id, option)
    if copy.state_hash() != game.state_hash():
        raise SystemExit(f"a copy of game {players, identities, characters, seed} went astray")
    return [players, identities, characters, seed, game.state_hash(), seen, game.state.decisions, refused]


def refusals(game) -> list[list]:  # noqa: ANN001 - an engine Game
    """What the engine says to the wrong seat, a closed prompt, a made-up option, a finished game
    (what a server sends back as a typed error): class, code and message of each refusal."""
    from engine import ChoiceError

    open_prompts = game.pending()
    prompt = open_prompts[0] if open_prompts else None
    idle = next((s for s in range(len(game.state.seats)) if s not in game.prompts), 0)
    attempts = [(0, 0, "x")] if prompt is None else [
        (idle, prompt.id, prompt.default), (prompt.seat, prompt.id + 1, prompt.default),
        (prompt.seat, prompt.id, "no such option")]
    said = []
    for seat, prompt_id, option in attempts:
        try:
            game.choose(seat, prompt_id, option)
            said.append(["accepted"])
        except ChoiceError as exc:
            said.append([type(exc).__name__, exc.code, str(exc)])
    return said


def hard_game(players: int, identities: str, characters: bool, seed: int) -> list:
    from bots import Bot, make_bot
    from bots.hard import HardBot
    from engine import GameConfig
    from engine.selfplay import play

    config = GameConfig(players=players, identities=identities, characters=characters)
    hard = HardBot(0, seed, budget=None, rollouts=HARD_ROLLOUTS, candidates=3)
    bots: list[Bot] = [hard]
    bots += [make_bot("normal", seat, seed * 16 + seat) for seat in range(1, players)]
    game = play(config, seed, lambda seat, v: bots[seat].decide(v),
                observe=lambda seat, events: bots[seat].observe(events))
    return [players, identities, characters, seed, game.state_hash(), game.state.decisions, hard.searched,
            hard.overruled]


def fingerprints(which: str) -> list[list]:
    cases = SETS[which]
    return [random_game(*c) for c in cases["random"]] + [hard_game(*c) for c in cases["hard"]]


def compiled_modules(build: Path) -> list[str]:
    """The engine modules that have a compiled file in `build`."""
    from fengsheng_tui.compiled.loader import extension_suffix

    suffix = extension_suffix()
    names = []
    for path in sorted((build / "engine").rglob(f"*{suffix}")):
        parts = path.relative_to(build).with_name(path.name.removesuffix(suffix)).parts
        if not parts[-1].endswith("__mypyc"):
            names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m fengsheng_tui.compiled.check")
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--source", type=Path, help="the interpreted engine package this must import")
    where.add_argument("--build", type=Path, help="a build folder, imported ahead of the source")
    parser.add_argument("--set", choices=SETS, default="full")
    args = parser.parse_args(argv)
    if args.build is not None:
        sys.path.insert(0, str(args.build))
        for name in compiled_modules(args.build):
            module = importlib.import_module(name)
            if not Path(str(module.__file__)).is_relative_to(args.build):
                raise SystemExit(f"{name} was imported from {module.__file__}, not from the build")
    else:
        import engine

        if Path(str(engine.__file__)).parent.resolve() != args.source.resolve():
            raise SystemExit(f"the engine was imported from {engine.__file__}, not from {args.source}")
    print(json.dumps(fingerprints(args.set)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
