"""试探: its answer (with the whole question for the seats that saw the card), a concealed answer."""

from __future__ import annotations

from collections.abc import Mapping

from ..catalogs import EVENTS
from .base import Sentence

KINDS = frozenset({"probe_answer", "probe_concealed", "probe_read"})


def detail(s: Sentence, face: object) -> str:
    """` (asks about Latent: yes → draw cards, no → says "...")`."""
    return EVENTS[s.words.lang]["probe_detail"].format(probe=s.words.probe_text(face if isinstance(face, Mapping) else None))


def prepare(s: Sentence) -> None:
    ev, values = s.ev, s.values
    if s.kind == "probe_concealed":
        answer = ev.get("answer")
        values["answer"] = f"{s.colon}{s.words(str(answer))}" if answer in ("answer_yes", "answer_no") else ""
    elif s.kind == "probe_read":
        card = s.card_text()
        if card:
            values["card"] = f"{s.colon}{card}{detail(s, ev.get('card'))}"
    elif s.kind == "probe_answer":
        s.kind = f"probe_answer_{ev.get('answer')}"
        values["line"] = s.words.probe_line(ev.get("line", ""))
        if isinstance(ev.get("probe"), Mapping):
            s.suffix = detail(s, ev["probe"])
