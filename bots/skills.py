"""Character skills for the bots that score (basic and normal): picking a character, answering
`skill` prompts, using active skills in windows and the play phase, and a neutral's secret task.

Everything is priced in the same units as `BasicBot.value` (a message in front of a seat), so a
skill is used when it is "clearly good": its worth beats declining by a margin. Options it does
not understand score nothing and the prompt falls back to its default.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .characters import (
    COUNTS_AS,
    DIE_FIRST,
    DIE_LATER,
    DIE_RED_HAND,
    FREE_GAINS,
    HAND,
    KILL_BARE,
    KILL_BOTH,
    KILL_LATER,
    KILL_RICH,
    KILLS,
    MESSAGES,
    NONE,
    REVEALS,
    Profile,
    profile,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from .beliefs import Beliefs

WIN = 60.0
GAIN = (1.0, 2.0, WIN)
HURT = (1.0, 2.0, 8.0)
CLEAR = 0.5  # a skill is used when it beats declining by this much
REVEAL_COST = 2.0  # showing the identity card: allies and enemies alike then know
FLIP_COST = 0.3  # a hidden character turned face-up shows its skills
SKILL_KEEP = 0.8  # worth of keeping a once-per-flip skill (警觉, 声东击西) rather than using it now
IDENTITY_OF = {"red": "latent", "blue": "military"}
TRUE = ("red", "blue")


class SkillSense:
    """Mixed into BasicBot, which provides the scoring these methods build on."""

    seat: int
    view: dict
    cards: dict[int, dict]
    faces: dict[int, dict]

    if TYPE_CHECKING:
        @property
        def b(self) -> Beliefs: ...

        def counts(self, seat: int) -> dict[str, int]: ...

        def value(self, seat: int, colour: str, minus: int = 0) -> float: ...

        def expected(self, seat: int, dist: dict[str, float]) -> float: ...

        def keep(self, card: dict) -> float: ...

        def locked(self, seat: int) -> bool: ...

        def message_dist(self) -> dict[str, float]: ...

        def sender_dist(self, sender: int, aimed: bool) -> dict[str, float]: ...

        @staticmethod
        def best(options: list[dict], score: Callable[[dict], float]) -> dict | None: ...

    # ------------------------------------------------------------------ faces of cards the bot has seen

    def remember_faces(self, events: list[dict]) -> None:
        """Cards shown to this seat (drawn, taken, seen in a hand) by id, to price options naming them."""
        faces = self.faces
        for e in events:
            for key in ("card", "cards"):
                value = e.get(key)
                if value is None:
                    continue
                for face in value if isinstance(value, list) else (value,):
                    if isinstance(face, dict) and "id" in face and "colour" in face:
                        faces[int(face["id"])] = face

    def face_of(self, card: object) -> dict | None:
        if card is None:
            return None
        card = int(str(card))
        if card in self.cards:
            return self.cards[card]
        for s in self.view["seats"]:
            for face in s["messages"]:
                if face.get("id") == card:
                    return face
        return self.faces.get(card)

    def holder_of(self, message: object) -> int | None:
        for s in self.view["seats"]:
            if any(face.get("id") == message for face in s["messages"]):
                return int(s["index"])
        return None

    # ------------------------------------------------------------------ who this seat is

    def character(self, seat: int) -> dict:
        return self.view["seats"][seat].get("character") or {}

    def my_profile(self) -> Profile:
        return profile(self.character(self.seat).get("id"))

    def neutral(self) -> bool:
        return self.view.get("identity") == "neutral"

    # ------------------------------------------------------------------ a neutral's worth of a message

    def task_value(self, seat: int, colour: str, minus: int = 0) -> float:
        """What a message of `colour` in front of `seat` is worth to a neutral chasing its task."""
        p = self.my_profile()
        counts = dict(self.counts(seat))
        if minus:
            counts[colour] = max(0, counts[colour] - minus)
        blacks = min(counts["black"], 2)
        if seat == self.seat:
            if colour == "black":
                if self.wants_to_die():
                    return GAIN[blacks]
                return -(HURT[blacks] + (WIN / 3 if blacks == 2 else 0.0))
            if self.character(self.seat).get("id") == "xiaobai" and sum(counts.values()) >= 5:
                return -WIN / 3  # 败露: a sixth message and he is out
            return self.progress(p, counts, colour)
        worth = 0.0
        if colour in TRUE:  # a faction close to its third message ends the game without the neutral
            worth -= 0.5 * self.b.prob(seat, IDENTITY_OF[colour]) * GAIN[min(counts[colour], 2)]
        elif p.task in KILLS or p.task in (DIE_FIRST,):
            worth += self.kill_worth(p, seat, counts) * (1.0 if blacks == 2 else 0.3 * (blacks + 1))
        return worth

    def progress(self, p: Profile, counts: dict[str, int], colour: str) -> float:
        if p.task != MESSAGES:
            return 0.0
        for need, n in p.need.items():
            have = (counts[need] if need in counts else
                    counts["red"] + counts["blue"] if need == "true" else sum(counts.values()))
            if need == colour or (need == "true" and colour in TRUE) or need == "any":
                return WIN if have + 1 >= n else 1.0 + have / n
        return 0.0

    def kill_worth(self, p: Profile, seat: int, counts: dict[str, int]) -> float:
        """Worth to a killing neutral of `seat` dying now by this seat's hand."""
        true = counts["red"] + counts["blue"]
        dead = [s for s in self.view["seats"] if not s["alive"]]
        if p.task == KILL_BARE:
            return WIN if true == 0 else 0.5
        if p.task == KILL_RICH:
            return WIN if true >= 3 else 0.5
        if p.task == KILL_LATER:
            return WIN if dead else 3.0
        if p.task == KILL_BOTH:
            gone = {s["identity"] for s in dead}
            missing = [i for i in ("latent", "military") if i not in gone]
            chance = sum(self.b.prob(seat, i) for i in missing)
            return (WIN if len(missing) == 1 else 6.0) * chance
        return 0.0

    def wants_to_die(self) -> bool:
        p = self.my_profile()
        if p.task == DIE_FIRST:
            return all(s["alive"] for s in self.view["seats"])
        if p.task == DIE_LATER:
            return any(not s["alive"] for s in self.view["seats"])
        if p.task == DIE_RED_HAND:
            return sum(1 for c in self.cards.values() if c["colour"] == "red") >= 3
        return False

    def task_keep(self, card: dict) -> float:
        """Extra worth of keeping a card in hand when the neutral's task is about the hand."""
        p = self.my_profile()
        if p.task == HAND:
            if "any" in p.need:
                return 1.5
            have = sum(1 for c in self.cards.values() if c["colour"] == card["colour"])
            return 2.0 if have <= p.need.get(str(card["colour"]), 0) else 0.0
        if p.task == DIE_RED_HAND and card["colour"] == "red":
            return 2.0
        return 0.0

    # ------------------------------------------------------------------ the pick

    def _character_pick(self, options: list[dict]) -> dict | None:
        return self.best(options, lambda o: profile(o.get("name")).strength)

    # ------------------------------------------------------------------ skill prompts

    def _skill(self, options: list[dict]) -> dict | None:
        """The best-scoring option; None (the default) when it understands none of them."""
        return self.best(options, self.skill_score)

    def skill_score(self, o: dict) -> float:
        verb = o["verb"]
        if verb in ("decline", "done", "leave"):
            return CLEAR
        if verb == "use":
            return self.use_score(o)
        if verb == "pick":
            return profile(o.get("name")).strength
        if verb == "place":
            return self.place_score(o)
        if verb == "burn":
            return self.removal(o.get("target_seat"), o.get("target_card"))
        if verb == "swap":
            seat = o.get("target_seat")
            return self.removal(seat, o.get("target_card")) + (self.expected(seat, self.base()) if seat is not None else 0)
        if verb == "take":
            face = self.face_of(o.get("target_card"))
            holder = self.holder_of(o.get("target_card"))
            if face is None or holder is None:
                return 0.0
            return self.removal(holder, o.get("target_card")) + self.value(self.seat, str(face["colour"]))
        if verb == "give":
            to = o.get("target_seat")
            friend = 0.0 if to is None else 0.3 * (self.b.ally(to) - self.b.enemy(to))
            return friend - self.card_keep(o.get("card"))
        if verb in ("put_back", "return", "discard"):
            return -self.card_keep(o.get("card"))
        if verb in ("to_hand", "to_message"):
            face = self.face_of(o.get("card"))
            if face is None:
                return 0.0
            if verb == "to_hand":
                return self.keep(face)
            return self.value(self.seat, str(face["colour"])) + CLEAR
        if verb in ("answer_yes", "answer_no"):
            return self.answer_score(o)
        return float("-inf")

    def card_keep(self, card: object) -> float:
        face = self.face_of(card)
        return self.keep(face) if face is not None else 0.3

    def base(self) -> dict[str, float]:
        from .basic import BASE

        return dict(BASE)

    def removal(self, seat: object, card: object) -> float:
        """Worth of a message leaving the area of `seat` (burned, taken, put back on the pile)."""
        face = self.face_of(card)
        if seat is None or face is None:
            return 0.0
        return -self.value(int(str(seat)), str(face["colour"]), minus=1)

    def place_score(self, o: dict) -> float:
        face = self.face_of(o.get("card"))
        seat = o.get("target_seat")
        if face is None or seat is None:
            return 0.0
        mine = o.get("card") in self.cards
        cost = 0.5 * self.keep(face) if mine else 0.0
        return self.value(int(seat), str(face["colour"])) - cost

    def answer_score(self, o: dict) -> float:
        """城府: tell the truth to a likely ally; to anyone else say the opposite (hide the identity)."""
        truthful = o["id"] == self.view["prompt"]["default"]
        probe = next((i for i in reversed(self.view["stack"]) if i["function"] == "试探"), None)
        prober = probe["user"] if probe is not None else None
        friend = prober is not None and self.b.ally(int(prober)) >= 0.6
        if truthful:
            return 1.0 if friend else 0.0
        return 0.0 if friend else 1.0

    def use_score(self, o: dict) -> float:
        """A triggered skill's "use" option: what it gains over declining (CLEAR)."""
        name = o.get("name")
        t = o.get("target_seat")
        if name in FREE_GAINS:
            if name == "后著" and t is not None:
                return CLEAR + 1.0 + 0.1 * self.view["seats"][t]["hand_count"]
            return CLEAR + 1.0
        if name in ("阴谋", "阳谋"):
            assert t is not None
            return CLEAR + 0.5 + 0.5 * self.b.enemy(t) + 0.05 * self.view["seats"][t]["hand_count"]
        if name == "计中计":
            return self.removal(t, o.get("target_card"))
        if name == "偷天":
            face = self.face_of(o.get("target_card"))
            holder = self.holder_of(o.get("target_card"))
            if face is None or holder is None or t is None:
                return 0.0
            into = (self.keep(face) + self.task_keep(face)) if t == self.seat else 0.2 * (self.b.ally(t) - self.b.enemy(t))
            return self.removal(holder, o.get("target_card")) + into
        if name == "真相":
            return CLEAR + 0.3 - self.card_keep(o.get("card"))
        if name == "风度":
            assert t is not None
            return CLEAR + 0.1 + self.b.ally(t) - self.b.enemy(t)
        if name == "救美":
            dying = self.dying_seat()
            if dying is None:
                return 0.0
            own = min(self.counts(self.seat)["black"], 2)
            return (self.b.ally(dying) - self.b.enemy(dying)) * 8 + HURT[own] * (own > 0) - REVEAL_COST
        if name == "黄雀在后":
            if t is None:
                return 0.0
            blacks = sum(1 for c in self.cards.values() if c["colour"] == "black")
            return self.blacks_worth(t, min(2, blacks)) - REVEAL_COST
        if name == "遗志":
            return self.legacy_score(t)
        if name == "临危受命":
            dying = self.dying_seat()
            if self.neutral():
                return CLEAR + (3.0 if self.my_profile().task == NONE else -1.0)
            return CLEAR + (1.0 if dying is not None and self.b.ally(dying) >= 0.8 else -1.0)
        if name == "偷龙转凤":
            m = self.view["message"]
            if m is None:
                return 0.0
            dist = self.message_dist()
            forced = self.locked(self.seat) or m["intercepted_by"] == self.seat
            gain = self.expected(self.seat, self.base()) - self.expected(self.seat, dist)
            return CLEAR + (gain if forced else 0.3 * gain) - self.card_keep(o.get("card")) - 0.3
        if name == "釜底抽薪":
            return self.futi_score(o)
        return 0.0

    def dying_seat(self) -> int | None:
        """The seat a death trigger answers: one still in the game holding three blacks."""
        for s in self.view["seats"]:
            if s["alive"] and not s["lost"] and s["counts"]["black"] >= 3 and s["index"] != self.seat:
                return int(s["index"])
        return None

    def blacks_worth(self, seat: int, n: int) -> float:
        """Worth of placing `n` black messages in front of `seat`, one after another."""
        total = 0.0
        counts = self.counts(seat)
        for k in range(n):
            if counts["black"] + k >= 3:
                break
            total += self.value_with(seat, "black", counts["black"] + k)
        return total

    def value_with(self, seat: int, colour: str, have: int) -> float:
        return self.value(seat, colour, minus=self.counts(seat)[colour] - have)

    def legacy_score(self, t: int | None) -> float:
        """遗志: the hand goes to `t`, three of it at random become his messages."""
        if t is None or not self.cards:
            return 0.0
        if self.neutral() and self.my_profile().task == DIE_RED_HAND and self.wants_to_die():
            return 0.0  # the task is judged on the hand held at the death
        hand = list(self.cards.values())
        dist = {c: sum(1 for x in hand if x["colour"] == c) / len(hand) for c in ("red", "blue", "black")}
        drawn = min(3, len(hand))
        return CLEAR + drawn * self.expected(t, dist) + 0.2 * (self.b.ally(t) - self.b.enemy(t)) * (len(hand) - drawn)

    def futi_score(self, o: dict) -> float:
        """釜底抽薪: one more black on itself, then hand cards placed on others as messages."""
        own = self.counts(self.seat)["black"]
        if own >= 2:
            return float("-inf")
        cost = -self.value(self.seat, "black")
        rest = [c for cid, c in self.cards.items() if cid != o.get("card")]
        gain = 0.0
        used: set[int] = set()
        for card in rest:
            best, seat = 0.0, None
            for s in self.view["seats"]:
                i = int(s["index"])
                if i != self.seat and i not in used and s["alive"] and not s["lost"]:
                    v = self.value(i, str(card["colour"])) - 0.5 * self.keep(card)
                    if v > best:
                        best, seat = v, i
            if seat is not None:
                used.add(seat)
                gain += best
        return CLEAR + gain - cost - 1.0

    # ------------------------------------------------------------------ active skills (verb "skill")

    def skill_move(self, options: list[dict]) -> dict | None:
        """The best active skill to use now, if it is clearly worth it."""
        best, top = None, CLEAR
        waiting = {i["card"].get("skill") for i in self.view["stack"] if i["user"] == self.seat}
        for o in options:
            # A use of its own still waiting on the stack already does the job (and the engine does
            # not stop 掩护 being stacked again and again: that would never end).
            if o["verb"] != "skill" or o.get("name") in COUNTS_AS or o.get("name") in waiting:
                continue
            score = self.active_score(o)
            if score > top + 1e-9:
                best, top = o, score
        return best

    def active_score(self, o: dict) -> float:
        name = o.get("name")
        t = o.get("target_seat")
        m = self.view["message"]
        if name == "弹药无限":
            return 1.0 + CLEAR
        if name == "速译":
            here = m is not None and m["card"] is None and m["position"] == self.seat
            return (1.5 if here else 0.4) - FLIP_COST
        if name == "揭露":
            here = m is not None and m["card"] is None and m["position"] == self.seat
            return (1.2 if here else 0.2) + 0.8 * self.message_dist().get("black", 0.0) - self.card_keep(o.get("target_card"))
        if name == "先机":
            assert t is not None
            if self.view["phase"] != "play" or self.view["current"] != self.seat:
                return 0.0
            return min(3, self.view["seats"][t]["hand_count"]) * 0.6 + 0.5 * self.b.enemy(t) - FLIP_COST
        if name == "截上截":
            return self.snatch_score()
        if name in ("掩护", "潜藏伏击"):
            gain = self.removal(t, o.get("target_card"))
            if name == "掩护":
                if self.counts(self.seat)["black"] >= 2:
                    return float("-inf")
                gain += self.value(self.seat, "black")
            return gain - FLIP_COST
        if name == "狙击":
            assert t is not None
            return self.snipe_score(t) - FLIP_COST
        if name == "血染玫瑰":
            assert t is not None
            blacks = sum(1 for c in self.cards.values() if c["colour"] == "black")
            return self.blacks_worth(t, min(1, blacks)) + 0.3 * self.blacks_worth(t, min(3, blacks)) - FLIP_COST
        if name == "爱情":
            return self.removal(t, o.get("target_card")) + self.best_burn(exclude=o.get("target_card")) - REVEAL_COST
        if name in REVEALS:
            return 0.0
        if name == "收买":
            assert t is not None
            best = max((self.removal(t, f["id"]) + self.value(self.seat, str(f["colour"]))
                        for f in self.view["seats"][t]["messages"]), default=0.0)
            give = sorted(self.keep(c) for c in self.cards.values())[:4]
            return best - sum(give) - 1.0
        return 0.0

    def best_burn(self, exclude: object = None) -> float:
        best = 0.0
        for s in self.view["seats"]:
            if not s["alive"] or s["lost"]:
                continue
            for f in s["messages"]:
                if f["colour"] == "black" and f.get("id") != exclude:
                    best = max(best, self.removal(s["index"], f["id"]))
        return best

    def snipe_score(self, seat: int) -> float:
        """狙击 burns up to 3 of the target's messages, the worst ones for this seat first."""
        gains = sorted((self.removal(seat, f["id"]) for f in self.view["seats"][seat]["messages"]), reverse=True)
        return sum(g for g in gains[:3] if g > 0) + (gains[0] if gains and gains[0] <= 0 else 0.0)

    def snatch_score(self) -> float:
        """截上截: the message comes to this seat, which must take it."""
        m = self.view["message"]
        if m is None or m["sender"] == self.seat:
            return 0.0
        dist = self.message_dist() if m["card"] is not None else self.sender_dist(int(m["sender"]), aimed=False)
        here = self.expected(self.seat, dist)
        pos = int(m["position"])
        there = 0.0 if pos == self.seat else 0.5 * self.expected(pos, dist)
        return here - there - SKILL_KEEP
