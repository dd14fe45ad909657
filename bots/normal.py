"""The `normal` level: reads the table and plays for its faction (a neutral: for its secret task).

Everything `basic` scores, but with beliefs fed by every public move (bots.beliefs), with the
characters' skills (bots.skills) and with the whole card set: 试探 to learn who is who, 锁定 on
the seat its own message is heading to when that seat should be made to take it, 截获 on
messages it (or its side) should have or an enemy should not, 调虎离山 and 退回 to steer a
message away from the wrong seat, 烧毁 to keep an ally alive, 识破 against whatever helps the
other side, and 真伪莫辨 only when the table favours it.
"""

from __future__ import annotations

from .basic import BASE, CARELESS, HURT, BasicBot, Dist
from .beliefs import identity_counts

ACT = 0.3  # how much better than doing nothing a card play must look, beyond the card's own worth
LEARN = 0.2  # uncertainty about a seat that makes a 试探 worth playing


class NormalBot(BasicBot):
    level = "normal"
    reads_table = True
    chases_task = True

    # ------------------------------------------------------------------ prompts

    def _play(self, options: list[dict]) -> dict | None:
        return (self.rescue(options, trust=0.7) or self.skill_move(options) or self.probe(options)
                or self.truth_or_false(options) or self.option(options, "end"))

    def _send(self, options: list[dict]) -> dict | None:
        def score(o: dict) -> float:
            locks = [c for c in self.cards.values() if c["function"] == "锁定" and c["id"] != o["card"]]
            return self.send_value(self.cards[o["card"]], o.get("target_seat"), lock_next=bool(locks))

        return self.best(options, score)

    def _receive(self, options: list[dict]) -> dict | None:
        dist = self.message_dist()
        take = self.expected(self.seat, dist) > self.passed_on(dist, self.view["message"]["direction"]) + 0.05
        return self.option(options, "accept" if take else "decline")

    def _response(self, options: list[dict]) -> dict | None:
        stack = self.view["stack"]
        if stack and stack[-1]["user"] != self.seat:
            plays = self.plays(options, "识破")
            if plays and self.effect(len(stack) - 1) < -(self.cost(plays[0]) + ACT):
                return plays[0]
        found = self.rescue(options, trust=0.7) or self.skill_move(options)
        if found is not None or stack or self.view["message"] is None:
            return found
        step = self.view["window"]["step"]
        if step == "transmit":
            return self.lock_on_the_way(options) or self.intercept(options) or self.lure(options)
        if step == "arrive" and self.view["message"]["position"] == self.seat:
            return self.decrypt(options) or self.send_back(options)
        return None

    # ------------------------------------------------------------------ play phase

    def probe(self, options: list[dict]) -> dict | None:
        """试探 the seat it knows least about, with a card that asks an identity in play."""
        counts = identity_counts(self.players(), str(self.view["config"]["identities"]))

        def score(o: dict) -> float:
            card = self.cards[o["card"]]
            ident = card.get("probe", {}).get("identity")
            if not counts.get(ident, 0):
                return -1.0
            seat = o["target_seat"]
            info = self.b.uncertainty(seat) * min(1.0, 2 * self.b.prob(seat, ident) + 0.2)
            hit = self.b.prob(seat, ident)  # a yes makes the target draw or discard
            on_yes = card["probe"]["on_yes"]
            return info + 0.1 * hit * (self.b.ally(seat) - self.b.enemy(seat)) * (1 if on_yes == "draw" else -1)

        found = self.best(self.plays(options, "试探"), score)
        return found if found is not None and score(found) > LEARN else None

    def truth_or_false(self, options: list[dict]) -> dict | None:
        """真伪莫辨 deals everyone a random message: only when that helps this side clearly."""
        plays = self.plays(options, "真伪莫辨")
        if not plays:
            return None
        ev = sum(self.expected(s, BASE) for s in range(self.players()) if self.in_game(s))
        return plays[0] if ev > 1.0 + self.cost(plays[0]) else None

    # ------------------------------------------------------------------ transmit window

    def lock_on_the_way(self, options: list[dict]) -> dict | None:
        """锁定 the seat its own message is heading to when that seat should not be free to refuse."""
        m = self.view["message"]
        if m["sender"] != self.seat or m["card"] is None or m["intercepted_by"] is not None:
            return None
        pos = int(m["position"])
        colour = str(m["card"]["colour"])
        for o in self.plays(options, "锁定"):
            if o["target_seat"] != pos or pos == self.seat:
                continue
            p = self.accept_chance(pos, colour, bool(m["face_up"]))
            refused = self.value(self.seat, colour) if m["method"] == "直达" else 0.0
            gain = (1 - p) * (self.value(pos, colour) - refused)
            if gain > self.cost(o) + ACT:
                return o
        return None

    def intercept(self, options: list[dict]) -> dict | None:
        """截获 a message that is worth more in front of this seat than where it is going."""
        plays = self.plays(options, "截获")
        m = self.view["message"]
        if not plays or m["sender"] == self.seat:
            return None
        dist = self.travelling_dist()
        pos = int(m["position"])
        p = 1.0 if self.locked(pos) else (self.take_chance(pos, dist) if m["card"] is not None else 0.5)
        there = 0.0 if pos == self.seat else p * self.expected(pos, dist)
        gain = self.expected(self.seat, dist) - there
        return plays[0] if gain > self.cost(plays[0]) + ACT else None

    def lure(self, options: list[dict]) -> dict | None:
        """调虎离山 the seat a message is heading to when it would do harm there."""
        m = self.view["message"]
        if m["card"] is None or m["intercepted_by"] is not None:
            return None
        pos = int(m["position"])
        dist = {str(m["card"]["colour"]): 1.0}
        p = 1.0 if self.locked(pos) else self.take_chance(pos, dist)
        for o in self.plays(options, "调虎离山"):
            if o["target_seat"] == pos and p * self.expected(pos, dist) < -(self.cost(o) + 1.0):
                return o
        return None

    # ------------------------------------------------------------------ arrive window, in front of this seat

    def decrypt(self, options: list[dict]) -> dict | None:
        """破译 a face-down message when accepting it blind is a real gamble."""
        plays = self.plays(options, "破译")
        if not plays or self.view["message"]["card"] is not None:
            return None
        dist = self.message_dist()
        risk = dist.get("black", 0.0) * HURT[min(self.counts(self.seat)["black"], 2)]
        return plays[0] if risk > 0.5 else None

    def send_back(self, options: list[dict]) -> dict | None:
        """退回 a 密电/文本 when it would do more good travelling the other way."""
        plays = self.plays(options, "退回")
        m = self.view["message"]
        if not plays or m["method"] == "直达" or self.locked(self.seat):  # a locked seat's 退回 does nothing
            return None
        dist = self.message_dist()
        stay = max(self.expected(self.seat, dist), self.passed_on(dist, int(m["direction"])))
        back = self.passed_on(dist, -int(m["direction"]))
        return plays[0] if back > stay + self.cost(plays[0]) + ACT else None

    # ------------------------------------------------------------------ estimates

    def passed_on(self, dist: Dist, direction: int) -> float:
        """Worth of letting the message in front of this seat go on (declined) in `direction`."""
        m = self.view["message"]
        sender = int(m["sender"])
        total = 0.0
        for colour, q in dist.items():
            one = {colour: 1.0}
            if m["method"] == "直达":
                total += q * self.value(sender, colour)
                continue
            skipped = frozenset(s["index"] for s in self.view["seats"] if s["skipped"])
            ev, reach = 0.0, 1.0
            for seat in self.route(self.seat, direction, sender, skipped):
                p = 1.0 if self.locked(seat) else self.take_chance(seat, one if m["face_up"] else dist)
                ev += reach * p * self.value(seat, colour)
                reach *= 1 - p
            total += q * (ev + reach * self.value(sender, colour))
        return total

    def take_chance(self, seat: int, dist: Dist) -> float:
        """How likely `seat` accepts a message it can see (one colour) or not (several)."""
        if len(dist) != 1:
            return 0.5
        (colour,) = dist
        if colour == "black":
            return CARELESS * 0.5 + (1 - CARELESS) * 0.05
        wants = self.b.prob(seat, {"red": "latent", "blue": "military"}[colour])
        return CARELESS * 0.5 + (1 - CARELESS) * (0.9 * wants + 0.1 * (1 - wants))

    def travelling_dist(self) -> Dist:
        """Likely colours of the message on its way: known if face-up, else guessed from its sender."""
        m = self.view["message"]
        if m["card"] is not None:
            return {str(m["card"]["colour"]): 1.0}
        sender = int(m["sender"])
        if m["method"] != "直达" or m["target"] is None:
            return self.sender_dist(sender, aimed=False)
        target = int(m["target"])
        if target == self.seat:
            return self.sender_dist(sender, aimed=True)
        if self.mine is None or self.theirs is None:  # a neutral cannot tell whom the sender favours
            return self.sender_dist(sender, aimed=False)
        b = self.b
        ours = b.ally(sender) * b.ally(target)
        theirs = b.enemy(sender) * b.enemy(target)
        aimed = {self.mine: ours, self.theirs: theirs, "black": max(0.0, 1.0 - ours - theirs)}
        return {c: CARELESS * BASE[c] + (1 - CARELESS) * aimed[c] for c in BASE}

    def effect(self, index: int) -> float:
        """Worth to this seat's side of the stack item at `index` taking effect (> 0: it helps us)."""
        stack = self.view["stack"]
        item = stack[index]
        function, user, target = item["function"], int(item["user"]), item["target_seat"]
        side = 1.0 if user == self.seat else self.b.ally(user) - self.b.enemy(user)
        if function == "识破":
            for j in range(index - 1, -1, -1):
                if stack[j]["card"].get("id") == (item["target_card"] or {}).get("id"):
                    return -self.effect(j)
            return -self.effect(index - 1) if index else 0.0
        if function == "烧毁":
            k = min(self.counts(target)["black"], 2)
            return (self.b.ally(target) - self.b.enemy(target)) * HURT[k]
        if function == "锁定":
            t_side = self.b.ally(target) - self.b.enemy(target)
            danger = 1.0 + (3.0 if side * t_side < 0 and self.counts(target)["black"] >= 2 else 0.0)
            return side * 1.5 * danger
        if function == "截获":
            m = self.view["message"]
            if m is not None and m["card"] is not None:
                return self.value(user, str(m["card"]["colour"]))
            return side * 1.5
        if function == "试探":
            return -self.b.enemy(user) * (1.5 if target == self.seat else 0.3)
        if function == "真伪莫辨":
            return sum(self.expected(s, BASE) for s in range(self.players()) if self.in_game(s))
        return side * 0.5
