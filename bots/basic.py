"""The `basic` level: sensible habits with no reading of the table.

It scores each choice by what the message could do to whom: its own colour in front of an ally
is progress (a third one wins), the enemy colour in front of an enemy is the enemy's progress,
black hurts whoever gets it (a third one kills). Without beliefs every other seat is as likely
an ally as the identity counts say, so in practice it sends its own colour where it cannot be
wasted, keeps black away from itself, accepts its own colour, declines black, burns its own
third black and cancels (识破) what is aimed at itself. `normal` builds on the same scoring.
"""

from __future__ import annotations

import random

from .beliefs import COLOUR_OF, LATENT, MILITARY, Beliefs, identity_counts
from .characters import COUNTS_AS
from .skills import SKILL_KEEP, SkillSense

WIN = 60.0
GAIN = (1.0, 2.0, WIN)  # value of one more message of the own colour, by how many are there
HURT = (1.0, 2.0, 8.0)  # cost of one more black, by how many are there (the third one kills)
BASE = {"red": 25 / 81, "blue": 25 / 81, "black": 31 / 81}  # colours of the resolved deck
CARELESS = 0.3  # share of other players assumed to act at random
TURN_PHASES = ("turn_start", "turn_end")  # the windows of RULES.md §4 that follow no use
KEEP = {"识破": 1.2, "截获": 1.0, "烧毁": 1.0, "锁定": 0.8, "破译": 0.5, "试探": 0.6,
        "退回": 0.4, "调虎离山": 0.3, "真伪莫辨": 0.2}

Dist = dict[str, float]
PUBLIC_IDENTITY = ("identity", "died", "lost", "identity_revealed", "identity_shown")


