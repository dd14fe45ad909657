"""Scripted rule scenarios: a fixed deal, every decision, and the outcomes the rules demand.

A scenario is a plain dict (parsed from TOML by the caller; the format is in docs/scenarios.md).
`run_scenario` deals it with `Setup`, maps each readable step ("seat 0 plays 锁定 on seat 2") onto
the one legal option of that seat's prompt, and checks the expectations. It never raises for a
bad scenario or a rule violation: everything becomes a failure message, so one broken file cannot
hide the others. No file I/O here, so the engine stays pure.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from . import characters as chars
from . import prompts as P
from .cards import (
    BLACK,
    BLUE,
    DIRECT,
    FUNCTIONS,
    IDENTITY_BY_NAME,
    METHODS,
    RED,
    TEXT,
    Card,
    build_deck,
)
from .config import IDENTITIES, ConfigError, GameConfig, identity_options
from .game import Game, Setup
from .prompts import ChoiceError, Option
from .state import PLAY, SEND, TRANSMIT, TURN_START, TURN_STEPS, Message

COLOUR_WORDS = {RED: RED, BLUE: BLUE, BLACK: BLACK, "红": RED, "蓝": BLUE, "黑": BLACK}
IDENTITY_WORDS = {**IDENTITY_BY_NAME, **{i: i for i in IDENTITIES}}
YES_WORDS = {"draw": "draw", "discard": "discard"}
WILDCARDS = ("*", "any")

ACTIONS = ("play", "send", "pass", "end", "receive", "discard", "skill", "decline", "choose", "all_pass",
           "settle", "expect", "answers")
STEP_KEYS = frozenset(ACTIONS) | {"seat", "target", "message", "card", "as", "expect_refused", "note", "at"}
SCENARIO_KEYS = frozenset({
    "name", "cites", "description", "identities", "players", "config", "deck", "probe_draw",
    "dead_share_win", "seed", "first", "hands", "messages", "pile", "discard", "pile_only", "steps", "expect",
    "characters", "face_up", "face_down", "current", "dead", "lost", "locked", "turn", "start", "message",
})


class ScenarioError(Exception):
    """The scenario itself is malformed (not a rule violation)."""


class StepFailed(Exception):
    """A step could not be carried out, or an expectation did not hold."""


@dataclass
class ScenarioResult:
    name: str
    ok: bool
    failures: list[str] = field(default_factory=list)
    steps_run: int = 0

    @property
    def reason(self) -> str:
        return "; ".join(self.failures)


# ----------------------------------------------------------------------------- card specs


@dataclass(frozen=True)
class CardSpec:
    """A readable card name such as "识破/red/直达" or "试探/black/军情处/draw"; "*" is any function."""

    text: str
    function: str | None
    colour: str | None
    method: str | None
    probe_identity: str | None
    probe_on_yes: str | None

    @classmethod
    def parse(cls, text: object) -> CardSpec:
        if not isinstance(text, str) or not text.strip():
            raise ScenarioError(f"a card must be named by a string like '锁定/black', not {text!r}")
        parts = [p.strip() for p in text.split("/")]
        head, rest = parts[0], parts[1:]
        if head in WILDCARDS:
            function = None
        elif head in FUNCTIONS:
            function = head
        else:
            raise ScenarioError(f"unknown card {head!r} in {text!r}; cards are {', '.join(FUNCTIONS)} or '*'")
        colour = method = identity = on_yes = None
        for part in rest:
            if part in COLOUR_WORDS:
                colour = COLOUR_WORDS[part]
            elif part in METHODS:
                method = part
            elif part in IDENTITY_WORDS:
                identity = IDENTITY_WORDS[part]
            elif part in YES_WORDS:
                on_yes = YES_WORDS[part]
            else:
                raise ScenarioError(f"cannot read {part!r} in card {text!r} (a colour, method, identity or draw/discard)")
        return cls(text, function, colour, method, identity, on_yes)

    def constraints(self) -> int:
        return sum(x is not None for x in (self.function, self.colour, self.method,
                                           self.probe_identity, self.probe_on_yes))

    def matches(self, card: Card) -> bool:
        if self.function is not None and card.function != self.function:
            return False
        if self.colour is not None and card.colour != self.colour:
            return False
        if self.method is not None and card.method != self.method:
            return False
        if self.probe_identity is not None and (card.probe is None or card.probe.identity != self.probe_identity):
            return False
        return self.probe_on_yes is None or (card.probe is not None and card.probe.on_yes == self.probe_on_yes)


def card_name(card: Card) -> str:
    """The readable name of a concrete card, in the same notation as a spec."""
    name = f"{card.function}/{card.colour}/{card.method}"
    if card.probe is not None:
        name += f"/{card.probe.identity}/{card.probe.on_yes}"
    return name


def _face_key(card: Card) -> tuple[object, ...]:
    return (card.function, card.colour, card.method, card.probe)


# ----------------------------------------------------------------------------- setup


def scenarios_in(doc: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A document holds one scenario, or several under [[scenario]] that inherit its top-level keys."""
    if "scenario" not in doc:
        return [dict(doc)]
    defaults = {k: v for k, v in doc.items() if k != "scenario"}
    entries = doc["scenario"]
    if not isinstance(entries, list):
        raise ScenarioError("'scenario' must be an array of tables ([[scenario]])")
    if not all(isinstance(entry, Mapping) for entry in entries):
        raise ScenarioError("every [[scenario]] entry must be a table")
    return [{**defaults, **entry} for entry in entries]


def _seat_lists(data: Mapping[str, Any], key: str, players: int) -> list[list[CardSpec]]:
    raw = data.get(key, [])
    if not isinstance(raw, list) or len(raw) > players or not all(isinstance(x, list) for x in raw):
        raise ScenarioError(f"'{key}' must be a list of at most {players} lists of card names (one per seat)")
    lists = [[CardSpec.parse(c) for c in seat] for seat in raw]
    return lists + [[] for _ in range(players - len(lists))]


