"""What one seat believes about every other seat's identity, from what that seat has seen.

Evidence is kept as log-odds: `single[s][identity]` (this seat looks like that identity) and
`pairs[(a, b)]` (a and b look like the same side: positive, or opposite sides: negative). The
posterior enumerates every assignment of the remaining identity cards to the unknown seats, so
the identity counts of the configuration are respected ("only one more 潜伏 is out there").

Only projected events feed it: public facts (who sent what to whom, who accepted or declined a
face-up message, who burned, locked, intercepted, cancelled) and the seat's own secrets (its
identity, the probe cards it played and their answers). Nothing here can see a hidden card.
"""

from __future__ import annotations

import math
from functools import cache
from itertools import permutations

from engine.config import identity_options

MILITARY = "military"
LATENT = "latent"
NEUTRAL = "neutral"
IDENTITIES = (MILITARY, LATENT, NEUTRAL)
COLOUR_OF = {MILITARY: "blue", LATENT: "red"}
IDENTITY_OF = {"blue": MILITARY, "red": LATENT}

# Weights in log-odds units; small enough that one odd move by a careless player is forgiven.
FACE_UP_ACCEPT = 1.5  # took a face-up red/blue by choice: probably that colour's side
FACE_UP_DECLINE = 1.0  # refused a face-up red/blue: probably not that side
FACE_UP_INTERCEPT = 1.5  # 截获 on a face-up red/blue
AIMED_GIFT = 0.9  # 直达 or 锁定 then red/blue received: the sender is that side...
AIMED_PAIR = 0.8  # ...and wanted the receiver to have it: same side
AIMED_BLACK = 1.0  # 直达 or 锁定 then black received: opposite sides
LOOSE_SEND = 0.3  # a face-down 密电 sent round turned out red/blue: a hint about the sender
TRUST = 0.3  # accepted (or refused) a face-down message from a sender by choice
BURN = 1.0  # burned someone else's black: on his side
CANCEL = 0.5  # 识破 against someone's card: against him
PROBE = 9.0  # the seat's own 试探: the answer is the truth


def identity_counts(players: int, configuration: str) -> dict[str, int]:
    military, latent, neutral = identity_options(players)[configuration]
    return {MILITARY: military, LATENT: latent, NEUTRAL: neutral}


