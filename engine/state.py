"""The complete game state: plain data, owned by `engine.game.Game`.

Nothing here knows the rules; `game.py` moves the state from node to node and the card modules
in `engine/functions/` change it. Everything is serialisable so that a state can be hashed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from .config import GameConfig

# Nodes of the turn (RULES.md §10). The waiting ones hold open prompts.
TURN_START = "turn_start"
DRAW = "draw"
PLAY = "play"  # waits on the current player
SEND = "send"  # waits on the current player
TRANSMIT = "transmit"
AFTER_TRANSMIT = "after_transmit"
AFTER_ARRIVE = "after_arrive"
RECEIVE = "receive"  # waits on the holder unless the receipt is forced
WINDOW = "window"  # waits on every eligible seat at once
CHARACTER_PICK = "character_pick"  # waits on every seat choosing a character
TURN_END = "turn_end"
NEXT_TURN = "next_turn"  # after the turn-end window: the next seat's turn begins
GAME_OVER = "game_over"

# The step of the turn a response window belongs to; it decides which cards are legal.
STEP_PLAY = "play"
STEP_TRANSMIT = "transmit"
STEP_ARRIVE = "arrive"
STEP_TURN_START = "turn_start"  # RULES.md §4: turn start and turn end allow responses (e.g. 烧毁)
STEP_TURN_END = "turn_end"
TURN_STEPS = frozenset({STEP_TURN_START, STEP_TURN_END})


@dataclass(slots=True)
class Seat:
    index: int
    name: str
    identity: str
    hand: list[int] = field(default_factory=list)
    messages: list[int] = field(default_factory=list)
    alive: bool = True
    lost: bool = False
    revealed: bool = False
    character: str | None = None  # a character id (engine/characters), when playing with characters
    face_up: bool = True  # False while the character is face-down (hidden, or covered: 盖伏)
    character_choices: list[str] = field(default_factory=list)
    last_black_by: int | None = None  # who put his latest black message there (RULES.md §8.1 killer)
    left_with: list[int] = field(default_factory=list)  # the messages he held when he died or lost
    left_turn: int | None = None  # the turn he died or lost in

    @property
    def in_game(self) -> bool:
        return self.alive and not self.lost


@dataclass(slots=True)
class Message:
    """The message travelling this turn (RULES.md §5)."""

    card: int
    sender: int
    method: str
    face_up: bool
    origin: int  # the seat it is moving away from
    position: int  # the seat it is heading to, or in front of
    direction: int = 1
    target: int | None = None  # 直达 only
    skipped: set[int] = field(default_factory=set)
    seen_by: set[int] = field(default_factory=set)
    forced: bool = False  # its next holder must accept it
    intercepted_by: int | None = None
    sent_back: bool = False
    returning: bool = False  # on its way back to the sender (直达 refused or 退回)


@dataclass(slots=True)
class StackItem:
    """A function card (or a skill placed like one) waiting on the response stack (后发先至)."""

    card: int  # -1 for a skill
    user: int
    function: str  # what it counts as: a function card's name, or the skill's own name
    target_seat: int | None = None
    target_card: int | None = None  # 烧毁: the message card; 识破: the card it cancels
    cancelled: bool = False
    skill: str | None = None


@dataclass(slots=True)
class Step:
    """A piece of pending engine work on the agenda; it runs before the current node continues.

    Effects that need a decision halfway (a triggered skill's offer, a probed player's discard)
    are split into steps, so the whole game stays plain data.
    """

    kind: str
    seat: int | None = None
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class Window:
    """A response window: every eligible seat is asked at once, and it settles once every one has
    answered. `eligible` is in 顺位 (RULES.md §6.4): when it settles, the first eligible seat that
    played is applied and the window reopens for the new top; the other plays are not applied (their
    cards never left their owners' hands), which is one-at-a-time polling whatever the arrival order.
    With no play it closes and the top of the stack resolves."""

    step: str
    after: str
    eligible: list[int]
    passed: set[int] = field(default_factory=set)
    acted: bool = False
    last_actor: int = 0
    # Prompt id of eligible[0]; eligible[i] was asked with first_prompt + i. Views list every
    # eligible seat as waiting until the window closes, so that a pass stays secret.
    first_prompt: int = field(default=0, repr=False)
    answers: dict[int, Any] = field(default_factory=dict)  # seat -> the Option it played, until settled


@dataclass(slots=True)
class GameState:
    config: GameConfig
    seed: int
    rng: random.Random
    seats: list[Seat]
    pile: list[int]  # the top is the end of the list
    discard: list[int] = field(default_factory=list)
    removed: list[int] = field(default_factory=list)  # used 试探, out of the game face-down
    # Cards face-down on the table during an effect (真伪莫辨's pool, 遗志's hand), one pile per
    # effect so that an effect started inside another (a death during 真伪莫辨) keeps its own.
    table: dict[str, list[int]] = field(default_factory=dict)
    current: int = 0
    turn: int = 0
    node: str = TURN_START
    message: Message | None = None
    stack: list[StackItem] = field(default_factory=list)
    resolving: list[StackItem] = field(default_factory=list)  # items whose effect is under way (RULES.md §4)
    window: Window | None = None
    locked: set[int] = field(default_factory=set)
    cannot_send: bool = False
    agenda: list[Step] = field(default_factory=list)  # LIFO: the last pushed runs first
    asking: Step | None = None  # the step whose prompt is open
    dying: set[int] = field(default_factory=set)
    declaring: dict[str, Any] | None = None  # a victory being declared (its triggers may add winners)
    winners: list[int] = field(default_factory=list)
    declarer: int | None = None
    win_reason: str | None = None
    deaths: list[int] = field(default_factory=list)  # in order of death
    killers: dict[int, int | None] = field(default_factory=dict)  # victim -> killer (RULES.md §8.1)
    next_prompt_id: int = 1
    decisions: int = 0
