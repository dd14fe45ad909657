"""Characters (CHARACTERS.md): data from `data/characters.json` plus one module per character
holding its skills and its secret task.

The framework here is what the game driver calls: dealing and picking characters, offering
active skills in windows, firing triggered skills on events, checking secret tasks, and settling
a declared victory. A character module registers itself with `register(...)`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from .. import prompts as P
from ..config import NEUTRAL
from ..functions import OWN_PLAY, Target
from ..state import CHARACTER_PICK, TURN_START, StackItem, Step
from ..steps import continuation, step

if TYPE_CHECKING:
    from ..game import Game

DYING = "dying"  # the event of a death under way (RULES.md §8.1)
MALE = "M"
FEMALE = "F"
BOTH = "both"


@dataclass(frozen=True)
class Active:
    """A skill its owner uses by choice at some moments (an option in windows or the play phase).

    `stack`: placed on the stack like a card (a "blue" skill), otherwise it resolves at once.
    `counts_as`: the function card it counts as (警觉 counts as 识破), so that card's rule resolves it.
    """

    name: str
    moments: frozenset[str]
    targets: Callable[[Game, int, str], list[Target] | None]
    resolve: Callable[[Game, StackItem], None] | None = None
    flip: bool = False
    stack: bool = False
    counts_as: str | None = None
    cover: bool = False  # using it turns this character face-down (蝮蛇 声东击西)


@dataclass(frozen=True)
class Triggered:
    """A skill that answers an event. `when(game, owner, ctx)` says whether it may fire;
    `targets(game, owner, ctx)` lists its choices (None: just "use it"); forced skills need no consent.

    `early`: part of the event itself, applied before deaths and victory are checked (小白's 败露);
    every other skill answering a message that lands comes after that check. `saves`: it can
    undo a death under way (救美), so it is asked before the death's other triggers."""

    name: str
    event: str
    when: Callable[[Game, int, dict[str, Any]], bool]
    resolve: Callable[[Game, int, dict[str, Any], P.Option], None]
    targets: Callable[[Game, int, dict[str, Any]], list[P.Option]] | None = None
    flip: bool = False
    forced: bool = False
    early: bool = False
    saves: bool = False


@dataclass(frozen=True)
class Passive:
    """A skill that bends a rule where the rule asks `game.has_skill(seat, name)`."""

    name: str
    flip: bool = False


Skill = Active | Triggered | Passive

# A secret task: (game, owner, ctx) -> done? ctx is {} after a step, {"victim", "killer"} at a
# death (before the victim's cards are discarded), {"declarer"} at a victory declaration.
Task = Callable[["Game", int, dict[str, Any]], bool]


@dataclass(frozen=True)
class Character:
    id: str
    name: str
    name_en: str
    hidden: bool
    gender: str
    skill_names: tuple[str, ...]
    task_zh: str | None
    task_en: str | None
    skills: tuple[Skill, ...] = ()
    task: Task | None = None  # a neutral's secret task
    task_at: str | None = None  # None: checked after every step; "death" / "declaring": only then
    death_task: Task | None = None  # a second part of an always-judged task, judged at a death (小白)
    task_voids: bool = False  # judged at a declaration, it may void it and win instead (蝮蛇): judged first
    implemented: bool = False
    acts: bool = False  # has an active skill: face-up, it may act in a window (asked by public facts)
    active_at: dict[str, tuple[Active, ...]] = field(default_factory=dict)  # moment -> its active skills
    triggered_at: dict[str, tuple[Triggered, ...]] = field(default_factory=dict)  # event -> its triggered skills


@dataclass
class _Registry:
    characters: dict[str, Character] = field(default_factory=dict)


_REGISTRY = _Registry()


@dataclass(frozen=True)
class Cast:
    """The characters on the table and what the engine looks up from them at every event and every
    wait, derived once per game so that an event nobody answers costs one dict lookup."""

    ids: tuple[str | None, ...] = ()
    answering: dict[str, frozenset[int]] = field(default_factory=dict)  # event -> seats with a trigger on it
    tasked: tuple[int, ...] = ()  # seats whose secret task is judged whenever the engine waits
    # (event, early) -> per seat, its own triggered skills of the event: filled by `fire` as events come.
    owned: dict[tuple[str, bool | None], tuple[tuple[Triggered, ...], ...]] = field(default_factory=dict, compare=False)


NO_CAST = Cast()


@cache
def cast_of(ids: tuple[str | None, ...]) -> Cast:
    answering: dict[str, set[int]] = {}
    tasked = []
    hidden_events = flip_triggers() if any(ids) else {}
    for seat, cid in enumerate(ids):
        c = None if cid is None else _REGISTRY.characters.get(cid)
        if c is None:
            continue
        for skill in c.skills:
            if isinstance(skill, Triggered):
                answering.setdefault(skill.event, set()).add(seat)
        # Any character may be face-down when such an event comes: it is then offered them all.
        for event in hidden_events:
            answering.setdefault(event, set()).add(seat)
        if c.task is not None and not c.task_at:
            tasked.append(seat)
    return Cast(ids, {event: frozenset(seats) for event, seats in answering.items()}, tuple(tasked))


@cache
def _data() -> dict[str, dict[str, Any]]:
    text = resources.files("engine").joinpath("data/characters.json").read_text(encoding="utf-8")
    return {c["id"]: c for c in json.loads(text)["characters"] if c["set"] == "base"}


def register(cid: str, skills: tuple[Skill, ...], task: Task | None = None, task_at: str | None = None,
             death_task: Task | None = None, task_voids: bool = False) -> Character:
    d = _data()[cid]
    character = Character(
        id=cid, name=d["name_zh"], name_en=d["name_en"], hidden=bool(d["hidden"]),
        gender=BOTH if cid == "xiaobai" else d["gender"],
        skill_names=tuple(s["name_zh"] for s in d["skills"]),
        task_zh=(d["secret_task"] or {}).get("summary_zh"), task_en=(d["secret_task"] or {}).get("summary_en"),
        skills=skills, task=task, task_at=task_at, death_task=death_task, task_voids=task_voids, implemented=True,
        acts=any(isinstance(s, Active) for s in skills),
        active_at={moment: tuple(s for s in skills if isinstance(s, Active) and moment in s.moments)
                   for moment in {m for s in skills if isinstance(s, Active) for m in s.moments}},
        triggered_at={event: tuple(s for s in skills if isinstance(s, Triggered) and s.event == event)
                      for event in {s.event for s in skills if isinstance(s, Triggered)}},
    )
    assert {s.name for s in skills} == set(character.skill_names), f"{cid}: skills do not match the data"
    _REGISTRY.characters[cid] = character
    return character


def roster() -> dict[str, Character]:
    """Every base character that is implemented, by id (the deck the pick is dealt from)."""
    _load_all()
    return dict(_REGISTRY.characters)


def character(cid: str) -> Character:
    """One character by id, as a seat holds it (no copy of the roster)."""
    return _REGISTRY.characters[cid]


def character_of(game: Game, seat: int) -> Character | None:
    cid = game.state.seats[seat].character
    return None if cid is None else _REGISTRY.characters[cid]


def gender(game: Game, seat: int) -> str | None:
    """A face-down character has no gender (RULES.md §1.2)."""
    c = character_of(game, seat)
    if c is None or not game.state.seats[seat].face_up:
        return None
    return c.gender


def is_female(game: Game, seat: int) -> bool:
    return gender(game, seat) in (FEMALE, BOTH)


def is_male(game: Game, seat: int) -> bool:
    return gender(game, seat) in (MALE, BOTH)


def usable(game: Game, seat: int, skill: Skill) -> bool:
    """Face-down: only the skills that flip the card work (RULES.md §1.2); face-up: all the others.

    [DECISION] a flip skill needs the card face-down: flipping it is the skill's cost.
    """
    player = game.state.seats[seat]
    if not player.in_game:
        return False
    return not player.face_up if skill.flip else player.face_up


def has_skill(game: Game, seat: int, name: str) -> bool:
    c = character_of(game, seat)
    if c is None or name not in c.skill_names:
        return False  # most asks (a rule checking for one skill) are of a character without it
    return any(s.name == name and usable(game, seat, s) for s in c.skills)


# ---------------------------------------------------------------------- flipping and covering

def flip_up(game: Game, seat: int) -> None:
    player = game.state.seats[seat]
    if not player.face_up:
        player.face_up = True
        game.log("character_flipped", seat=seat, character=player.character)


def cover(game: Game, seat: int) -> None:
    """盖伏: face-down again; no gender and no skills but its flip skills."""
    player = game.state.seats[seat]
    if player.face_up:
        player.face_up = False
        game.log("character_covered", seat=seat)


# ---------------------------------------------------------------------- picking (RULES.md §3.2)

def deal_choices(game: Game) -> None:
    s = game.state
    ids = sorted(roster())
    s.rng.shuffle(ids)
    per_seat = s.config.character_choices
    if per_seat * len(s.seats) > len(ids):
        per_seat = len(ids) // len(s.seats)
    for seat in s.seats:
        seat.character_choices = [ids.pop() for _ in range(per_seat)]
        game.log("character_choices", {"characters": list(seat.character_choices)}, seen_by=(seat.index,),
                 seat=seat.index, count=per_seat)
    s.node = CHARACTER_PICK
    for seat in s.seats:
        options = [P.option("pick", name=cid) for cid in seat.character_choices]
        game.prompt_seat(seat.index, P.CHARACTER_PICK, options, options[0].id)


def picked(game: Game, seat: int, opt: P.Option) -> None:
    s = game.state
    assert opt.name is not None
    s.seats[seat].character = opt.name
    game.log("character_picked", {"character": opt.name}, seen_by=(seat,), seat=seat)
    if game.prompts:
        return
    assign(game, [p.character or "" for p in s.seats])
    for p in s.seats:
        p.character_choices = []
    game.deal()
    s.node = TURN_START


def assign(game: Game, ids: list[str], face_up: list[bool] | None = None) -> None:
    """Every seat's character goes on the table: open ones face-up, hidden ones face-down
    (`face_up` overrides that per seat, for scenarios starting mid-game)."""
    every = roster()
    game.cast = cast_of(tuple(ids))
    for seat, cid in zip(game.state.seats, ids, strict=True):
        c = every[cid]
        seat.character = cid
        seat.face_up = face_up[seat.index] if face_up else not c.hidden
        public = {"character": cid} if seat.face_up else {}
        game.log("character", {"character": cid}, seen_by=(seat.index,), seat=seat.index,
                 face_up=seat.face_up, **public)


# ---------------------------------------------------------------------- active skills

def shows_active(game: Game, seat: int, moment: str | None) -> bool:
    """Whether the seat's character, when face-up, shows an active skill of `moment` (None: of any
    moment). Public facts only: with "a face-down character might hide one", this decides which
    seats without cards a window asks (`Game.open_window`)."""
    c = character_of(game, seat)
    if c is None:
        return False
    return c.acts if moment is None else moment in c.active_at


def skill_options(game: Game, seat: int, moment: str) -> list[P.Option]:
    c = character_of(game, seat)
    if c is None:
        return []
    skills = c.active_at.get(moment)
    if not skills:
        return []
    options = []
    stack = game.state.stack
    for skill in skills:
        if not usable(game, seat, skill):
            continue
        name = skill.name
        # [DECISION] a skill cannot be used again while its previous use is still on the stack.
        for item in stack:
            if item.skill == name and item.user == seat:
                break
        else:
            for target_seat, target_card in skill.targets(game, seat, moment) or ():
                options.append(P.option("skill", None, target_seat, target_card, name=name))
    return options


AsFunction = Callable[["Game", int, int], list[str]]


def card_functions(game: Game, seat: int, card: int, play_as: list[AsFunction] | None = None) -> list[str]:
    """Extra functions a card may be used as ("use card X as card Y": 亮剑, 预谋, 换日).

    `play_as`: the seat's own rules of that kind (`play_as_functions`), when the caller has them."""
    extra: list[str] = []
    for fn in play_as_functions(game, seat) if play_as is None else play_as:
        extra.extend(fn(game, seat, card))
    return extra


def play_as_functions(game: Game, seat: int) -> list[AsFunction]:
    """The "use card X as card Y" rules of the seat's own character: each such rule is a skill of
    the character whose module registered it, so no other seat's rule can apply."""
    cid = game.state.seats[seat].character
    return [] if cid is None else _AS_FUNCTIONS.get(cid, [])


_AS_FUNCTIONS: dict[str, list[AsFunction]] = {}


def card_as(fn: AsFunction) -> AsFunction:
    """Register a character module's "use card X as card Y" rule under that character's id."""
    _AS_FUNCTIONS.setdefault(fn.__module__.rpartition(".")[2], []).append(fn)
    return fn


def use_skill(game: Game, seat: int, opt: P.Option, moment: str) -> None:
    """A seat chose an active skill option (in a window or its play phase)."""
    skill = _skill(game, seat, opt.name)
    assert isinstance(skill, Active)
    if skill.flip:
        flip_up(game, seat)
    game.log("skill_used", seat=seat, skill=skill.name, target=opt.target_seat)
    if skill.cover:
        cover(game, seat)
    item = StackItem(-1, seat, skill.counts_as or skill.name, opt.target_seat, opt.target_card, skill=skill.name)
    if skill.stack or skill.counts_as:
        game.push_item(item, moment if moment != OWN_PLAY else "play", seat)
    else:
        game.prompts.clear()
        game.push("skill.reopen", seat, moment=moment)
        assert skill.resolve is not None
        skill.resolve(game, item)


@step("skill.reopen")
def _reopen(game: Game, st: Step) -> None:
    """After an immediate skill, the moment it was used in goes on: the same window opens afresh."""
    s = game.state
    if game.over:
        return
    w = s.window
    if st.data["moment"] != OWN_PLAY and w is not None:
        game.open_window(w.step, st.seat if st.seat is not None else w.last_actor, acted=True)


def resolve_skill(game: Game, item: StackItem) -> None:
    skill = _skill(game, item.user, item.skill)
    assert isinstance(skill, Active) and skill.resolve is not None
    skill.resolve(game, item)


def _skill(game: Game, seat: int, name: str | None) -> Skill:
    c = character_of(game, seat)
    assert c is not None
    for s in c.skills:
        if s.name == name:
            return s
    raise KeyError(name)


# ---------------------------------------------------------------------- triggered skills

def fire(game: Game, event: str, ctx: dict[str, Any], early: bool | None = None) -> None:
    """Queue an offer for each triggered skill answering `event`, first in 顺位 from the current player
    (RULES.md §6.4 point 4); a skill that can undo a death (救美) before the death's other triggers.

    `early` narrows to the skills that are part of the event (True) or the others (False), for an
    event whose death and victory check comes between them.

    A face-down character shows nothing, so who is offered what must not tell which one it is
    (PEERS.md §0.4): a face-down seat is offered every optional flip skill of the whole roster
    that answers the event and whose condition holds for it (`flip_triggers`; their conditions
    read public facts only), its own for real and the others as decoys, in one order. Everyone
    else then sees the same `skill` prompt, with the same timer, whichever character it is."""
    answering = game.cast.answering.get(event)
    if not answering:
        return
    decoyable = _decoyable(event, early)
    cast = game.cast
    owned = cast.owned.get((event, early))
    if owned is None:
        owned = cast.owned[event, early] = _owned(cast.ids, event, early)
    seats = game.state.seats
    offers: list[tuple[bool, str, int, str]] = []
    for seat in game.order_from(game.state.current):
        player = seats[seat]
        own = owned[seat]
        hidden = not player.face_up
        if not own and not (hidden and decoyable):
            continue  # most seats: face-up, with no trigger of their own on the event
        if seat not in answering or player.character is None or not answers(game, seat, event, ctx):
            continue
        for skill in own:
            if usable(game, seat, skill) and not (hidden and skill in decoyable) and skill.when(game, seat, ctx):
                offers.append((not skill.saves, "skill.offer", seat, skill.name))
        if hidden and player.alive and not player.lost:
            for skill in decoyable:
                if skill.when(game, seat, ctx):
                    kind = "skill.offer" if skill in own else "skill.decoy"
                    offers.append((not skill.saves, kind, seat, skill.name))
    if len(offers) > 1:
        offers.sort(key=lambda o: o[0])  # stable: 顺位 kept within each group
    for _, kind, seat, name in reversed(offers):
        game.push(kind, seat, skill=name, ctx=ctx)


def _owned(ids: tuple[str | None, ...], event: str, early: bool | None) -> tuple[tuple[Triggered, ...], ...]:
    """Per seat of a cast: its character's own triggered skills answering `event` (narrowed by
    `early`, see `fire`), worked out once per cast (`Cast.owned`) so that `fire` skips the seats
    without any."""
    characters = _REGISTRY.characters
    return tuple(() if cid is None else tuple(
        skill for skill in characters[cid].triggered_at.get(event, ()) if early is None or skill.early == early)
        for cid in ids)


@cache
def _decoyable(event: str, early: bool | None) -> tuple[Triggered, ...]:
    """The flip skills a face-down seat is offered at `event` (narrowed by `early`, see `fire`)."""
    return tuple(s for s in flip_triggers().get(event, ()) if early is None or s.early == early)


@cache
def flip_triggers() -> dict[str, tuple[Triggered, ...]]:
    """event -> the optional triggered skills of the whole roster that flip a face-down character
    (one per name: 老鬼 and 老枪 share 就计). Their `when` must read public facts only."""
    _load_all()
    found: dict[str, dict[str, Triggered]] = {}
    for c in _REGISTRY.characters.values():
        for skill in c.skills:
            if isinstance(skill, Triggered) and skill.flip and not skill.forced:
                found.setdefault(skill.event, {}).setdefault(skill.name, skill)
    return {event: tuple(skills.values()) for event, skills in found.items()}


#: The one option of a decoy offer: its owner has nothing to use, and only he sees that.
DECOY = P.option("decline")


def is_decoy(prompt: P.Prompt) -> bool:
    """A decoy offer: a skill prompt with nothing but `DECOY` (a real offer adds what to use)."""
    return prompt.kind == P.SKILL and prompt.options == (DECOY,)


@step("skill.decoy")
def _decoy(game: Game, st: Step) -> None:
    """A face-down seat without this skill is asked as its owner would be (same checks, same
    prompt kind), with nothing to choose but to go on."""
    seat = st.seat
    assert seat is not None
    player = game.state.seats[seat]
    if game.over or not player.in_game or player.face_up:
        return
    skill = next(s for skills in flip_triggers().values() for s in skills if s.name == st.data["skill"])
    ctx = st.data["ctx"]
    if not skill.when(game, seat, ctx) or (skill.targets is not None and not skill.targets(game, seat, ctx)):
        return
    game.ask(seat, P.SKILL, [DECOY], DECOY.id, then="skill.decoy", skill=skill.name, ctx=ctx)


@continuation("skill.decoy")
def _decoy_answered(game: Game, st: Step, opt: P.Option) -> None:
    return


def answers(game: Game, seat: int, event: str, ctx: dict[str, Any]) -> bool:
    """RULES.md §8.1: a dying player is dead but for his own death procedure, so of his skills
    only those answering his own death still fire (遗志, 后著, 搜取 on himself)."""
    if not game.is_dying(seat):
        return True
    return event == DYING and ctx.get("seat") == seat


@step("skill.offer")
def _offer(game: Game, st: Step) -> None:
    seat = st.seat
    assert seat is not None
    if game.over or not game.state.seats[seat].in_game:
        return
    skill = _skill(game, seat, st.data["skill"])
    assert isinstance(skill, Triggered)
    ctx = st.data["ctx"]
    if not usable(game, seat, skill) or not answers(game, seat, skill.event, ctx) or not skill.when(game, seat, ctx):
        return
    choices = skill.targets(game, seat, ctx) if skill.targets is not None else [P.option("use", name=skill.name)]
    if not choices:
        return
    if skill.forced:
        _use_triggered(game, seat, skill, ctx, choices[0])
        return
    decline = P.option("decline", name=skill.name)
    game.ask(seat, P.SKILL, [decline, *choices], decline.id, then="skill.offer", skill=skill.name, ctx=ctx)


@continuation("skill.offer")
def _offer_answered(game: Game, st: Step, opt: P.Option) -> None:
    if opt.verb == "decline":
        return
    assert st.seat is not None
    skill = _skill(game, st.seat, st.data["skill"])
    assert isinstance(skill, Triggered)
    _use_triggered(game, st.seat, skill, st.data["ctx"], opt)


def _use_triggered(game: Game, seat: int, skill: Triggered, ctx: dict[str, Any], opt: P.Option) -> None:
    if skill.flip:
        flip_up(game, seat)
    game.log("skill_used", seat=seat, skill=skill.name, target=opt.target_seat)
    skill.resolve(game, seat, ctx, opt)


# ---------------------------------------------------------------------- secret tasks and victory

def check_tasks(game: Game) -> bool:
    """A neutral whose secret task is complete declares victory (RULES.md §8.3). True if one did."""
    seat = task_seat(game)
    if seat is None:
        return False
    declare_task(game, seat)
    return True


def declare_task(game: Game, seat: int) -> None:
    game.log("task_completed", seat=seat, character=game.state.seats[seat].character)
    game.declare(seat, [seat], "secret_task")


def task_seat(game: Game) -> int | None:
    """The first seat in 顺位 from the current player whose (always-judged) secret task is met."""
    s = game.state
    seats = s.seats
    tasked = game.cast.tasked  # checked whenever the engine waits
    if not tasked:
        return None
    n, current = len(seats), s.current
    registry = _REGISTRY.characters
    found, distance = None, n
    for seat in tasked:
        player = seats[seat]
        if player.identity == NEUTRAL and (seat - current) % n < distance and game.standing(seat):
            task = registry[player.character].task  # type: ignore[index]  # a tasked seat has one
            assert task is not None
            if task(game, seat, _AFTER_A_STEP):
                found, distance = seat, (seat - current) % n
    return found


_AFTER_A_STEP: dict[str, Any] = {}  # the ctx of a task judged after a step: nothing (never written to)


def death_task_winner(game: Game, victim: int) -> int | None:
    """A task judged at a death (the victim's own, or a killer's: RULES.md §8.1 [DECISION] killer)."""
    s = game.state
    ctx = {"victim": victim, "killer": s.killers.get(victim)}
    for seat in game.order_from(s.current):
        player = s.seats[seat]
        c = character_of(game, seat)
        if player.identity != "neutral" or c is None:
            continue
        task = c.task if c.task_at == "death" else c.death_task
        if task is None:
            continue
        if (game.standing(seat) or seat == victim) and task(game, seat, ctx):
            return seat
    return None


def settle_victory(game: Game, declaring: dict[str, Any]) -> None:
    """Tasks judged at a declaration look at the declarer only (CHARACTERS.md notes).

    [DECISION] A task that voids the declaration (蝮蛇's) is judged first: a void declaration
    completes no other task, and the others are judged on the declaration that stands (his), so the
    outcome does not depend on where the seats sit."""
    seats = game.order_from(game.state.current)
    first = [seat for seat in seats if (c := character_of(game, seat)) is not None and c.task_voids]
    for seat in (*first, *(seat for seat in seats if seat not in first)):
        player = game.state.seats[seat]
        c = character_of(game, seat)
        if player.identity != "neutral" or c is None or c.task is None or c.task_at != "declaring":
            continue
        if c.task(game, seat, {"declarer": declaring["declarer"]}) and seat not in declaring["winners"]:
            game.log("task_completed", seat=seat, character=c.id)  # a co-winner must be seen to win
            declaring.setdefault("task_winners", []).append(seat)
            declaring["winners"].append(seat)


_LOADED = False


def _load_all() -> None:
    global _LOADED
    if _LOADED:
        return
    _LOADED = True
    import importlib
    import pkgutil

    for info in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{info.name}")
