"""Registries of the agenda: what each kind of step does, and the continuations of mid-effect prompts.

Card and character modules register here by name, so a step on the agenda stays plain data
(a kind and a dict), which keeps games copyable, hashable and replayable.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .game import Game
    from .prompts import Option
    from .state import Step

StepHandler = Callable[["Game", "Step"], None]
Continuation = Callable[["Game", "Step", "Option"], None]

STEPS: dict[str, StepHandler] = {}
CONTINUATIONS: dict[str, Continuation] = {}


def step(kind: str) -> Callable[[StepHandler], StepHandler]:
    def register(fn: StepHandler) -> StepHandler:
        assert kind not in STEPS, f"step {kind!r} registered twice"
        STEPS[kind] = fn
        return fn

    return register


def continuation(name: str) -> Callable[[Continuation], Continuation]:
    def register(fn: Continuation) -> Continuation:
        assert name not in CONTINUATIONS, f"continuation {name!r} registered twice"
        CONTINUATIONS[name] = fn
        return fn

    return register


def data(st: Step, key: str) -> Any:
    return st.data[key]
