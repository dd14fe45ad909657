"""Complete games rebuilt from one seat's view and event log: the worlds a searching bot plays out.

A seat cannot tell apart the games that project to its view. `read(view, events)` takes that view
(with the seat's open prompt) and the events the seat was shown, and nothing else, and says what
is left open (`Reading.hidden`): the card ids it cannot place (other hands, the pile, a face-down
discard pile, used 试探s, a face-down message, another seat's 试探 on the stack), the identities
it does not know, and the face-down characters it never saw. `build(reading, fill, seed)` makes a
`Game` of one way of filling them in (`Fill`): the world projects back to exactly the seat's view.
How likely each filling is (identities from a belief model) is the bot's business (bots/worlds.py);
the engine only rebuilds and plays on, so nothing here can see a real game.

Worlds are rebuilt at the seat's ordinary decisions: the play and send phases, a message in front
of it, a response window with no effect under way. A choice asked inside an effect (a skill's
offer, a 试探's answer, the character pick) waits on engine steps the view does not show:
`read` raises `Unsupported` there. `play_out` continues a world with any decision function,
every seat deciding from its own projection, to the game's end or a turn horizon.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from . import characters
from . import prompts as P
from .cards import BLACK, SEND_BACK, build_deck
from .config import IDENTITIES, GameConfig
from .events import Event
from .game import _AFTER_WINDOW, Game, _answer_orders
from .state import PLAY, RECEIVE, SEND, WINDOW, GameState, Message, Seat, StackItem, Window
from .view import (
    PHASES,
    VIEW_VERSION,
    _character_facts,
    _character_of,
    _ending,
    _message,
    _stack_item,
    _task_of,
    entry_facts,
    events_for,
    seat_entry,
    waiting,
)

if TYPE_CHECKING:
    from _collections_abc import dict_items, dict_keys, dict_values

_MOVES_MESSAGE = frozenset({"received", "obtained", "burned", "message_to_pile", "message_to_hand", "message_taken",
                            "message_swapped"})
SUPPORTED = (P.PLAY_PHASE, P.SEND_MESSAGE, P.RECEIVE_DECISION, P.RESPONSE)
_NODE_OF = {P.PLAY_PHASE: PLAY, P.SEND_MESSAGE: SEND, P.RECEIVE_DECISION: RECEIVE}
_PLACEHOLDER = Event(-1, "earlier", {})


class Unsupported(ValueError):
    """The view is at a decision whose world this module cannot rebuild (see the module doc)."""


@dataclass(frozen=True)
class Hidden:
    """What the seat's view leaves open, slot by slot."""

    pool: tuple[int, ...]  # every card id the seat cannot place, to be dealt over the slots below
    hands: dict[int, int]  # other seat -> cards in hand
    pile: int
    discard: int  # a face-down discard pile's size (0 when it is face-up: its ids are shown)
    removed: int  # used 试探s, out of the game face-down
    message: str | None  # the method of the face-down message the seat has not seen
    probes: tuple[int, ...]  # stack indices of 试探s whose card the seat has not seen
    identities: tuple[int, ...]  # seats whose identity the seat does not know
    identity_pool: tuple[str, ...]  # the identity cards left for them
    characters: tuple[int, ...]  # face-down seats whose character the seat never saw
    character_pool: tuple[str, ...]  # the characters they may hold (hidden ones, not seen anywhere)


@dataclass
class Fill:
    """One way of filling a `Hidden` in: identities and characters by seat, the pool's cards dealt."""

    identities: dict[int, str]
    characters: dict[int, str]
    hands: dict[int, list[int]]
    pile: list[int]
    discard: list[int]
    removed: list[int]
    message: int | None = None
    probes: dict[int, int] = field(default_factory=dict)


