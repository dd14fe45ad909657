"""Event → sentence, by family: each module prepares the kinds of one family (its sentences are the
family of the same name in the catalogs' `EVENTS`); the rest is shared and done here.

Secret parts (a card, cards, an identity) are in the event only for the seats that may see them,
and then the sentence shows them: `COLON_CARD` kinds say `：card` to those seats and nothing to the rest.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..catalogs import EVENTS
from . import character, end, message, played, probe
from .base import Sentence

if TYPE_CHECKING:
    from ..words import Words

#: Kinds whose card is a secret part: `：card` for the seats that see it, nothing for the rest.
COLON_CARD = frozenset({
    "sent", "probe_discarded", "decrypted", "card_given", "card_seen", "hand_card_taken", "message_inspected",
    "discarded", "put_back", "put_on_pile", "returned_to_pile", "message_swapped", "probe_read",
})
#: Event fields that name a seat.
SEAT_KEYS = ("seat", "by", "origin", "to", "source", "user")
#: Kinds whose `identity` field is shown as a word.
IDENTITY_KINDS = frozenset({"identity", "died", "lost", "identity_revealed", "identity_shown"})
#: Raw event kind → the family module that prepares it (kinds absent need only the shared part).
PREPARE: dict[str, Callable[[Sentence], None]] = {
    kind: module.prepare for module in (message, played, probe, character, end) for kind in module.KINDS
}


def sentence(words: Words, ev: Mapping[str, Any], seats: Sequence[Mapping[str, Any]], me: int | None) -> str | None:
    """One event as a sentence; None for events that carry nothing worth a line."""
    kind = str(ev.get("kind", ""))
    if kind == "identity" and "identity" not in ev:
        return None
    s = Sentence(words, ev, seats, me, kind)
    values = s.values
    values.update({k: v for k, v in ev.items() if k not in ("kind", "seq")})
    values["kind"] = kind
    for key in SEAT_KEYS:
        if key in ev:
            values[key] = s.seat(ev.get(key))
    if kind in IDENTITY_KINDS:
        values["identity"] = words.identity(ev.get("identity"))
    cards = ev.get("cards")
    values["cards"] = s.colon + " ".join(words.card(c) for c in cards) if isinstance(cards, list) and cards else ""
    card_text = s.card_text()
    if kind in COLON_CARD:
        values["card"] = f"{s.colon}{card_text}" if card_text else ""
    else:
        values["card"] = card_text or words("face_down")
    if "character" in ev:
        values["character"] = words.character_name(ev["character"])
    if "skill" in ev:
        values["skill"] = words.skill(ev["skill"])
    prepare = PREPARE.get(kind)
    if prepare is not None:
        prepare(s)
    if ev.get("count") == 1 and words.event_template(f"{s.kind}_one") is not None:
        s.kind = f"{s.kind}_one"  # "drew 1 card", never "1 cards"
    template = words.event_template(s.kind)
    if template is None:
        return generic(words, ev, values)
    try:
        return template.format(**values) + s.suffix
    except (KeyError, IndexError):
        return generic(words, ev, values)


def generic(words: Words, ev: Mapping[str, Any], values: Mapping[str, object]) -> str:
    """An event this client has no sentence for (a newer server, a new skill): still one line."""
    kind = str(ev.get("kind", "")).replace("_", " ")
    table = EVENTS[words.lang]
    if "seat" in ev:
        return table["unknown_seat"].format(seat=values.get("seat", "?"), kind=kind)
    return table["unknown"].format(kind=kind)
