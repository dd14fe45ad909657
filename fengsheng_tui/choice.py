"""Turning keys into one of the open prompt's options: pick a card, pick a target, confirm.

Plain data, no Textual: the table screen holds one `Chooser` and asks it what a key means.
Every method returns an option id to send, or None (and leaves a hint in `note`).

Three ways to reach an option: a digit picks a hand card (its options become the choices);
`u` picks an active skill (each press the next skill; its options become the choices); and a
prompt that is a plain list (a skill's question, a character pick) offers all its options at once.
"""

from __future__ import annotations

from typing import Any

from .i18n import Words

#: Verbs Space stands for: giving up the decision (`done` ends a skill that goes on step by step).
PASS_VERBS = ("pass", "end", "decline", "done")
LIST_KINDS = ("skill", "character_pick")


class Chooser:
    def __init__(self) -> None:
        self.prompt: dict[str, Any] | None = None
        self.hand: list[dict[str, Any]] = []
        self.selected: int | None = None  # card id
        self.skill: str | None = None  # active skill chosen with `u`
        self.target = 0
        self.note: str | None = None
        self.sent_for: int | None = None  # prompt id already answered, awaiting the next update
        self.sent_pass = False  # what was sent for it was a pass (the prompt line says so)

    def reset(self, prompt: dict[str, Any] | None, hand: list[dict[str, Any]]) -> None:
        """A new view arrived; keep the selection only while the same prompt is open."""
        same = prompt is not None and self.prompt is not None and prompt.get("id") == self.prompt.get("id")
        self.prompt = prompt
        self.hand = hand
        if not same:
            self.selected = None
            self.skill = None
            self.target = 0
            self.note = None
        if prompt is None or prompt.get("id") != self.sent_for:
            self.sent_for = None
        if self.selected is not None and all(c.get("id") != self.selected for c in hand):
            self.selected = None
        if self.skill is not None and self.skill not in self.skills():
            self.skill = None

    @property
    def options(self) -> list[dict[str, Any]]:
        return list(self.prompt.get("options", [])) if self.prompt else []

    def usable(self) -> set[int]:
        """Hand cards that some option of the open prompt uses."""
        return {int(o["card"]) for o in self.options if o.get("card") is not None}

    def skills(self) -> list[str]:
        """Active skills the open prompt offers (options with verb `skill`), in offer order."""
        names: list[str] = []
        for o in self.options:
            if o.get("verb") == "skill" and o.get("name") not in names:
                names.append(str(o.get("name")))
        return names

    def is_list(self) -> bool:
        return self.prompt is not None and self.prompt.get("kind") in LIST_KINDS

    def card_options(self) -> list[dict[str, Any]]:
        """The choices the target keys move among: the chosen card's, the chosen skill's, or the list's."""
        if self.selected is not None:
            return [o for o in self.options if o.get("card") == self.selected]
        if self.skill is not None:
            return [o for o in self.options if o.get("verb") == "skill" and o.get("name") == self.skill]
        if self.is_list():
            return [o for o in self.options if o.get("verb") not in PASS_VERBS]
        return []

    def pick_skill(self, words: Words) -> None:
        """`u`: the first skill on offer, or the next one if a skill is already chosen."""
        self.note = None
        names = self.skills()
        if self.prompt is None or not names:
            self.note = words("no_skill")
            return
        self.selected = None
        self.skill = names[(names.index(self.skill) + 1) % len(names)] if self.skill in names else names[0]
        self.target = 0

    def pick_card(self, n: int, words: Words) -> None:
        self.note = None
        if self.prompt is None:
            return
        if not 1 <= n <= len(self.hand):
            self.note = words("no_card", n=n)
            return
        card = self.hand[n - 1]
        if card.get("id") not in self.usable():
            self.note = words("cannot_use", card=words.card(card))
            self.selected = None
            return
        self.selected = int(card["id"])
        self.skill = None
        self.target = 0

    def move_target(self, step: int) -> None:
        opts = self.card_options()
        if opts:
            self.target = (self.target + step) % len(opts)

    def pick_target(self, i: int) -> str | None:
        opts = self.card_options()
        if 0 <= i < len(opts):
            self.target = i
        return None

    def confirm(self) -> str | None:
        if self.prompt is None or self.sent_for == self.prompt.get("id"):
            return None
        opts = self.card_options()
        if opts:
            return self._send(str(opts[min(self.target, len(opts) - 1)]["id"]))
        if self.selected is None:
            accept = [o for o in self.options if o.get("verb") == "accept"]
            if accept:
                return self._send(str(accept[0]["id"]))
        return None

    def pass_(self) -> str | None:
        if self.prompt is None or self.sent_for == self.prompt.get("id"):
            return None
        for o in self.options:
            if o.get("verb") in PASS_VERBS:
                return self._send(str(o["id"]))
        return None

    def back(self) -> bool:
        """Esc: drop the selection. False when there was nothing to back out of."""
        had = self.selected is not None or self.skill is not None or self.note is not None
        self.selected = None
        self.skill = None
        self.target = 0
        self.note = None
        return had

    def _send(self, option_id: str) -> str:
        assert self.prompt is not None
        self.sent_for = int(self.prompt["id"])
        self.sent_pass = any(str(o.get("id")) == option_id and o.get("verb") in PASS_VERBS for o in self.options)
        self.selected = None
        self.skill = None
        self.target = 0
        return option_id