@dataclass
class Reading:
    """The view and log of one seat, parsed once per decision; `hidden` is what `Fill` must give."""

    view: dict
    seat: int
    config: GameConfig
    hidden: Hidden
    characters: dict[int, str]  # every seat whose character the seat knows (its own, face-up, seen)
    identities: dict[int, str]  # every seat whose identity the seat knows
    revealed: frozenset[int]
    sent_back: bool
    decrypted: frozenset[int]  # seats that have looked at the travelling message
    last_black_by: dict[int, int | None]
    deaths: tuple[int, ...]
    killers: dict[int, int | None]  # each death's killer (RULES.md §8.1 [DECISION]), as the log shows it
    log_length: int
    left: dict[int, tuple[list[int], int]]  # seat out of the game -> (messages it left with, turn)


def read(view: dict, events: list[dict]) -> Reading:
    """Parse a seat's view (at one of its own decisions) and every event it was shown."""
    prompt = view.get("prompt")
    seat = view.get("seat")
    if prompt is None or seat is None or view.get("over"):
        raise Unsupported("no decision of a seat to rebuild")
    if prompt["kind"] not in SUPPORTED:
        raise Unsupported(f"a {prompt['kind']} decision waits on steps the view does not show")
    seat = int(seat)
    cfg = view["config"]
    entries = view["seats"]
    names = tuple(str(e["name"]) for e in entries)
    choices = 3
    for e in events:
        if e["kind"] == "character_choices" and e.get("seat") == seat:
            choices = int(e.get("count") or 3)
    config = GameConfig(players=int(cfg["players"]), identities=str(cfg["identities"]), deck=str(cfg["deck"]),
                        probe_draw=int(cfg["probe_draw"]), characters=bool(cfg["characters"]),
                        discard_face_up=isinstance(view["discard"], list), names=names,
                        character_choices=choices)
    log = _Log(seat, events)
    deck = build_deck(config.deck)
    # Cards the seat can place.
    placed: set[int] = {int(c["id"]) for c in view["hand"]}
    for e in entries:
        placed.update(int(c["id"]) for c in e["messages"])
    probes: list[int] = []
    for i, item in enumerate(view["stack"]):
        card = item["card"]
        if "id" in card:
            placed.add(int(card["id"]))
        elif "skill" not in card:
            probes.append(i)
    m = view["message"]
    hidden_message = None
    if m is not None:
        if m["card"] is not None:
            placed.add(int(m["card"]["id"]))
        else:
            hidden_message = str(m["method"])
    discard = view["discard"]
    if isinstance(discard, list):
        placed.update(int(c["id"]) for c in discard)
    pool = tuple(c.id for c in deck if c.id not in placed)
    hands = {int(e["index"]): int(e["hand_count"]) for e in entries if int(e["index"]) != seat}
    # Identities.
    known_ids = {int(e["index"]): str(e["identity"]) for e in entries if e["identity"]}
    known_ids[seat] = str(view["identity"])
    counts = dict(zip(IDENTITIES, config.identity_counts(), strict=True))
    for ident in known_ids.values():
        counts[ident] -= 1
    if any(n < 0 for n in counts.values()):
        raise Unsupported("an identity was exchanged: the counts no longer tell what is left")
    unknown = tuple(s for s in range(config.players) if s not in known_ids)
    identity_pool = tuple(i for i in IDENTITIES for _ in range(counts[i]))
    # Characters.
    known_chars: dict[int, str] = {}
    faced_down: list[int] = []
    if config.characters:
        for e in entries:
            c = e["character"]
            if c is not None and "id" in c:
                known_chars[int(e["index"])] = str(c["id"])
        for s, cid in log.characters.items():
            known_chars.setdefault(s, cid)
        faced_down = [int(e["index"]) for e in entries if int(e["index"]) not in known_chars]
    roster = characters.roster()
    seen_chars = set(known_chars.values()) | log.my_choices
    character_pool = tuple(cid for cid in sorted(roster) if cid not in seen_chars and roster[cid].hidden)
    hidden = Hidden(pool, hands, int(view["pile"]), 0 if isinstance(discard, list) else int(discard),
                    int(view["removed"]), hidden_message, tuple(probes), unknown, identity_pool,
                    tuple(faced_down), character_pool)
    return Reading(view, seat, config, hidden, known_chars, known_ids, frozenset(log.revealed),
                   log.sent_back and view["phase"] == "arrive", frozenset(log.decrypted), dict(log.last_black_by),
                   tuple(log.deaths), dict(log.killers), int(view["log_length"]), log.left)


