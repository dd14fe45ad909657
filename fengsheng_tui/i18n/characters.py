"""The 25 base characters as the UI shows them: names, gender, skills and secret tasks in zh and en.

Read from the engine's copy of the rules data (engine/data/characters.json), not from the engine's
registry: the pick screen and the help screen must describe every character, implemented or not.
The data names skills in Chinese only; the English catalog's `SKILL` gives each an English name.
Words come from the catalogs alone (never from `Words`), so this module and `Words` import one way.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

from .catalogs import FUNCTION_EN, GENDER, GENDER_SHORT, METHOD_EN, SKILL_EN

__all__ = ["GENDER", "GENDER_SHORT", "SKILL_EN", "CharacterInfo", "SkillInfo", "base_characters",
           "character_info", "english_names", "skill_summary", "skill_title"]


@dataclass(frozen=True)
class SkillInfo:
    name: str  # the Chinese name: what prompts and events carry
    flip: bool
    summary_zh: str
    summary_en: str

    def title(self, lang: str) -> str:
        return SKILL_EN.get(self.name, self.name) if lang == "en" else self.name

    def summary(self, lang: str) -> str:
        return english_names(self.summary_en) if lang == "en" else self.summary_zh


@dataclass(frozen=True)
class CharacterInfo:
    id: str
    name_zh: str
    name_en: str
    gender: str
    hidden: bool
    skills: tuple[SkillInfo, ...]
    task_zh: str | None
    task_en: str | None

    def name(self, lang: str) -> str:
        return self.name_en if lang == "en" else self.name_zh

    def task(self, lang: str) -> str | None:
        return english_names(self.task_en) if lang == "en" and self.task_en else self.task_zh


@cache
def base_characters() -> dict[str, CharacterInfo]:
    """Every base-set character by id, in the data's order."""
    text = resources.files("engine").joinpath("data/characters.json").read_text(encoding="utf-8")
    out: dict[str, CharacterInfo] = {}
    for c in json.loads(text)["characters"]:
        if c.get("set") != "base":
            continue
        task = c.get("secret_task") or {}
        out[c["id"]] = CharacterInfo(
            id=c["id"], name_zh=c["name_zh"], name_en=c["name_en"], gender=c["gender"], hidden=bool(c["hidden"]),
            skills=tuple(SkillInfo(s["name_zh"], bool(s.get("flip")), s.get("summary_zh", ""), s.get("summary_en", ""))
                         for s in c["skills"]),
            task_zh=task.get("summary_zh"), task_en=task.get("summary_en"),
        )
    return out


#: A run of Chinese characters inside an English text.
HAN = re.compile(r"[\u4e00-\u9fff]+")


def english_names(text: str) -> str:
    """The data's English texts still name cards, methods and characters in Chinese (试探, 密电,
    老金): each such name in English, as the rest of the English UI writes it."""
    names = {**FUNCTION_EN, **METHOD_EN, **SKILL_EN, **{c.name_zh: c.name_en for c in base_characters().values()}}
    return HAN.sub(lambda m: names.get(m.group(), m.group()), text)


def character_info(cid: object) -> CharacterInfo | None:
    return base_characters().get(str(cid)) if cid is not None else None


def skill_title(name: object, lang: str) -> str:
    text = str(name)
    return SKILL_EN.get(text, text) if lang == "en" else text


def skill_summary(name: object, lang: str, character: object = None) -> str | None:
    """A skill's rule text (looked up in `character` first: 就计 belongs to two characters)."""
    info = character_info(character)
    pool = [info] if info is not None else []
    pool += list(base_characters().values())
    for c in pool:
        for s in c.skills:
            if s.name == name:
                return s.summary(lang)
    return None