def _assign(deck: tuple[Card, ...], specs: list[CardSpec]) -> list[int]:
    """Concrete card ids for specs, each card used once; the most specific names choose first."""
    chosen: list[int | None] = [None] * len(specs)
    used: set[int] = set()
    order = sorted(range(len(specs)), key=lambda i: -specs[i].constraints())
    for i in order:
        spec = specs[i]
        card = next((c for c in deck if c.id not in used and spec.matches(c)), None)
        if card is None:
            total = sum(spec.matches(c) for c in deck)
            raise ScenarioError(f"no card left for {spec.text!r}: the deck has {total} such card(s), all used")
        used.add(card.id)
        chosen[i] = card.id
    return [c for c in chosen if c is not None]


def build_game(data: Mapping[str, Any]) -> Game:
    """Deal the scenario's fixed setup."""
    raw_identities = data.get("identities")
    if not isinstance(raw_identities, list) or not raw_identities:
        raise ScenarioError("'identities' must list every seat's identity, e.g. ['军情处', '潜伏战线', ...]")
    identities = []
    for ident in raw_identities:
        if ident not in IDENTITY_WORDS:
            raise ScenarioError(f"unknown identity {ident!r}; use 军情处/潜伏战线/打酱油的 or military/latent/neutral")
        identities.append(IDENTITY_WORDS[ident])
    players = int(data.get("players", len(identities)))
    if players != len(identities):
        raise ScenarioError(f"players = {players} but {len(identities)} identities are listed")
    counts = Counter(identities)
    wanted = tuple(counts[i] for i in IDENTITIES)
    try:
        options = identity_options(players)
    except KeyError as exc:
        raise ScenarioError(f"no identity table for {players} players") from exc
    config_name = data.get("config") or next((k for k, v in options.items() if v == wanted), None)
    if config_name is None:
        raise ScenarioError(f"no identity configuration for {players} players has counts {wanted}: {options}")
    if options.get(config_name) != wanted:
        raise ScenarioError(f"configuration {config_name!r} has counts {options.get(config_name)}, not {wanted}")
    config = GameConfig(
        players=players,
        identities=config_name,
        deck=str(data.get("deck", "resolved")),
        probe_draw=int(data.get("probe_draw", 2)),
        dead_share_win=bool(data.get("dead_share_win", True)),
        characters=bool(data.get("characters")),
    )
    try:
        config.validate(deal_characters=False, fixed_deal=True)
    except ConfigError as exc:
        raise ScenarioError(str(exc)) from exc
    deck = build_deck(config.deck)
    hands = _seat_lists(data, "hands", players)
    messages = _seat_lists(data, "messages", players)
    pile = _card_specs(data.get("pile", []), "pile")
    discard = _card_specs(data.get("discard", []), "discard")
    travelling = data.get("message")
    if travelling is not None and (not isinstance(travelling, Mapping) or "card" not in travelling):
        raise ScenarioError("'message' must be a table like {card='破译/red', sender=0}")
    moving = [CardSpec.parse(travelling["card"])] if travelling is not None else []
    flat = [c for h in hands for c in h] + [c for m in messages for c in m] + pile + discard + moving
    ids = iter(_assign(deck, flat))
    hand_ids = [[next(ids) for _ in h] for h in hands]
    message_ids = [[next(ids) for _ in m] for m in messages]
    pile_ids = [next(ids) for _ in pile]
    discard_ids = [next(ids) for _ in discard]
    if "first" in data and "current" in data:
        raise ScenarioError("'first' and 'current' name the same seat: give one")
    first = _start_seat(data.get("first", data.get("current", 0)), players, "first")
    character_ids, face_up = _characters(data, players)
    out = {key: _seat_list(data.get(key, []), key, players) for key in ("dead", "lost", "locked")}
    for seat in out["dead"] + out["lost"]:
        if hand_ids[seat] or message_ids[seat]:
            raise ScenarioError(f"seat {seat} is out of the game: it holds no cards and no messages")
    if set(out["dead"]) & set(out["lost"]):
        raise ScenarioError("a seat is either dead or lost, not both")
    start = data.get("start", "transmit" if travelling is not None else "turn")
    if start not in START_NODES:
        raise ScenarioError(f"start = {start!r}; use one of {', '.join(START_NODES)}")
    message = None
    if travelling is not None:
        if start != "transmit":
            raise ScenarioError("a scenario with a travelling 'message' starts at its transmit step")
        message = _travelling(travelling, next(ids), deck, players)
        if "first" not in data and "current" not in data:
            first = message.sender
        if message.sender != first:
            raise ScenarioError(f"the message's sender {message.sender} must be the current player {first}")
    elif start == "transmit":
        raise ScenarioError("start = 'transmit' needs a travelling 'message'")
    if out["locked"] and start == "turn":
        raise ScenarioError("'locked' lasts one turn: it needs start = 'play', 'send' or a travelling 'message'")
    if first in out["dead"] + out["lost"]:
        raise ScenarioError(f"the current player {first} is out of the game")
    turn = data.get("turn", 1)
    if not isinstance(turn, int) or isinstance(turn, bool) or turn < 1:
        raise ScenarioError(f"turn = {turn!r}: the turn in play, a number from 1")
    setup = Setup(identities, hand_ids, pile_ids, first, message_ids, discard_ids, bool(data.get("pile_only", False)),
                  characters=character_ids, face_up=face_up, dead=out["dead"], lost=out["lost"], turn=turn,
                  start=START_NODES[start], message=message, locked=out["locked"])
    return Game.new(config, int(data.get("seed", 0)), setup)


START_NODES = {"turn": TURN_START, "play": PLAY, "send": SEND, "transmit": TRANSMIT}
MESSAGE_KEYS = frozenset({"card", "sender", "from", "direction", "target", "lured", "face_up"})


def _card_specs(raw: object, key: str) -> list[CardSpec]:
    if not isinstance(raw, list):
        raise ScenarioError(f"'{key}' must be a list of card names, not {raw!r}")
    return [CardSpec.parse(c) for c in raw]


def _is_seat(raw: object, players: int) -> bool:
    return isinstance(raw, int) and not isinstance(raw, bool) and 0 <= raw < players


def _start_seat(raw: object, players: int, key: str) -> int:
    if not _is_seat(raw, players):
        raise ScenarioError(f"{key} = {raw!r} is not a seat (0..{players - 1})")
    assert isinstance(raw, int)
    return raw