class _Log:
    """What the seat's event log says beyond its view: who showed an identity, whether a 退回
    resolved in this arrive window, who looked at the message,
    who put each seat's latest black message there, the order of deaths, characters seen."""

    def __init__(self, seat: int, events: list[dict]) -> None:
        self.revealed: set[int] = set()
        self.sent_back = False
        self.decrypted: set[int] = set()
        self.last_black_by: dict[int, int | None] = {}
        self.deaths: list[int] = []
        # The killer is fixed when a black message makes three in front of a seat (its death starts
        # then: Game.check_end), whatever lands on it during the death procedure.
        self.killers: dict[int, int | None] = {}
        blacks: dict[int, set[int]] = {}
        dying: dict[int, int | None] = {}
        doomed: list[int] = []  # seats as their deaths started (Game.check_end fixes the killer then)
        self.characters: dict[int, str] = {}
        self.my_choices: set[str] = set()
        # Messages in front of each seat as the log moves them, for what a seat left with when it
        # went out (the game-over view shows it): placed, and taken away by burns and skills.
        self.messages: dict[int, list[int]] = {}
        self.left: dict[int, tuple[list[int], int]] = {}
        turn = 0
        for e in events:
            kind = e["kind"]
            card_id = (e.get("card") or {}).get("id") if isinstance(e.get("card"), dict) else None
            if kind in _MOVES_MESSAGE and card_id is not None:
                for held in self.messages.values():
                    if card_id in held:
                        held.remove(card_id)
                for held_black in blacks.values():
                    held_black.discard(card_id)
                if kind in ("received", "obtained", "message_taken"):
                    self.messages.setdefault(int(e["seat"]), []).append(int(card_id))
            if kind == "turn_start":
                turn = int(e.get("turn") or turn)
                self.sent_back = False
                self.decrypted = set()
            elif kind == "resolved":
                if (e.get("card") or {}).get("function") == SEND_BACK:
                    self.sent_back = True
            elif kind == "no_effect" and e.get("reason") == "locked":
                self.sent_back = False  # a locked seat's 退回 resolved without effect (CARDS.md 退回)
            elif kind == "arrived" or kind == "sent":
                self.sent_back = False
                if kind == "sent":
                    self.decrypted = set()
            elif kind == "decrypted":
                self.decrypted.add(int(e["seat"]))
            elif kind in ("received", "obtained"):
                if (e.get("card") or {}).get("colour") == BLACK:
                    by = e.get("by")
                    victim = int(e["seat"])
                    self.last_black_by[victim] = None if by is None else int(by)
                    if card_id is not None:
                        blacks.setdefault(victim, set()).add(int(card_id))
                    if len(blacks.get(victim, ())) >= 3 and victim not in dying:
                        dying[victim] = None if by is None or int(by) == victim else int(by)
                        doomed.append(victim)
            elif kind == "saved":
                dying.pop(int(e["seat"]), None)
                if int(e["seat"]) in doomed:
                    doomed.remove(int(e["seat"]))
            elif kind in ("died", "lost"):
                self.revealed.add(int(e["seat"]))
                self.left[int(e["seat"])] = (self.messages.pop(int(e["seat"]), []), turn)
                if kind == "died":
                    self.deaths.append(int(e["seat"]))
                    # in order of death, which a death inside another's procedure does not follow
                    self.deaths.sort(key=lambda x: doomed.index(x) if x in doomed else -1)
                    self.killers[int(e["seat"])] = dying.pop(int(e["seat"]), None)
                if e.get("character"):
                    self.characters[int(e["seat"])] = str(e["character"])
            elif kind in ("identity_revealed", "identity_shown"):
                self.revealed.add(int(e["seat"]))
            elif kind in ("character", "character_flipped", "character_picked"):
                if e.get("character"):
                    self.characters[int(e["seat"])] = str(e["character"])
            elif kind == "character_choices" and e.get("seat") == seat:
                self.my_choices.update(str(c) for c in e.get("characters") or ())


