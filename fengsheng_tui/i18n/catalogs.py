"""The catalogs by language, and the tables the rest of the code reads from them.

A catalog (`zh.py`, `en.py`) is plain data a translator edits; this module only gathers them:
`UI["en"]` is `en.UI`, `EVENTS["en"]` the English sentences of every family in one table.
It imports nothing of the game, so `character_data` can read words from it without a circle.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from . import en, zh

CATALOGS: dict[str, ModuleType] = {"zh": zh, "en": en}
LANGS = tuple(CATALOGS)


def table(name: str) -> dict[str, Any]:
    """One table of every catalog, by language: `table("UI")["zh"]`."""
    return {lang: getattr(module, name) for lang, module in CATALOGS.items()}


#: The event families (turn, message, played, probe, hand, character, end, unknown), in order.
FAMILIES: dict[str, tuple[str, ...]] = {family: tuple(kinds) for family, kinds in zh.EVENTS.items()}

UI: dict[str, dict[str, str]] = table("UI")
EVENTS: dict[str, dict[str, str]] = {
    lang: {kind: text for family in module.EVENTS.values() for kind, text in family.items()}
    for lang, module in CATALOGS.items()
}
PHASE: dict[str, dict[str, str]] = table("PHASE")
COLOUR: dict[str, dict[str, str]] = table("COLOUR")
COLOUR_WORD: dict[str, dict[str, str]] = table("COLOUR_WORD")
IDENTITY: dict[str, dict[str, str]] = table("IDENTITY")
IDENTITY_SHORT: dict[str, dict[str, str]] = table("IDENTITY_SHORT")
KEY_NAMES: dict[str, dict[str, str]] = table("KEY_NAMES")
ERRORS: dict[str, dict[str, str]] = table("ERRORS")
LINEUP: dict[str, dict[str, str]] = table("LINEUP")
DECK: dict[str, dict[str, str]] = table("DECK")
TIMER_KIND: dict[str, dict[str, str]] = table("TIMER_KIND")
GENDER: dict[str, dict[str, str]] = table("GENDER")
GENDER_SHORT: dict[str, dict[str, str]] = table("GENDER_SHORT")
CARD_HELP: dict[str, dict[str, str]] = table("CARD_HELP")
ABBREVIATIONS: dict[str, list[str]] = table("ABBREVIATIONS")
RULES_SUMMARY: dict[str, list[str]] = table("RULES_SUMMARY")
QUICK_CHAT: dict[str, list[str]] = table("QUICK_CHAT")
FUNCTION_EN: dict[str, str] = en.FUNCTION
METHOD_EN: dict[str, str] = en.METHOD
SKILL_EN: dict[str, str] = en.SKILL
PROBE_LINE_EN: dict[str, str] = en.PROBE_LINE