def _seat_list(raw: object, key: str, players: int) -> list[int]:
    if not isinstance(raw, list) or not all(_is_seat(x, players) for x in raw) or len(set(raw)) != len(raw):
        raise ScenarioError(f"'{key}' must list distinct seat numbers (0..{players - 1}), not {raw!r}")
    return list(raw)


def _travelling(raw: Mapping[str, Any], card_id: int, deck: tuple[Card, ...], players: int) -> Message:
    """A message already on its way: it is about to move on from seat `from` (default: its sender)."""
    if set(raw) - MESSAGE_KEYS:
        raise ScenarioError(f"unknown key(s) {sorted(set(raw) - MESSAGE_KEYS)} in 'message'; known: {sorted(MESSAGE_KEYS)}")
    sender = _start_seat(raw.get("sender"), players, "message.sender")
    origin = _start_seat(raw.get("from", sender), players, "message.from")
    direction = raw.get("direction", 1)
    if direction not in (1, -1):
        raise ScenarioError(f"message.direction = {direction!r}: 1 or -1")
    card = deck[card_id]
    target = raw.get("target")
    if (target is None) != (card.method != DIRECT):
        raise ScenarioError("message.target names the seat of a 直达 message, and only of one")
    if target is not None:
        target = _start_seat(target, players, "message.target")
    face_up = raw.get("face_up", card.method == TEXT)
    if not isinstance(face_up, bool):
        raise ScenarioError(f"message.face_up = {face_up!r}: true or false")
    return Message(card=card_id, sender=sender, method=card.method, face_up=face_up, origin=origin, position=origin,
                   direction=direction, target=target, skipped=set(_seat_list(raw.get("lured", []), "message.lured",
                                                                              players)), seen_by={sender})


def _characters(data: Mapping[str, Any], players: int) -> tuple[list[str], list[bool]]:
    """The `characters` key (an id or Chinese name per seat) and the face-up/face-down overrides."""
    raw = data.get("characters")
    if raw is None:
        if "face_up" in data or "face_down" in data:
            raise ScenarioError("'face_up' / 'face_down' need 'characters'")
        return [], []
    if not isinstance(raw, list) or len(raw) != players:
        raise ScenarioError(f"'characters' must list one character per seat ({players})")
    known = chars.roster()
    by_name = {c.name: cid for cid, c in known.items()}
    ids = []
    for name in raw:
        cid = name if name in known else by_name.get(name)
        if cid is None:
            raise ScenarioError(f"character {name!r} is not implemented; implemented: {', '.join(sorted(known))}")
        ids.append(cid)
    face_up = [not known[cid].hidden for cid in ids]
    for key, side in (("face_up", True), ("face_down", False)):
        seats = data.get(key, [])
        if not isinstance(seats, list) or not all(isinstance(x, int) and 0 <= x < players for x in seats):
            raise ScenarioError(f"'{key}' must list seat numbers")
        for seat in seats:
            face_up[seat] = side
    return ids, face_up


# ----------------------------------------------------------------------------- steps


def describe(game: Game, opt: Option) -> str:
    text = opt.verb if opt.name is None else f"{opt.verb} {opt.name}"
    if opt.card is not None:
        text += " " + card_name(game.card(opt.card))
    if opt.target_seat is not None:
        text += f" → seat {opt.target_seat}"
    if opt.target_card is not None:
        text += f" (card {card_name(game.card(opt.target_card))})"
    return text


def _open_prompts(game: Game) -> str:
    if not game.prompts:
        return "none"
    return ", ".join(f"seat {p.seat} ({p.kind})" for p in sorted(game.prompts.values(), key=lambda p: p.seat))


def _step_text(step: Mapping[str, Any]) -> str:
    return "{" + ", ".join(f"{k}={v!r}" for k, v in step.items()) + "}"


def _wanted(step: Mapping[str, Any]) -> tuple[str | None, CardSpec | None]:
    """The option verb a step asks for (None: any but decline, for `skill`), and the card it names."""
    if "skill" in step:
        return step.get("choose"), CardSpec.parse(step["card"]) if "card" in step else None
    if "decline" in step:
        return "decline", None
    if "choose" in step:
        return str(step["choose"]), CardSpec.parse(step["card"]) if "card" in step else None
    if "play" in step:
        return "play", CardSpec.parse(step["play"])
    if "send" in step:
        return "send", CardSpec.parse(step["send"])
    if "discard" in step:
        return "discard", CardSpec.parse(step["discard"])
    if step.get("pass") is True:
        return "pass", None
    if step.get("end") is True:
        return "end", None
    if "receive" in step:
        return ("accept" if step["receive"] else "decline"), None
    raise ScenarioError(f"step {_step_text(step)} names no action; use one of {', '.join(ACTIONS)}")


def _option_name(step: Mapping[str, Any]) -> tuple[bool, str | None]:
    """Whether the step constrains the option's name, and to what: a skill's name, or the function a
    card is played as (`as`; a card played as itself carries no name)."""
    if "skill" in step:
        return True, str(step["skill"])
    if "decline" in step:
        return True, str(step["decline"])
    if "play" in step:
        spec = CardSpec.parse(step["play"])
        wanted = step.get("as")
        return True, None if wanted is None or wanted == spec.function else str(wanted)
    return False, None


def _matching(game: Game, seat: int, step: Mapping[str, Any]) -> list[Option]:
    verb, spec = _wanted(step)
    named, name = _option_name(step)
    target = step.get("target")
    message = CardSpec.parse(step["message"]) if "message" in step else None
    prompt = game.prompts.get(seat)
    if prompt is None:
        return []
    found = []
    for opt in prompt.options:
        if verb is None and opt.verb == "decline":
            continue
        if verb is not None and opt.verb != verb:
            continue
        if named and opt.name != name:
            continue
        if spec is not None and (opt.card is None or not spec.matches(game.card(opt.card))):
            continue
        if target is not None and opt.target_seat != target:
            continue
        if message is not None and (opt.target_card is None or not message.matches(game.card(opt.target_card))):
            continue
        found.append(opt)
    return found