class Beliefs:
    def __init__(self, seat: int, players: int, counts: dict[str, int], identity: str | None = None) -> None:
        self.seat = seat
        self.players = players
        self.counts = counts
        self.identity = identity
        self.known: dict[int, str] = {}
        self.single = [dict.fromkeys(IDENTITIES, 0.0) for _ in range(players)]
        self.pairs: dict[tuple[int, int], float] = {}
        self._posterior: list[dict[str, float]] | None = None
        # What this seat has seen of the current turn, to judge who chose what.
        self.current = -1
        self.locked: set[int] = set()
        self.message: dict | None = None
        self.stack: list[tuple[int, dict[str, object]]] = []
        self.my_probe: dict[str, object] | None = None

    # ------------------------------------------------------------------ queries

    def posterior(self) -> list[dict[str, float]]:
        """P(identity) for every seat, respecting how many of each identity card are in play."""
        if self._posterior is None:
            self._posterior = self._enumerate()
        return self._posterior

    def prob(self, seat: int, identity: str) -> float:
        return self.posterior()[seat].get(identity, 0.0)

    def ally(self, seat: int) -> float:
        """P(seat wins when this seat's faction wins)."""
        if seat == self.seat:
            return 1.0
        if self.identity not in COLOUR_OF:
            return 0.0
        return self.prob(seat, self.identity)

    def enemy(self, seat: int) -> float:
        """P(seat belongs to the opposing faction)."""
        if seat == self.seat or self.identity not in COLOUR_OF:
            return 0.0
        other = LATENT if self.identity == MILITARY else MILITARY
        return self.prob(seat, other)

    def uncertainty(self, seat: int) -> float:
        return 1.0 - max(self.posterior()[seat].values())

    # ------------------------------------------------------------------ evidence

    def add(self, seat: int | None, identity: str, weight: float) -> None:
        if seat is None or seat == self.seat or identity not in self.single[seat]:
            return
        self.single[seat][identity] += weight
        self._posterior = None

    def add_pair(self, a: int | None, b: int | None, weight: float) -> None:
        """Evidence that a and b are on the same side (weight > 0) or on opposite sides (< 0)."""
        if a is None or b is None or a == b:
            return
        if self.seat in (a, b):
            other = b if a == self.seat else a
            if self.identity in COLOUR_OF:
                self.add(other, self.identity, weight)
            return
        key = (min(a, b), max(a, b))
        self.pairs[key] = self.pairs.get(key, 0.0) + weight
        self._posterior = None

    def reveal(self, seat: int, identity: str) -> None:
        if seat == self.seat:
            return
        self.known[seat] = identity
        self._posterior = None

    def observe(self, events: list[dict]) -> None:
        for event in events:
            handler = getattr(self, "_on_" + str(event.get("kind")), None)
            if handler is not None:
                handler(event)

    # ------------------------------------------------------------------ event handlers

    def _on_identity(self, e: dict) -> None:
        if e.get("seat") == self.seat and e.get("identity"):
            self.identity = str(e["identity"])
            self._posterior = None

    def _on_turn_start(self, e: dict) -> None:
        self.current = int(e["seat"])
        self.locked = set()
        self.message = None
        self.stack = []

    def _on_sent(self, e: dict) -> None:
        card = e.get("card")
        self.message = {"sender": e["seat"], "method": e["method"], "target": e.get("target"),
                        "face_up": e["method"] == "文本",
                        "colour": card.get("colour") if isinstance(card, dict) else None,
                        "intercepted_by": None}

    def _on_locked(self, e: dict) -> None:
        self.locked.add(int(e["seat"]))

    def _on_intercepted(self, e: dict) -> None:
        m = self.message
        if m is None:
            return
        m["intercepted_by"] = e["seat"]
        colour = m.get("colour") if m.get("face_up") else None
        if colour in IDENTITY_OF:
            self.add(int(e["seat"]), IDENTITY_OF[str(colour)], FACE_UP_INTERCEPT)
        elif colour is None:
            self.add_pair(int(e["seat"]), m["sender"], TRUST)

    def _on_declined(self, e: dict) -> None:
        m = self.message
        if m is None:
            return
        seat = int(e["seat"])
        colour = m.get("colour") if m.get("face_up") else None
        if colour in IDENTITY_OF:
            self.add(seat, IDENTITY_OF[str(colour)], -FACE_UP_DECLINE)
        elif colour is None and m["method"] == "直达":
            self.add_pair(seat, m["sender"], -TRUST)

    def _on_received(self, e: dict) -> None:
        m = self.message
        seat, colour, sender = int(e["seat"]), e["card"]["colour"], e.get("by")
        if m is None or sender is None or seat == sender:
            return
        chose = seat not in self.locked and m.get("intercepted_by") != seat
        aimed = m["target"] == seat or seat in self.locked
        if colour in IDENTITY_OF:
            side = IDENTITY_OF[colour]
            if m.get("face_up") and chose:
                self.add(seat, side, FACE_UP_ACCEPT)
            if aimed:
                self.add(int(sender), side, AIMED_GIFT)
                self.add_pair(seat, int(sender), AIMED_PAIR)
            elif not m.get("face_up"):
                self.add(int(sender), side, LOOSE_SEND)
        elif aimed:
            self.add_pair(seat, int(sender), -AIMED_BLACK)
        if chose and not m.get("face_up") and not aimed:
            self.add_pair(seat, int(sender), TRUST)

    def _on_played(self, e: dict) -> None:
        card = e.get("card") or {}
        self.stack.append((int(e["seat"]), card))
        if e.get("seat") == self.seat and card.get("function") == "试探" and card.get("probe"):
            self.my_probe = {"target": e.get("target"), "identity": card["probe"]["identity"]}

    def _on_resolved(self, e: dict) -> None:
        if self.stack:
            self.stack.pop()

    def _on_no_effect(self, e: dict) -> None:
        if self.stack:
            self.stack.pop()
        if e.get("seat") == self.seat and (e.get("card") or {}).get("function") == "试探":
            self.my_probe = None

    def _on_cancelled(self, e: dict) -> None:
        card = e.get("card") or {}
        for user, played in reversed(self.stack):
            if played.get("id") == card.get("id") and played.get("function") == card.get("function"):
                self.add_pair(int(e["by"]), user, -CANCEL)
                break

    def _on_burned(self, e: dict) -> None:
        self.add_pair(int(e["by"]), int(e["seat"]), BURN)

    def _on_probe_answer(self, e: dict) -> None:
        probe = self.my_probe
        if probe is None or probe["target"] != e.get("seat"):
            return
        self.my_probe = None
        asked = str(probe["identity"])
        yes = e.get("answer") != "say"
        self.add(int(e["seat"]), asked, PROBE if yes else -PROBE)

    def _on_died(self, e: dict) -> None:
        if e.get("identity"):
            self.reveal(int(e["seat"]), str(e["identity"]))

    _on_lost = _on_died

    # ------------------------------------------------------------------ the posterior

    def _enumerate(self) -> list[dict[str, float]]:
        unknown = [s for s in range(self.players) if s != self.seat and s not in self.known]
        pool: list[str] = []
        left = dict(self.counts)
        for ident in [self.identity, *self.known.values()]:
            if ident in left and left[ident] > 0:
                left[ident] -= 1
        for ident in IDENTITIES:
            pool.extend([ident] * max(0, left.get(ident, 0)))
        pool = (pool + [NEUTRAL] * len(unknown))[:len(unknown)]
        result = [dict.fromkeys(IDENTITIES, 0.0) for _ in range(self.players)]
        for s, ident in self.known.items():
            result[s][ident] = 1.0
        if self.identity is not None:
            result[self.seat][self.identity] = 1.0
        if not unknown:
            return result
        fixed = dict(self.known)
        if self.identity is not None:
            fixed[self.seat] = self.identity
        assignments = _assignments(tuple(sorted(pool)))
        weights = []
        for assignment in assignments:
            side = dict(fixed)
            side.update(zip(unknown, assignment, strict=True))
            w = sum(self.single[s][i] for s, i in zip(unknown, assignment, strict=True))
            for (a, b), pw in self.pairs.items():
                sa, sb = side.get(a), side.get(b)
                if sa is None or sb is None:
                    continue
                w += pw if (sa == sb and sa != NEUTRAL) else -pw
            weights.append(w)
        top = max(weights)
        exps = [math.exp(w - top) for w in weights]
        total = sum(exps)
        for assignment, x in zip(assignments, exps, strict=True):
            p = x / total
            for s, ident in zip(unknown, assignment, strict=True):
                result[s][ident] += p
        return result


@cache
def _assignments(pool: tuple[str, ...]) -> list[tuple[str, ...]]:
    """Every distinct way to deal these identity cards to the unknown seats, in a fixed order."""
    return sorted(set(permutations(pool)))
