"""Game cards: every card is both a function card and a potential message.

The deck is data (`data/deck.json`, copied from the rules); a `Card` is its immutable face.
Card ids are positions in the built deck; an id is only ever shown together with the face.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

# Function names, as printed on the cards.
LOCK = "锁定"
LURE = "调虎离山"
INTERCEPT = "截获"
SEND_BACK = "退回"
DECRYPT = "破译"
BURN = "烧毁"
SEE_THROUGH = "识破"
PROBE = "试探"
TRUTH_OR_FALSE = "真伪莫辨"
# Later edition only (deck variant `later`, CARDS.md Part B).
TRANSFER = "转移"
SWITCH = "调包"
REINFORCE = "增援"
GAMBLE = "博弈"
WEIGH = "权衡"

FUNCTIONS = (LOCK, LURE, INTERCEPT, SEND_BACK, DECRYPT, BURN, SEE_THROUGH, PROBE, TRUTH_OR_FALSE,
             TRANSFER, SWITCH, REINFORCE, GAMBLE, WEIGH)

# Transmission methods.
SECRET = "密电"
DIRECT = "直达"
TEXT = "文本"
METHODS = (SECRET, DIRECT, TEXT)

RED = "red"
BLUE = "blue"
BLACK = "black"
COLOURS = (RED, BLUE, BLACK)


@dataclass(frozen=True, slots=True)
class ProbeVariant:
    """What a 试探 asks: which identity, and what a 'yes' does (draw or discard)."""

    identity: str  # "latent" | "military" | "neutral"
    on_yes: str  # "draw" | "discard"
    on_no_say: str


@dataclass(frozen=True, slots=True)
class Card:
    id: int
    function: str
    colour: str
    method: str
    probe: ProbeVariant | None = None

    def face(self) -> dict[str, object]:
        """The card as shown face-up to a player."""
        face: dict[str, object] = {
            "id": self.id,
            "function": self.function,
            "colour": self.colour,
            "method": self.method,
        }
        if self.probe is not None:
            face["probe"] = {
                "identity": self.probe.identity,
                "on_yes": self.probe.on_yes,
                "on_no_say": self.probe.on_no_say,
            }
        return face


IDENTITY_BY_NAME = {"潜伏战线": "latent", "军情处": "military", "打酱油的": "neutral"}


@cache
def deck_data() -> dict[str, Any]:
    text = resources.files("engine").joinpath("data/deck.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def deck_variants() -> tuple[str, ...]:
    return tuple(deck_data()["variants"])


@cache
def card_colours(variant: str) -> tuple[str, ...]:
    """By card id, the colour of each card of a variant (colours are counted after every step)."""
    return tuple(card.colour for card in build_deck(variant))


@cache
def plain_faces(variant: str) -> tuple[dict[str, object] | None, ...]:
    """By card id, the face of each card of a variant as `Card.face` gives it, for `Game.face` to
    copy (a copy is twice as quick to make); None for a 试探, whose face holds a dict of its own."""
    return tuple(None if card.probe is not None else card.face() for card in build_deck(variant))


@cache
def build_deck(variant: str = "resolved") -> tuple[Card, ...]:
    """The deck of a variant, in a fixed canonical order (the seed shuffles it later)."""
    data = deck_data()
    if variant not in data["variants"]:
        raise ValueError(f"unknown deck variant {variant!r}; known: {', '.join(data['variants'])}")
    probes = [
        ProbeVariant(IDENTITY_BY_NAME[p["probes"]], p["on_yes"], p["on_no_say"])
        for p in data["probe_variants"]["variants"]
    ]
    cards: list[Card] = []
    for entry in data["variants"][variant]["cards"]:
        (colour,) = entry["colours"]
        for i in range(entry["count"]):
            probe = probes[i % len(probes)] if entry["function"] == PROBE else None
            cards.append(Card(len(cards), entry["function"], colour, entry["transmission"], probe))
    return tuple(cards)
