"""The rules of 风声 (original edition): pure Python, no I/O, no clocks, randomness only from a seeded RNG."""

from .config import ConfigError, GameConfig, identity_options, playable_configs
from .game import Game, Setup
from .prompts import ChoiceError, GameIsOver, IllegalOption, NoPrompt, Option, Prompt, StalePrompt
from .view import events_for, view

__all__ = [
    "ChoiceError", "ConfigError", "Game", "GameConfig", "GameIsOver", "IllegalOption", "NoPrompt",
    "Option", "Prompt", "Setup", "StalePrompt", "events_for", "identity_options", "playable_configs", "view",
]
