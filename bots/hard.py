"""The `hard` level: `normal`'s judgement, checked by playing the worlds this seat cannot tell apart.

At each real decision (two options or more, at a moment whose world can be rebuilt: see
engine.worlds) it samples complete games consistent with its view and log (bots.worlds,
identities from its beliefs), plays each candidate option out in the same worlds with `normal`
as every seat's policy, to the game's end or a horizon of turns scored by the messages on the
table, and keeps the option that did best. Candidates are pruned by successive halving; `normal`'s
own choice is never pruned and is only overruled by a clear margin, so noise alone does not make
it play worse than `normal`. The budget is a time per decision (default 1 s) and/or a number of
rollouts (fixed, for tests and benchmarks); with neither ever exceeded, the decision is the same
for the same seed, view and log, whatever else is hidden.

The rollout seats other than this one believe what the public log says about the others (a
belief model of each seat fed with this seat's log, blind to its own identity until the world
gives it one); this seat's rollout bot goes on from its own beliefs.
"""

from __future__ import annotations

import math
import random
import time

from engine import worlds as W

from .beliefs import Beliefs, identity_counts
from .normal import NormalBot
from .worlds import Sampler, World

DEFAULT_BUDGET = 1.0  # seconds per decision
HORIZON = 2  # turns played on before a world is scored (None: to the end)
CANDIDATES = 6  # options searched at most (normal's choice and the default among them)
MARGIN = 0.02  # how much better than normal's choice an option must score, beyond its standard error
MIN_WORLDS = 4  # fewer worlds than this say too little to overrule normal's choice
FACTION_COLOUR = {"military": "blue", "latent": "red"}
GAIN = (0.0, 0.6, 1.6)  # worth of a faction member's count of its own colour (the third one wins)
HURT = (0.0, 0.3, 1.2)  # cost of a member's count of black messages (the third one kills)
OUT = 1.5  # a member dead or lost