def build(reading: Reading, fill: Fill, seed: int) -> Game:
    """The game of `reading` with its open slots filled by `fill`; its future draws from `seed`."""
    v = reading.view
    config = reading.config
    me = reading.seat
    entries = v["seats"]
    seats = []
    for e in entries:
        index = int(e["index"])
        identity = reading.identities.get(index) or fill.identities[index]
        seat = Seat(index, str(e["name"]), identity)
        seat.hand = [int(c["id"]) for c in v["hand"]] if index == me else list(fill.hands[index])
        seat.messages = [int(c["id"]) for c in e["messages"]]
        seat.alive = bool(e["alive"])
        seat.lost = bool(e["lost"])
        seat.revealed = index in reading.revealed or (index != me and e["identity"] is not None)
        if config.characters:
            seat.character = reading.characters.get(index) or fill.characters[index]
            c = e["character"]
            seat.face_up = True if c is None else bool(c["face_up"])
        seat.last_black_by = reading.last_black_by.get(index)
        if index in reading.left:
            seat.left_with, seat.left_turn = list(reading.left[index][0]), reading.left[index][1]
        seats.append(seat)
    discard = [int(c["id"]) for c in v["discard"]] if isinstance(v["discard"], list) else list(fill.discard)
    state = GameState(config=config, seed=seed, rng=random.Random(seed), seats=seats, pile=list(fill.pile),
                      discard=discard, removed=list(fill.removed))
    state.current = int(v["current"])
    state.turn = int(v["turn"])
    state.locked = {int(e["index"]) for e in entries if e["locked"]}
    state.deaths = list(reading.deaths)
    state.killers = {seat: reading.killers.get(seat) for seat in reading.deaths}
    m = v["message"]
    if m is not None:
        card = int(m["card"]["id"]) if m["card"] is not None else fill.message
        assert card is not None
        sender = int(m["sender"])
        # The seat itself sees the card exactly when its view shows it (a swapped message is new even
        # to its sender); of the others, the sender and whoever decrypted it.
        seen = {sender, *reading.decrypted} - {me} | ({me} if m["card"] is not None else set())
        state.message = Message(
            card=card, sender=sender, method=str(m["method"]), face_up=bool(m["face_up"]), origin=int(m["origin"]),
            position=int(m["position"]), direction=int(m["direction"]), target=m["target"],
            skipped={int(e["index"]) for e in entries if e["skipped"]}, seen_by=seen,
            forced=bool(m["returning"]) or m["intercepted_by"] is not None, intercepted_by=m["intercepted_by"],
            sent_back=reading.sent_back, returning=bool(m["returning"]))
    for i, item in enumerate(v["stack"]):
        face = item["card"]
        card = int(face["id"]) if "id" in face else fill.probes[i] if i in fill.probes else -1
        target_card = item["target_card"]
        state.stack.append(StackItem(card, int(item["user"]), str(item["function"]), item["target_seat"],
                                     None if target_card is None or "id" not in target_card else int(target_card["id"]),
                                     face.get("skill")))
    game = Game(state, build_deck(config.deck))
    if config.characters:
        game.cast = characters.cast_of(tuple(p.character for p in seats))
    game.events = [_PLACEHOLDER] * reading.log_length
    prompt = v["prompt"]
    w = v["window"]
    if w is not None:
        _open(game, w, v["waiting"])
    else:
        state.node = _NODE_OF[prompt["kind"]]
        state.next_prompt_id = int(prompt["id"])
        game._handlers[state.node]()
    return game