def _choose_step(game: Game, step: Mapping[str, Any], in_answers: bool = False) -> None:
    """One seat's decision. An answer to a response window is applied as by polling in 顺位: the
    window's other seats pass after it (in an `answers` step they answer as it says)."""
    seat = _seat_of(step)
    prompt = game.prompts.get(seat)
    if prompt is None:
        raise StepFailed(f"seat {seat} has no decision to make now (open: {_open_prompts(game)})")
    found = _matching(game, seat, step)
    if not found:
        legal = "; ".join(describe(game, o) for o in prompt.options)
        raise StepFailed(f"no legal option of seat {seat}'s {prompt.kind} prompt matches; legal: {legal}")
    meanings = {(o.verb, o.name, o.card and _face_key(game.card(o.card)), o.target_seat,
                 o.target_card and _face_key(game.card(o.target_card))) for o in found}
    if len(meanings) > 1:
        raise StepFailed(f"ambiguous, it matches: {'; '.join(describe(game, o) for o in found)}")
    window = game.state.window if prompt.kind == P.RESPONSE and game.state.asking is None else None
    try:
        game.choose(seat, prompt.id, found[0].id)
    except ChoiceError as exc:
        raise StepFailed(f"the engine refused {describe(game, found[0])}: {exc}") from exc
    if window is not None and found[0].verb != "pass" and not in_answers:
        _pass_rest(game, window)


def _pass_rest(game: Game, window: object) -> None:
    """The seats of `window` that have not answered pass, so that an answer given in a step is
    applied as it would be by one-at-a-time polling (the window settles once everyone answered)."""
    if game.state.window is not window or game.state.asking is not None:
        return
    for prompt in sorted(game.prompts.values(), key=lambda p: game.priority_key(p.seat)):
        if prompt.kind == P.RESPONSE and game.prompts.get(prompt.seat) is prompt:
            game.choose(prompt.seat, prompt.id, P.PASS.id)


ANSWER_KEYS = frozenset({"seat", "play", "pass", "skill", "choose", "target", "message", "card", "as", "note"})


def _answers_step(game: Game, answers: object) -> None:
    """`answers`: several seats answer one response window in this arrival order; the seats it does
    not name pass after them. What is applied must not depend on that order (RULES.md §6.4: 顺位)."""
    if not isinstance(answers, list) or not answers or not all(isinstance(a, Mapping) for a in answers):
        raise ScenarioError('answers must be a list of steps, e.g. answers = [{ seat = 2, play = "截获" }, '
                            '{ seat = 1, play = "截获" }]')
    for answer in answers:
        if set(answer) - ANSWER_KEYS:
            raise ScenarioError(f"unknown key(s) {sorted(set(answer) - ANSWER_KEYS)} in answer {_step_text(answer)}")
    seats = [_seat_of(a) for a in answers]
    if len(set(seats)) != len(seats):
        raise ScenarioError(f"each seat answers a window once; answers name seats {seats}")
    window = game.state.window
    if window is None or game.state.asking is not None or not any(p.kind == P.RESPONSE for p in game.prompts.values()):
        raise StepFailed(f"no response window is open (open: {_open_prompts(game)})")
    for answer in answers:
        if game.state.window is not window:
            raise StepFailed(f"the window settled before seat {_seat_of(answer)} answered: it was not asked")
        _choose_step(game, answer, in_answers=True)
    _pass_rest(game, window)


def _refused_step(game: Game, step: Mapping[str, Any]) -> None:
    """Assert the choice is not offered; the seat must hold the card, or the refusal proves nothing."""
    seat = _seat_of(step)
    _, spec = _wanted(step)
    if "skill" in step:
        c = chars.character_of(game, seat)
        if c is None or step["skill"] not in c.skill_names:
            raise StepFailed(f"seat {seat}'s character has no skill {step['skill']}, so its refusal proves nothing")
        spec = None
    if spec is not None and "card" not in step and not any(spec.matches(game.card(c)) for c in game.state.seats[seat].hand):
        hand = ", ".join(card_name(game.card(c)) for c in game.state.seats[seat].hand) or "nothing"
        raise StepFailed(f"seat {seat} holds no {spec.text} (hand: {hand}), so its refusal proves nothing")
    found = _matching(game, seat, step)
    if found:
        raise StepFailed(f"expected refused, but seat {seat} may {describe(game, found[0])}")


def _turn_window(game: Game) -> str | None:
    """The step of the open turn-start or turn-end window (RULES.md §4) with nothing on the stack."""
    s = game.state
    w = s.window
    if w is None or w.step not in TURN_STEPS or s.stack or s.asking is not None:
        return None
    return w.step if any(p.kind == P.RESPONSE for p in game.prompts.values()) else None


def pass_turn_windows(game: Game) -> None:
    """Every seat passes the turn-start and turn-end windows now open, until the engine waits on
    something else: a step answers them only when it says `at` (scenarios written before these
    windows existed read on as they did)."""
    while not game.over and _turn_window(game) is not None:
        _pass_window(game)


def _pass_window(game: Game) -> bool:
    """Every seat prompted in the current response window passes, in 顺位 order."""
    open_now = sorted((p for p in game.prompts.values() if p.kind == P.RESPONSE),
                      key=lambda p: game.priority_key(p.seat))
    if not open_now:
        return False
    for prompt in open_now:
        if game.prompts.get(prompt.seat) is prompt:
            game.choose(prompt.seat, prompt.id, P.PASS.id)
    return True


def _answer_decoys(game: Game) -> None:
    """Decoy offers (a face-down seat asked as a 就计 or 弃卒保帅 owner would be, with nothing to
    choose) are answered by themselves before each step: scenarios name real decisions only."""
    while decoys := sorted((p for p in game.prompts.values() if chars.is_decoy(p)), key=lambda p: game.priority_key(p.seat)):
        game.choose(decoys[0].seat, decoys[0].id, decoys[0].default)


def _seat_of(step: Mapping[str, Any]) -> int:
    seat = step.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise ScenarioError(f"step {_step_text(step)} needs seat = <number>")
    return seat


