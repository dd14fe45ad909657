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

from . import prompts as P
from .cards import BLACK, DIRECT, SEE_THROUGH, TEXT, Card, build_deck
from .config import FACTION_COLOUR, IDENTITIES, GameConfig
from .events import Event
from .functions import OWN_PLAY, RULES
from .prompts import ChoiceError, GameIsOver, IllegalOption, NoPrompt, Option, Prompt, StalePrompt
from .state import (
    AFTER_ARRIVE,
    AFTER_TRANSMIT,
    DRAW,
    GAME_OVER,
    PLAY,
    PROBE_ANSWER,
    RECEIVE,
    SEND,
    STEP_ARRIVE,
    STEP_PLAY,
    STEP_TRANSMIT,
    TRANSMIT,
    TURN_END,
    TURN_START,
    WINDOW,
    GameState,
    Message,
    Seat,
    StackItem,
    Window,
)

HAND_SIZE = 3
DRAW_COUNT = 2


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


class Game:
    def __init__(self, state: GameState, deck: tuple[Card, ...]) -> None:
        self.state = state
        self.deck = deck
        self.events: list[Event] = []
        self.choices: list[tuple[int, int, str]] = []
        self.prompts: dict[int, Prompt] = {}
        self._handlers: dict[str, Callable[[], bool]] = {
            TURN_START: self._turn_start,
            DRAW: self._draw,
            PLAY: self._play,
            SEND: self._send,
            TRANSMIT: self._transmit,
            AFTER_TRANSMIT: self._after_transmit,
            AFTER_ARRIVE: self._after_arrive,
            RECEIVE: self._receive,
            WINDOW: self._waiting,
            PROBE_ANSWER: self._waiting,
            TURN_END: self._turn_end,
            GAME_OVER: self._waiting,
        }

    # ----------------------------------------------------------------- creation

    @classmethod
    def new(cls, config: GameConfig, seed: int, setup: Setup | None = None) -> Game:
        config.validate()
        rng = random.Random(seed)
        deck = build_deck(config.deck)
        names = config.names or tuple(f"P{i + 1}" for i in range(config.players))
        if setup is None:
            counts = config.identity_counts()
            identities = [ident for ident, n in zip(IDENTITIES, counts, strict=True) for _ in range(n)]
            rng.shuffle(identities)
            pile = [c.id for c in deck]
            rng.shuffle(pile)
            hands = [[pile.pop() for _ in range(HAND_SIZE)] for _ in range(config.players)]
            first = rng.randrange(config.players)
            messages: list[list[int]] = [[] for _ in range(config.players)]
            discard: list[int] = []
            removed: list[int] = []
        else:
            identities = list(setup.identities)
            hands = [list(h) for h in setup.hands]
            messages = [list(m) for m in setup.messages] or [[] for _ in range(config.players)]
            discard = list(setup.discard)
            used = {c for h in hands + messages for c in h} | set(setup.pile_top) | set(discard)
            rest = [c.id for c in deck if c.id not in used]
            rng.shuffle(rest)
            removed = rest if setup.pile_only else []
            pile = ([] if setup.pile_only else rest) + list(reversed(setup.pile_top))
            first = setup.first
        seats = [Seat(i, names[i], identities[i], hands[i], messages[i]) for i in range(config.players)]
        state = GameState(config=config, seed=seed, rng=rng, seats=seats, pile=pile, current=first,
                          discard=discard, removed=removed)
        game = cls(state, deck)
        for seat in seats:
            game.log("dealt", {"cards": [game.face(c) for c in seat.hand]}, seen_by=(seat.index,),
                     seat=seat.index, count=len(seat.hand))
            game.log("identity", {"identity": seat.identity}, seen_by=(seat.index,), seat=seat.index)
        game.log("first_player", seat=first)
        game._advance()
        return game

    # ----------------------------------------------------------------- queries

    @property
    def over(self) -> bool:
        return self.state.node == GAME_OVER

    def card(self, card_id: int) -> Card:
        return self.deck[card_id]

    def face(self, card_id: int) -> dict[str, object]:
        return self.deck[card_id].face()

    def public_face(self, item: StackItem) -> dict[str, object]:
        """A stack item as the table sees it: a 试探 is handed over face-down."""
        if item.function == "试探":
            return {"function": item.function}
        return self.face(item.card)

    def n(self) -> int:
        return len(self.state.seats)

    def order_from(self, seat: int) -> list[int]:
        """Every seat in turn order starting with `seat` (顺位, RULES.md §6.4)."""
        n = self.n()
        return [(seat + k) % n for k in range(n)]

    def in_game(self) -> list[int]:
        return [s.index for s in self.state.seats if s.in_game]

    def others_in_game(self, seat: int) -> list[int]:
        return [s for s in self.order_from(seat)[1:] if self.state.seats[s].in_game]

    def colour_count(self, seat: int, colour: str) -> int:
        return sum(1 for c in self.state.seats[seat].messages if self.deck[c].colour == colour)

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
        prompt = self.prompts.get(seat)
        if prompt is None:
            raise NoPrompt(f"seat {seat} has no decision to make now")
        if prompt.id != prompt_id:
            raise StalePrompt(f"prompt {prompt_id} is no longer open (the open one is {prompt.id})")
        opt = prompt.find(option_id)
        if opt is None:
            raise IllegalOption(f"{option_id!r} is not an option of prompt {prompt_id}")
        start = len(self.events)
        self.choices.append((seat, prompt_id, option_id))
        self.state.decisions += 1
        del self.prompts[seat]
        self._apply(prompt, opt)
        self._advance()
        return self.events[start:]

    def _apply(self, prompt: Prompt, opt: Option) -> None:
        s = self.state
        seat = prompt.seat
        if prompt.kind == P.PLAY_PHASE:
            if opt.verb == "end":
                self.log("play_phase_ended", seat=seat)
                s.node = SEND
            else:
                self._play_card(seat, opt, STEP_PLAY, last_actor=seat)
        elif prompt.kind == P.SEND_MESSAGE:
            self._send_message(seat, opt)
        elif prompt.kind == P.RESPONSE:
            w = s.window
            assert w is not None
            if opt.verb == "pass":
                w.passed.add(seat)
                if w.passed.issuperset(w.eligible):
                    self._close_window()
            else:
                self._play_card(seat, opt, w.step, last_actor=seat)
        elif prompt.kind == P.RECEIVE_DECISION:
            if opt.verb == "accept":
                self._accept()
            else:
                self._decline()
        elif prompt.kind == P.PROBE_DISCARD:
            assert opt.card is not None
            s.seats[seat].hand.remove(opt.card)
            s.discard.append(opt.card)
            self.log("probe_discarded", {"card": self.face(opt.card)}, seen_by=self._probe_watchers(), seat=seat)
            s.probe = None
            self._after_resolution()

    def _probe_watchers(self) -> tuple[int, ...]:
        item = self.state.probe
        assert item is not None and item.target_seat is not None
        return (item.user, item.target_seat)

    # ----------------------------------------------------------------- the driver loop

    def _advance(self) -> None:
        """Run nodes until one waits on a decision."""
        while not self._handlers[self.state.node]():
            pass

    def _waiting(self) -> bool:
        return True

    def _ask(self, seat: int, kind: str, options: Iterable[Option], default: str) -> None:
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
        s.node = DRAW
        return False

    def _draw(self) -> bool:
        self.draw(self.state.current, DRAW_COUNT)
        self.state.node = PLAY
        return False

    def _play(self) -> bool:
        s = self.state
        if not s.seats[s.current].in_game:
            s.node = TURN_END
            return False
        self._ask(s.current, P.PLAY_PHASE, [*self._card_options(s.current, OWN_PLAY), P.END_PLAY], P.END_PLAY.id)
        return True

    def _card_options(self, seat: int, moment: str) -> list[Option]:
        options: list[Option] = []
        for card_id in self.state.seats[seat].hand:
            targets = RULES[self.deck[card_id].function].targets(self, seat, moment)
            for target_seat, target_card in targets or ():
                options.append(P.option("play", card_id, target_seat, target_card))
        return options

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
        self._ask(s.current, P.SEND_MESSAGE, options, options[0].id)
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
        self._open_window(STEP_TRANSMIT, AFTER_TRANSMIT, m.origin)
        return False

    def _after_transmit(self) -> bool:
        if self._sender_gone():
            return False
        m = self.state.message
        assert m is not None
        if m.intercepted_by is not None:
            self.state.node = RECEIVE
            return False
        self.log("arrived", seat=m.position)
        self._open_window(STEP_ARRIVE, AFTER_ARRIVE, m.position)
        return False

    def _after_arrive(self) -> bool:
        if self._sender_gone():
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
        if not s.seats[holder].in_game:
            m.origin = holder
            s.node = TRANSMIT
            return False
        if m.forced or holder in s.locked or holder == m.sender:
            self._accept()
            return False
        self._ask(holder, P.RECEIVE_DECISION, [P.ACCEPT, P.DECLINE], P.DECLINE.id)
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
            self.lose(s.current)
            if self.over:
                return True
        nxt = self.others_in_game(s.current)
        s.current = nxt[0]
        s.node = TURN_START
        return False

    # ----------------------------------------------------------------- response windows

    def _play_card(self, seat: int, opt: Option, step: str, last_actor: int) -> None:
        s = self.state
        assert opt.card is not None
        card = self.deck[opt.card]
        s.seats[seat].hand.remove(opt.card)
        item = StackItem(opt.card, seat, card.function, opt.target_seat, opt.target_card)
        s.stack.append(item)
        secret: dict[str, object] = {}
        seen: tuple[int, ...] = ()
        if card.function == "试探":
            assert opt.target_seat is not None
            secret = {"card": self.face(opt.card)}
            seen = (seat, opt.target_seat)
        self.log("played", secret, seen_by=seen, seat=seat, card=self.public_face(item),
                 target=opt.target_seat, target_card=self._target_card_face(opt))
        self._open_window(step, self._window_after(step), last_actor, acted=True)

    def _target_card_face(self, opt: Option) -> dict[str, object] | None:
        if opt.target_card is None:
            return None
        top = self.state.stack[-1]
        if top.function == SEE_THROUGH:
            for item in self.state.stack:
                if item.card == opt.target_card:
                    return self.public_face(item)
        return self.face(opt.target_card)

    @staticmethod
    def _window_after(step: str) -> str:
        return {STEP_PLAY: PLAY, STEP_TRANSMIT: AFTER_TRANSMIT, STEP_ARRIVE: AFTER_ARRIVE}[step]

    def _open_window(self, step: str, after: str, last_actor: int, acted: bool = False) -> None:
        s = self.state
        for seat in list(self.prompts):
            del self.prompts[seat]
        eligible = [x for x in self.order_from(last_actor)[1:] + [last_actor]
                    if s.seats[x].in_game and s.seats[x].hand]
        s.window = Window(step, after, eligible, acted=acted, last_actor=last_actor)
        s.node = WINDOW
        for seat in eligible:
            self._ask(seat, P.RESPONSE, [P.PASS, *self._card_options(seat, step)], P.PASS.id)
        if not eligible:
            self._close_window()

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
        if item.function == "试探":
            s.removed.append(item.card)
        else:
            s.discard.append(item.card)
        if item.cancelled:
            self.log("no_effect", card=self.public_face(item), seat=item.user)
        else:
            self.log("resolved", card=self.public_face(item), seat=item.user, target=item.target_seat)
            RULES[item.function].resolve(self, item)
        if s.probe is not None and not self.over:
            target = s.probe.target_seat
            assert target is not None
            s.node = PROBE_ANSWER
            hand = s.seats[target].hand
            options = [P.option("discard", c) for c in hand]
            self._ask(target, P.PROBE_DISCARD, options, options[0].id)
            return
        self._after_resolution()

    def _after_resolution(self) -> None:
        s = self.state
        if self.over:
            return
        w = s.window
        assert w is not None
        if s.stack:
            self._open_window(w.step, w.after, s.stack[-1].user, acted=True)
        elif w.step != STEP_PLAY and w.acted and s.message is not None:
            self._open_window(w.step, w.after, w.last_actor)
        else:
            s.window = None
            s.node = w.after

    # ----------------------------------------------------------------- atomic changes used by cards

    def log(self, kind: str, secret: dict[str, object] | None = None, seen_by: Iterable[int] = (),
            **data: object) -> None:
        self.events.append(Event(len(self.events), kind, data, secret or {}, frozenset(seen_by)))

    def take_from_pile(self, n: int) -> list[int]:
        """Up to n cards from the top; the discard pile is reshuffled when the pile runs out."""
        s = self.state
        taken: list[int] = []
        while len(taken) < n and (s.pile or self._reshuffle()):
            taken.append(s.pile.pop())
            if not s.pile:
                self._reshuffle()
        return taken

    def _reshuffle(self) -> bool:
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
        cards = self.take_from_pile(n)
        self.state.seats[seat].hand.extend(cards)
        self.log("drew", {"cards": [self.face(c) for c in cards]}, seen_by=(seat,), seat=seat, count=len(cards))

    def obtain(self, seat: int, card: int, by: int | None, received: bool = False) -> None:
        """A message lands face-up in front of `seat`; deaths and victory are checked at once."""
        self.state.seats[seat].messages.append(card)
        self.log("received" if received else "obtained", seat=seat, card=self.face(card), by=by)
        self.check_end()

    def check_end(self) -> None:
        """Deaths first, then victory (RULES.md §8.3 [DECISION]); the first in 顺位 declares."""
        s = self.state
        if self.over:
            return
        for seat in self.order_from(s.current):
            if s.seats[seat].in_game and self.colour_count(seat, BLACK) >= 3:
                self._leave(seat, died=True)
        for seat in self.order_from(s.current):
            player = s.seats[seat]
            colour = FACTION_COLOUR.get(player.identity)
            if player.in_game and colour is not None and self.colour_count(seat, colour) >= 3:
                winners = [x.index for x in s.seats
                           if x.identity == player.identity and (x.in_game or s.config.dead_share_win)]
                self._finish(seat, winners, "faction")
                return
        alive = self.in_game()
        if len(alive) == 1:
            self._finish(alive[0], alive, "last_standing")
        elif not alive:
            self._finish(None, [], "nobody_left")

    def lose(self, seat: int) -> None:
        self._leave(seat, died=False)
        self.check_end()

    def _leave(self, seat: int, died: bool) -> None:
        s = self.state
        player = s.seats[seat]
        if died:
            player.alive = False
            s.deaths.append(seat)
        else:
            player.lost = True
        player.revealed = True
        s.discard.extend(player.hand)
        s.discard.extend(player.messages)
        player.hand = []
        player.messages = []
        self.log("died" if died else "lost", seat=seat, identity=player.identity)

    def _finish(self, declarer: int | None, winners: list[int], reason: str) -> None:
        s = self.state
        s.declarer = declarer
        s.winners = sorted(winners)
        s.win_reason = reason
        s.node = GAME_OVER
        s.window = None
        s.stack.clear()
        s.probe = None
        self.prompts.clear()
        for player in s.seats:
            player.revealed = True
        self.log("game_over", declarer=declarer, winners=s.winners, reason=reason,
                 identities=[p.identity for p in s.seats])

    # ----------------------------------------------------------------- records

    def record(self) -> dict[str, object]:
        """(config, seed, choices): everything needed to replay this game."""
        return {"config": self.state.config.to_dict(), "seed": self.state.seed,
                "choices": [list(c) for c in self.choices]}

    @classmethod
    def replay(cls, record: dict) -> Game:  # type: ignore[type-arg]
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
            "stack": [repr(i) for i in s.stack], "window": repr(s.window), "locked": sorted(s.locked),
            "winners": s.winners, "declarer": s.declarer, "rng": repr(s.rng.getstate()),
            "prompts": [p.to_dict() for p in self.prompts.values()],
            "events": [e.project(None) for e in self.events],
        }
        return hashlib.sha256(json.dumps(data, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


__all__ = ["Game", "Setup", "ChoiceError"]
