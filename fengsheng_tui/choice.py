"""Turning keys into one of the open prompt's options: pick a card, pick a target, confirm.

Plain data, no Textual: the table screen holds one `Chooser` and asks it what a key means.
Every method returns an option id to send, or None (and leaves a hint in `note`).
"""

from __future__ import annotations

from typing import Any

from .i18n import Words

PASS_VERBS = ("pass", "end", "decline")


class Chooser:
    def __init__(self) -> None:
        self.prompt: dict[str, Any] | None = None
        self.hand: list[dict[str, Any]] = []
        self.selected: int | None = None  # card id
        self.target = 0
        self.note: str | None = None
        self.sent_for: int | None = None  # prompt id already answered, awaiting the next update

    def reset(self, prompt: dict[str, Any] | None, hand: list[dict[str, Any]]) -> None:
        """A new view arrived; keep the selection only while the same prompt is open."""
        same = prompt is not None and self.prompt is not None and prompt.get("id") == self.prompt.get("id")
        self.prompt = prompt
        self.hand = hand
        if not same:
            self.selected = None
            self.target = 0
            self.note = None
        if prompt is None or prompt.get("id") != self.sent_for:
            self.sent_for = None
        if self.selected is not None and all(c.get("id") != self.selected for c in hand):
            self.selected = None

    @property
    def options(self) -> list[dict[str, Any]]:
        return list(self.prompt.get("options", [])) if self.prompt else []

    def usable(self) -> set[int]:
        """Hand cards that some option of the open prompt uses."""
        return {int(o["card"]) for o in self.options if o.get("card") is not None}

    def card_options(self) -> list[dict[str, Any]]:
        if self.selected is None:
            return []
        return [o for o in self.options if o.get("card") == self.selected]

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
        had = self.selected is not None or self.note is not None
        self.selected = None
        self.target = 0
        self.note = None
        return had

    def _send(self, option_id: str) -> str:
        assert self.prompt is not None
        self.sent_for = int(self.prompt["id"])
        self.selected = None
        self.target = 0
        return option_id
