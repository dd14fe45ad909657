"""Stepping through a saved per-seat replay: the seat's own events, its final view, and (in a
replay its client wrote) the frames it received.

A replay holds only what that seat was shown. The public facts (turns, the phase, every hand's
size, messages in front of each seat, deaths) are rebuilt from the events; the seat's hand, the
travelling message, the stack and its open prompt come from the frames (a server-written replay
has none: then only the final view has them). Nothing else is invented.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from engine.cards import TRUTH_OR_FALSE
from net.replays import FRAME_KEYS


def load_replay(path: Path) -> dict[str, Any]:
    """Read a `.replay` file (msgpack map: seat, config, events, final, and frames when the client
    that received them wrote it).

    A replay may come from anyone: its final view, every event and every frame are checked against
    the protocol's schemas for what a server sends, so a damaged or hostile file is refused here
    with a ValueError saying what is wrong, never shown half."""
    from net.journal import read_replay

    return check_replay(read_replay(path), str(path))


def check_replay(replay: Any, name: str = "replay") -> dict[str, Any]:
    """`replay` if it is a well-formed replay, else a ValueError naming the first problem."""
    from net.protocol import EVENT, SEAT, VIEW
    from net.replays import FRAME

    if not isinstance(replay, dict) or not isinstance(replay.get("events"), list) \
            or not isinstance(replay.get("final"), dict):
        raise ValueError(f"{name} is not a fengsheng replay (no events or final view)")
    problem = SEAT.check(replay.get("seat")) or VIEW.check(replay["final"])
    if problem is None:
        problem = next((f"events[{i}]: {bad}" for i, event in enumerate(replay["events"])
                        if (bad := EVENT.check(event))), None)
    frames = replay.get("frames", [])
    if problem is None and not isinstance(frames, list):
        problem = "frames must be a list"
    if problem is None:
        problem = next((f"frames[{i}]: {bad}" for i, frame in enumerate(frames) if (bad := FRAME.check(frame))), None)
    if problem is None and any(a["at"] > b["at"] for a, b in zip(frames, frames[1:], strict=False)):
        problem = "frames out of order"
    if problem is None and frames and frames[-1]["at"] > len(replay["events"]):
        problem = "a frame after the last event"
    if problem is None and not isinstance(replay["final"].get("seats"), list):
        problem = "the final view has no seats"
    if problem:
        raise ValueError(f"{name} is not a fengsheng replay: {problem}")
    return replay


def frame_index(replay: dict[str, Any], step: int) -> int | None:
    """The last frame seen by the time `step` events were (None: no frame yet, or none kept)."""
    found = None
    for i, frame in enumerate(replay.get("frames") or []):
        if frame["at"] > step:
            break
        found = i
    return found


def decisions(replay: dict[str, Any]) -> list[int]:
    """The frames where a decision of the seat's opened: a prompt that the frame before lacked."""
    out, last = [], None
    for i, frame in enumerate(replay.get("frames") or []):
        prompt = frame.get("prompt")
        key = prompt.get("id") if isinstance(prompt, dict) else None
        if key is not None and key != last:
            out.append(i)
        last = key
    return out


def turn_steps(replay: dict[str, Any]) -> list[int]:
    """The step just after each turn's start event (the first event of a turn shown)."""
    return [i + 1 for i, ev in enumerate(replay["events"]) if ev.get("kind") == "turn_start"]


#: Skills that put cards from a hand in front of a player as messages: the table sees only
#: "obtained ... by" afterwards, so the hand they came from is known from the skill (the user's own,
#: or for 后著 and 搜取 the hand just looked at).
HAND_TO_MESSAGE = frozenset({"英雄本色", "连击", "笑里藏刀", "血染玫瑰", "黄雀在后", "釜底抽薪", "后著", "搜取"})
#: Events after which a card obtained "by" a seat no longer comes from a hand.
NOT_FROM_HAND = frozenset({"gambled", "message_taken", "message_swapped", "hand_given"})
#: The phase each event leaves the turn in (the view's own phase names).
PHASE_AFTER = {
    "character_choices": "character_pick", "turn_start": "turn_start", "play_phase_ended": "send",
    "sent": "transmit", "transmit": "transmit", "declined": "transmit", "arrived": "arrive",
    "received": "turn_end", "cannot_send": "turn_end", "message_discarded": "turn_end", "game_over": "game_over",
}
COLOURS = ("red", "blue", "black")
#: Events after which the message shown by an older frame no longer travels.
ARRIVED = frozenset({"received", "message_discarded", "cannot_send"})


