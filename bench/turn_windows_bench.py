"""What the turn-start and turn-end windows (issue 11 item 2) cost at a table, in waits and seconds.

Games of `normal` bots on the bare engine. A *wait* is one round of prompts the table must wait
for: a window asks its seats at once and settles when the last answers, so it is one wait however
many seats it asks. At a server table every wait lasts at least the bot delay (`net.table.BOT_DELAY`,
0.6 s; a quarter of it in a turn window, `TURN_WINDOW_BOT_SHARE`), and a human's automatic pass of
a turn window he can do nothing in comes after 0.3–0.9 s (`TURN_AUTO_PASS_DELAY`, 0.6 s on average). Reported per game and per turn:
waits, the turn windows among them, and for seat 0 (taken as the human) how many turn-window
prompts he meets and how many of those offer him anything but pass (the ones he must look at).
Run: `.venv/bin/python bench/turn_windows_bench.py [--games N]`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bots import make_bot  # noqa: E402
from engine import Game, GameConfig, view  # noqa: E402
from engine.state import TURN_STEPS  # noqa: E402

BOT_DELAY = 0.6
TURN_WINDOW_BOT_DELAY = BOT_DELAY * 0.25  # net.table.TURN_WINDOW_BOT_SHARE
AUTO_PASS_MEAN = 0.6  # fengsheng_tui.screens.table.TURN_AUTO_PASS_DELAY (0.3–0.9 s)
CONFIGS = [(4, "novice", False), (6, "3v3", False), (5, "default", True)]


def one_game(config: GameConfig, seed: int) -> dict[str, int]:
    game = Game.new(config, seed)
    bots = {s: make_bot("normal", s, seed * 31 + s) for s in range(config.players)}
    counts = dict.fromkeys(("waits", "turn_waits", "human_turn_prompts", "human_turn_usable", "human_waits_turn"), 0)
    seen_window = None
    last_round: frozenset[int] = frozenset()
    while not game.over:
        prompts = game.pending()
        ids = frozenset(p.id for p in prompts)
        w = game.state.window
        if not ids & last_round:  # a fresh round of prompts: one more wait
            counts["waits"] += 1
            turn = w is not None and w.step in TURN_STEPS and any(p.kind == "response" for p in prompts)
            if turn:
                counts["turn_waits"] += 1
            if turn and w is not seen_window and 0 in game.prompts:
                counts["human_turn_prompts"] += 1
                if any(o.verb != "pass" for o in game.prompts[0].options):
                    counts["human_turn_usable"] += 1
            seen_window = w
        last_round = ids
        prompt = min(prompts, key=lambda p: game.priority_key(p.seat))
        game.choose(prompt.seat, prompt.id, bots[prompt.seat].decide(view(game, prompt.seat)))
    counts["turns"] = game.state.turn
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=40)
    args = parser.parse_args()
    for players, identities, characters in CONFIGS:
        config = GameConfig(players=players, identities=identities, characters=characters)
        total: dict[str, int] = {}
        for seed in range(args.games):
            for k, v in one_game(config, seed).items():
                total[k] = total.get(k, 0) + v
        g, turns = args.games, total["turns"]
        print(f"{players} players, {identities}, {'characters' if characters else 'no characters'}: "
              f"{turns / g:.1f} turns/game")
        print(f"  waits/game {total['waits'] / g:6.1f}, of them turn windows {total['turn_waits'] / g:5.1f} "
              f"({100 * total['turn_waits'] / total['waits']:.0f}%); per turn {total['turn_waits'] / turns:.2f}")
        tw = total["turn_waits"] / g
        base = (total["waits"] - total["turn_waits"]) / g * BOT_DELAY
        print(f"  all-bot table: +{tw * TURN_WINDOW_BOT_DELAY:.0f} s/game on {base:.0f} s "
              f"(+{100 * tw * TURN_WINDOW_BOT_DELAY / base:.0f}%; +{100 * tw * BOT_DELAY / base:.0f}% if bots "
              f"waited the full {BOT_DELAY} s), +{total['turn_waits'] / turns * TURN_WINDOW_BOT_DELAY:.2f} s/turn "
              f"on {base * g / turns:.1f} s/turn")
        per_turn = total["human_turn_prompts"] / turns
        usable = total["human_turn_usable"] / turns
        bots_only = total["turn_waits"] / turns - per_turn
        extra = per_turn * AUTO_PASS_MEAN + bots_only * TURN_WINDOW_BOT_DELAY
        print(f"  seat 0 as the human: {per_turn:.2f} turn-window prompts/turn, {usable:.2f} with something "
              f"usable (the rest auto-passed after ~{AUTO_PASS_MEAN} s, which holds its window that long): "
              f"+{extra:.2f} s/turn at a table of bots")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
