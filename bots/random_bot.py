"""The `random` level: a uniformly random legal option, passing most response windows.

Like every bot it sees only a seat's view (the dict `engine.view` builds), never the game.
"""

from __future__ import annotations

import random

PASS_PROBABILITY = 0.8


def decide(view: dict, rng: random.Random) -> str:  # type: ignore[type-arg]
    """The option id this seat answers to its open prompt."""
    prompt = view["prompt"]
    options = prompt["options"]
    if prompt["kind"] == "response" and rng.random() < PASS_PROBABILITY:
        return str(prompt["default"])
    return str(rng.choice(options)["id"])