def _open(game: Game, w: dict, waiting: list[dict]) -> None:
    """The response window of the view, every seat it asked still to answer (the seat cannot tell
    who has passed already; nobody's answer is applied before everyone answered anyway)."""
    s = game.state
    eligible = [int(x) for x in w["eligible"]]
    ids = {int(x["seat"]): int(x["prompt_id"]) for x in waiting}
    first = ids[eligible[0]] if eligible and eligible[0] in ids else s.next_prompt_id
    n = len(s.seats)
    # The seat the answers go round from: the top item's user, or the seat before the first asked.
    candidates = [s.stack[-1].user] if s.stack else []
    candidates += [(eligible[0] - 1) % n] if eligible else []
    last_actor = next((c for c in candidates if _order_fits(n, c, eligible)), candidates[-1] if candidates else 0)
    step = str(w["step"])
    s.window = Window(step, _AFTER_WINDOW[step], eligible, set(), bool(s.stack), last_actor, first, {})
    s.node = WINDOW
    more = game._response_options
    for i, seat in enumerate(eligible):
        game.prompts[seat] = P.Prompt(first + i, seat, P.RESPONSE, (P.PASS,), P.PASS.id, more)
    s.next_prompt_id = first + len(eligible)


def _order_fits(n: int, last_actor: int, eligible: list[int]) -> bool:
    allowed = set(eligible)
    return [x for x in _answer_orders(n)[last_actor] if x in allowed] == eligible


Decide = Callable[[int, dict, list[dict]], str]


def play_out(game: Game, decide: Decide, horizon: int | None = None, max_decisions: int = 5000) -> Game:
    """Play `game` on: `decide(seat, view, new_events)` answers each prompt that has a choice from
    the seat's view (a `LazyView`: read it during the call only) and the events projected for it
    since it last decided (from the world's start; a lone option is taken without asking). With
    `horizon`, stop when that many more turns have begun. The world is changed in place and returned."""
    start = len(game.events)
    seen = [start] * len(game.state.seats)
    shared = Shared()
    stop = None if horizon is None else game.state.turn + horizon
    state = game.state
    for _ in range(max_decisions):
        if game.over or (stop is not None and state.turn >= stop):
            break
        prompts = game.pending()
        if not prompts:
            break
        prompt = min(prompts, key=_seat_of) if len(prompts) > 1 else prompts[0]
        seat = prompt.seat
        if len(prompt.options) == 1:  # nothing to decide: the seat reads these events before its next choice
            game.choose(seat, prompt.id, prompt.options[0].id)
            continue
        new = events_for(game, seat, seen[seat])
        seen[seat] = len(game.events)
        shown = LazyView(game, seat, shared)
        choice = decide(seat, shown, new)
        shown.close()
        game.choose(seat, prompt.id, choice)
    return game


class LazyView(dict[str, object]):
    """`view(game, seat)` built key by key as it is read: a rollout's bot reads a few keys of each
    view (its prompt, hand, the seats), and a full view cost half a rollout. Equal, key for key, to
    `engine.view.view` (tests/test_worlds.py pins it over thousands of moments). Objects are shared
    by every view of one play-out (`Shared`), so nothing read from it may be changed. Valid until
    `close()` (the game moves on after the decision): a key first read afterwards would show
    another moment, so it raises instead."""

    __slots__ = ("_game", "_seat", "_shared", "_open")

    def __init__(self, game: Game, seat: int, shared: Shared) -> None:
        super().__init__()
        self._game, self._seat, self._shared, self._open = game, seat, shared, True

    def close(self) -> None:
        self._open = False

    def __missing__(self, key: str) -> object:
        build = _LAZY_KEYS.get(key)
        if build is None:
            raise KeyError(key)
        if not self._open:
            raise RuntimeError(f"view[{key!r}] read after the decision it was built for")
        value = build(self._game, self._seat, self._shared)
        dict.__setitem__(self, key, value)
        return value

    def get(self, key: str, default: object = None) -> object:
        return self[key] if key in _LAZY_KEYS else default

    def __contains__(self, key: object) -> bool:
        return key in _LAZY_KEYS

    def full(self) -> dict[str, object]:
        """Every key, in `view`'s order, as a plain dict."""
        return {key: self[key] for key in _LAZY_KEYS}

    def __iter__(self) -> Iterator[str]:
        return iter(self.full())

    def __len__(self) -> int:
        return len(_LAZY_KEYS)

    def keys(self) -> dict_keys[str, object]:
        return self.full().keys()

    def values(self) -> dict_values[str, object]:
        return self.full().values()

    def items(self) -> dict_items[str, object]:
        return self.full().items()

    def copy(self) -> dict[str, object]:
        return self.full()

    def __eq__(self, other: object) -> bool:
        return self.full() == other

    __hash__ = None

    def __repr__(self) -> str:
        return f"LazyView({self.full()!r})"


