"""The message's journey: sent, moved, arrived, received, and what cards did to it."""

from __future__ import annotations

from .base import Sentence

KINDS = frozenset({"sent", "switched", "intercepted", "message_swapped", "message_taken"})


def prepare(s: Sentence) -> None:
    ev, values = s.ev, s.values
    if s.kind == "sent":
        values["method"] = s.words.method(ev.get("method"))
        values["target"] = s.arrow("target")
    elif s.kind == "switched":
        old = ev.get("old")
        values["old"] = s.words.aside("replaced", s.words.card(old)) if isinstance(old, dict) else ""
    elif s.kind == "intercepted" and "skill" in ev and "card" not in ev:
        s.kind = "intercepted_skill"
    elif s.kind in ("message_swapped", "message_taken") and "by" in ev:
        s.kind = f"{s.kind}_by"
        values["card"] = s.card_text() or s.words("face_down")