class BasicBot(SkillSense):
    level = "basic"
    reads_table = False  # basic learns only revealed identities; normal reads every public move
    chases_task = False  # normal plays a neutral's secret task; basic only keeps a neutral alive

    def __init__(self, seat: int, seed: int) -> None:
        self.seat = seat
        self.rng = random.Random(seed)
        self.beliefs: Beliefs | None = None
        self._backlog: list[dict] = []
        self.view: dict = {}
        self.faces: dict[int, dict] = {}

    # ------------------------------------------------------------------ the bot interface

    def observe(self, events: list[dict]) -> None:
        self.remember_faces(events)
        if not self.reads_table:
            events = [e for e in events if e.get("kind") in PUBLIC_IDENTITY]
        if self.beliefs is None:
            self._backlog.extend(events)
        else:
            self.beliefs.observe(events)

    def decide(self, view: dict) -> str:
        prompt = view["prompt"]
        options = prompt["options"]
        if len(options) == 1:
            return str(options[0]["id"])
        self._load(view)
        answer = getattr(self, "_" + str(prompt["kind"]), None)
        choice = answer(options) if answer is not None else None
        if choice is None:
            return str(prompt["default"])
        return str(choice["id"])

    def _load(self, view: dict) -> None:
        self.view = view
        if self.beliefs is None:
            config = view["config"]
            counts = identity_counts(int(config["players"]), str(config["identities"]))
            self.beliefs = Beliefs(self.seat, int(config["players"]), counts, view.get("identity"))
            self.beliefs.observe(self._backlog)
            self._backlog = []
        self.beliefs.follow_identity(view.get("identity"))
        self.mine = COLOUR_OF.get(str(view.get("identity")))
        self.theirs = {"red": "blue", "blue": "red"}.get(self.mine or "")
        self.cards = {c["id"]: c for c in view["hand"]}

    # ------------------------------------------------------------------ reading the view

    @property
    def b(self) -> Beliefs:
        assert self.beliefs is not None
        return self.beliefs

    def counts(self, seat: int) -> dict[str, int]:
        counts: dict[str, int] = self.view["seats"][seat]["counts"]
        return counts

    def in_game(self, seat: int) -> bool:
        s = self.view["seats"][seat]
        return bool(s["alive"] and not s["lost"])

    def locked(self, seat: int) -> bool:
        return bool(self.view["seats"][seat]["locked"])

    def players(self) -> int:
        return len(self.view["seats"])

    def route(self, start: int, direction: int, sender: int, skipped: frozenset[int] = frozenset()) -> list[int]:
        """Seats a 密电/文本 would visit after `start`, up to (not including) its sender."""
        n = self.players()
        seats, pos = [], start
        for _ in range(n):
            pos = (pos + direction) % n
            if pos == sender:
                break
            if self.in_game(pos) and pos not in skipped:
                seats.append(pos)
        return seats

    # ------------------------------------------------------------------ scoring

    def value(self, seat: int, colour: str, minus: int = 0) -> float:
        """What one message of `colour` in front of `seat` is worth to this seat's faction (or, for a
        neutral, to its secret task); `minus` prices it as if `seat` held that many fewer of `colour`,
        which is what removing one of them is worth."""
        if self.mine is None:
            if self.chases_task and self.view.get("identity") == "neutral":
                return self.task_value(seat, colour, minus)
            k = min(max(0, self.counts(seat)["black"] - minus), 2)
            return -HURT[k] if (seat == self.seat and colour == "black") else 0.0
        a, e = self.b.ally(seat), self.b.enemy(seat)
        counts = self.counts(seat)
        if minus:
            counts = {**counts, colour: max(0, counts[colour] - minus)}
        if colour == self.mine:
            return a * GAIN[min(counts[colour], 2)]
        if colour == self.theirs:
            return -e * GAIN[min(counts[colour], 2)]
        k = min(counts["black"], 2)
        if k == 2:  # a death also throws away the victim's progress
            assert self.theirs is not None
            return e * (HURT[2] + 2 * counts[self.theirs]) - a * (HURT[2] + 2 * counts[self.mine])
        return (e - a) * HURT[k]

    def expected(self, seat: int, dist: Dist) -> float:
        return sum(p * self.value(seat, c) for c, p in dist.items())

    def sender_dist(self, sender: int, aimed: bool) -> Dist:
        """Likely colours of a face-down message, from what its sender probably wants."""
        if self.mine is None or self.theirs is None:
            return dict(BASE)
        a, e = self.b.ally(sender), self.b.enemy(sender)
        friend = {self.mine: 0.6, self.theirs: 0.15, "black": 0.25}
        foe = ({self.mine: 0.15, self.theirs: 0.3, "black": 0.55} if aimed
               else {self.mine: 0.2, self.theirs: 0.45, "black": 0.35})
        u = max(0.0, 1.0 - a - e)
        return {c: CARELESS * BASE[c] + (1 - CARELESS) * (a * friend[c] + e * foe[c] + u * BASE[c])
                for c in BASE}

    def message_dist(self) -> Dist:
        m = self.view["message"]
        if m["card"] is not None:
            return {str(m["card"]["colour"]): 1.0}
        return self.sender_dist(int(m["sender"]), aimed=m["method"] == "直达")

    def accept_chance(self, seat: int, colour: str, face_up: bool) -> float:
        """How likely `seat` takes a message from this seat, if it may choose."""
        if self.locked(seat):
            return 1.0
        if face_up:
            if colour == "black":
                model = 0.05
            else:
                side = {"red": LATENT, "blue": MILITARY}[colour]
                p = self.b.prob(seat, side)
                model = 0.9 * p + 0.1 * (1 - p)
        else:
            model = 0.25 + 0.5 * self.b.ally(seat)
        return CARELESS * 0.5 + (1 - CARELESS) * model

    def keep(self, card: dict) -> float:
        """How much a card is worth in hand rather than as a message."""
        if card["function"] == "试探":
            ident = card.get("probe", {}).get("identity")
            counts = identity_counts(self.players(), str(self.view["config"]["identities"]))
            worth = KEEP["试探"] if counts.get(ident, 0) else 0.05
        else:
            worth = KEEP.get(str(card["function"]), 0.3)
        if self.chases_task and self.mine is None:
            worth += self.task_keep(card)
        return worth

    def send_value(self, card: dict, target: int | None, lock_next: bool = False) -> float:
        """Expected worth of sending `card` (to `target` if 直达), minus the worth of keeping it."""
        colour, method = str(card["colour"]), str(card["method"])
        if method == "直达":
            assert target is not None
            p = 1.0 if lock_next else self.accept_chance(target, colour, False)
            ev = p * self.value(target, colour) + (1 - p) * self.value(self.seat, colour)
        else:
            ev, reach = 0.0, 1.0
            for i, seat in enumerate(self.route(self.seat, 1, self.seat)):
                p = 1.0 if (lock_next and i == 0) else self.accept_chance(seat, colour, method == "文本")
                ev += reach * p * self.value(seat, colour)
                reach *= 1 - p
            ev += reach * self.value(self.seat, colour)
        return ev - self.keep(card)

    # ------------------------------------------------------------------ decisions by prompt kind

    def _send(self, options: list[dict]) -> dict | None:
        return self.best(options, lambda o: self.send_value(self.cards[o["card"]], o.get("target_seat")))

    def _receive(self, options: list[dict]) -> dict | None:
        take = self.expected(self.seat, self.message_dist()) > 0
        return self.option(options, "accept" if take else "decline")

    def _probe_discard(self, options: list[dict]) -> dict | None:
        return self.best(options, lambda o: -self.keep(self.cards[o["card"]]))

    def _play(self, options: list[dict]) -> dict | None:
        return self.rescue(options) or self.skill_move(options) or self.option(options, "end")

    def _response(self, options: list[dict]) -> dict | None:
        return self.rescue(options) or self.cancel_against_me(options) or self.skill_move(options)

    # ------------------------------------------------------------------ habits shared with normal

    def rescue(self, options: list[dict], trust: float = 0.99) -> dict | None:
        """烧毁 a black in front of a seat (this one, or an ally it is sure of) that holds two or more.

        Not in the turn-start and turn-end windows: there the bots keep to their old habits (play
        phase, transmit, arrive), since two bots burning each other's blacks at every turn end can
        keep a two-player endgame going for ever."""
        if self.view["phase"] in TURN_PHASES:
            return None
        plays = self.plays(options, "烧毁")
        best = None
        for o in plays:
            seat = o["target_seat"]
            if self.counts(seat)["black"] >= 2 and self.b.ally(seat) >= trust and not self.burning(seat):
                if best is None or seat == self.seat:
                    best = o
        return best

    def burning(self, seat: int) -> bool:
        """A 烧毁 on this seat's black is already waiting on the stack."""
        return any(i["function"] == "烧毁" and i["target_seat"] == seat for i in self.view["stack"])

    def cancel_against_me(self, options: list[dict]) -> dict | None:
        """识破 a 锁定 or 试探 aimed at this seat, or a 识破 aimed at this seat's own card."""
        stack = self.view["stack"]
        if not stack:
            return None
        top = stack[-1]
        if top["user"] == self.seat:
            return None
        hurts = top["function"] in ("锁定", "试探") and top["target_seat"] == self.seat
        if top["function"] == "识破" and len(stack) >= 2:
            hurts = stack[-2]["user"] == self.seat
        plays = self.plays(options, "识破")
        return plays[0] if hurts and plays else None

    def plays(self, options: list[dict], function: str) -> list[dict]:
        """Cards (and skills that count as a card, 警觉 as 识破) usable as `function`."""
        return [o for o in options if (o["verb"] == "play" and self.function_of(o) == function)
                or (o["verb"] == "skill" and COUNTS_AS.get(str(o.get("name"))) == function)]

    def function_of(self, o: dict) -> str:
        """What a play option is used as: its `name` when a skill lets the card count as another."""
        return str(o.get("name") or self.cards[o["card"]]["function"])

    def cost(self, o: dict) -> float:
        """What using an option spends: the card's worth in hand, or a skill's worth kept for later."""
        if o.get("card") in self.cards:
            return self.keep(self.cards[o["card"]])
        return SKILL_KEEP

    @staticmethod
    def option(options: list[dict], verb: str) -> dict | None:
        return next((o for o in options if o["verb"] == verb), None)

    @staticmethod
    def best(options: list[dict], score) -> dict | None:
        """The highest-scoring option; ties go to the earliest, so the choice is reproducible."""
        best, top = None, float("-inf")
        for o in options:
            s = score(o)
            if s > top + 1e-9:
                best, top = o, s
        return best