def view_at(replay: dict[str, Any], step: int, frame: int | None = None) -> dict[str, Any]:
    """The table as the seat knew it after `step` events (the final view after the last one): the
    public facts rebuilt from the events, and the seat's hand, the travelling message, the stack
    and its open prompt from `frame` (by default the last frame seen by then)."""
    if step >= len(replay["events"]) and (frame is None or frame == len(replay.get("frames") or []) - 1):
        return copy.deepcopy(replay["final"])
    view = rebuild(replay, step)
    frames = replay.get("frames") or []
    index = frame_index(replay, step) if frame is None else frame
    if index is not None and 0 <= index < len(frames):
        shown = frames[index]
        view.update({key: copy.deepcopy(shown.get(key)) for key in FRAME_KEYS})
        view["hand"] = view["hand"] or []
        view["stack"] = view["stack"] or []
        later = {ev.get("kind") for ev in replay["events"][shown["at"]:step]}
        if "turn_start" in later:  # a frame of an earlier turn: its message, stack and prompt are over
            view.update(message=None, stack=[])
            shown = {**shown, "prompt": None}
        elif later & ARRIVED:
            view["message"] = None  # taken in (or dropped) since the frame: no longer travelling
        seat = replay.get("seat")
        if isinstance(seat, int) and 0 <= seat < len(view["seats"]):
            # One update may carry a whole turn: the frame's hand, moved on by our own events since.
            hand = copy.deepcopy(view["hand"])
            for ev in replay["events"][shown["at"]:step]:
                follow_hand(hand, ev, seat)
            if len(hand) == view["seats"][seat]["hand_count"]:
                view["hand"] = hand
            view["seats"][seat]["hand_count"] = len(view["hand"])  # our own hand, as we saw it
        prompt = shown.get("prompt")
        view["prompt"] = None
        view["deciding"] = dict(prompt) if isinstance(prompt, dict) else None
        auto = shown.get("auto") or []
        for entry in view["seats"]:
            entry["auto"] = entry.get("index") in auto  # 托管 as it was then (frames keep it)
    elif index is None:
        view["hand"] = early_hand(replay, step, view)
    return view


#: Events that take the cards they carry out of a hand (`card`/`cards`; from `source` where the
#: event has one): a card is taken out of ours only when its id is in it.
LEAVE_HAND = frozenset({"played", "sent", "discarded", "probe_discarded", "put_back", "returned_to_pile",
                        "weighed", "hand_given", "card_given", "cards_taken", "hand_card_taken", "obtained"})
#: Events that put the cards they carry into `seat`'s hand (`to`'s for a card given).
ENTER_HAND = frozenset({"dealt", "drew", "cards_kept", "cards_taken", "hand_card_taken", "message_to_hand",
                        "card_given"})


def follow_hand(hand: list[dict[str, Any]], ev: dict[str, Any], seat: int) -> None:
    """Move our own hand (`seat`'s, as a list of faces) by one event of our replay: our events show
    the faces of the cards we draw, play, give and lose, so a card is matched by its id."""
    kind = ev.get("kind")
    if kind in ("died", "lost") and ev.get("seat") == seat:
        hand.clear()  # out of the game: the hand is gone (as `follow` counts it)
        return
    card = ev.get("card")
    cards = [c for c in [*(ev.get("cards") or []), *([card] if isinstance(card, dict) else [])] if isinstance(c, dict)]
    if kind == "played" and isinstance(card, dict) and "skill" in card:
        return  # a skill on the stack is no card
    receiver = ev.get("to") if kind == "card_given" else ev.get("seat")
    if kind in LEAVE_HAND and not (kind in ENTER_HAND and receiver == seat):
        for face in cards:
            found = next((i for i, held in enumerate(hand) if held.get("id") == face.get("id")), None)
            if found is not None:
                del hand[found]
    if kind in ENTER_HAND and receiver == seat:
        held = {face.get("id") for face in hand}
        hand.extend(copy.deepcopy(face) for face in cards if face.get("id") not in held)


