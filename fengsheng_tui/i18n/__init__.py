"""Every word the terminal game shows, in Chinese (the default) and English.

- `zh.py`, `en.py`: one catalog per language, plain data (what a translator edits);
- `catalogs.py`: those tables by language (`UI["en"]`, `EVENTS["zh"]`, ...);
- `words.py`: `Words`, one language's words and the engine's vocabulary (cards, colours, identities);
- `events/`: the sentence of each event kind, one module per family (messages, cards played,
  probes, hands, characters, the end of a game).

Nothing here imports Textual, so it is cheap and testable on its own.
"""

from __future__ import annotations

from .catalogs import (
    ABBREVIATIONS,
    CARD_HELP,
    COLOUR,
    COLOUR_WORD,
    DECK,
    ERRORS,
    EVENTS,
    FUNCTION_EN,
    IDENTITY,
    IDENTITY_SHORT,
    KEY_NAMES,
    LANGS,
    LINEUP,
    METHOD_EN,
    PHASE,
    PROBE_LINE_EN,
    QUICK_CHAT,
    RULES_SUMMARY,
    TIMER_KIND,
    UI,
)
from .words import Words

__all__ = [
    "ABBREVIATIONS", "CARD_HELP", "COLOUR", "COLOUR_WORD", "DECK", "ERRORS", "EVENTS", "FUNCTION_EN", "IDENTITY",
    "IDENTITY_SHORT", "KEY_NAMES", "LANGS", "LINEUP", "METHOD_EN", "PHASE", "PROBE_LINE_EN", "QUICK_CHAT", "RULES_SUMMARY",
    "TIMER_KIND", "UI", "Words",
]
