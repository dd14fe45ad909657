"""The `random` level: a uniformly random legal option, passing most response windows."""

from __future__ import annotations

import random
from collections.abc import Callable

PASS_PROBABILITY = 0.8


class RandomBot:
    level = "random"

    def __init__(self, seat: int, seed: int) -> None:
        self.seat = seat
        self.rng = random.Random(seed)

    def observe(self, events: list[dict]) -> None:
        """Random play learns nothing."""

    def decide(self, view: dict) -> str:
        prompt = view["prompt"]
        if prompt["kind"] == "response" and self.rng.random() < PASS_PROBABILITY:
            return str(prompt["default"])
        return str(self.rng.choice(prompt["options"])["id"])


def random_decider(seed: int) -> Callable[[int, dict], str]:
    """One random player deciding for every seat from one RNG: the decider of the golden games,
    the engine bench and the compiled engine's verification (`engine.selfplay.play`)."""
    bot = RandomBot(0, seed)
    return lambda seat, view: bot.decide(view)
