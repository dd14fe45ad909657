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
import random
from collections.abc import Callable
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
PLACED_BLACK = 1.0  # a skill put a black message from its owner's hand in front of someone: against him
RESCUE = 2.0  # 救美 or 掩护 took blacks off someone at a price: on his side


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
        self.rescued_by: int | None = None  # 救美 was used; the 'saved' event names who was saved

    # ------------------------------------------------------------------ queries

    def posterior(self) -> list[dict[str, float]]:
        """P(identity) for every seat, respecting how many of each identity card are in play."""
        if self._posterior is None:
            self._posterior = self._enumerate()
        return self._posterior

    def prob(self, seat: int, identity: str) -> float:
        posterior = self._posterior  # asked tens of thousands of times per search: no call when known
        if posterior is None:
            posterior = self.posterior()
        return posterior[seat].get(identity, 0.0)

    def ally(self, seat: int) -> float:
        """P(seat wins when this seat's faction wins)."""
        if seat == self.seat:
            return 1.0
        identity = self.identity
        if identity not in COLOUR_OF:
            return 0.0
        return self.prob(seat, identity)

    def enemy(self, seat: int) -> float:
        """P(seat belongs to the opposing faction)."""
        identity = self.identity
        if seat == self.seat or identity not in COLOUR_OF:
            return 0.0
        return self.prob(seat, LATENT if identity == MILITARY else MILITARY)

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

    def follow_identity(self, identity: object) -> None:
        """The seat's own identity as its view shows it: dealt after the character pick, and
        致命香水's 临危受命 can exchange it mid-game."""
        if identity and identity != self.identity:
            self.identity = str(identity)
            self._posterior = None

    def observe(self, events: list[dict]) -> None:
        handlers = _HANDLERS
        for event in events:
            handler = handlers.get(event.get("kind"))  # type: ignore[arg-type]
            if handler is not None:
                handler(self, event)

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

    def _on_identity_revealed(self, e: dict) -> None:
        """爱情, 救美, 合谋 and 黄雀在后 show the identity card to everyone."""
        if e.get("identity"):
            self.reveal(int(e["seat"]), str(e["identity"]))

    _on_identity_shown = _on_identity_revealed

    def _on_obtained(self, e: dict) -> None:
        """A message placed by a skill (英雄本色, 连击, 笑里藏刀, 血染玫瑰, 黄雀在后...): black from
        someone else's hand is an attack on the receiver."""
        by, seat = e.get("by"), int(e["seat"])
        if by is None or int(by) == seat or (e.get("card") or {}).get("colour") != "black":
            return
        self.add_pair(int(by), seat, -PLACED_BLACK)

    def _on_message_taken(self, e: dict) -> None:
        """掩护 takes a black message off someone onto its owner: on the same side."""
        by = e.get("by")
        if by is not None and (e.get("card") or {}).get("colour") == "black":
            self.add_pair(int(by), int(e["seat"]), RESCUE)

    def _on_message_to_pile(self, e: dict) -> None:
        """潜藏伏击 removes a message: a black one is a rescue, a red or blue one denies that side."""
        by, colour = e.get("by"), (e.get("card") or {}).get("colour")
        if by is None:
            return
        if colour == "black":
            self.add_pair(int(by), int(e["seat"]), BURN)
        elif colour in IDENTITY_OF:
            self.add(int(by), IDENTITY_OF[str(colour)], -FACE_UP_DECLINE)

    def _on_skill_used(self, e: dict) -> None:
        """救美 saves a dying woman at the price of its owner's identity card."""
        if e.get("skill") == "救美":
            self.rescued_by = int(e["seat"])

    def _on_saved(self, e: dict) -> None:
        if self.rescued_by is not None:
            self.add_pair(self.rescued_by, int(e["seat"]), RESCUE)
            self.rescued_by = None

    def _on_co_winner(self, e: dict) -> None:
        self.add_pair(int(e["by"]), int(e["seat"]), RESCUE)

    def _on_died(self, e: dict) -> None:
        if e.get("identity"):
            self.reveal(int(e["seat"]), str(e["identity"]))

    _on_lost = _on_died

    # ------------------------------------------------------------------ the posterior

    def _enumerate(self) -> list[dict[str, float]]:
        result = [dict.fromkeys(IDENTITIES, 0.0) for _ in range(self.players)]
        for s, ident in self.known.items():
            result[s][ident] = 1.0
        if self.identity is not None:
            result[self.seat][self.identity] = 1.0
        joint = self.joint()
        if joint is None:
            return result
        unknown, table, exps = joint
        total = sum(exps)
        pick = exps.__getitem__
        for i, s in enumerate(unknown):
            for ident, ks in table.holding[i].items():
                result[s][ident] += sum(map(pick, ks)) / total
        return result

    def joint(self) -> tuple[list[int], _Table, list[float]] | None:
        """The seats whose identity is unknown, every deal of the identity cards left to them, and
        each deal's (unnormalised) weight from the evidence; None when no seat is unknown."""
        unknown = [s for s in range(self.players) if s != self.seat and s not in self.known]
        if not unknown:
            return None
        pool: list[str] = []
        left = dict(self.counts)
        for ident in [self.identity, *self.known.values()]:
            if ident in left and left[ident] > 0:
                left[ident] -= 1
        for ident in IDENTITIES:
            pool.extend([ident] * max(0, left.get(ident, 0)))
        pool = (pool + [NEUTRAL] * len(unknown))[:len(unknown)]
        fixed = dict(self.known)
        if self.identity is not None:
            fixed[self.seat] = self.identity
        table = _table(tuple(sorted(pool)))
        # Log-weight of each assignment, added evidence by evidence over the assignments it favours.
        # A pair term is +pw for "same side" and -pw otherwise: the constant -pw cancels on
        # normalising, so only +2pw on the assignments where the two are on one side is added.
        single = [dict(self.single[s]) for s in unknown]
        where = {s: i for i, s in enumerate(unknown)}
        weights = [0.0] * len(table.assignments)
        for (a, b), pw in self.pairs.items():
            if not pw:
                continue
            ia, ib = where.get(a), where.get(b)
            if ia is not None and ib is not None:
                for k in table.same(ia, ib):
                    weights[k] += 2 * pw
            elif ia is not None or ib is not None:
                i, other = (ia, b) if ia is not None else (ib, a)
                side = fixed.get(other)
                if side in COLOUR_OF:
                    single[i][side] += 2 * pw  # type: ignore[index]
        for i, evidence in enumerate(single):
            for ident, w in evidence.items():
                if w:
                    for k in table.holding[i].get(ident, ()):
                        weights[k] += w
        top = max(weights)
        return unknown, table, [math.exp(w - top) for w in weights]

    def sample(self, rng: random.Random) -> dict[int, str]:
        """One deal of the unknown seats' identities, drawn with the posterior's weights (a world's
        identities: bots/worlds.py)."""
        joint = self.joint()
        if joint is None:
            return {}
        unknown, table, exps = joint
        (k,) = rng.choices(range(len(exps)), weights=exps)
        return dict(zip(unknown, table.assignments[k], strict=True))

    def copy(self) -> Beliefs:
        """An independent copy (a rollout's bot goes on believing from here)."""
        other = Beliefs.__new__(Beliefs)
        other.seat, other.players, other.counts, other.identity = self.seat, self.players, self.counts, self.identity
        other.known = dict(self.known)
        other.single = [dict(d) for d in self.single]
        other.pairs = dict(self.pairs)
        other._posterior = self._posterior
        other.current = self.current
        other.locked = set(self.locked)
        other.message = None if self.message is None else dict(self.message)
        other.stack = list(self.stack)
        other.my_probe = self.my_probe
        other.rescued_by = self.rescued_by
        return other