def early_hand(replay: dict[str, Any], step: int, view: dict[str, Any]) -> list[dict[str, Any]]:
    """Our hand before the first frame: the cards our own deal and draws showed us, when they
    add up to the hand size the events give (else nothing rather than a wrong hand)."""
    seat = replay.get("seat")
    if not isinstance(seat, int) or not 0 <= seat < len(view["seats"]):
        return []
    cards = [card for ev in replay["events"][:step] if ev.get("kind") in ("dealt", "drew") and ev.get("seat") == seat
             for card in ev.get("cards") or []]
    return copy.deepcopy(cards) if len(cards) == view["seats"][seat]["hand_count"] else []


def rebuild(replay: dict[str, Any], step: int) -> dict[str, Any]:
    """The public facts after `step` events, from the events alone: turn, phase, whose turn, every
    hand's size, the messages in front of each seat, deaths (see `follow`)."""
    events: list[dict[str, Any]] = replay["events"]
    view = copy.deepcopy(replay["final"])
    view.update(prompt=None, waiting=[], message=None, stack=[], window=None, over=False, winners=[],
                # Before the first turn starts the seats are dealt: turn 1 is about to begin.
                declarer=None, win_reason=None, hand=[], turn=1, phase="deal",
                # Table facts no event records (a pause, 托管, fast-forward, a drop) are not the end's:
                # 托管 comes from the frames (`view_at`), the others are not kept.
                paused=None, fast_forward=False,
                # Before the first turn the ▶ is on the first player of the deal, not the final view's.
                current=next((ev.get("seat") for ev in events if ev.get("kind") in ("first_player", "turn_start")),
                             None))
    for seat in view["seats"]:
        seat.update(alive=True, lost=False, messages=[], counts=dict.fromkeys(COLOURS, 0),
                    locked=False, skipped=False, hand_count=0, auto=False, online=True)
        # No character before the pick, no identity before the deal: the events show each one.
        seat["character"] = None
        seat["identity"] = "" if seat.get("index") == replay.get("seat") else None
    placing = Placing()
    for ev in events[:step]:
        follow(view, ev, placing)
        follow_character(view, ev, replay["final"]["seats"])
    return view


def character_entry(cid: object, face_up: bool) -> dict[str, Any]:
    """A seat's character as the view writes it (`engine.view`): face-down with no id unless known."""
    from engine import characters

    if not isinstance(cid, str) or not cid:
        return {"face_up": False}
    c = characters.character(cid)
    return {"id": c.id, "name": c.name, "name_en": c.name_en, "face_up": face_up,
            "gender": c.gender if face_up else None, "skills": list(c.skill_names)}


def follow_character(view: dict[str, Any], ev: dict[str, Any], final: list[dict[str, Any]]) -> None:
    """Characters and identities as the seat saw them then (the final view shows the end's: every
    character face-up that was flipped, from the first step on, and no identity revealed before)."""
    kind, index = ev.get("kind"), ev.get("seat")
    if kind not in ("character_picked", "character", "character_flipped", "character_covered", "identity",
                    "identity_revealed", "identity_shown", "died", "lost") \
            or not isinstance(index, int) or not 0 <= index < len(view["seats"]):
        return
    entry = view["seats"][index]
    now = entry.get("character") or {}
    if kind == "identity":  # dealt: ours only (the others' stay secret)
        if ev.get("identity"):
            entry["identity"] = ev["identity"]
    elif kind == "character_picked":  # our own pick (the others' are not on the table yet)
        if ev.get("character"):
            entry["character"] = character_entry(ev.get("character"), True)
    elif kind == "character":
        entry["character"] = character_entry(ev.get("character"), ev.get("face_up") is True)
    elif kind in ("character_flipped", "died", "lost"):  # leaving the game turns it face-up too
        if kind == "character_flipped" or ev.get("character"):
            entry["character"] = character_entry(ev.get("character") or now.get("id"), True)
    elif kind == "character_covered":
        # Still known where the identity is (our own seat, or one revealed): face-down, no gender.
        entry["character"] = character_entry(now.get("id") if entry.get("identity") is not None else None, False)
    else:
        entry["identity"] = ev.get("identity")
        known = (final[index].get("character") or {}) if index < len(final) else {}
        if known.get("id") and not now.get("id"):  # a revealed identity shows the character too
            entry["character"] = character_entry(known["id"], bool(now.get("face_up")))


