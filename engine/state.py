"""The complete game state: plain data, owned by `engine.game.Game`.

Nothing here knows the rules; `game.py` moves the state from node to node and the card modules
in `engine/functions/` change it. Everything is serialisable so that a state can be hashed.

Each class has a `copy()` that shares nothing mutable with the original (a search plays many
copies of one state on): what is immutable (ints, strings, `Option`s, the config) is shared,
every list, set and dict is new. `tests/test_copy.py` walks the whole object graph to hold
that, so a field added here without its copy fails there.
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

    def copy(self) -> Seat:
        return Seat(self.index, self.name, self.identity, self.hand.copy(), self.messages.copy(), self.alive,
                    self.lost, self.revealed, self.character, self.face_up, self.character_choices.copy(),
                    self.last_black_by, self.left_with.copy(), self.left_turn)


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

    def copy(self) -> Message:
        return Message(self.card, self.sender, self.method, self.face_up, self.origin, self.position,
                       self.direction, self.target, self.skipped.copy(), self.seen_by.copy(), self.forced,
                       self.intercepted_by, self.sent_back, self.returning)


@dataclass(slots=True)
class StackItem:
    """A function card (or a skill placed like one) waiting on the response stack (后发先至)."""

    card: int  # -1 for a skill
    user: int
    function: str  # what it counts as: a function card's name, or the skill's own name
    target_seat: int | None = None
    target_card: int | None = None  # 烧毁: the message card; 识破: the card it cancels
    skill: str | None = None

    def copy(self) -> StackItem:
        return StackItem(self.card, self.user, self.function, self.target_seat, self.target_card, self.skill)


@dataclass(slots=True)
class Step:
    """A piece of pending engine work on the agenda; it runs before the current node continues.

    Effects that need a decision halfway (a triggered skill's offer, a probed player's discard)
    are split into steps, so the whole game stays plain data.
    """

    kind: str
    seat: int | None = None
    data: dict[str, Any] = field(default_factory=dict)

    def copy(self) -> Step:
        return Step(self.kind, self.seat, plain_copy(self.data))


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

    def copy(self) -> Window:
        # The answers are Options, which are immutable.
        return Window(self.step, self.after, self.eligible.copy(), self.passed.copy(), self.acted, self.last_actor,
                      self.first_prompt, self.answers.copy())


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
    deaths: list[int] = field(default_factory=list)  # in order of death (the order of `killers`)
    # victim -> killer (RULES.md §8.1), filled the moment a death starts, so in order of death
    # even when a death inside another's death procedure is carried out first (`Game.died_before`)
    killers: dict[int, int | None] = field(default_factory=dict)
    next_prompt_id: int = 1
    decisions: int = 0

    def copy(self, rng: random.Random | None = None) -> GameState:
        """A copy with its own RNG: `rng`, or one in the same state as this state's."""
        if rng is None:
            rng = random.Random.__new__(random.Random)  # not seeded: its state is set at once
            rng.setstate(self.rng.getstate())
        return GameState(
            config=self.config, seed=self.seed, rng=rng, seats=[seat.copy() for seat in self.seats],
            pile=self.pile.copy(), discard=self.discard.copy(), removed=self.removed.copy(),
            table={key: cards.copy() for key, cards in self.table.items()}, current=self.current, turn=self.turn,
            node=self.node, message=None if self.message is None else self.message.copy(),
            stack=[item.copy() for item in self.stack], resolving=[item.copy() for item in self.resolving],
            window=None if self.window is None else self.window.copy(), locked=self.locked.copy(),
            cannot_send=self.cannot_send, agenda=[st.copy() for st in self.agenda],
            asking=None if self.asking is None else self.asking.copy(), dying=self.dying.copy(),
            declaring=plain_copy(self.declaring), winners=self.winners.copy(), declarer=self.declarer,
            win_reason=self.win_reason, deaths=self.deaths.copy(), killers=self.killers.copy(),
            next_prompt_id=self.next_prompt_id, decisions=self.decisions,
        )


def plain_copy(value: Any) -> Any:
    """A copy of plain data (the dicts of steps and of a victory being declared): every dict, list
    and set anew, all the rest (ints, strings, None, Options, tuples of them) shared as immutable."""
    if isinstance(value, dict):
        return {key: plain_copy(item) for key, item in value.items()}
    if isinstance(value, list):
        return [plain_copy(item) for item in value]
    if isinstance(value, set):
        return set(value)
    return value
