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
from typing import Any

from . import characters as chars
from . import prompts as P
from .cards import (
    BLACK,
    BLUE,
    FUNCTIONS,
    IDENTITY_BY_NAME,
    METHODS,
    RED,
    Card,
    build_deck,
)
from .config import IDENTITIES, ConfigError, GameConfig, identity_options
from .game import Game, Setup
from .prompts import ChoiceError, Option

COLOUR_WORDS = {RED: RED, BLUE: BLUE, BLACK: BLACK, "红": RED, "蓝": BLUE, "黑": BLACK}
IDENTITY_WORDS = {**IDENTITY_BY_NAME, **{i: i for i in IDENTITIES}}
YES_WORDS = {"draw": "draw", "discard": "discard"}
WILDCARDS = ("*", "any")

ACTIONS = ("play", "send", "pass", "end", "receive", "discard", "skill", "decline", "choose", "all_pass",
           "settle", "expect", "answers")
STEP_KEYS = frozenset(ACTIONS) | {"seat", "target", "message", "card", "as", "expect_refused", "note"}
SCENARIO_KEYS = frozenset({
    "name", "cites", "description", "identities", "players", "config", "deck", "probe_draw",
    "dead_share_win", "seed", "first", "hands", "messages", "pile", "discard", "pile_only", "steps", "expect",
    "characters", "face_up", "face_down",
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
        config.validate(deal_characters=False)
    except ConfigError as exc:
        raise ScenarioError(str(exc)) from exc
    deck = build_deck(config.deck)
    hands = _seat_lists(data, "hands", players)
    messages = _seat_lists(data, "messages", players)
    pile = [CardSpec.parse(c) for c in data.get("pile", [])]
    discard = [CardSpec.parse(c) for c in data.get("discard", [])]
    flat = [c for h in hands for c in h] + [c for m in messages for c in m] + pile + discard
    ids = iter(_assign(deck, flat))
    hand_ids = [[next(ids) for _ in h] for h in hands]
    message_ids = [[next(ids) for _ in m] for m in messages]
    pile_ids = [next(ids) for _ in pile]
    discard_ids = [next(ids) for _ in discard]
    first = int(data.get("first", 0))
    if not 0 <= first < players:
        raise ScenarioError(f"first = {first} is not a seat")
    character_ids, face_up = _characters(data, players)
    setup = Setup(identities, hand_ids, pile_ids, first, message_ids, discard_ids, bool(data.get("pile_only", False)),
                  characters=character_ids, face_up=face_up)
    return Game.new(config, int(data.get("seed", 0)), setup)


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
    if game.over and not ("expect" in step or step.get("expect_refused")):
        raise StepFailed("the game is already over")
    if step.get("all_pass") is True:
        if not _pass_window(game):
            raise StepFailed(f"no response window is open (open: {_open_prompts(game)})")
    elif step.get("settle") is True:
        while _pass_window(game):
            pass
    elif "expect" in step:
        check(game, step["expect"])
    elif step.get("expect_refused") is True:
        _refused_step(game, step)
    elif "answers" in step:
        _answers_step(game, step["answers"])
    else:
        _choose_step(game, step)


# ----------------------------------------------------------------------------- expectations


def _seat_map(value: object, key: str) -> dict[int, Any]:
    if not isinstance(value, Mapping):
        raise ScenarioError(f"expect.{key} must map seats to values, e.g. {key}.2 = ...")
    try:
        return {int(k): v for k, v in value.items()}
    except ValueError as exc:
        raise ScenarioError(f"expect.{key} keys must be seat numbers") from exc


def _same_cards(game: Game, ids: list[int], names: list[object]) -> bool:
    """True when the cards are exactly the named ones (any order)."""
    specs = [CardSpec.parse(n) for n in names]
    if len(specs) != len(ids):
        return False
    left = list(ids)
    for spec in sorted(specs, key=lambda s: -s.constraints()):
        hit = next((c for c in left if spec.matches(game.card(c))), None)
        if hit is None:
            return False
        left.remove(hit)
    return True


def _names(game: Game, ids: list[int]) -> str:
    return "[" + ", ".join(card_name(game.card(c)) for c in ids) + "]"


def _value_matches(game: Game, expected: object, actual: object) -> bool:
    if isinstance(expected, str) and isinstance(actual, Mapping) and "function" in actual:
        if "id" in actual:
            return CardSpec.parse(expected).matches(game.card(int(actual["id"])))
        return expected == actual["function"]
    if isinstance(expected, Mapping) and isinstance(actual, Mapping):
        return all(k in actual and _value_matches(game, v, actual[k]) for k, v in expected.items())
    if isinstance(expected, list) and isinstance(actual, list):
        return len(expected) == len(actual) and all(_value_matches(game, e, a) for e, a in zip(expected, actual, strict=True))
    return bool(expected == actual)


def _event_dicts(game: Game) -> list[dict[str, object]]:
    return [{"seq": e.seq, "kind": e.kind, **e.data, **e.secret} for e in game.events]


def _event_matches(game: Game, pattern: Mapping[str, Any], event: Mapping[str, object]) -> bool:
    return all(k in event and _value_matches(game, v, event[k]) for k, v in pattern.items())


def _check_events(game: Game, exp: Mapping[str, Any], errors: list[str]) -> None:
    events = _event_dicts(game)
    for pattern in exp.get("events", []):
        if not any(_event_matches(game, pattern, e) for e in events):
            kinds = [e for e in events if e["kind"] == pattern.get("kind")]
            errors.append(f"no event matches {dict(pattern)} (events of that kind: {kinds or 'none'})")
    for pattern in exp.get("no_events", []):
        hits = [e for e in events if _event_matches(game, pattern, e)]
        if hits:
            errors.append(f"expected no event matching {dict(pattern)}, found {hits[0]}")
    if "sequence" in exp:
        at = 0
        for pattern in exp["sequence"]:
            while at < len(events) and not _event_matches(game, pattern, events[at]):
                at += 1
            if at == len(events):
                errors.append(f"event sequence broken at {dict(pattern)}: "
                              f"log kinds {[e['kind'] for e in events]}")
                break
            at += 1


def check(game: Game, exp: object) -> None:
    """Raise StepFailed listing every expectation that does not hold."""
    if not isinstance(exp, Mapping):
        raise ScenarioError("expect must be a table")
    unknown = set(exp) - set(CHECKS) - {"events", "no_events", "sequence"}
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
        for seat, names in _seat_map(value, attr).items():
            ids = getattr(game.state.seats[seat], attr)
            if not _same_cards(game, ids, list(names)):
                return f"seat {seat} has {_names(game, ids)}, expected {list(names)}"
        return None
    return checker


def _hand_includes(game: Game, value: object) -> str | None:
    for seat, names in _seat_map(value, "hand_includes").items():
        left = list(game.state.seats[seat].hand)
        for name in names:
            spec = CardSpec.parse(name)
            hit = next((c for c in left if spec.matches(game.card(c))), None)
            if hit is None:
                return f"seat {seat} holds no {name} (hand: {_names(game, game.state.seats[seat].hand)})"
            left.remove(hit)
    return None


def _counts(game: Game, value: object) -> str | None:
    for seat, want in _seat_map(value, "hand_count").items():
        have = len(game.state.seats[seat].hand)
        if have != want:
            return f"seat {seat} holds {have} card(s), expected {want}"
    return None


def _colours(game: Game, value: object) -> str | None:
    for seat, want in _seat_map(value, "colours").items():
        for colour, n in want.items():
            have = game.colour_count(seat, COLOUR_WORDS.get(colour, colour))
            if have != n:
                return f"seat {seat} has {have} {colour} message(s), expected {n}"
    return None


def _seats_where(pred: Callable[[Game, int], bool], label: str) -> Callable[[Game, object], str | None]:
    def checker(game: Game, value: object) -> str | None:
        have = [s.index for s in game.state.seats if pred(game, s.index)]
        if sorted(value) != have:  # type: ignore[call-overload]
            return f"{label} seats are {have}, expected {sorted(value)}"  # type: ignore[call-overload]
        return None
    return checker


def _scalar(get: Callable[[Game], object]) -> Callable[[Game, object], str | None]:
    def checker(game: Game, value: object) -> str | None:
        have = get(game)
        return None if have == value else f"is {have!r}, expected {value!r}"
    return checker


def _prompt(game: Game, value: object) -> str | None:
    if not isinstance(value, Mapping) or "seat" not in value:
        raise ScenarioError("expect.prompt must be a table like {seat=1, kind='receive'}")
    prompt = game.prompts.get(int(value["seat"]))
    if prompt is None:
        return f"seat {value['seat']} has no open prompt (open: {_open_prompts(game)})"
    if "kind" in value and prompt.kind != value["kind"]:
        return f"seat {value['seat']} is asked {prompt.kind!r}, expected {value['kind']!r}"
    if "skill" in value and not any(o.name == value["skill"] for o in prompt.options):
        offered = "; ".join(describe(game, o) for o in prompt.options)
        return f"seat {value['seat']} is not offered {value['skill']} (options: {offered})"
    return None


def _face_up(game: Game, value: object) -> str | None:
    """A list: exactly these seats show their character; a table: seat = true/false."""
    if isinstance(value, list):
        have = [p.index for p in game.state.seats if p.character is not None and p.face_up]
        return None if sorted(value) == have else f"face-up seats are {have}, expected {sorted(value)}"
    for seat, up in _seat_map(value, "face_up").items():
        if game.state.seats[seat].face_up != up:
            return f"seat {seat} is face-{'up' if game.state.seats[seat].face_up else 'down'}, expected otherwise"
    return None


def _no_prompt(game: Game, value: object) -> str | None:
    asked = [s for s in value if s in game.prompts]  # type: ignore[attr-defined]
    return f"seats {asked} have open prompts" if asked else None


def _message(game: Game, value: object) -> str | None:
    m = game.state.message
    if value is False:
        return None if m is None else f"a message is still travelling (at seat {m.position})"
    if not isinstance(value, Mapping):
        raise ScenarioError("expect.message must be false or a table of fields")
    if m is None:
        return "no message is travelling"
    for key, want in value.items():
        have = game.card(m.card) if key == "card" else getattr(m, key, None)
        ok = CardSpec.parse(want).matches(have) if isinstance(have, Card) else have == want
        if not ok:
            return f"message {key} is {have!r}, expected {want!r}"
    return None


CHECKS: dict[str, Callable[[Game, object], str | None]] = {
    "messages": _cards_per_seat("messages"),
    "hands": _cards_per_seat("hand"),
    "hand_includes": _hand_includes,
    "hand_count": _counts,
    "colours": _colours,
    "dead": _seats_where(lambda g, s: not g.state.seats[s].alive, "dead"),
    "lost": _seats_where(lambda g, s: g.state.seats[s].lost, "lost"),
    "locked": _seats_where(lambda g, s: s in g.state.locked, "locked"),
    "winners": _scalar(lambda g: g.state.winners),
    "declarer": _scalar(lambda g: g.state.declarer),
    "win_reason": _scalar(lambda g: g.state.win_reason),
    "over": _scalar(lambda g: g.over),
    "current": _scalar(lambda g: g.state.current),
    "turn": _scalar(lambda g: g.state.turn),
    "pile": _scalar(lambda g: len(g.state.pile)),
    "discard": _scalar(lambda g: len(g.state.discard)),
    "removed": _scalar(lambda g: len(g.state.removed)),
    "prompt": _prompt,
    "no_prompt": _no_prompt,
    "message": _message,
    "face_up": _face_up,
    "characters": _scalar(lambda g: [p.character for p in g.state.seats]),
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
        for number, step in enumerate(steps, 1):
            try:
                run_step(game, step)
            except StepFailed as exc:
                result.failures.append(f"step {number} {_step_text(step)}: {exc}")
                return result
            result.steps_run = number
        if "expect" in data:
            try:
                check(game, data["expect"])
            except StepFailed as exc:
                result.failures.append(f"expect: {exc}")
                return result
    except ScenarioError as exc:
        result.failures.append(f"bad scenario: {exc}")
        return result
    except (ChoiceError, KeyError, IndexError, TypeError, ValueError) as exc:
        result.failures.append(f"error: {type(exc).__name__}: {exc}")
        return result
    result.ok = True
    return result


__all__ = ["CardSpec", "ScenarioError", "ScenarioResult", "build_game", "card_name", "run_scenario",
           "scenarios_in"]
