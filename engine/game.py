"""The game driver: explicit nodes (RULES.md §10) advanced by a loop until a decision is needed.

`Game.new(config, seed)` deals; `pending()` lists the open prompts; `choose(seat, prompt_id,
option_id)` applies one validated choice and advances. The same config, seed and choices always
give the same game: the only randomness is `state.rng`.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from . import characters
from . import prompts as P
from .cards import BLACK, DIRECT, PROBE, SEE_THROUGH, TEXT, Card, build_deck, card_colours, plain_faces
from .config import FACTION_COLOUR, IDENTITIES, GameConfig
from .events import Event
from .functions import ANY_MOMENT, OWN_PLAY, RULES
from .prompts import RESPONSE, ChoiceError, GameIsOver, IllegalOption, NoPrompt, Option, Prompt, StalePrompt
from .state import (
    AFTER_ARRIVE,
    AFTER_TRANSMIT,
    CHARACTER_PICK,
    DRAW,
    GAME_OVER,
    NEXT_TURN,
    PLAY,
    RECEIVE,
    SEND,
    STEP_ARRIVE,
    STEP_PLAY,
    STEP_TRANSMIT,
    STEP_TURN_END,
    STEP_TURN_START,
    TRANSMIT,
    TURN_END,
    TURN_START,
    TURN_STEPS,
    WINDOW,
    GameState,
    Message,
    Seat,
    StackItem,
    Step,
    Window,
)
from .steps import CONTINUATIONS, STEPS

HAND_SIZE = 3
DRAW_COUNT = 2
_NOBODY: frozenset[int] = frozenset()
_NO_SECRET: dict[str, object] = {}  # shared by every event without a secret part; never written to


@cache
def _orders(n: int) -> tuple[tuple[int, ...], ...]:
    """For each seat of an n-seat table, every seat in turn order starting with it."""
    return tuple(tuple((seat + k) % n for k in range(n)) for seat in range(n))


@cache
def _answer_orders(n: int) -> tuple[tuple[int, ...], ...]:
    """For each last actor of an n-seat table: who answers a window, from his right round to him."""
    return tuple(tuple((seat + k) % n for k in range(1, n + 1)) for seat in range(n))


@cache
def _others(n: int) -> tuple[tuple[int, ...], ...]:
    """For each seat of an n-seat table: every other seat, from his right round to his left."""
    return tuple(order[:-1] for order in _answer_orders(n))


_AFTER_WINDOW = {STEP_PLAY: PLAY, STEP_TRANSMIT: AFTER_TRANSMIT, STEP_ARRIVE: AFTER_ARRIVE,
                 STEP_TURN_START: DRAW, STEP_TURN_END: NEXT_TURN}
#: Events logged only where nothing a secret task reads changes (the message moving on, a turn
#: or a play phase beginning or ending, a lock, an item about to resolve: its effect logs its own).
_TASK_QUIET = frozenset({"transmit", "arrived", "declined", "turn_start", "play_phase_ended", "locked", "resolved"})


@dataclass(frozen=True)
class Setup:
    """A fixed deal, for scenarios: identities, hands (card ids), the top of the pile, first seat.

    `messages` and `discard` start a scenario mid-game; with `pile_only` the pile is exactly
    `pile_top` and every other card is out of the game, so that pile exhaustion can be staged.
    """

    identities: Sequence[str]
    hands: Sequence[Sequence[int]]
    pile_top: Sequence[int] = ()
    first: int = 0
    messages: Sequence[Sequence[int]] = ()
    discard: Sequence[int] = ()
    pile_only: bool = False
    characters: Sequence[str] = ()  # a character id per seat, when playing with characters
    face_up: Sequence[bool] = ()  # per seat: overrides the character's usual side (hidden ones face-down)
    # A start in the middle of a game: seats already dead (in order of death) or lost, the turn in
    # play, the node it starts at (a turn's start, its play or send phase, or a message already
    # travelling: `message`, then the node is TRANSMIT), and the seats locked this turn.
    dead: Sequence[int] = ()
    lost: Sequence[int] = ()
    turn: int = 0
    start: str = TURN_START
    message: Message | None = None
    locked: Sequence[int] = ()


class Game:
    def __init__(self, state: GameState, deck: tuple[Card, ...]) -> None:
        self.state = state
        self.deck = deck
        self.events: list[Event] = []
        self.choices: list[tuple[int, int, str]] = []
        self.prompts: dict[int, Prompt] = {}
        self.cast = characters.NO_CAST  # the characters on the table, once `characters.assign` ran
        #: Whether the game has ended: `_finish` is the one place that sets the node GAME_OVER, and this
        #: with it (read before every decision, so not a property).
        self.over: bool = state.node == GAME_OVER
        # By card id: colours (counted after every step) and faces to copy (None: built each time),
        # worked out once per deck variant unless the deck is one of its own.
        variant = state.config.deck
        if deck is build_deck(variant):
            self._colours, self._faces = card_colours(variant), plain_faces(variant)
        else:
            self._colours, self._faces = tuple(card.colour for card in deck), (None,) * len(deck)
        self._shown_cache: tuple[object, dict[str | None, tuple[bool, ...]]] = (None, {})
        self._tasks_unmet_at = -1  # the length of the log when no secret task was met (see below)
        #: Moves on with every choice that may change the state (`choose`, the one way a game moves
        #: once made), which is all but an answer to a response window that other seats still owe:
        #: that changes only its own prompt and the window's answers. Equal stamps of one game,
        #: equal state but for the prompts, so a view may keep what it read of the rest
        #: (`engine.view.own_facts_again`).
        self.stamp = 0

    @property
    def _handlers(self) -> dict[str, Callable[[], bool]]:
        """Each node's handler bound to this game (engine/worlds.py runs one); the driver loop calls
        the class's table (`_NODE_HANDLERS`), so that a game holds no reference to itself and is freed
        as soon as it is dropped (a search drops thousands of copies)."""
        return {node: handler.__get__(self) for node, handler in _NODE_HANDLERS.items()}

    # ----------------------------------------------------------------- creation

    @classmethod
    def new(cls, config: GameConfig, seed: int, setup: Setup | None = None) -> Game:
        config.validate(deal_characters=setup is None or not setup.characters, fixed_deal=setup is not None)
        names = config.names or tuple(f"P{i + 1}" for i in range(config.players))
        seats = [Seat(i, names[i], "") for i in range(config.players)]
        state = GameState(config=config, seed=seed, rng=random.Random(seed), seats=seats, pile=[])
        game = cls(state, build_deck(config.deck))
        if setup is not None:
            game._deal_setup(setup)
            game.push("check_end")  # a mid-game start is checked like any change (RULES.md §10)
        elif config.characters:
            characters.deal_choices(game)
        else:
            game.deal()
        game._advance()
        return game

    def copy(self, rng: random.Random | None = None) -> Game:
        """An independent game in the same position: played on, it goes exactly where this one would
        with the same choices, and neither sees the other's moves (a search plays many copies on).

        The state is copied field by field (`GameState.copy`); events are shared, since an event
        never changes once logged, and so are the deck, the cast and the options (immutable).
        `rng`, when given, becomes the copy's RNG instead of a copy of this one's: a search over
        worlds a seat cannot tell apart draws the hidden future (reshuffles) anew, and copying the
        RNG's state is a third of a copy's cost. About 100× cheaper than `copy.deepcopy`
        (bench/search_bench.py)."""
        game = type(self)(self.state.copy(rng), self.deck)
        game.events = self.events.copy()
        game.choices = self.choices.copy()
        more = game._response_options
        game.prompts = {seat: prompt.copy(more) for seat, prompt in self.prompts.items()}
        game.cast = self.cast
        cast, shown = self._shown_cache
        game._shown_cache = (cast, shown.copy())
        game._tasks_unmet_at = self._tasks_unmet_at
        game.stamp = self.stamp
        return game

    def deal(self) -> None:
        """RULES.md §3 steps 3–5: identities, three cards each, a random first player."""
        s = self.state
        counts = s.config.identity_counts()
        identities = [ident for ident, n in zip(IDENTITIES, counts, strict=True) for _ in range(n)]
        s.rng.shuffle(identities)
        pile = [c.id for c in self.deck]
        s.rng.shuffle(pile)
        for seat in s.seats:
            seat.identity = identities[seat.index]
            seat.hand = [pile.pop() for _ in range(HAND_SIZE)]
        s.pile = pile
        s.current = s.rng.randrange(len(s.seats))
        self._log_deal()

    def _deal_setup(self, setup: Setup) -> None:
        s = self.state
        hands = [list(h) for h in setup.hands]
        messages = [list(m) for m in setup.messages] or [[] for _ in s.seats]
        discard = list(setup.discard)
        used = {c for h in hands + messages for c in h} | set(setup.pile_top) | set(discard)
        rest = [c.id for c in self.deck if c.id not in used]
        s.rng.shuffle(rest)
        s.removed = rest if setup.pile_only else []
        s.pile = ([] if setup.pile_only else rest) + list(reversed(setup.pile_top))
        s.discard = discard
        s.current = setup.first
        for seat in s.seats:
            seat.identity = setup.identities[seat.index]
            seat.hand = hands[seat.index]
            seat.messages = messages[seat.index]
        if setup.characters:
            characters.assign(self, list(setup.characters), list(setup.face_up))
        self._log_deal()
        self._start_mid_game(setup)

    def _start_mid_game(self, setup: Setup) -> None:
        """The seats already out, and a start past the turn's beginning (scenarios only)."""
        s = self.state
        for seat in setup.dead:
            s.seats[seat].alive = False
            s.deaths.append(seat)
            s.killers[seat] = None
        for seat in setup.lost:
            s.seats[seat].lost = True
        for seat in (*setup.dead, *setup.lost):  # out before the log starts: no event says so
            player = s.seats[seat]
            player.revealed = player.face_up = True
        if setup.start == TURN_START:
            s.turn = max(setup.turn - 1, 0)
            return
        s.turn = max(setup.turn, 1)
        s.node = setup.start
        s.locked = set(setup.locked)
        self.log("turn_start", seat=s.current, turn=s.turn)
        if setup.message is not None:
            s.message = setup.message
            s.node = TRANSMIT

    def _log_deal(self) -> None:
        for seat in self.state.seats:
            self.log("dealt", {"cards": [self.face(c) for c in seat.hand]}, seen_by=(seat.index,),
                     seat=seat.index, count=len(seat.hand))
            self.log("identity", {"identity": seat.identity}, seen_by=(seat.index,), seat=seat.index)
        self.log("first_player", seat=self.state.current)

    # ----------------------------------------------------------------- queries

    def card(self, card_id: int) -> Card:
        return self.deck[card_id]

    def face(self, card_id: int) -> dict[str, object]:
        """A card's face, a fresh dict each time (it goes into the log and the views)."""
        face = self._faces[card_id]
        return self.deck[card_id].face() if face is None else face.copy()

    def public_face(self, item: StackItem) -> dict[str, object]:
        """A stack item as the table sees it: a 试探 is handed over face-down."""
        if item.skill is not None and item.card < 0:
            return {"function": item.function, "skill": item.skill}
        if item.function == PROBE:
            return {"function": item.function}
        return self.face(item.card)

    def n(self) -> int:
        return len(self.state.seats)

    def order_from(self, seat: int) -> tuple[int, ...]:
        """Every seat in turn order starting with `seat` (顺位, RULES.md §6.4)."""
        return _orders(len(self.state.seats))[seat]

    def in_game(self) -> list[int]:
        return [p.index for p in self.state.seats if p.alive and not p.lost]  # `Seat.in_game`, inlined: hot

    def others_in_game(self, seat: int) -> list[int]:
        seats = self.state.seats
        return [x for x in _others(len(seats))[seat] if seats[x].alive and not seats[x].lost]

    def others_standing(self, seat: int) -> list[int]:
        """The other players in the game who are not dying: those a card can be given to or a message
        placed before (RULES.md §8.1: a dying player is dead already; his cards are about to go)."""
        return [x for x in self.others_in_game(seat) if not self.is_dying(x)]

    def colour_count(self, seat: int, colour: str) -> int:
        colours = self._colours
        n = 0
        for c in self.state.seats[seat].messages:
            if colours[c] == colour:
                n += 1
        return n

    def pending(self) -> list[Prompt]:
        return list(self.prompts.values())

    def priority_key(self, seat: int) -> int:
        """Order in which simultaneous answers are applied (顺位 from the right of the last actor)."""
        w = self.state.window
        if w is not None and seat in w.eligible:
            return w.eligible.index(seat)
        return self.n() + (seat - self.state.current) % self.n()

    # ----------------------------------------------------------------- choices

    def choose(self, seat: int, prompt_id: int, option_id: str) -> list[Event]:
        """Apply one choice. Raises a ChoiceError subclass, changing nothing, if it is not legal now."""
        if self.over:
            raise GameIsOver("the game is over")
        s = self.state
        prompts = self.prompts
        prompt = prompts.get(seat)
        if prompt is None:
            raise NoPrompt(f"seat {seat} has no decision to make now")
        if prompt.id != prompt_id:
            raise StalePrompt(f"prompt {prompt_id} is no longer open (the open one is {prompt.id})")
        opt = prompt.find(option_id)
        if opt is None:
            raise IllegalOption(f"{option_id!r} is not an option of prompt {prompt_id}")
        self.choices.append((seat, prompt_id, option_id))
        s.decisions += 1
        del prompts[seat]
        start = len(self.events)
        if prompt.kind == RESPONSE and s.asking is None:
            w = s.window
            assert w is not None
            if opt.verb == "pass":
                w.passed.add(seat)
            else:
                w.answers[seat] = opt
            if prompts:
                # An answer is applied only once every asked seat has answered (RULES.md §6.4: in
                # 顺位, not in arrival order); until then it changes nothing a rule or a secret task
                # reads, and the others' prompts stand: there is nothing to advance.
                return []
            self.stamp += 1
            self._settle_window()
        else:
            self.stamp += 1
            self._apply(prompt, opt)
        self._advance()
        return self.events[start:]

    def _apply(self, prompt: Prompt, opt: Option) -> None:
        s = self.state
        seat = prompt.seat
        asking = s.asking
        kind = prompt.kind
        if asking is not None and asking.data["prompt_id"] == prompt.id:
            s.asking = None
            CONTINUATIONS[asking.data["then"]](self, asking, opt)
        elif opt.verb == "skill":
            characters.use_skill(self, seat, opt, OWN_PLAY)
        elif kind == P.PLAY_PHASE:
            if opt.verb == "end":
                self.log("play_phase_ended", seat=seat)
                s.node = SEND
            else:
                self._play_card(seat, opt, STEP_PLAY, last_actor=seat)
        elif kind == P.SEND_MESSAGE:
            self._send_message(seat, opt)
        elif kind == P.RECEIVE_DECISION:
            if opt.verb == "accept":
                self._accept()
            else:
                self._decline()
        elif kind == P.CHARACTER_PICK:
            characters.picked(self, seat, opt)

    def _settle_window(self) -> None:
        """Every asked seat has answered: the first in 顺位 that played is applied (a card onto the
        stack, a skill used), and the window opens afresh for everyone; with no play it closes."""
        w = self.state.window
        assert w is not None
        answers = w.answers
        if not answers:
            self._close_window()
            return
        seat = next(x for x in w.eligible if x in answers)
        opt = answers[seat]
        answers.clear()
        if opt.verb == "skill":
            characters.use_skill(self, seat, opt, w.step)
        else:
            self._play_card(seat, opt, w.step, last_actor=seat)

    # ----------------------------------------------------------------- the driver loop

    def _advance(self) -> None:
        """Run the agenda's steps, then the current node, until a decision is needed."""
        s = self.state
        agenda = s.agenda
        handlers = _NODE_HANDLERS
        while True:
            if self.prompts or self.over:
                if not self.cast.tasked or not self._task_done_while_waiting():
                    return
            elif agenda:
                step = agenda.pop()
                STEPS[step.kind](self, step)
            elif handlers[s.node](self):
                return

    def _task_done_while_waiting(self) -> bool:
        """A secret task may be met by any change (a card taken into a hand): check before waiting."""
        s = self.state
        if not self.cast.tasked or s.node == GAME_OVER or s.declaring is not None or s.dying:
            return False
        # Every change a task reads (hands, messages, identities, deaths) is logged, and never by an
        # event of a `_TASK_QUIET` kind alone: with no other event since the last negative check, the
        # answer is the same (windows open and close many times a turn).
        events = self.events
        logged = len(events)
        unmet_at = self._tasks_unmet_at
        while 0 <= unmet_at < logged and events[unmet_at].kind in _TASK_QUIET:
            unmet_at += 1
        if unmet_at == logged:
            self._tasks_unmet_at = logged
            return False
        if not characters.check_tasks(self):
            self._tasks_unmet_at = logged
            return False
        self.prompts.clear()
        s.asking = None
        return True

    def push(self, kind: str, seat: int | None = None, **data: Any) -> None:
        """Schedule engine work; steps run last-in first-out, before the node continues."""
        self.state.agenda.append(Step(kind, seat, data))

    def ask(self, seat: int, kind: str, options: Sequence[Option], default: str, then: str, **data: Any) -> None:
        """Schedule a decision in the middle of an effect; `then` names the continuation of the answer."""
        self.push("ask", seat, prompt_kind=kind, options=list(options), default=default, then=then, **data)

    def _run_ask(self, step: Step) -> None:
        assert step.seat is not None
        if self.over or not self.state.seats[step.seat].in_game:
            return
        step.data["prompt_id"] = self.state.next_prompt_id
        self.state.asking = step
        self.prompt_seat(step.seat, step.data["prompt_kind"], step.data["options"], step.data["default"])

    def _waiting(self) -> bool:
        return True

    def prompt_seat(self, seat: int, kind: str, options: Iterable[Option], default: str) -> None:
        """Put a decision to a seat now (the character pick, a step's `ask`); skills use it too."""
        prompt = Prompt(self.state.next_prompt_id, seat, kind, tuple(options), default)
        self.state.next_prompt_id += 1
        self.prompts[seat] = prompt

    def _turn_start(self) -> bool:
        s = self.state
        s.locked.clear()
        s.message = None
        s.cannot_send = False
        s.turn += 1
        self.log("turn_start", seat=s.current, turn=s.turn)
        self.open_window(STEP_TURN_START, self._before(s.current))  # then DRAW
        return False

    def _before(self, seat: int) -> int:
        """The seat whose right is `seat`: a window "after" it asks `seat` first. The turn-start and
        turn-end windows follow no use, so [DECISION] their 顺位 starts with the current player, as
        triggered skills of one moment do (RULES.md §6.4 point 4)."""
        return (seat - 1) % len(self.state.seats)

    def _draw(self) -> bool:
        s = self.state
        s.node = PLAY
        if s.seats[s.current].in_game:  # he may have died in the turn-start window: no draw then
            self.draw(s.current, DRAW_COUNT)
            self.fire("draw_phase", seat=s.current)
        return False

    def _play(self) -> bool:
        s = self.state
        if not s.seats[s.current].in_game:
            s.node = TURN_END
            return False
        options = self._card_options(s.current, OWN_PLAY)
        if s.config.characters:
            options.extend(characters.skill_options(self, s.current, OWN_PLAY))
        self.prompt_seat(s.current, P.PLAY_PHASE, [*options, P.END_PLAY], P.END_PLAY.id)
        return True

    def _card_options(self, seat: int, moment: str) -> list[Option]:
        """Every card the seat may play now, with its targets. A function's targets depend on the
        seat and the moment only, so they are asked once per function, not once per card.

        In his own play phase the current player answers a card on the stack with any card whose
        timing allows his own play phase as well (锁定, 试探…: CARDS.md timings, issue 11 item 7)."""
        s = self.state
        hand = s.seats[seat].hand
        options: list[Option] = []
        if not hand:  # a seat asked for its character alone (every window asks one face-down)
            return options
        deck = self.deck
        option = P.option
        targets_of: dict[str, list[Any] | None] = {}
        own_play_too = moment == STEP_PLAY and seat == s.current
        play_as = characters.play_as_functions(self, seat) if s.config.characters else None
        for card_id in hand:
            function = deck[card_id].function
            if function not in targets_of:
                targets_of[function] = self._targets(function, seat, moment, own_play_too)
            for target_seat, target_card in targets_of[function] or ():
                options.append(option("play", card_id, target_seat, target_card))
            if play_as:
                for as_function in characters.card_functions(self, seat, card_id, play_as):
                    if as_function not in targets_of:
                        targets_of[as_function] = self._targets(as_function, seat, moment, own_play_too)
                    for target_seat, target_card in targets_of[as_function] or ():
                        options.append(option("play", card_id, target_seat, target_card, name=as_function))
        return options

    def _targets(self, function: str, seat: int, moment: str, own_play_too: bool) -> list[Any] | None:
        rule = RULES[function]
        found = rule.targets(self, seat, moment)
        if found is None and own_play_too:
            found = rule.targets(self, seat, OWN_PLAY)
        return found

    def has_skill(self, seat: int, name: str) -> bool:
        """Whether a seat's character has this skill working now (face-up, or a flip skill)."""
        return self.state.config.characters and characters.has_skill(self, seat, name)

    def _send(self) -> bool:
        s = self.state
        hand = s.seats[s.current].hand
        if not hand:
            s.cannot_send = True
            self.log("cannot_send", seat=s.current)
            s.node = TURN_END
            return False
        options: list[Option] = []
        for card_id in hand:
            if self.deck[card_id].method == DIRECT:
                options.extend(P.option("send", card_id, t) for t in self.others_in_game(s.current))
            else:
                options.append(P.option("send", card_id))
        self.prompt_seat(s.current, P.SEND_MESSAGE, options, options[0].id)
        return True

    def _send_message(self, seat: int, opt: Option) -> None:
        s = self.state
        assert opt.card is not None
        card = self.deck[opt.card]
        s.seats[seat].hand.remove(opt.card)
        m = Message(card=opt.card, sender=seat, method=card.method, face_up=card.method == TEXT,
                    origin=seat, position=seat, target=opt.target_seat, seen_by={seat})
        s.message = m
        public: dict[str, object] = {"seat": seat, "method": card.method, "target": opt.target_seat}
        if m.face_up:
            public["card"] = self.face(opt.card)
        self.log("sent", {"card": self.face(opt.card)}, seen_by=(seat,), **public)
        s.node = TRANSMIT

    def _sender_gone(self) -> bool:
        """RULES.md §5.2: if the sender died or lost while the message travels, it is discarded."""
        s = self.state
        m = s.message
        if m is None or s.seats[m.sender].in_game:
            return False
        s.discard.append(m.card)
        self.log("message_discarded", seat=m.sender)
        s.message = None
        s.node = TURN_END
        return True

    def _holder_gone(self) -> bool:
        """RULES.md §5.2 "dead players and players who have lost are skipped": the seat the message
        heads to (or lies in front of) left the game before receiving it. [DECISION] It moves on
        from the seat it came from if it had not reached him yet, from his seat if it had (arrived,
        or taken by his 截获), and is forced on nobody: having to accept it (截获, 截上截, 转移) was
        his alone. A 退回 of his that took effect still turns it round (a 直达 back to its sender)."""
        s = self.state
        m = s.message
        if m is None or s.seats[m.position].in_game:
            return False
        if m.intercepted_by is not None or s.node != AFTER_TRANSMIT:
            m.origin = m.position
        if m.sent_back:
            m.sent_back = False
            if m.method == DIRECT:
                m.returning = True
            else:
                m.direction = -m.direction
        m.intercepted_by = None
        m.forced = False  # the next holder's own case decides (a returning sender is forced again)
        s.node = TRANSMIT
        return True

    def route_message(self) -> None:
        """Set the seat the message heads to next (RULES.md §5.2, [DECISION] full circle)."""
        s = self.state
        m = s.message
        assert m is not None
        sender = m.sender
        if m.returning:
            nxt = sender
        elif m.method == DIRECT:
            target = m.target
            ok = target is not None and s.seats[target].in_game and target not in m.skipped
            nxt = target if ok and target is not None else sender
        else:
            nxt = m.origin
            while True:
                nxt = (nxt + m.direction) % self.n()
                if nxt == sender:
                    break
                if s.seats[nxt].in_game and nxt not in m.skipped:
                    break
        m.position = nxt
        if nxt == sender:
            m.forced = True
            m.returning = True

    def _transmit(self) -> bool:
        if self._sender_gone():
            return False
        m = self.state.message
        assert m is not None
        self.route_message()
        self.log("transmit", origin=m.origin, to=m.position, direction=m.direction)
        self.open_window(STEP_TRANSMIT, m.origin)
        return False

    def _after_transmit(self) -> bool:
        if self._sender_gone() or self._holder_gone():
            return False
        m = self.state.message
        assert m is not None
        if m.intercepted_by is not None:
            self.state.node = RECEIVE
            return False
        self.log("arrived", seat=m.position)
        self.push("open_window", step=STEP_ARRIVE, last_actor=m.position, acted=False)
        self.fire("arrived", seat=m.position)
        return False

    def _after_arrive(self) -> bool:
        if self._sender_gone() or self._holder_gone():
            return False
        s = self.state
        m = s.message
        assert m is not None
        if m.sent_back:
            m.sent_back = False
            m.origin = m.position
            if m.method == DIRECT:
                m.returning = True
            else:
                m.direction = -m.direction
            s.node = TRANSMIT
        else:
            s.node = RECEIVE
        return False

    def _receive(self) -> bool:
        s = self.state
        m = s.message
        assert m is not None
        holder = m.position
        if self._holder_gone():
            return False
        if m.forced or holder in s.locked or holder == m.sender:
            self._accept()
            return False
        self.prompt_seat(holder, P.RECEIVE_DECISION, [P.ACCEPT, P.DECLINE], P.DECLINE.id)
        return True

    def _accept(self) -> None:
        s = self.state
        m = s.message
        assert m is not None
        s.message = None
        s.node = TURN_END
        self.obtain(m.position, m.card, by=m.sender, received=True)

    def _decline(self) -> None:
        s = self.state
        m = s.message
        assert m is not None
        self.log("declined", seat=m.position)
        m.origin = m.position
        if m.method == DIRECT:
            m.returning = True
        s.node = TRANSMIT

    def _turn_end(self) -> bool:
        s = self.state
        if s.message is not None:
            s.discard.append(s.message.card)
            s.message = None
        if s.cannot_send and s.seats[s.current].in_game:
            s.cannot_send = False
            self.lose(s.current)
            return False
        self.open_window(STEP_TURN_END, self._before(s.current))  # then NEXT_TURN
        return False

    def _next_turn(self) -> bool:
        s = self.state
        s.current = self.others_in_game(s.current)[0]
        s.node = TURN_START
        return False

    # ----------------------------------------------------------------- response windows

    def _play_card(self, seat: int, opt: Option, step: str, last_actor: int) -> None:
        assert opt.card is not None
        self.state.seats[seat].hand.remove(opt.card)
        function = opt.name or self.deck[opt.card].function  # a skill may let a card count as another
        self.push_item(StackItem(opt.card, seat, function, opt.target_seat, opt.target_card), step, last_actor)

    def push_item(self, item: StackItem, step: str, last_actor: int) -> None:
        """Put a card (or a stackable skill) on the stack and open a window for replies to it."""
        s = self.state
        s.stack.append(item)
        secret: dict[str, object] = {}
        seen: tuple[int, ...] = ()
        if item.function == PROBE:
            assert item.target_seat is not None
            secret = {"card": self.face(item.card)}
            seen = (item.user, item.target_seat)
        # A card played as another function (亮剑, 预谋, 换日) says so: the table sees both.
        played_as = {"function": item.function} if item.card >= 0 and item.function != self.deck[item.card].function \
            else {}
        self.log("played", secret, seen_by=seen, seat=item.user, card=self.public_face(item),
                 target=item.target_seat, target_card=self._target_card_face(item), **played_as)
        self.prompts.clear()
        self.push("open_window", step=step, last_actor=last_actor)
        self.fire("played", user=item.user, function=item.function, target=item.target_seat, skill=item.skill)

    def _target_card_face(self, item: StackItem) -> dict[str, object] | None:
        if item.function == SEE_THROUGH:
            below = self.state.stack[-2] if len(self.state.stack) > 1 else None
            return None if below is None else self.public_face(below)
        if item.target_card is None:
            return None
        return self.face(item.target_card)

    def open_window(self, step: str, last_actor: int, acted: bool = False) -> None:
        """Open a response window at `step`: every seat that could answer is asked, in 顺位 order from `last_actor`."""
        s = self.state
        prompts = self.prompts
        prompts.clear()
        seats = s.seats
        characters_on = s.config.characters
        eligible = []
        # Who is asked is decided from public facts only (PEERS.md §0.4): every seat in the game
        # holding a card, or a character that might act. At turn start and turn end with nothing on
        # the stack only a card without printed timing (烧毁) could be used, so a hand counts then only
        # if such a card has a target, and a face-up character only with a skill of that moment.
        quiet = step in TURN_STEPS and not s.stack
        cards_count = not quiet or self._any_moment_card_usable(step)
        shows = self._shows_active(step if quiet else None) if characters_on else ()
        for seat in _answer_orders(len(seats))[last_actor]:
            player = seats[seat]
            if player.alive and not player.lost and (player.hand and cards_count or characters_on and (
                    shows[seat] or not player.face_up and player.character is not None)):
                eligible.append(seat)
        prompt_id = s.next_prompt_id
        s.window = Window(step, _AFTER_WINDOW[step], eligible, set(), acted, last_actor, prompt_id, {})
        s.node = WINDOW
        s.next_prompt_id = P.ask_window(prompts, prompt_id, eligible, self._response_options)
        if not eligible:
            self._close_window()

    def _shows_active(self, moment: str | None) -> tuple[bool, ...]:
        """Per seat: its character, face-up, shows an active skill (of `moment`, or of any moment).
        Characters never change once assigned, so this is worked out once per cast and moment."""
        cached = self._shown_cache
        if cached[0] is not self.cast:
            cached = self._shown_cache = (self.cast, {})
        table = cached[1].get(moment)
        if table is None:
            table = cached[1][moment] = tuple(characters.shows_active(self, seat, moment) for seat in range(self.n()))
        return table

    def _any_moment_card_usable(self, step: str) -> bool:
        """Whether a card without printed timing has a legal target now (targets that are public)."""
        current = self.state.current
        for function in ANY_MOMENT:
            if RULES[function].targets(self, current, step):
                return True
        return False

    def _response_options(self, prompt: Prompt) -> list[Option]:
        """A window prompt's options after 'pass', built when first read (see `Prompt`)."""
        if self.prompts.get(prompt.seat) is not prompt:
            raise RuntimeError(f"prompt {prompt.id} of seat {prompt.seat} closed before its options were read")
        window = self.state.window
        assert window is not None  # the prompt is open, so its window is
        options = self._card_options(prompt.seat, window.step)
        if self.state.config.characters:
            options.extend(characters.skill_options(self, prompt.seat, window.step))
        return options

    def _close_window(self) -> None:
        s = self.state
        w = s.window
        assert w is not None
        self.prompts.clear()
        if not s.stack:
            s.window = None
            s.node = w.after
            return
        item = s.stack.pop()
        # RULES.md §4: a card goes to the discard pile *after* it resolves; until then it lies on
        # the table, so that a reshuffle during its effect (真伪莫辨, 权衡) cannot take it back in.
        if item.card >= 0:
            s.resolving.append(item)
        self.push("after_resolution", card=item.card)
        self.log("resolved", card=self.public_face(item), seat=item.user, target=item.target_seat)
        # "When X takes effect on you" skills (就计) answer the item once its effect is complete.
        self.fire("resolved", user=item.user, function=item.function, target=item.target_seat, skill=item.skill)
        if item.skill is not None and item.function == item.skill:
            characters.resolve_skill(self, item)
        else:
            RULES[item.function].resolve(self, item)

    def used(self, item: StackItem) -> None:
        """A used card leaves the table: a 试探 out of the game face-down, the others (a 试探
        played as 锁定 too) discarded; a skill has no card."""
        if item.card >= 0:
            (self.state.removed if item.function == PROBE else self.state.discard).append(item.card)

    def _after_resolution(self, card: int = -1) -> None:
        s = self.state
        for item in s.resolving:  # gone if its effect made it something else (调包's message)
            if item.card == card:
                s.resolving.remove(item)
                self.used(item)
                break
        w = s.window
        if self.over or w is None:
            return
        if s.stack:
            self.open_window(w.step, s.stack[-1].user, acted=True)
        elif w.step != STEP_PLAY and w.acted and (s.message is not None or w.step in TURN_STEPS):
            self.open_window(w.step, w.last_actor)
        else:
            s.window = None
            s.node = w.after

    # ----------------------------------------------------------------- atomic changes used by cards

    def log(self, kind: str, secret: dict[str, object] | None = None, seen_by: Iterable[int] = (),
            **data: object) -> None:
        events = self.events
        events.append(Event(len(events), kind, data, secret or _NO_SECRET, frozenset(seen_by) if seen_by else _NOBODY))

    def take_from_pile(self, n: int) -> list[int]:
        """Up to n cards from the top; the discard pile is reshuffled when the pile runs out."""
        s = self.state
        taken: list[int] = []
        while len(taken) < n and (s.pile or self.reshuffle()):
            taken.append(s.pile.pop())
            if not s.pile:
                self.reshuffle()
        return taken

    def reshuffle(self) -> bool:
        """RULES.md §4: the moment the pile is empty, the shuffled discard pile becomes the pile."""
        s = self.state
        if not s.discard:
            return False
        s.pile = s.discard
        s.discard = []
        s.rng.shuffle(s.pile)
        self.log("reshuffled", count=len(s.pile))
        return True

    def draw(self, seat: int, n: int) -> None:
        """A seat out of the game draws nothing (RULES.md §8.1: the dead hold no game cards): a
        card or skill whose user died while it waited on the stack (速译) draws for nobody."""
        if not self.state.seats[seat].in_game:
            return
        cards = self.take_from_pile(n)
        self.state.seats[seat].hand.extend(cards)
        self.log("drew", {"cards": [self.face(c) for c in cards]}, seen_by=(seat,), seat=seat, count=len(cards))
        if self.state.config.characters:
            self.push("check_end")  # secret tasks about the hand (贝雷帽, 老金, 怪盗九九) are met by drawing

    def obtain(self, seat: int, card: int, by: int | None, received: bool = False) -> None:
        """A message lands face-up in front of `seat`; deaths and victory are checked right after."""
        player = self.state.seats[seat]
        player.messages.append(card)
        if self.deck[card].colour == BLACK:
            player.last_black_by = by
        self.log("received" if received else "obtained", seat=seat, card=self.face(card), by=by)
        # RULES.md §8.1/§8.3: death and victory are immediate, so they are checked before the
        # skills that answer the same event (check_end runs first: it is pushed last), and a
        # player this message kills has none of his own answered at all. Only a skill that is
        # part of the event itself (小白's 败露) comes before the check.
        answered = "obtained" in self.cast.answering
        ctx = {"seat": seat, "card": card, "by": by, "sent": received}
        if answered:
            characters.fire(self, "obtained", ctx, early=False)
        self.push("check_end")
        if answered:
            characters.fire(self, "obtained", ctx, early=True)

    def check_end(self) -> None:
        """Deaths first, then victory (RULES.md §8.3 [DECISION]); the first in 顺位 declares.

        A death is itself a sequence of steps (death triggers, then the death), after which the
        check runs again.
        """
        s = self.state
        if s.node == GAME_OVER:
            return
        order = self.order_from(s.current)
        colours = self._colours
        dying: list[int] = []
        alive: list[int] = []  # in the game and not dying
        faction_seat = None
        dying_now = s.dying
        seats = s.seats
        for seat in order:
            player = seats[seat]
            if not player.alive or player.lost or seat in dying_now:
                continue
            alive.append(seat)
            messages = player.messages
            if len(messages) < 3:
                continue  # fewer than 3 messages: neither dying nor a faction's victory
            own_colour = FACTION_COLOUR.get(player.identity)
            black = own = 0
            for card in messages:
                colour = colours[card]
                if colour == BLACK:
                    black += 1
                elif colour == own_colour:
                    own += 1
            if black >= 3:
                dying.append(seat)
            elif own >= 3 and faction_seat is None:
                faction_seat = seat
        if dying:
            # RULES.md §8.1: he is dead from this moment (the killer is fixed now); only the death
            # procedure runs before the check goes on: death triggers, then the discard and reveal.
            self.push("check_end")
            for seat in reversed(dying):
                s.dying.add(seat)
                s.killers[seat] = self.killer_of(seat)
                self.push("death", seat)
                self.fire("dying", seat=seat)
            return
        task_seat = characters.task_seat(self) if s.config.characters else None
        # Both at the same moment: the first in 顺位 from the current player declares (RULES.md §8.3).
        if task_seat is not None and (faction_seat is None or order.index(task_seat) < order.index(faction_seat)):
            characters.declare_task(self, task_seat)
            return
        if faction_seat is not None:
            identity = s.seats[faction_seat].identity
            winners = [x.index for x in s.seats if x.identity == identity
                       and (self.standing(x.index) or s.config.dead_share_win)]
            self.declare(faction_seat, winners, "faction")
            return
        if len(alive) == 1:
            self.declare(alive[0], alive, "last_standing")
        elif not alive:
            self._finish(None, [], "nobody_left")

    def _death(self, seat: int) -> None:
        """The death triggers have run: unless 救美 saved him (`save`), the death is carried out.
        Nothing else undoes it (RULES.md §8.1: he died the moment he held 3 black messages)."""
        s = self.state
        if seat not in s.dying or not s.seats[seat].in_game:
            return
        s.dying.discard(seat)
        winner = characters.death_task_winner(self, seat) if s.config.characters else None
        self._leave(seat, died=True)
        if winner is not None:
            self.log("task_completed", seat=winner, character=s.seats[winner].character)
            self.declare(winner, [winner], "secret_task")

    def save(self, seat: int) -> None:
        """A death under way does not happen (礼服蒙面人's 救美): he did not die."""
        s = self.state
        if seat in s.dying:
            s.dying.discard(seat)
            s.killers.pop(seat, None)
            self.log("saved", seat=seat)

    def is_dying(self, seat: int) -> bool:
        """Dead but for the death procedure: his death is under way, or he holds 3 black messages
        and the check that starts it is yet to run (RULES.md §8.1 "dies at once")."""
        s = self.state
        if seat in s.dying:
            return True
        player = s.seats[seat]
        return len(player.messages) >= 3 and player.in_game and self.colour_count(seat, BLACK) >= 3

    def standing(self, seat: int) -> bool:
        """In the game and not dying: a dying player counts as dead (for a win, a task, a partner)."""
        return self.state.seats[seat].in_game and not self.is_dying(seat)

    def died_before(self, victim: int) -> list[int]:
        """The players who died before `victim` (RULES.md §8.1 "dies immediately": a player dies
        the moment he holds his third black message, not when his death procedure ends, so one
        killed during another's death procedure died after him although he is carried out first)."""
        order = list(self.state.killers)  # filled as deaths start (`check_end`); 救美 takes hers out
        return order[:order.index(victim)] if victim in order else order

    def killer_of(self, victim: int) -> int | None:
        """RULES.md §8.1 [DECISION]: whoever put the lethal black message there; nobody if the victim."""
        killer = self.state.seats[victim].last_black_by
        return None if killer == victim else killer

    def declare(self, declarer: int, winners: list[int], reason: str) -> None:
        """A victory is declared; victory triggers (characters) run before the game ends."""
        self.state.declaring = {"declarer": declarer, "winners": list(winners), "reason": reason}
        self.push("finish")
        self.fire("declaring", seat=declarer)

    def lose(self, seat: int) -> None:
        self._leave(seat, died=False)
        self.push("check_end")

    def _leave(self, seat: int, died: bool) -> None:
        s = self.state
        player = s.seats[seat]
        if died:
            player.alive = False
            s.deaths.append(seat)
            order = list(s.killers)  # in order of death (`died_before`)
            s.deaths.sort(key=lambda x: order.index(x) if x in order else -1)
        else:
            player.lost = True
        player.revealed = True
        player.face_up = True
        player.left_with = list(player.messages)
        player.left_turn = s.turn
        s.discard.extend(player.hand)
        s.discard.extend(player.messages)
        player.hand = []
        player.messages = []
        kind = "died" if died else "lost"
        if player.character is None:
            self.log(kind, seat=seat, identity=player.identity)
        else:
            self.log(kind, seat=seat, identity=player.identity, character=player.character)

    def _finish(self, declarer: int | None, winners: list[int], reason: str) -> None:
        s = self.state
        for seat in sorted(s.dying):  # a death under way when the game ends is a death (RULES.md §8.1)
            if s.seats[seat].in_game:
                self._leave(seat, died=True)
        s.dying.clear()
        s.declarer = declarer
        s.winners = sorted(winners)
        s.win_reason = reason
        s.node = GAME_OVER
        self.over = True
        s.window = None
        for item in [*s.resolving, *s.stack]:  # a victory met mid-resolution leaves cards there
            self.used(item)
        s.resolving.clear()
        s.stack.clear()
        s.agenda.clear()
        s.asking = None
        for pile in s.table.values():
            s.discard.extend(pile)
        s.table = {}
        s.declaring = None
        self.prompts.clear()
        for player in s.seats:
            player.revealed = True
            player.face_up = True
        self.log("game_over", declarer=declarer, winners=s.winners, reason=reason,
                 identities=[p.identity for p in s.seats])

    def _finish_declared(self) -> None:
        declaring = self.state.declaring
        assert declaring is not None
        if self.state.config.characters:
            characters.settle_victory(self, declaring)
        self._finish(declaring["declarer"], declaring["winners"], declaring["reason"])

    def fire(self, event: str, **ctx: Any) -> None:
        """Offer the triggered skills that answer `event` (characters only; RULES.md §6.4 order)."""
        if event in self.cast.answering:
            characters.fire(self, event, ctx)

    # ----------------------------------------------------------------- records

    def record(self) -> dict[str, object]:
        """(config, seed, choices): everything needed to replay this game."""
        return {"config": self.state.config.to_dict(), "seed": self.state.seed,
                "choices": [list(c) for c in self.choices]}

    @classmethod
    def replay(cls, record: dict[str, Any]) -> Game:
        game = cls.new(GameConfig.from_dict(record["config"]), int(record["seed"]))
        for seat, prompt_id, option_id in record["choices"]:
            game.choose(int(seat), int(prompt_id), str(option_id))
        return game

    def state_hash(self) -> str:
        s = self.state
        data = {
            "node": s.node, "current": s.current, "turn": s.turn, "pile": s.pile, "discard": s.discard,
            "removed": s.removed,
            "seats": [[p.identity, p.hand, p.messages, p.alive, p.lost, p.revealed] for p in s.seats],
            "message": None if s.message is None else repr(s.message),
            "stack": [repr(i) for i in [*s.stack, *s.resolving]], "window": repr(s.window), "locked": sorted(s.locked),
            "winners": s.winners, "declarer": s.declarer, "rng": repr(s.rng.getstate()),
            "prompts": [p.to_dict() for p in self.prompts.values()],
            "events": [e.project(None) for e in self.events],
        }
        if s.config.characters:  # only then: the characterless hashes stay what they were
            data["characters"] = {
                "seats": [[p.character, p.face_up, p.character_choices, p.last_black_by] for p in s.seats],
                "table": s.table, "agenda": [repr(st) for st in s.agenda], "asking": repr(s.asking),
                "dying": sorted(s.dying), "declaring": repr(s.declaring), "deaths": s.deaths,
                "secrets": [[e.secret, sorted(e.seen_by)] for e in self.events if e.secret],
            }
        return hashlib.sha256(json.dumps(data, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


__all__ = ["Game", "Setup", "ChoiceError"]

#: What the driver loop does at each node; True: it waits there on a decision.
_NODE_HANDLERS: dict[str, Callable[[Game], bool]] = {
    TURN_START: Game._turn_start,
    DRAW: Game._draw,
    PLAY: Game._play,
    SEND: Game._send,
    TRANSMIT: Game._transmit,
    AFTER_TRANSMIT: Game._after_transmit,
    AFTER_ARRIVE: Game._after_arrive,
    RECEIVE: Game._receive,
    WINDOW: Game._waiting,
    CHARACTER_PICK: Game._waiting,
    TURN_END: Game._turn_end,
    NEXT_TURN: Game._next_turn,
    GAME_OVER: Game._waiting,
}


STEPS.update({
    "ask": lambda game, st: game._run_ask(st),
    "open_window": lambda game, st: game.open_window(st.data["step"], st.data["last_actor"],
                                                      st.data.get("acted", True)),
    "after_resolution": lambda game, st: game._after_resolution(st.data.get("card", -1)),
    "check_end": lambda game, st: game.check_end(),
    "death": lambda game, st: game._death(st.seat),  # type: ignore[arg-type]
    "finish": lambda game, st: game._finish_declared(),
})