@dataclass(slots=True)
class Shared:
    """What the views of one play-out share: the seats' public entries by their `entry_facts`
    (equal facts, equal entries) and the cards' faces (a card's face is fixed by its id)."""

    entries: dict[tuple[object, ...], dict[str, object]] = field(default_factory=dict)
    faces: dict[int, dict[str, object]] = field(default_factory=dict)

    def face(self, game: Game, card: int) -> dict[str, object]:
        face = self.faces.get(card)
        if face is None:
            face = self.faces[card] = game.face(card)
        return face


def _lazy_seats(game: Game, seat: int, shared: Shared) -> list[dict[str, object]]:
    shown = []
    entries = shared.entries
    for index in range(len(game.state.seats)):
        facts = entry_facts(game, index)
        entry = entries.get(facts)
        if entry is None:
            entry = entries[facts] = seat_entry(game, facts)
        shown.append(entry)
    own = game.state.seats[seat]
    shown[seat] = {**shown[seat], "identity": own.identity, "character": _character_of(_character_facts(game, seat, seat))}
    return shown


def _lazy_phase(game: Game) -> str:
    s = game.state
    return s.window.step if s.node == WINDOW and s.window is not None else PHASES[s.node]


def _lazy_prompt(game: Game, seat: int) -> dict[str, object] | None:
    prompt = game.prompts.get(seat)
    return None if prompt is None else prompt.to_dict()


_Build = Callable[[Game, int, Shared], object]
#: How `LazyView` builds each key of `engine.view.view`, in its order (a seat's message and stack
#: items show what that seat may see: the same as the public ones unless it saw more).
_LAZY_KEYS: dict[str, _Build] = {
    "v": lambda g, seat, e: VIEW_VERSION,
    "seat": lambda g, seat, e: seat,
    "config": lambda g, seat, e: {
        "players": g.state.config.players, "identities": g.state.config.identities, "deck": g.state.config.deck,
        "probe_draw": g.state.config.probe_draw, "characters": g.state.config.characters},
    "turn": lambda g, seat, e: g.state.turn,
    "current": lambda g, seat, e: g.state.current,
    "phase": lambda g, seat, e: _lazy_phase(g),
    "seats": _lazy_seats,
    "hand": lambda g, seat, e: [e.face(g, c) for c in g.state.seats[seat].hand],
    "identity": lambda g, seat, e: g.state.seats[seat].identity,
    "character_choices": lambda g, seat, e: list(g.state.seats[seat].character_choices),
    "task": lambda g, seat, e: _task_of(_character_facts(g, seat, seat)),
    "message": lambda g, seat, e: _message(g, seat),
    "stack": lambda g, seat, e: [_stack_item(g, item, seat) for item in g.state.stack],
    "window": lambda g, seat, e: None if g.state.window is None else {
        "step": g.state.window.step, "eligible": list(g.state.window.eligible)},
    "pile": lambda g, seat, e: len(g.state.pile),
    "discard": lambda g, seat, e: ([g.face(c) for c in g.state.discard] if g.state.config.discard_face_up
                                   else len(g.state.discard)),
    "removed": lambda g, seat, e: len(g.state.removed),
    "waiting": lambda g, seat, e: waiting(g),
    "prompt": lambda g, seat, e: _lazy_prompt(g, seat),
    "over": lambda g, seat, e: g.over,
    "winners": lambda g, seat, e: list(g.state.winners),
    "declarer": lambda g, seat, e: g.state.declarer,
    "win_reason": lambda g, seat, e: g.state.win_reason,
    "ending": lambda g, seat, e: _ending(g) if g.over else None,
    "log_length": lambda g, seat, e: len(g.events),
}


def _seat_of(prompt: P.Prompt) -> int:
    return prompt.seat
