"""Worlds a seat cannot tell apart from the real game, sampled from its view and log only.

`engine.worlds` says what the view leaves open and rebuilds a game from a filling; this module
draws the filling: the unknown identities as one joint deal from the seat's belief model
(bots.beliefs, so a seat that looks 潜伏 is 潜伏 in most worlds), face-down characters among the
hidden characters nobody has seen, and the unseen cards shuffled over every slot: a face-down
message gets a card of its method, another seat's 试探 on the stack and the used-试探 pile get
试探s (while there are any left unseen), and the rest go to the other hands, the pile and a
face-down discard pile. A world is `(Fill, seed)`: rebuilding it gives the same game again, so
every option of a decision is tried on the very same worlds.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine import worlds as W
from engine.cards import PROBE, build_deck

from .beliefs import Beliefs


@dataclass
class World:
    fill: W.Fill
    seed: int


class Sampler:
    """Worlds of one decision: `sample(rng)` draws one, `game(world)` builds it (a fresh game each
    call). Raises `engine.worlds.Unsupported` where worlds cannot be rebuilt."""

    def __init__(self, view: dict, events: list[dict], beliefs: Beliefs | None = None) -> None:
        self.reading = W.read(view, events)
        self.beliefs = beliefs
        hidden = self.reading.hidden
        deck = build_deck(self.reading.config.deck)
        self.probes = [c for c in hidden.pool if deck[c].function == PROBE]
        self.by_method: dict[str, list[int]] = {}
        for c in hidden.pool:
            self.by_method.setdefault(deck[c].method, []).append(c)
        self.deck = deck

    def sample(self, rng: random.Random) -> World:
        h = self.reading.hidden
        identities = self._identities(rng)
        characters: dict[int, str] = {}
        if h.characters:
            chosen = rng.sample(h.character_pool, len(h.characters)) if len(h.character_pool) >= len(h.characters) \
                else [rng.choice(h.character_pool or ("daofeng",)) for _ in h.characters]
            characters = dict(zip(h.characters, chosen, strict=True))
        taken: set[int] = set()

        def draw(candidates: list[int]) -> int | None:
            free = [c for c in candidates if c not in taken]
            if not free:
                return None
            card = rng.choice(free)
            taken.add(card)
            return card

        message = draw(self.by_method.get(h.message, [])) if h.message is not None else None
        if h.message is not None and message is None:
            message = draw(list(h.pool))
        probes: dict[int, int] = {}
        for index in h.probes:
            card = draw(self.probes) if self.probes else None
            probes[index] = card if card is not None else -1
        removed = []
        for _ in range(h.removed):
            card = draw(self.probes)
            if card is None:
                break
            removed.append(card)
        rest = [c for c in h.pool if c not in taken]
        rng.shuffle(rest)
        if len(removed) < h.removed:
            k = h.removed - len(removed)
            removed += rest[:k]
            rest = rest[k:]
        hands: dict[int, list[int]] = {}
        for seat, n in sorted(h.hands.items()):
            hands[seat], rest = rest[:n], rest[n:]
        pile, rest = rest[:h.pile], rest[h.pile:]
        discard = rest[:h.discard]
        fill = W.Fill(identities, characters, hands, pile, discard, removed, message, probes)
        return World(fill, rng.randrange(1 << 30))

    def _identities(self, rng: random.Random) -> dict[int, str]:
        h = self.reading.hidden
        if not h.identities:
            return {}
        if self.beliefs is not None:
            drawn = self.beliefs.sample(rng)
            if sorted(drawn) == sorted(h.identities) and sorted(drawn.values()) == sorted(h.identity_pool):
                return drawn
        pool = list(h.identity_pool)
        rng.shuffle(pool)
        return dict(zip(h.identities, pool, strict=True))

    def game(self, world: World):  # noqa: ANN201 - an engine Game, whose class this layer does not import
        return W.build(self.reading, world.fill, world.seed)


def sample_worlds(view: dict, events: list[dict], n: int, rng: random.Random,
                  beliefs: Beliefs | None = None) -> list:
    """`n` games sampled from what `view`'s seat has seen (its view and its event log)."""
    sampler = Sampler(view, events, beliefs)
    return [sampler.game(sampler.sample(rng)) for _ in range(n)]