#: The handler of each event kind (`Beliefs.observe`), looked up once rather than per event.
_HANDLERS: dict[str, Callable[[Beliefs, dict], None]] = {
    name.removeprefix("_on_"): handler for name, handler in vars(Beliefs).items() if name.startswith("_on_")}


class _Table:
    """Every distinct deal of some identity cards to the unknown seats, indexed for fast weighing:
    `holding[i][identity]` lists the deals giving position i that identity."""

    def __init__(self, pool: tuple[str, ...]) -> None:
        self.assignments = _assignments(pool)
        self.holding: list[dict[str, list[int]]] = [{} for _ in pool]
        for k, assignment in enumerate(self.assignments):
            for i, ident in enumerate(assignment):
                self.holding[i].setdefault(ident, []).append(k)
        self._same: dict[tuple[int, int], list[int]] = {}

    def same(self, i: int, j: int) -> list[int]:
        """Deals where positions i and j are on one faction (neutrals are nobody's side)."""
        key = (i, j)
        found = self._same.get(key)
        if found is None:
            found = [k for k, a in enumerate(self.assignments) if a[i] == a[j] and a[i] != NEUTRAL]
            self._same[key] = found
        return found


@cache
def _table(pool: tuple[str, ...]) -> _Table:
    return _Table(pool)


@cache
def _assignments(pool: tuple[str, ...]) -> list[tuple[str, ...]]:
    """Every distinct way to deal these identity cards to the unknown seats, in a fixed order."""
    return sorted(set(permutations(pool)))