class Placing:
    """Where the cards obtained "by" a seat come from, which the "obtained" event does not say."""

    def __init__(self) -> None:
        #: by seat -> the seat whose hand its placing skill takes cards from (None: not known yet).
        self.hands: dict[int, int | None] = {}
        #: A 真伪莫辨 being dealt: its user, and the seats still to get a card, in turn order.
        self.dealer: int | None = None
        self.dealt_to: list[int] = []

    def from_hand(self, ev: dict[str, Any]) -> int | None:
        """The hand an obtained card left, or None when it came from the deck or a message."""
        by, to = ev.get("by"), ev.get("seat")
        if by == self.dealer and to in self.dealt_to:
            del self.dealt_to[: self.dealt_to.index(to) + 1]  # seats out of the game were skipped
            return None
        return self.hands.get(by) if isinstance(by, int) else None


def follow(view: dict[str, Any], ev: dict[str, Any], placing: Placing) -> None:
    """Apply one event to the rebuilt view: every event that moves a hand card or a message."""
    seats = view["seats"]

    def seat(key: str) -> dict[str, Any] | None:
        index = ev.get(key)
        return seats[index] if isinstance(index, int) and 0 <= index < len(seats) else None

    def hand(key: str, n: int) -> None:
        entry = seat(key)
        if entry is not None:
            entry["hand_count"] = max(0, entry["hand_count"] + n)

    def message(key: str, n: int) -> None:
        entry, colour = seat(key), (ev.get("card") or {}).get("colour")
        if entry is not None and colour in COLOURS:
            entry["counts"][colour] = max(0, entry["counts"][colour] + n)

    kind = ev.get("kind")
    who = ev.get("seat")
    count = int(ev.get("count") or 0)
    if kind == "turn_start":
        placing.hands.clear()
    elif kind in NOT_FROM_HAND:
        for key in ("seat", "by"):
            if isinstance(ev.get(key), int):
                placing.hands.pop(ev[key], None)
    if kind == "resolved" and (ev.get("card") or {}).get("function") == TRUTH_OR_FALSE and isinstance(who, int):
        placing.dealer = who
        placing.dealt_to = [(who + k) % len(seats) for k in range(len(seats))
                            if seats[(who + k) % len(seats)]["alive"] and not seats[(who + k) % len(seats)]["lost"]]
    if kind in PHASE_AFTER:
        view["phase"] = PHASE_AFTER[kind]
    if kind == "turn_start":
        view["turn"], view["current"] = ev.get("turn", view["turn"]), who
    elif kind in ("dealt", "drew"):
        hand("seat", count)
        if kind == "drew" and who == view.get("current") and view["phase"] == "turn_start":
            view["phase"] = "play"
    elif kind == "sent" or kind == "played" and "skill" not in (ev.get("card") or {}):
        hand("seat", -1)  # a skill on the stack is no card; any other play is one from the hand
    elif kind in ("probe_discarded", "put_back", "returned_to_pile", "discarded"):
        hand("seat", -1)
    elif kind in ("weighed", "hand_given"):
        hand("seat", -count)
    elif kind == "cards_kept":
        hand("seat", count)
    elif kind in ("cards_taken", "hand_card_taken"):
        n = count or 1
        hand("seat", n)
        hand("source", -n)
    elif kind == "card_given":
        hand("seat", -1)
        hand("to", 1)
    elif kind == "message_to_hand":
        hand("seat", 1)
        message("source", -1)
    elif kind == "skill_used" and isinstance(who, int):
        if ev.get("skill") in HAND_TO_MESSAGE:
            placing.hands[who] = who if ev.get("skill") not in ("后著", "搜取") else None
        else:
            placing.hands.pop(who, None)
    elif kind in ("hand_seen", "card_seen") and who in placing.hands:
        placing.hands[who] = ev.get("source")
    elif kind in ("received", "obtained"):
        message("seat", 1)
        source = placing.from_hand(ev) if kind == "obtained" else None
        if source is not None and 0 <= source < len(seats):
            seats[source]["hand_count"] = max(0, seats[source]["hand_count"] - 1)
    elif kind in ("burned", "message_to_pile") or kind == "message_swapped" and "by" in ev:
        message("seat", -1)
    elif kind == "message_taken":
        message("source" if "source" in ev else "seat", -1)
    elif kind in ("died", "lost"):
        entry = seat("seat")
        if entry is not None:
            entry["alive" if kind == "died" else "lost"] = kind != "died"
            entry["identity"] = ev.get("identity")
            entry.update(counts=dict.fromkeys(COLOURS, 0), hand_count=0)
