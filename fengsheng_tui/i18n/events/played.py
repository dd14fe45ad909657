"""Function cards played, and what became of them: a card, a skill as a card, a card as another."""

from __future__ import annotations

from collections.abc import Mapping

from .base import Sentence

KINDS = frozenset({"played", "no_effect"})
#: The passive skill that lets a character play a card as another function (engine module = character id).
AS_FUNCTION_SKILL = {"daofeng": "亮剑", "beileimao": "换日", "zhiyeshashou": "预谋"}


def prepare(s: Sentence) -> None:
    if s.kind == "no_effect":
        if "skill" in s.ev and "card" not in s.ev:
            s.kind = "no_effect_skill"
        elif s.ev.get("reason") == "locked":
            s.kind = "no_effect_locked"
        return
    s.kind = played(s)


def played(s: Sentence) -> str:
    """`played`, or how it was played: a skill that counts as a card, a card used as another."""
    ev, values, words = s.ev, s.values, s.words
    values["target"] = s.arrow("target")
    tc = ev.get("target_card")
    values["target_card"] = words.aside("on", words.card(tc)) if isinstance(tc, dict) else ""
    card = ev.get("card")
    if isinstance(card, dict) and card.get("skill"):
        values["skill"] = words.skill(card["skill"])
        values["function"] = words.function(card.get("function"))
        itself = card.get("function") in (card["skill"], None) or values["function"] == values["skill"]
        return "skill_as_itself" if itself else "skill_as_card"
    if "function" in ev:
        values["function"] = words.function(ev["function"])
        user = ev.get("seat")
        seats = s.seats
        character = seats[user].get("character") if isinstance(user, int) and 0 <= user < len(seats) else None
        skill = AS_FUNCTION_SKILL.get(str(character.get("id"))) if isinstance(character, Mapping) else None
        title = words.skill(skill) if skill else ""
        values["skill"] = (f"【{title}】" if words.lang == "zh" else f" ({title})") if title else ""
        return "played_as"
    return "played"