class HardBot(NormalBot):
    level = "hard"
    thinks = True  # searches for up to its budget: a server runs it off the event loop (net.table)

    def __init__(self, seat: int, seed: int, budget: float | None = DEFAULT_BUDGET, rollouts: int | None = None,
                 horizon: int | None = HORIZON, candidates: int = CANDIDATES) -> None:
        super().__init__(seat, seed)
        self.budget = budget
        self.rollouts = rollouts
        self.horizon = horizon
        self.candidates = candidates
        self.search_rng = random.Random(f"hard/{seed}")
        self.events: list[dict] = []
        self.shadows: dict[int, Beliefs] = {}
        self._fed = 0
        self.searched = 0  # decisions settled by search (for benches and tests)
        self.overruled = 0  # ...of which the search chose another option than normal's
        self.spent: list[int] = []  # rollouts played per searched decision (benches: what a budget reaches)

    def observe(self, events: list[dict]) -> None:
        super().observe(events)
        self.events.extend(events)

    def decide(self, view: dict) -> str:
        start = time.perf_counter()  # the budget counts from here: reading the log for worlds is part of it
        baseline = super().decide(view)
        options = view["prompt"]["options"]
        if len(options) < 2:
            return baseline
        try:
            sampler = Sampler(view, self.events, self.b)
        except W.Unsupported:
            return baseline
        candidates = self._candidates(view, options, baseline)
        if len(candidates) < 2:
            return baseline
        self._feed_shadows(view)
        self.searched += 1
        choice = self._search(sampler, view, candidates, baseline, start)
        self.overruled += choice != baseline
        return choice

    # ------------------------------------------------------------------ search

    def _candidates(self, view: dict, options: list[dict], baseline: str) -> list[str]:
        ids = [str(o["id"]) for o in options]
        first = list(dict.fromkeys([baseline, str(view["prompt"]["default"])]))
        rest = [i for i in ids if i not in first]
        if len(first) + len(rest) <= self.candidates:
            return first + rest
        if view["prompt"]["kind"] == "send":
            scored = {str(o["id"]): self.send_value(self.cards[o["card"]], o.get("target_seat")) for o in options}
            rest.sort(key=lambda i: -scored[i])
        else:
            self.search_rng.shuffle(rest)
        return first + rest[:self.candidates - len(first)]

    def _search(self, sampler: Sampler, view: dict, candidates: list[str], baseline: str, start: float) -> str:
        deadline = None if self.budget is None else start + self.budget
        left = self.rollouts
        scores: dict[str, list[float]] = {c: [] for c in candidates}
        alive = list(candidates)
        worlds: list[World] = []
        prompt_id = int(view["prompt"]["id"])
        halve_at = 4
        while True:
            if left is not None and left < len(alive):
                break
            if deadline is not None and time.perf_counter() >= deadline and worlds:
                break
            world = sampler.sample(self.search_rng)
            worlds.append(world)
            game = sampler.game(world)
            for c in alive:
                # Every option plays on a copy of the same world, with the same future draws.
                scores[c].append(self._rollout(game.copy(), world.seed, prompt_id, c))
            if left is not None:
                left -= len(alive)
            if len(worlds) == halve_at and len(alive) > 2:
                keep = max(2, len(alive) // 2)
                ranked = sorted((c for c in alive if c != baseline), key=lambda c: -_mean(scores[c]))
                alive = [baseline, *ranked[:keep - 1]]
                halve_at *= 2
            if left is None and deadline is None:
                break
        self.spent.append(sum(len(s) for s in scores.values()))
        n = len(worlds)
        if n < MIN_WORLDS:
            return baseline
        base = scores[baseline][:n]
        best, edge = baseline, 0.0
        for c in alive:
            if c == baseline or len(scores[c]) < n:
                continue
            diffs = [a - b for a, b in zip(scores[c][-n:], base, strict=True)]
            mean = _mean(diffs)
            se = math.sqrt(sum((d - mean) ** 2 for d in diffs) / max(1, n - 1) / n) if n > 1 else 1.0
            if mean > edge and mean > MARGIN + se:
                best, edge = c, mean
        return best

    def _rollout(self, game, seed: int, prompt_id: int, option: str) -> float:  # noqa: ANN001 - an engine Game
        game.choose(self.seat, prompt_id, option)
        bots = self._rollout_bots(game, seed)

        def decide(seat: int, view: dict, events: list[dict]) -> str:
            bot = bots[seat]
            bot.observe(events)
            return bot.decide(view)

        W.play_out(game, decide, horizon=self.horizon)
        return self.score(game)

    def _rollout_bots(self, game, seed: int) -> list[NormalBot]:  # noqa: ANN001 - an engine Game
        bots = []
        for seat in range(len(game.state.seats)):
            bot = NormalBot(seat, seed * 16 + seat)
            bot.faces = self.faces  # a card's face is fixed by its id: sharing the table is harmless
            source = self.b if seat == self.seat else self.shadows.get(seat)
            if source is not None:
                bot.beliefs = source.copy()
            bots.append(bot)
        return bots

    def _feed_shadows(self, view: dict) -> None:
        """Every other seat's beliefs, as this seat's log shows the table (see the module doc)."""
        if not self.shadows:
            config = view["config"]
            players = int(config["players"])
            counts = identity_counts(players, str(config["identities"]))
            self.shadows = {s: Beliefs(s, players, counts) for s in range(players) if s != self.seat}
        new = self.events[self._fed:]
        self._fed = len(self.events)
        for b in self.shadows.values():
            b.observe(new)

    def score(self, game) -> float:  # noqa: ANN001 - an engine Game
        """This seat's outcome in a world: 1 won, 0 lost; before the end, the table's messages
        weighed for its faction (a neutral: staying in the game), squashed into (0, 1)."""
        s = game.state
        if game.over:
            return 1.0 if self.seat in s.winners else 0.0
        mine = s.seats[self.seat].identity
        colour = FACTION_COLOUR.get(mine)
        x = 0.0
        colours = game._colours
        for p in s.seats:
            side = 0.0
            if colour is None:
                side = 1.0 if p.index == self.seat else 0.0
            elif p.identity == mine:
                side = 1.0
            elif p.identity in FACTION_COLOUR:
                side = -1.0
            if not side:
                continue
            if not p.in_game:
                x -= side * OUT
                continue
            own = FACTION_COLOUR.get(p.identity)
            black = sum(1 for c in p.messages if colours[c] == "black")
            true = sum(1 for c in p.messages if colours[c] == own) if own else 0
            x += side * (GAIN[min(true, 2)] - HURT[min(black, 2)])
        return 1.0 / (1.0 + math.exp(-x))


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0