def run_step(game: Game, step: Mapping[str, Any]) -> None:
    if not isinstance(step, Mapping):
        raise ScenarioError(f"a step must be a table, not {step!r}")
    if set(step) - STEP_KEYS:
        raise ScenarioError(f"unknown key(s) {sorted(set(step) - STEP_KEYS)} in step {_step_text(step)}")
    actions = set(step) & set(ACTIONS)
    if "skill" in actions:
        actions.discard("choose")  # `choose` narrows a skill's option by its verb
    if len(actions) > 1:
        raise ScenarioError(f"step {_step_text(step)} names {len(actions)} actions ({', '.join(sorted(actions))}); "
                            "a step does one thing")
    if "seat" in step:
        seat = _seat_of(step)
        if not 0 <= seat < game.n():
            raise ScenarioError(f"step {_step_text(step)}: seat {seat} is not a seat (0..{game.n() - 1})")
    if game.over and not ("expect" in step or step.get("expect_refused")):
        raise StepFailed("the game is already over")
    if "at" in step:
        _answer_decoys(game)
        if step["at"] not in TURN_STEPS:
            raise ScenarioError(f"at must be one of {sorted(TURN_STEPS)}, not {step['at']!r}")
        if _turn_window(game) != step["at"]:
            raise StepFailed(f"no {step['at']} window is open (open: {_open_prompts(game)})")
    else:
        _between_steps(game)
    if step.get("all_pass") is True:
        if not _pass_window(game):
            raise StepFailed(f"no response window is open (open: {_open_prompts(game)})")
    elif step.get("settle") is True:
        while _pass_window(game):
            _answer_decoys(game)
    elif "expect" in step:
        check(game, step["expect"])
    elif step.get("expect_refused") is True:
        _refused_step(game, step)
    elif "answers" in step:
        _answers_step(game, step["answers"])
    else:
        _choose_step(game, step)


# ----------------------------------------------------------------------------- expectations


def _seat_key(game: Game, raw: object, key: str) -> int:
    """A seat named by an expectation (TOML table keys are strings): a number of this table."""
    seat = raw
    if isinstance(raw, str) and raw.strip().lstrip("-").isdigit():
        seat = int(raw)
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < game.n():
        raise ScenarioError(f"expect.{key}: {raw!r} is not a seat (0..{game.n() - 1})")
    return seat


def _seat_map(game: Game, value: object, key: str) -> dict[int, Any]:
    if not isinstance(value, Mapping):
        raise ScenarioError(f"expect.{key} must map seats to values, e.g. {key}.2 = ..., not {value!r}")
    return {_seat_key(game, k, key): v for k, v in value.items()}


def _seats(game: Game, value: object, key: str) -> list[int]:
    if not isinstance(value, list):
        raise ScenarioError(f"expect.{key} must be a list of seats, not {value!r}")
    return [_seat_key(game, x, key) for x in value]


def _name_list(value: object, key: str) -> list[CardSpec]:
    if not isinstance(value, list):
        raise ScenarioError(f"expect.{key} must be a list of card names, not {value!r}")
    return [CardSpec.parse(v) for v in value]


def _same_cards(game: Game, ids: list[int], specs: list[CardSpec]) -> bool:
    """True when the cards are exactly the named ones (any order)."""
    return len(specs) == len(ids) and _includes(game, ids, specs) is None


def _includes(game: Game, ids: list[int], specs: list[CardSpec]) -> CardSpec | None:
    """The first spec with no card of its own among `ids`, or None when each has one."""
    left = list(ids)
    for spec in sorted(specs, key=lambda s: -s.constraints()):
        hit = next((c for c in left if spec.matches(game.card(c))), None)
        if hit is None:
            return spec
        left.remove(hit)
    return None


def _names(game: Game, ids: list[int]) -> str:
    return "[" + ", ".join(card_name(game.card(c)) for c in ids) + "]"


FACE_DOWN = "face-down"


def _face_matches(game: Game, expected: str, face: object) -> bool:
    """A card as some viewer is shown it. A face with no id shows its function only (a 试探 handed
    over face-down, a face-down message): `试探/face-down` or `face-down` names exactly that, and a
    name asking for more (a colour) does not match it."""
    parts = expected.split("/")
    if parts[-1] == FACE_DOWN:
        if not isinstance(face, Mapping) or "id" in face:
            return face is None and parts == [FACE_DOWN]
        return len(parts) == 1 or face.get("function") == parts[0]
    if not isinstance(face, Mapping):
        return False
    spec = CardSpec.parse(expected)
    if "id" in face:
        return spec.matches(game.card(int(face["id"])))
    return spec.constraints() == 1 and spec.function == face.get("function")


def _value_matches(game: Game, expected: object, actual: object) -> bool:
    if isinstance(expected, str) and isinstance(actual, Mapping) and "function" in actual:
        return _face_matches(game, expected, actual)
    if isinstance(expected, Mapping) and isinstance(actual, Mapping):
        return all(k in actual and _value_matches(game, v, actual[k]) for k, v in expected.items())
    if isinstance(expected, list) and isinstance(actual, list):
        return len(expected) == len(actual) and all(_value_matches(game, e, a) for e, a in zip(expected, actual, strict=True))
    return bool(expected == actual)


def _event_dicts(game: Game, seat: int | None | bool = True) -> list[dict[str, object]]:
    """The log with every secret part (seat True), or as `seat` (None: a spectator) is shown it."""
    if seat is True:
        return [{"seq": e.seq, "kind": e.kind, **e.data, **e.secret} for e in game.events]
    return [e.project(seat if isinstance(seat, int) and not isinstance(seat, bool) else None) for e in game.events]


def _event_matches(game: Game, pattern: Mapping[str, Any], event: Mapping[str, object]) -> bool:
    return all(k in event and _value_matches(game, v, event[k]) for k, v in pattern.items())


def _patterns(exp: Mapping[str, Any], key: str) -> list[Mapping[str, Any]]:
    patterns = exp.get(key, [])
    if not isinstance(patterns, list) or not all(isinstance(p, Mapping) for p in patterns):
        raise ScenarioError(f"expect.{key} must be a list of tables like {{kind='died', seat=1}}, not {patterns!r}")
    return patterns


