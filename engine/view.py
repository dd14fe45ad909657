"""The one projection from the full game to what a seat (or a spectator, seat None) may know.

Everything that leaves the server is built here or by `Event.project`. Hidden cards appear only
as counts: a face-down card carries no id, so no seat can follow it across the table.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import characters
from .cards import COLOURS
from .game import Game
from .prompts import RESPONSE, Prompt
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
    TRANSMIT,
    TURN_END,
    TURN_START,
    WINDOW,
    StackItem,
)

VIEW_VERSION = 1

PHASES = {
    TURN_START: "turn_start", DRAW: "draw", PLAY: "play", SEND: "send", TRANSMIT: "transmit",
    AFTER_TRANSMIT: "transmit", AFTER_ARRIVE: "arrive", RECEIVE: "receive", CHARACTER_PICK: "character_pick",
    TURN_END: "turn_end", NEXT_TURN: "turn_end", GAME_OVER: "game_over",
}


#: The keys of a view whose value depends on who is looking (besides the viewer's own entry
#: among the seats); every other key holds the same value for every viewer.
SEAT_KEYS = ("seat", "hand", "identity", "character_choices", "task", "message", "stack", "prompt")
#: The keys of a seat's own entry among the seats that it sees otherwise than everyone else (its
#: own entry is its public entry with these laid over it).
OWN_ENTRY_KEYS = ("identity", "character")


@dataclass(slots=True)
class SeatPart:
    """What `seat` sees that a spectator does not: the values of `SEAT_KEYS`, and its own entry
    among the seats (None for a spectator, who has none)."""

    seat: int | None
    fields: dict[str, object]
    entry: dict[str, object] | None


def view(game: Game, seat: int | None) -> dict[str, object]:
    """What `seat` (None: a spectator) may know now: fresh objects, free to annotate."""
    public = public_view(game)
    return merge(public, seat_part(game, seat, public))


def merge(public: dict[str, object], part: SeatPart) -> dict[str, object]:
    """A seat's whole view: the public view with the seat's part laid over it (key order kept)."""
    v = {**public, **part.fields}
    seat, entry = part.seat, part.entry
    if seat is not None and entry is not None:
        entries = public["seats"]
        assert isinstance(entries, list)
        v["seats"] = [*entries[:seat], entry, *entries[seat + 1 :]]
    return v


def public_view(game: Game, entries: list[dict[str, object]] | None = None) -> dict[str, object]:
    """The view of a spectator, which is everything every seat sees alike plus the spectator's
    values of `SEAT_KEYS`. A server fanning one change out to a table builds (and diffs) this once,
    and only each seat's `seat_part` per seat. `entries`: the seats' entries, when the caller
    built them already (`seat_entry`, kept while their `entry_facts` stay the same)."""
    s = game.state
    phase = s.window.step if s.node == WINDOW and s.window is not None else PHASES[s.node]
    w = s.window
    return {
        "v": VIEW_VERSION,
        "seat": None,
        "config": {
            "players": s.config.players, "identities": s.config.identities, "deck": s.config.deck,
            "probe_draw": s.config.probe_draw, "characters": s.config.characters,
        },
        "turn": s.turn,
        "current": s.current,
        "phase": phase,
        "seats": entries if entries is not None else [_seat_entry(game, index) for index in range(len(s.seats))],
        "hand": [],
        "identity": None,
        "character_choices": [],
        "task": None,
        "message": public_message(game),
        "stack": public_stack(game),
        "window": None if w is None else {"step": w.step, "eligible": list(w.eligible)},
        "pile": len(s.pile),
        "discard": [game.face(c) for c in s.discard] if s.config.discard_face_up else len(s.discard),
        "removed": len(s.removed),
        "waiting": waiting(game),
        "prompt": None,
        "over": game.over,
        "winners": list(s.winners),
        "declarer": s.declarer,
        "win_reason": s.win_reason,
        "ending": _ending(game) if game.over else None,
        "log_length": len(game.events),
    }


def seat_part(game: Game, seat: int | None, public: dict[str, object], facts: tuple[object, ...] | None = None,
              last: tuple[tuple[object, ...], SeatPart] | None = None) -> SeatPart:
    """`seat`'s part of its view, next to `public` (this moment's `public_view`): where the seat
    sees no more than a spectator (the message, the stack), the public objects themselves.
    Built from `own_facts(game, seat)` (`facts`, when the caller has them) and `public` only;
    `last`, an earlier part of the seat with its facts, lends its objects (hand, character, task)
    where the facts they were built from are the same."""
    if seat is None:
        return SeatPart(None, {key: public[key] for key in SEAT_KEYS}, None)
    _, hand, identity, choices, character, prompt_id, message, stack = facts or own_facts(game, seat)
    entries = public["seats"]
    assert isinstance(entries, list)
    if last is not None and last[1].entry is not None:
        known, earlier = last
        fields = earlier.fields
        shown_hand = fields["hand"] if known[1] == hand else [game.face(c) for c in hand]  # type: ignore[attr-defined]
        shown_choices = fields["character_choices"] if known[3] == choices else list(choices)  # type: ignore[call-overload]
        if known[4] == character:
            task, shown_character = fields["task"], earlier.entry["character"]  # type: ignore[index]
        else:
            task, shown_character = _task_of(character), _character_of(character)  # type: ignore[arg-type]
    else:
        shown_hand = [game.face(c) for c in hand]  # type: ignore[attr-defined]
        shown_choices = list(choices)  # type: ignore[call-overload]
        task, shown_character = _task_of(character), _character_of(character)  # type: ignore[arg-type]
    return SeatPart(seat, {
        "seat": seat,
        "hand": shown_hand,
        "identity": identity,
        "character_choices": shown_choices,
        "task": task,
        "message": public["message"] if message is None else message,
        "stack": public["stack"] if stack is None else list(stack),  # type: ignore[call-overload]
        "prompt": game.prompts[seat].to_dict() if prompt_id is not None else None,
    }, {**entries[seat], "identity": identity, "character": shown_character})


def seat_part_again(part: SeatPart, facts: tuple[object, ...], public: dict[str, object]) -> SeatPart:
    """`part`, built from `facts` that still hold, next to a new public view: what it shows of
    the public view (the message and stack unless the seat sees more, its own public entry) is
    the new view's, the rest is `part`'s own objects."""
    assert part.seat is not None and part.entry is not None
    entries = public["seats"]
    assert isinstance(entries, list)
    fields = dict(part.fields)
    if facts[6] is None:
        fields["message"] = public["message"]
    if facts[7] is None:
        fields["stack"] = public["stack"]
    entry = {**entries[part.seat], "identity": part.entry["identity"], "character": part.entry["character"]}
    return SeatPart(part.seat, fields, entry)


def own_facts(game: Game, seat: int) -> tuple[object, ...]:
    """Everything of the game that `seat_part` shows `seat` (besides the public view): two moments
    with equal facts give equal parts next to equal public views, so a server may keep a part while
    its facts stay the same. The prompt is named by its id, which no other prompt of the game has
    (a prompt's options never change); a message or stack that the seat sees more of than a
    spectator is in the facts as the seat sees it."""
    s = game.state
    me = s.seats[seat]
    prompt = game.prompts.get(seat)
    m = s.message
    message = _message(game, seat) if m is not None and not m.face_up and seat in m.seen_by else None
    stack = None
    for item in s.stack:
        if item.function == "试探" and (item.user == seat or item.target_seat == seat):
            stack = tuple(_stack_item(game, item, seat) for item in s.stack)
            break
    return (seat, tuple(me.hand), me.identity, tuple(me.character_choices), _character_facts(game, seat, seat),
            None if prompt is None else prompt.id, message, stack)


def table_facts(game: Game) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    """Every seat's `entry_facts` and `own_facts`, each equal to what those give, found in one
    pass over the seats: what they read alike (the node, the message, the probes on the stack,
    a seat's character) is read once. A server fanning a moment out to a whole table needs both
    for every seat at every flush (tests/test_frames.py holds them equal, step by step)."""
    s = game.state
    pick = s.node == CHARACTER_PICK
    locked = s.locked
    m = s.message
    skipped: set[int] | tuple[()] = () if m is None else m.skipped
    # The seats that see the message's card while the public does not, and that see the stack
    # otherwise (a 试探 they played or are the target of: `_stack_item`).
    seen_message: set[int] | tuple[()] = () if m is None or m.face_up else m.seen_by
    probed = {seat for item in s.stack if item.function == "试探" for seat in (item.user, item.target_seat)}
    # The message as every seat that has seen its card sees it: one object for all of them.
    message = _message(game, next(iter(seen_message))) if seen_message else None
    prompts = game.prompts.get
    entries: list[tuple[object, ...]] = []
    owns: list[tuple[object, ...]] = []
    add_entry, add_own = entries.append, owns.append
    own: CharacterFacts
    public: CharacterFacts
    for seat, p in enumerate(s.seats):
        cid = p.character
        if cid is None:
            own = public = _NO_CHARACTER
        elif p.face_up:
            own = _FACE_UP.get(cid) or _face_up(cid)
            public = _NO_CHARACTER if pick else own
        else:
            own = (cid, False, None)
            public = _NO_CHARACTER if pick else own if p.revealed else _FACE_DOWN
        index = p.index
        hand = p.hand
        add_entry((index, p.name, p.alive, p.lost, len(hand), tuple(p.messages),
                   p.identity if p.revealed else None, index in locked, index in skipped, public))
        prompt = prompts(seat)
        add_own((seat, tuple(hand), p.identity, tuple(p.character_choices), own,
                 None if prompt is None else prompt.id, message if seat in seen_message else None,
                 tuple([_stack_item(game, item, seat) for item in s.stack]) if seat in probed else None))
    return entries, owns


def public_message(game: Game) -> dict[str, object] | None:
    """The public view's `message` (what a seat that has not seen the card sees of it), alone."""
    return _message(game, None)


def public_stack(game: Game) -> list[dict[str, object]]:
    """The public view's `stack` (what a seat that played or faces no 试探 on it sees), alone."""
    return [_stack_item(game, item, None) for item in game.state.stack]


def public_view_again(game: Game, last: dict[str, object], entries: list[dict[str, object]]) -> dict[str, object]:
    """`public_view(game, entries)`, from `last`, what it gave at the same `Game.stamp` of this
    game: then only the prompts can have changed, so only who is waiting is read again and every
    other value is `last`'s own object (any keys `last` has besides a view's are kept)."""
    return {**last, "seats": entries, "waiting": waiting(game)}


def own_facts_again(game: Game, owns: list[tuple[object, ...]]) -> list[tuple[object, ...]]:
    """`table_facts(game)[1]`, from `owns`, what it gave at the same `Game.stamp` of this game:
    then only the prompts can have changed (an answer that leaves its window open), so only they
    are read again; the entry facts are the same as well."""
    prompts = game.prompts.get
    out = []
    for facts in owns:
        prompt = prompts(facts[0])  # type: ignore[call-overload]
        prompt_id = None if prompt is None else prompt.id
        out.append(facts if facts[5] == prompt_id else (*facts[:5], prompt_id, *facts[6:]))
    return out


def _seat_entry(game: Game, index: int) -> dict[str, object]:
    """Seat `index` at the table as everyone sees it."""
    return seat_entry(game, entry_facts(game, index))


def entry_facts(game: Game, index: int) -> tuple[object, ...]:
    """Everything of the game that seat `index`'s public entry shows: equal facts, equal entries
    (`seat_entry` builds the entry from them alone), so a server may keep an entry while they stay."""
    s = game.state
    p = s.seats[index]
    return (p.index, p.name, p.alive, p.lost, len(p.hand), tuple(p.messages), p.identity if p.revealed else None,
            p.index in s.locked, s.message is not None and p.index in s.message.skipped,
            _character_facts(game, p.index, None))


def seat_entry(game: Game, facts: tuple[object, ...]) -> dict[str, object]:
    """A seat's public entry, from its `entry_facts` (and the deck's card faces)."""
    index, name, alive, lost, hand_count, messages, identity, locked, skipped, character = facts
    colours = game._colours
    counts = dict.fromkeys(COLOURS, 0)
    for c in messages:  # type: ignore[attr-defined]
        counts[colours[c]] += 1
    return {
        "index": index,
        "name": name,
        "alive": alive,
        "lost": lost,
        "hand_count": hand_count,
        "messages": [game.face(c) for c in messages],  # type: ignore[attr-defined]
        "counts": counts,
        "identity": identity,
        "locked": locked,
        "skipped": skipped,
        "character": _character_of(character),  # type: ignore[arg-type]
    }


def _seat_of(prompt: Prompt) -> int:
    return prompt.seat


def _message(game: Game, seat: int | None) -> dict[str, object] | None:
    m = game.state.message
    if m is None:
        return None
    visible = m.face_up or (seat is not None and seat in m.seen_by)
    return {
        "sender": m.sender,
        "method": m.method,
        "face_up": m.face_up,
        "origin": m.origin,
        "position": m.position,
        "direction": m.direction,
        "target": m.target,
        "returning": m.returning,
        "intercepted_by": m.intercepted_by,
        "card": game.face(m.card) if visible else None,
    }


def _stack_item(game: Game, item: StackItem, seat: int | None) -> dict[str, object]:
    knows = seat is not None and seat in (item.user, item.target_seat)
    # A skill placed like a card has no card (-1): only its public face, never deck[-1].
    card = game.face(item.card) if item.card >= 0 and (item.function != "试探" or knows) else game.public_face(item)
    target_card = None
    if item.target_card is not None:
        target_card = next((game.public_face(i) for i in game.state.stack if i.card == item.target_card),
                           None) or game.face(item.target_card)
    return {
        "user": item.user,
        "function": item.function,
        "card": card,
        "target_seat": item.target_seat,
        "target_card": target_card,
    }


def events_for(game: Game, seat: int | None, since: int = 0) -> list[dict[str, object]]:
    """The event log from `since` on, as `seat` may see it."""
    return [e.project(seat) for e in game.events[since:]]


#: What a seat's character shows `seat` (`_character_facts`): nothing, face-down, or the card.
CharacterFacts = tuple[str | None, bool, str | None]
_NO_CHARACTER: CharacterFacts = (None, False, None)
_FACE_DOWN: CharacterFacts = ("", False, None)
#: Each character's facts face-up (with its gender), by id: characters never change.
_FACE_UP: dict[str, CharacterFacts] = {}


def _face_up(cid: str) -> CharacterFacts:
    """`_character_facts` of a face-up character `cid`, built once per character."""
    found = _FACE_UP.get(cid)
    if found is None:
        found = _FACE_UP[cid] = (cid, True, characters.character(cid).gender)
    return found


def _character_facts(game: Game, index: int, seat: int | None) -> tuple[str | None, bool, str | None]:
    """(character id, face up, gender) of seat `index` as `seat` may see it: a face-down character
    shows only that it is face-down, except to its owner; during the pick nobody's choice is on the
    table yet (the pick is simultaneous), so only the owner sees his. (None, False, None): nothing;
    ("", False, None): face-down."""
    p = game.state.seats[index]
    if p.character is None or (game.state.node == CHARACTER_PICK and index != seat):
        return _NO_CHARACTER
    if not (p.face_up or p.revealed or index == seat):
        return ("", False, None)
    # The gender as `characters.gender` gives it, without looking the seat up twice more.
    return (p.character, p.face_up, characters.character(p.character).gender if p.face_up else None)


def _character_of(facts: tuple[str | None, bool, str | None]) -> dict[str, object] | None:
    cid, face_up, gender = facts
    if cid is None:
        return None
    if not cid:
        return {"face_up": False}
    c = characters.character(cid)
    return {"id": c.id, "name": c.name, "name_en": c.name_en, "face_up": face_up, "gender": gender,
            "skills": list(c.skill_names)}


def _ending(game: Game) -> dict[str, object]:
    """What the game over reveals to everyone: how each seat left the game (died, by whose lethal
    black message, RULES.md §8.1, or lost), the messages he held then, and the secret task of each
    winner who won by one. Only once the game is over: then identities are public too."""
    s = game.state
    deck = game.deck
    out: list[dict[str, object]] = []
    for p in s.seats:
        if p.in_game:
            continue
        entry: dict[str, object] = {"seat": p.index, "died": not p.alive, "turn": p.left_turn,
                                    "messages": [deck[c].face() for c in p.left_with]}
        if not p.alive:
            entry["by"] = s.killers.get(p.index)
        out.append(entry)
    completed = {e.data.get("seat") for e in game.events if e.kind == "task_completed"}
    tasks = []
    for seat in s.winners:
        c = characters.character_of(game, seat) if seat in completed else None
        if c is not None:
            tasks.append({"seat": seat, "character": c.id, "zh": c.task_zh, "en": c.task_en})
    return {"left": out, "tasks": tasks}


def _task_of(facts: tuple[str | None, bool, str | None]) -> dict[str, object] | None:
    """The secret task is its owner's alone to see (`facts`: the owner's own `_character_facts`)."""
    if not facts[0]:
        return None
    c = characters.character(facts[0])
    return {"zh": c.task_zh, "en": c.task_en}


def waiting(game: Game) -> list[dict[str, object]]:
    """Who must decide now. While a response window's prompts are open, every seat it asked is
    listed until it closes, passed or not: when a seat passed is known to that seat alone, as at
    the table, so that no one learns who still holds a card worth thinking over (PEERS.md §0.4)."""
    s = game.state
    w = s.window
    prompts = game.prompts
    if s.node == WINDOW and w is not None and prompts and s.asking is None:
        for p in prompts.values():
            if p.kind != RESPONSE:
                break
        else:
            first = w.first_prompt  # eligible[i] was asked with first + i
            asked = sorted(zip(w.eligible, range(first, first + len(w.eligible)), strict=True))
            return [{"seat": seat, "kind": RESPONSE, "prompt_id": prompt_id} for seat, prompt_id in asked]
    return [{"seat": p.seat, "kind": p.kind, "prompt_id": p.id} for p in sorted(prompts.values(), key=_seat_of)]
