"""The 25 base characters as the UI shows them: names, gender, skills and secret tasks in zh and en.

Read from the engine's copy of the rules data (engine/data/characters.json), not from the engine's
registry: the pick screen and the help screen must describe every character, implemented or not.
The data names skills in Chinese only; `SKILL_EN` gives each an English name for English mode.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

SKILL_EN = {
    "就计": "Counterplot", "城府": "Poker Face", "遗志": "Last Will", "合谋": "Collusion",
    "弃卒保帅": "Sacrifice a Pawn", "釜底抽薪": "Cut the Fuel", "速译": "Quick Decode", "洞悉": "Insight",
    "潜藏伏击": "Ambush", "黄雀在后": "Oriole Behind", "血染玫瑰": "Blood Rose", "警觉": "Alert",
    "掩护": "Cover", "狙击": "Snipe", "先机": "First Move", "后著": "Follow-up", "截上截": "Double Intercept",
    "计中计": "Plot in a Plot", "拷问": "Interrogate", "搜取": "Search", "精明": "Shrewd", "爱情": "Love",
    "攻守兼备": "Attack and Defend", "临危受命": "Called in Crisis", "敏锐": "Keen", "联动": "Linkage",
    "风度": "Grace", "英雄": "Hero", "救美": "Rescue the Beauty", "亮剑": "Draw the Sword",
    "嗜血": "Bloodthirst", "英雄本色": "A Better Tomorrow", "笑里藏刀": "Dagger in a Smile",
    "运筹帷幄": "Master Plan", "预谋": "Premeditation", "连击": "Combo", "声东击西": "Feint",
    "弹药无限": "Endless Ammo", "揭露": "Expose", "真相": "Truth", "隔墙有耳": "Walls Have Ears",
    "偷龙转凤": "Switch", "乔装": "Disguise", "收买": "Bribe", "败露": "Exposed", "换日": "Swap the Sun",
    "偷天": "Steal the Sky", "阴谋": "Scheme", "阳谋": "Open Plot",
}
GENDER = {
    "zh": {"M": "男", "F": "女", "both": "男/女"},
    "en": {"M": "male", "F": "female", "both": "male/female"},
}
GENDER_SHORT = {"zh": {"M": "男", "F": "女", "both": "男女"}, "en": {"M": "M", "F": "F", "both": "MF"}}


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
    from .i18n import FUNCTION_EN, METHOD_EN

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
