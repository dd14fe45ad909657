"""The characters as the UI shows them: kept at this path for the code that imports it here; the
texts live with the other words, in `fengsheng_tui.i18n.characters`."""

from __future__ import annotations

from .i18n.characters import (
    GENDER,
    GENDER_SHORT,
    SKILL_EN,
    CharacterInfo,
    SkillInfo,
    base_characters,
    character_info,
    english_names,
    skill_summary,
    skill_title,
)

__all__ = ["GENDER", "GENDER_SHORT", "SKILL_EN", "CharacterInfo", "SkillInfo", "base_characters", "character_info",
           "english_names", "skill_summary", "skill_title"]