def _check_events(game: Game, exp: Mapping[str, Any], errors: list[str], seat: int | None | bool = True) -> None:
    events = _event_dicts(game, seat)
    for pattern in _patterns(exp, "events"):
        if not any(_event_matches(game, pattern, e) for e in events):
            kinds = [e for e in events if e["kind"] == pattern.get("kind")]
            errors.append(f"no event matches {dict(pattern)} (events of that kind: {kinds or 'none'})")
    for pattern in _patterns(exp, "no_events"):
        hits = [e for e in events if _event_matches(game, pattern, e)]
        if hits:
            errors.append(f"expected no event matching {dict(pattern)}, found {hits[0]}")
    if "sequence" in exp:
        at = 0
        for pattern in _patterns(exp, "sequence"):
            while at < len(events) and not _event_matches(game, pattern, events[at]):
                at += 1
            if at == len(events):
                errors.append(f"event sequence broken at {dict(pattern)}: "
                              f"log kinds {[e['kind'] for e in events]}")
                break
            at += 1


EVENT_KEYS = frozenset({"events", "no_events", "sequence"})


def check(game: Game, exp: object) -> None:
    """Raise StepFailed listing every expectation that does not hold (ScenarioError: malformed)."""
    if not isinstance(exp, Mapping):
        raise ScenarioError(f"expect must be a table, not {exp!r}")
    unknown = set(exp) - set(CHECKS) - EVENT_KEYS
    if unknown:
        raise ScenarioError(f"unknown expectation(s) {sorted(unknown)}; known: {sorted(CHECKS)} + events")
    errors: list[str] = []
    for key, value in exp.items():
        if key in CHECKS:
            problem = CHECKS[key](game, value)
            if problem:
                errors.append(f"{key}: {problem}")
    _check_events(game, exp, errors)
    if errors:
        raise StepFailed("; ".join(errors))


def _cards_per_seat(attr: str) -> Callable[[Game, object], str | None]:
    def checker(game: Game, value: object) -> str | None:
        for seat, names in _seat_map(game, value, attr).items():
            ids = getattr(game.state.seats[seat], attr)
            specs = _name_list(names, f"{attr}.{seat}")
            if not _same_cards(game, ids, specs):
                return f"seat {seat} has {_names(game, ids)}, expected {[s.text for s in specs]}"
        return None
    return checker


def _hand_includes(game: Game, value: object) -> str | None:
    for seat, names in _seat_map(game, value, "hand_includes").items():
        missing = _includes(game, game.state.seats[seat].hand, _name_list(names, f"hand_includes.{seat}"))
        if missing is not None:
            return f"seat {seat} holds no {missing.text} (hand: {_names(game, game.state.seats[seat].hand)})"
    return None


