"""Decisions the engine waits on: who, which options (with stable ids), and the default.

A prompt is data. The server adds the deadline; on expiry it submits `prompt.default`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from typing import ClassVar

# Kinds of decision, each with its own timer on the server.
PLAY_PHASE = "play"
SEND_MESSAGE = "send"
RESPONSE = "response"
RECEIVE_DECISION = "receive"
PROBE_DISCARD = "probe_discard"
CHARACTER_PICK = "character_pick"
SKILL = "skill"  # a choice inside a character's skill (use it? which target? which card?)
KINDS = (PLAY_PHASE, SEND_MESSAGE, RESPONSE, RECEIVE_DECISION, PROBE_DISCARD, CHARACTER_PICK, SKILL)


@dataclass(frozen=True, slots=True)
class Option:
    """One legal choice. `id` is what a client sends back."""

    id: str
    verb: str  # pass | end | play | send | accept | decline | discard
    card: int | None = None
    target_seat: int | None = None
    target_card: int | None = None
    name: str | None = None  # a skill or character id, or the function a card is used as

    def to_dict(self) -> dict[str, object]:
        d: dict[str, object] = {"id": self.id, "verb": self.verb}
        if self.name is not None:
            d["name"] = self.name
        if self.card is not None:
            d["card"] = self.card
        if self.target_seat is not None:
            d["target_seat"] = self.target_seat
        if self.target_card is not None:
            d["target_card"] = self.target_card
        return d


@cache
def option(verb: str, card: int | None = None, seat: int | None = None, message: int | None = None,
           name: str | None = None) -> Option:
    """Build an option whose id is derived from its content, so ids are stable across replays.

    Options are immutable and few, so each is built once and shared (cached: the engine asks for
    the same ones thousands of times per game)."""
    parts = [verb] if name is None else [verb, name]
    if card is not None:
        parts.append(str(card))
    if seat is not None:
        parts.append(f"s{seat}")
    if message is not None:
        parts.append(f"m{message}")
    return Option(":".join(parts), verb, card, seat, message, name)


PASS = option("pass")
END_PLAY = option("end")
ACCEPT = option("accept")
DECLINE = option("decline")


class Prompt:
    """A decision one seat owes. `more`, when given, completes `options` the first time they are
    read: a response window asks every eligible seat at once and most seats just pass (the default,
    found without enumerating the rest), so each seat's card and skill options are built only when
    something reads them. Nothing but passes happens while a window's prompts are open, so the
    options built later are the ones that would have been built at once; reading the options of a
    prompt that closed before they were built is an error (`more` says so), never stale options.
    """

    __slots__ = ("id", "seat", "kind", "default", "_options", "_more", "_shown")

    def __init__(self, id: int, seat: int, kind: str, options: tuple[Option, ...], default: str,
                 more: Callable[[Prompt], Iterable[Option]] | None = None) -> None:
        self.id = id
        self.seat = seat
        self.kind = kind
        self.default = default
        self._options = options
        self._more = more
        self._shown: list[dict[str, object]] | None = None

    @property
    def options(self) -> tuple[Option, ...]:
        more = self._more
        if more is not None:
            self._options = (*self._options, *more(self))
            self._more = None
        return self._options

    def copy(self, more: Callable[[Prompt], Iterable[Option]] | None) -> Prompt:
        """This prompt for a copy of its game: the options built so far are shared (immutable); those
        still to build are built by `more`, the copy's own, when read (see `Game.copy`)."""
        return Prompt(self.id, self.seat, self.kind, self._options, self.default,
                      more if self._more is not None else None)

    def find(self, option_id: str) -> Option | None:
        for opt in self._options:
            if opt.id == option_id:
                return opt
        if self._more is None:
            return None
        for opt in self.options:
            if opt.id == option_id:
                return opt
        return None

    def to_dict(self) -> dict[str, object]:
        """The prompt as its seat is shown it. The options list is built once per prompt and the
        same list is handed out every time (read-only): a server re-projecting an open prompt for
        every batch of decisions neither rebuilds nor re-compares it."""
        if self._shown is None:
            self._shown = [o.to_dict() for o in self.options]
        return {"id": self.id, "seat": self.seat, "kind": self.kind, "options": self._shown, "default": self.default}

    def _key(self) -> tuple[int, int, str, tuple[Option, ...], str]:
        return (self.id, self.seat, self.kind, self.options, self.default)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Prompt) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (f"Prompt(id={self.id!r}, seat={self.seat!r}, kind={self.kind!r}, options={self.options!r}, "
                f"default={self.default!r})")

    def __reduce__(self) -> tuple[type[Prompt], tuple[int, int, str, tuple[Option, ...], str]]:
        """Copies and pickles carry built options: a copy of a game must not build from the original."""
        return (Prompt, (self.id, self.seat, self.kind, self.options, self.default))


_PASS_ONLY = (PASS,)
_new = object.__new__
#: Whether a prompt can be set up without its constructor: so when interpreted; a class compiled by
#: mypyc (bench/compiled.py) must go through it, and its constructor costs little there.
_PLAIN_CLASS = Prompt.__new__ is _new


def ask_window(prompts: dict[int, Prompt], first_id: int, seats: Iterable[int],
               more: Callable[[Prompt], Iterable[Option]]) -> int:
    """Put a response window's prompt to each of `seats` (ids from `first_id` on, in that order):
    "pass" is the default, the rest is built by `more` when read. Returns the next free id.

    The same prompts as `Prompt(id, seat, RESPONSE, (PASS,), PASS.id, more)`, set up in place: a
    window asks every seat holding a card, and a game opens about 120 of them, so the constructor
    call and its frame (a third of a prompt's cost) are worth saving here."""
    prompt_id = first_id
    if not _PLAIN_CLASS:
        for seat in seats:
            prompts[seat] = Prompt(prompt_id, seat, RESPONSE, _PASS_ONLY, "pass", more)
            prompt_id += 1
        return prompt_id
    for seat in seats:
        prompt = _new(Prompt)
        prompt.id = prompt_id
        prompt.seat = seat
        prompt.kind = RESPONSE
        prompt.default = "pass"
        prompt._options = _PASS_ONLY
        prompt._more = more
        prompt._shown = None
        prompts[seat] = prompt
        prompt_id += 1
    return prompt_id


class ChoiceError(Exception):
    """A choice the engine refused; the game is unchanged. `code` is a class attribute (ClassVar:
    the compiled engine keeps it on the class, where a plain one would vanish from an exception)."""

    code: ClassVar[str] = "illegal"


class NoPrompt(ChoiceError):
    code = "not_prompted"


class StalePrompt(ChoiceError):
    code = "stale_prompt"


class IllegalOption(ChoiceError):
    code = "illegal_option"


class GameIsOver(ChoiceError):
    code = "game_over"
