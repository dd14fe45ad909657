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


def public_view(game: Game) -> dict[str, object]:
    """The view of a spectator, which is everything every seat sees alike plus the spectator's
    values of `SEAT_KEYS`. A server fanning one change out to a table builds (and diffs) this once,
    and only each seat's `seat_part` per seat."""
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
        "seats": [_seat_entry(game, index) for index in range(len(s.seats))],
        "hand": [],
        "identity": None,
        "character_choices": [],
        "task": None,
        "message": _message(game, None),
        "stack": [_stack_item(game, item, None) for item in s.stack],
        "window": None if w is None else {"step": w.step, "eligible": list(w.eligible)},
        "pile": len(s.pile),
        "discard": [game.face(c) for c in s.discard] if s.config.discard_face_up else len(s.discard),
        "removed": len(s.removed),
        "waiting": _waiting(game),
        "prompt": None,
        "over": game.over,
        "winners": list(s.winners),
        "declarer": s.declarer,
        "win_reason": s.win_reason,
        "ending": _ending(game) if game.over else None,
        "log_length": len(game.events),
    }


def seat_part(game: Game, seat: int | None, public: dict[str, object]) -> SeatPart:
    """`seat`'s part of its view, next to `public` (this moment's `public_view`): where the seat
    sees no more than a spectator (the message, the stack), the public objects themselves."""
    if seat is None:
        return SeatPart(None, {key: public[key] for key in SEAT_KEYS}, None)
    s = game.state
    me = s.seats[seat]
    prompt = game.prompts.get(seat)
    m = s.message
    message = _message(game, seat) if m is not None and not m.face_up and seat in m.seen_by else public["message"]
    knows = any(item.function == "试探" and seat in (item.user, item.target_seat) for item in s.stack)
    deck = game.deck
    return SeatPart(seat, {
        "seat": seat,
        "hand": [deck[c].face() for c in me.hand],
        "identity": me.identity,
        "character_choices": list(me.character_choices),
        "task": _task(game, seat),
        "message": message,
        "stack": [_stack_item(game, item, seat) for item in s.stack] if knows else public["stack"],
        "prompt": prompt.to_dict() if prompt is not None else None,
    }, _own_entry(game, seat, public))


def _own_entry(game: Game, seat: int, public: dict[str, object]) -> dict[str, object]:
    """`seat`'s entry among the seats as it sees itself: its public entry (the very message list
    and counts) with its identity and its character shown."""
    entries = public["seats"]
    assert isinstance(entries, list)
    return {**entries[seat], "identity": game.state.seats[seat].identity, "character": _character(game, seat, seat)}


def _seat_entry(game: Game, index: int) -> dict[str, object]:
    """Seat `index` at the table as everyone sees it."""
    s = game.state
    p = s.seats[index]
    deck = game.deck
    counts = dict.fromkeys(COLOURS, 0)
    for c in p.messages:
        counts[deck[c].colour] += 1
    return {
        "index": p.index,
        "name": p.name,
        "alive": p.alive,
        "lost": p.lost,
        "hand_count": len(p.hand),
        "messages": [deck[c].face() for c in p.messages],
        "counts": counts,
        "identity": p.identity if p.revealed else None,
        "locked": p.index in s.locked,
        "skipped": s.message is not None and p.index in s.message.skipped,
        "character": _character(game, p.index, None),
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
        # A 识破 that resolved cancelled it (everyone saw that): another 识破 on it does nothing.
        "cancelled": item.cancelled,
    }


def events_for(game: Game, seat: int | None, since: int = 0) -> list[dict[str, object]]:
    """The event log from `since` on, as `seat` may see it."""
    return [e.project(seat) for e in game.events[since:]]


def _character(game: Game, index: int, seat: int | None) -> dict[str, object] | None:
    """A face-down character shows only that it is face-down, except to its owner; during the pick
    nobody's choice is on the table yet (the pick is simultaneous), so only the owner sees his."""
    p = game.state.seats[index]
    if p.character is None or (game.state.node == CHARACTER_PICK and index != seat):
        return None
    if not (p.face_up or p.revealed or index == seat):
        return {"face_up": False}
    c = characters.roster()[p.character]
    return {"id": c.id, "name": c.name, "name_en": c.name_en, "face_up": p.face_up,
            "gender": characters.gender(game, index), "skills": list(c.skill_names)}


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


def _task(game: Game, seat: int | None) -> dict[str, object] | None:
    """The secret task is its owner's alone to see."""
    if seat is None:
        return None
    c = characters.character_of(game, seat)
    if c is None:
        return None
    return {"zh": c.task_zh, "en": c.task_en}


def _waiting(game: Game) -> list[dict[str, object]]:
    """Who must decide now. While a response window's prompts are open, every seat it asked is
    listed until it closes, passed or not: when a seat passed is known to that seat alone, as at
    the table, so that no one learns who still holds a card worth thinking over (PEERS.md §0.4)."""
    s = game.state
    w = s.window
    prompts = game.prompts
    if s.node == WINDOW and w is not None and prompts and s.asking is None \
            and all(p.kind == RESPONSE for p in prompts.values()):
        asked = sorted((seat, w.first_prompt + i) for i, seat in enumerate(w.eligible))
        return [{"seat": seat, "kind": RESPONSE, "prompt_id": prompt_id} for seat, prompt_id in asked]
    return [{"seat": p.seat, "kind": p.kind, "prompt_id": p.id} for p in sorted(prompts.values(), key=_seat_of)]