def _count(value: object, key: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ScenarioError(f"expect.{key} must be a count, not {value!r}")
    return value


def _counts(game: Game, value: object) -> str | None:
    for seat, want in _seat_map(game, value, "hand_count").items():
        have = len(game.state.seats[seat].hand)
        if have != _count(want, f"hand_count.{seat}"):
            return f"seat {seat} holds {have} card(s), expected {want}"
    return None


def _colours(game: Game, value: object) -> str | None:
    for seat, want in _seat_map(game, value, "colours").items():
        if not isinstance(want, Mapping):
            raise ScenarioError(f"expect.colours.{seat} must be a table like {{black=2}}, not {want!r}")
        for colour, n in want.items():
            if colour not in COLOUR_WORDS:
                raise ScenarioError(f"expect.colours.{seat}: {colour!r} is not a colour")
            have = game.colour_count(seat, COLOUR_WORDS[colour])
            if have != _count(n, f"colours.{seat}.{colour}"):
                return f"seat {seat} has {have} {colour} message(s), expected {n}"
    return None


def _seats_where(pred: Callable[[Game, int], bool], label: str) -> Callable[[Game, object], str | None]:
    def checker(game: Game, value: object) -> str | None:
        want = sorted(_seats(game, value, label))
        have = [s.index for s in game.state.seats if pred(game, s.index)]
        return None if want == have else f"{label} seats are {have}, expected {want}"
    return checker


def _scalar(get: Callable[[Game], object]) -> Callable[[Game, object], str | None]:
    def checker(game: Game, value: object) -> str | None:
        have = get(game)
        return None if have == value else f"is {have!r}, expected {value!r}"
    return checker


def _ordered(get: Callable[[Game], list[int]], key: str) -> Callable[[Game, object], str | None]:
    def checker(game: Game, value: object) -> str | None:
        want, have = _seats(game, value, key), get(game)
        return None if want == have else f"is {have}, expected {want}"
    return checker


def _killer(game: Game, value: object) -> str | None:
    """`killer = {1 = 0}`: seat 1 died and seat 0 killed him (RULES.md §8.1); `false`: nobody did."""
    for seat, want in _seat_map(game, value, "killer").items():
        if want is not False:
            want = _seat_key(game, want, f"killer.{seat}")
        if seat not in game.state.killers:
            return f"seat {seat} has not died in this game"
        have = game.state.killers[seat]
        if (False if have is None else have) != want:
            return f"seat {seat} was killed by {'nobody' if have is None else f'seat {have}'}, expected {want}"
    return None


def _card_pile(attr: str, top_first: bool) -> Callable[[Game, object], str | None]:
    """A count, or the cards: the discard pile's exact contents (any order); the draw pile's top
    cards in order, top first (the rest lies shuffled below)."""
    def checker(game: Game, value: object) -> str | None:
        ids: list[int] = getattr(game.state, attr)
        if not isinstance(value, list):
            have = len(ids)
            return None if have == _count(value, attr) else f"holds {have} card(s), expected {value}"
        specs = _name_list(value, attr)
        if not top_first:
            return None if _same_cards(game, ids, specs) else f"holds {_names(game, ids)}, expected {value}"
        top = list(reversed(ids))[:len(specs)]
        if len(top) == len(specs) and all(s.matches(game.card(c)) for s, c in zip(specs, top, strict=True)):
            return None
        return f"top (first) is {_names(game, top)}, expected {value}"
    return checker


def _discard_includes(game: Game, value: object) -> str | None:
    missing = _includes(game, game.state.discard, _name_list(value, "discard_includes"))
    return None if missing is None else f"no {missing.text} in the discard pile {_names(game, game.state.discard)}"


def _pile_excludes(game: Game, value: object) -> str | None:
    for spec in _name_list(value, "pile_excludes"):
        if any(spec.matches(game.card(c)) for c in game.state.pile):
            return f"a {spec.text} is in the draw pile"
    return None


def _prompt(game: Game, value: object) -> str | None:
    if not isinstance(value, Mapping) or "seat" not in value:
        raise ScenarioError(f"expect.prompt must be a table like {{seat=1, kind='receive'}}, not {value!r}")
    seat = _seat_key(game, value["seat"], "prompt.seat")
    prompt = game.prompts.get(seat)
    if prompt is None:
        return f"seat {seat} has no open prompt (open: {_open_prompts(game)})"
    if "kind" in value and prompt.kind != value["kind"]:
        return f"seat {seat} is asked {prompt.kind!r}, expected {value['kind']!r}"
    if "skill" in value and not any(o.name == value["skill"] for o in prompt.options):
        offered = "; ".join(describe(game, o) for o in prompt.options)
        return f"seat {seat} is not offered {value['skill']} (options: {offered})"
    return None


def _face_up(game: Game, value: object) -> str | None:
    """A list: exactly these seats show their character; a table: seat = true/false."""
    if isinstance(value, list):
        want = sorted(_seats(game, value, "face_up"))
        have = [p.index for p in game.state.seats if p.character is not None and p.face_up]
        return None if want == have else f"face-up seats are {have}, expected {want}"
    for seat, up in _seat_map(game, value, "face_up").items():
        if game.state.seats[seat].face_up != up:
            return f"seat {seat} is face-{'up' if game.state.seats[seat].face_up else 'down'}, expected otherwise"
    return None


def _no_prompt(game: Game, value: object) -> str | None:
    asked = [s for s in _seats(game, value, "no_prompt") if s in game.prompts]
    return f"seats {asked} have open prompts" if asked else None


def _message(game: Game, value: object) -> str | None:
    m = game.state.message
    if value is False:
        return None if m is None else f"a message is still travelling (at seat {m.position})"
    if not isinstance(value, Mapping):
        raise ScenarioError(f"expect.message must be false or a table of fields, not {value!r}")
    if m is None:
        return "no message is travelling"
    for key, want in value.items():
        if key not in MESSAGE_FIELDS:
            raise ScenarioError(f"expect.message: unknown field {key!r}; known: {sorted(MESSAGE_FIELDS)}")
        have: object = game.card(m.card) if key == "card" else getattr(m, key)
        if key == "skipped":
            have, want = sorted(m.skipped), sorted(_seats(game, want, "message.skipped"))
        ok = CardSpec.parse(want).matches(have) if isinstance(have, Card) else have == want
        if not ok:
            return f"message {key} is {have!r}, expected {want!r}"
    return None


MESSAGE_FIELDS = frozenset({"card", "sender", "method", "face_up", "origin", "position", "direction", "target",
                            "skipped", "forced", "intercepted_by", "returning"})

# ----------------------------------------------------------------------------- what a seat sees

VIEW_CHECKS = ("hand", "hand_count", "identity", "character", "message", "messages", "stack", "waiting", "prompt",
               "events", "no_events", "sequence")


def _views(game: Game, value: object) -> str | None:
    """`view = {2 = {...}, spectator = {...}}`: what that seat (or a spectator) is shown now, read
    from `engine.view` (the only projection that leaves the server) and its log."""
    if not isinstance(value, Mapping):
        raise ScenarioError(f"expect.view must map seats (or 'spectator') to tables, not {value!r}")
    problems: list[str] = []
    for who, exp in value.items():
        viewer = None if who == "spectator" else _seat_key(game, who, "view")
        label = "spectator" if viewer is None else f"seat {viewer}"
        if not isinstance(exp, Mapping):
            raise ScenarioError(f"expect.view.{who} must be a table, not {exp!r}")
        unknown = set(exp) - set(VIEW_CHECKS)
        if unknown:
            raise ScenarioError(f"unknown view expectation(s) {sorted(unknown)}; known: {list(VIEW_CHECKS)}")
        problems.extend(f"{label} {p}" for p in _view_problems(game, viewer, exp))
    return "; ".join(problems) or None


def _view_problems(game: Game, viewer: int | None, exp: Mapping[str, Any]) -> list[str]:
    from .view import view

    shown = view(game, viewer)
    entries: list[dict[str, Any]] = shown["seats"]  # type: ignore[assignment]
    problems: list[str] = []
    key = f"view.{'spectator' if viewer is None else viewer}"
    if "hand" in exp:
        faces: list[Mapping[str, Any]] = shown["hand"]  # type: ignore[assignment]
        specs = _name_list(exp["hand"], f"{key}.hand")
        if not _same_cards(game, [int(f["id"]) for f in faces], specs):
            problems.append(f"is shown the hand {_names(game, [int(f['id']) for f in faces])}, "
                            f"expected {[s.text for s in specs]}")
    for seat, want in _seat_map(game, exp.get("hand_count", {}), f"{key}.hand_count").items():
        if entries[seat]["hand_count"] != _count(want, f"{key}.hand_count.{seat}"):
            problems.append(f"sees seat {seat} hold {entries[seat]['hand_count']} card(s), expected {want}")
    for seat, want in _seat_map(game, exp.get("identity", {}), f"{key}.identity").items():
        have = entries[seat]["identity"]
        wanted = None if want is False else IDENTITY_WORDS.get(want) if isinstance(want, str) else want
        if wanted is not None and wanted not in IDENTITIES:
            raise ScenarioError(f"expect.{key}.identity.{seat} = {want!r}: an identity or false")
        if have != wanted:
            problems.append(f"sees seat {seat}'s identity as {have or 'hidden'}, expected {want or 'hidden'}")
    for seat, want in _seat_map(game, exp.get("character", {}), f"{key}.character").items():
        shown_c = entries[seat]["character"]
        have = shown_c.get("id") if isinstance(shown_c, Mapping) else None
        wanted = None if want is False else _character_id(want, f"{key}.character.{seat}")
        if have != wanted:
            problems.append(f"sees seat {seat}'s character as {have or 'hidden'}, expected {want or 'hidden'}")
    if "message" in exp:
        want, m = exp["message"], shown["message"]
        if want is False:
            if m is not None:
                problems.append("sees a message travelling, expected none")
        elif not isinstance(want, str):
            raise ScenarioError(f"expect.{key}.message must be a card name, 'face-down' or false, not {want!r}")
        elif not isinstance(m, Mapping):
            problems.append("sees no message travelling")
        elif not _face_matches(game, want, m["card"]):
            problems.append(f"sees the message as {_shown(game, m['card'])}, expected {want}")
    for seat, names in _seat_map(game, exp.get("messages", {}), f"{key}.messages").items():
        faces = entries[seat]["messages"]
        specs = _name_list(names, f"{key}.messages.{seat}")
        if not _same_cards(game, [int(f["id"]) for f in faces], specs):
            problems.append(f"sees seat {seat}'s messages as {[_shown(game, f) for f in faces]}, expected {names}")
    if "stack" in exp:
        want = exp["stack"]
        if not isinstance(want, list) or not all(isinstance(w, str) for w in want):
            raise ScenarioError(f"expect.{key}.stack must list the items' faces, bottom first, not {want!r}")
        items: list[Mapping[str, Any]] = shown["stack"]  # type: ignore[assignment]
        if len(items) != len(want) or not all(_face_matches(game, w, i["card"]) for w, i in zip(want, items, strict=False)):
            problems.append(f"sees the stack as {[_shown(game, i['card']) for i in items]}, expected {want}")
    if "waiting" in exp:
        want = sorted(_seats(game, exp["waiting"], f"{key}.waiting"))
        have = sorted(int(w["seat"]) for w in shown["waiting"])  # type: ignore[attr-defined]
        if want != have:
            problems.append(f"sees {have} waiting, expected {want}")
    if "prompt" in exp:
        prompt = shown["prompt"]
        have = prompt["kind"] if isinstance(prompt, Mapping) else False
        if have != exp["prompt"]:
            problems.append(f"is asked {have or 'nothing'}, expected {exp['prompt'] or 'nothing'}")
    _check_events(game, exp, problems, viewer)
    return problems


def _character_id(name: object, key: str) -> str:
    known = chars.roster()
    cid = name if isinstance(name, str) and name in known else \
        next((cid for cid, c in known.items() if c.name == name), None)
    if cid is None:
        raise ScenarioError(f"expect.{key} = {name!r}: a character id or name, or false")
    return cid


def _shown(game: Game, face: object) -> str:
    if not isinstance(face, Mapping):
        return FACE_DOWN
    if "id" in face:
        return card_name(game.card(int(face["id"])))
    return f"{face.get('function')}/{FACE_DOWN}"


CHECKS: dict[str, Callable[[Game, object], str | None]] = {
    "messages": _cards_per_seat("messages"),
    "hands": _cards_per_seat("hand"),
    "hand_includes": _hand_includes,
    "hand_count": _counts,
    "colours": _colours,
    "dead": _seats_where(lambda g, s: not g.state.seats[s].alive, "dead"),
    "deaths": _ordered(lambda g: list(g.state.deaths), "deaths"),
    "killer": _killer,
    "lost": _seats_where(lambda g, s: g.state.seats[s].lost, "lost"),
    "locked": _seats_where(lambda g, s: s in g.state.locked, "locked"),
    "winners": _scalar(lambda g: g.state.winners),
    "declarer": _scalar(lambda g: g.state.declarer),
    "win_reason": _scalar(lambda g: g.state.win_reason),
    "over": _scalar(lambda g: g.over),
    "current": _scalar(lambda g: g.state.current),
    "turn": _scalar(lambda g: g.state.turn),
    "pile": _card_pile("pile", top_first=True),
    "pile_excludes": _pile_excludes,
    "discard": _card_pile("discard", top_first=False),
    "discard_includes": _discard_includes,
    "removed": _card_pile("removed", top_first=False),
    "prompt": _prompt,
    "no_prompt": _no_prompt,
    "message": _message,
    "face_up": _face_up,
    "characters": _scalar(lambda g: [p.character for p in g.state.seats]),
    "view": _views,
}


# ----------------------------------------------------------------------------- running


def run_scenario(data: Mapping[str, Any]) -> ScenarioResult:
    """Deal, play every step, check the final expectations; the first failing step stops the run."""
    name = str(data.get("name", "<unnamed>"))
    result = ScenarioResult(name, ok=False)
    try:
        if set(data) - SCENARIO_KEYS:
            raise ScenarioError(f"unknown key(s) {sorted(set(data) - SCENARIO_KEYS)}; known: {sorted(SCENARIO_KEYS)}")
        if not data.get("cites"):
            raise ScenarioError("a scenario must cite the RULES.md / CARDS.md section it checks ('cites')")
        steps = data.get("steps", [])
        if not isinstance(steps, list):
            raise ScenarioError("'steps' must be an array of tables")
        game = build_game(data)
    except ScenarioError as exc:
        result.failures.append(f"bad scenario: {exc}")
        return result
    except Exception as exc:  # noqa: BLE001 - one scenario's crash is its FAIL line, never the run's end
        result.failures.append(f"error while dealing: {type(exc).__name__}: {exc}")
        return result
    for number, step in enumerate(steps, 1):
        where = f"step {number} {_step_text(step) if isinstance(step, Mapping) else repr(step)}"
        if not _run_part(result, where, partial(run_step, game, step)):
            return result
        result.steps_run = number
    if "expect" in data and not _run_part(result, "expect", partial(_final_check, game, data["expect"])):
        return result
    result.ok = True
    return result


def _final_check(game: Game, exp: object) -> None:
    _between_steps(game)
    check(game, exp)


def _between_steps(game: Game) -> None:
    """What the runner answers by itself before a step: decoy offers, then the turn windows open
    (a step answers those only when it says `at`), until neither is left."""
    while True:
        _answer_decoys(game)
        if game.over or _turn_window(game) is None:
            return
        _pass_window(game)


def _run_part(result: ScenarioResult, where: str, part: Callable[[], None]) -> bool:
    """Run one step (or the final check); any failure becomes the scenario's one failure line."""
    try:
        part()
    except StepFailed as exc:
        result.failures.append(f"{where}: {exc}")
    except ScenarioError as exc:
        result.failures.append(f"{where}: bad scenario: {exc}")
    except Exception as exc:  # noqa: BLE001 - an engine error is a FAIL line too, not a lost run
        result.failures.append(f"{where}: error: {type(exc).__name__}: {exc}")
    else:
        return True
    return False


__all__ = ["CardSpec", "ScenarioError", "ScenarioResult", "build_game", "card_name", "run_scenario",
           "scenarios_in"]
