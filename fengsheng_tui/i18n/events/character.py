"""Characters and identities: picks, flips, skills used, identities seen or shown."""

from __future__ import annotations

from .base import Sentence

KINDS = frozenset({"skill_used", "character", "character_choices", "character_picked", "identity_taken"})


def prepare(s: Sentence) -> None:
    ev, values, words = s.ev, s.values, s.words
    if s.kind == "skill_used":
        values["target"] = s.arrow("target")
    elif s.kind == "character" and "character" not in ev:
        s.kind = "character_face_down"
    elif s.kind == "character_choices" and isinstance(ev.get("characters"), list):
        sep = "、" if words.lang == "zh" else ", "
        values["characters"] = sep.join(words.character_name(c) for c in ev["characters"])
        s.kind = "character_choices_own"
    elif s.kind == "character_picked" and "character" in ev:
        s.kind = "character_picked_own"
    elif s.kind == "identity_taken":
        values["identity"] = f"{s.colon}{words.identity(ev['identity'])}" if "identity" in ev else ""
