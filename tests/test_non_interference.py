"""Hidden information stays hidden: what seat s is shown depends only on what s may know.

Over reachable states (random seeds, random numbers of random steps) every secret of the others is
scrambled — hands, pile, face-down discard, removed cards, cards face-down on the table, unrevealed
identities, face-down characters (and so their secret tasks), the character choices and picks
during the pick, the RNG, the secret parts of events s did not see (skill effects included) — and
the bytes sent to s must not change. States are reached without characters and with them, at
every player count.
"""

from __future__ import annotations

import asyncio
import copy
import dataclasses
import random
from collections.abc import Iterator

import msgpack
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from engine import Game, GameConfig, events_for, playable_configs, view
from engine.characters import cast_of, roster
from engine.state import CHARACTER_PICK
from net.client import Client
from net.server import GameServer
from net.table import Table

CONFIGS = playable_configs(False)
CHARACTER_CONFIGS = playable_configs(True)


def reach(config_index: int, seed: int, steps: int, characters: bool = False) -> Game:
    """A state reached by `steps` random choices (or the end, if sooner); with characters a skill
    is often taken when one is offered, to reach the hidden parts of skill effects."""
    players, identities = (CHARACTER_CONFIGS if characters else CONFIGS)[config_index]
    game = Game.new(GameConfig(players=players, identities=identities, characters=characters), seed)
    rng = random.Random(seed ^ 0x5EED)
    for _ in range(steps):
        if game.over:
            break
        prompts = sorted(game.pending(), key=lambda p: p.seat)
        prompt = rng.choice(prompts)
        skills = [o.id for o in prompt.options if o.verb in ("skill", "use")]
        if skills and rng.random() < 0.4:
            option = rng.choice(skills)
        else:
            option = prompt.default if rng.random() < 0.5 else rng.choice(prompt.options).id
        game.choose(prompt.seat, prompt.id, option)
    return game


def sent_to(game: Game, seat: int | None) -> tuple[bytes, bytes]:
    return msgpack.packb(view(game, seat)), msgpack.packb(events_for(game, seat))


def hidden_places(game: Game, seat: int | None) -> list[list[int]]:
    """Every list of card ids `seat` cannot see into."""
    s = game.state
    places = [s.pile, s.removed, *s.table.values()]
    if not s.config.discard_face_up:
        places.append(s.discard)
    places.extend(p.hand for p in s.seats if p.index != seat)
    return places


def scramble(game: Game, seat: int | None, rng: random.Random) -> Game:
    """A copy of the game that differs from it in everything `seat` cannot see."""
    other = copy.deepcopy(game)
    s = other.state
    places = hidden_places(other, seat)
    # Single face-down cards: a 试探 handed over on the stack, a face-down message in transit.
    probes = [item for item in s.stack if item.function == "试探" and item.card >= 0
              and (seat is None or seat not in (item.user, item.target_seat))]
    m = s.message
    unseen_message = m is not None and not m.face_up and (seat is None or seat not in m.seen_by)
    singles = [[item.card] for item in probes] + ([[m.card]] if unseen_message and m is not None else [])
    places.extend(singles)
    cards = [c for place in places for c in place]
    rng.shuffle(cards)
    it = iter(cards)
    for place in places:
        place[:] = [next(it) for _ in place]
    for item, place in zip(probes, singles, strict=False):
        item.card = place[0]
    if unseen_message and m is not None:
        m.card = singles[-1][0]
    unrevealed = [p for p in s.seats if p.index != seat and not p.revealed]
    identities = [p.identity for p in unrevealed]
    rng.shuffle(identities)
    for p, identity in zip(unrevealed, identities, strict=True):
        p.identity = identity
    _scramble_characters(other, seat, rng)
    s.rng = random.Random(rng.random())
    other.events = [
        dataclasses.replace(e, secret={k: ("scrambled", rng.random()) for k in e.secret})
        if e.secret and (seat is None or seat not in e.seen_by) else e
        for e in other.events
    ]
    return other


def _scramble_characters(game: Game, seat: int | None, rng: random.Random) -> None:
    """Face-down characters of the others become other characters nobody shows (their secret tasks
    follow); during the pick the others' choices and picks are secret too."""
    s = game.state
    if not s.config.characters:
        return
    picking = s.node == CHARACTER_PICK
    hidden = [p for p in s.seats if p.index != seat and p.character is not None
              and (picking or not (p.face_up or p.revealed))]
    shown = {p.character for p in s.seats if p not in hidden}
    pool = sorted(set(roster()) - shown)
    for p, cid in zip(hidden, rng.sample(pool, len(hidden)), strict=True):
        p.character = cid
    for p in s.seats:
        if p.index != seat and p.character_choices:
            p.character_choices = rng.sample(pool, len(p.character_choices))


def observers(game: Game) -> Iterator[int | None]:
    yield None
    yield from range(game.n())


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config_index=st.integers(0, len(CONFIGS) - 1), seed=st.integers(0, 2**32),
       steps=st.integers(0, 400), scramble_seed=st.integers(0, 2**32))
def test_what_a_seat_cannot_see_does_not_change_what_it_is_sent(
        config_index: int, seed: int, steps: int, scramble_seed: int) -> None:
    game = reach(config_index, seed, steps)
    rng = random.Random(scramble_seed)
    for seat in observers(game):
        before = sent_to(game, seat)
        after = sent_to(scramble(game, seat, rng), seat)
        assert after[0] == before[0], f"view of seat {seat} leaks"
        assert after[1] == before[1], f"event log of seat {seat} leaks"


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config_index=st.integers(0, len(CHARACTER_CONFIGS) - 1), seed=st.integers(0, 2**32),
       steps=st.integers(0, 500), scramble_seed=st.integers(0, 2**32))
def test_with_characters_what_a_seat_cannot_see_does_not_change_what_it_is_sent(
        config_index: int, seed: int, steps: int, scramble_seed: int) -> None:
    game = reach(config_index, seed, steps, characters=True)
    rng = random.Random(scramble_seed)
    for seat in observers(game):
        before = sent_to(game, seat)
        after = sent_to(scramble(game, seat, rng), seat)
        assert after[0] == before[0], f"view of seat {seat} leaks"
        assert after[1] == before[1], f"event log of seat {seat} leaks"


def test_the_character_pick_is_secret_until_everyone_has_picked() -> None:
    """Reached on purpose (random steps rarely stop inside the pick): some seats picked, some not."""
    for k, (players, identities) in enumerate(CHARACTER_CONFIGS):
        game = Game.new(GameConfig(players=players, identities=identities, characters=True), k)
        first = min(game.pending(), key=lambda p: p.seat)
        game.choose(first.seat, first.id, first.options[-1].id)
        assert game.state.node == CHARACTER_PICK
        rng = random.Random(k)
        for seat in observers(game):
            assert sent_to(scramble(game, seat, rng), seat) == sent_to(game, seat), f"seat {seat} sees a pick"
        mine = view(game, first.seat)["seats"][first.seat]["character"]  # type: ignore[index]
        assert mine is not None and mine["id"] == first.options[-1].name


def card_ids(value: object) -> Iterator[int]:
    """Every card id in a projected structure (a card face is a map with 'id' and 'function')."""
    if isinstance(value, dict):
        if "id" in value and "function" in value:
            yield int(value["id"])
        for v in value.values():
            yield from card_ids(v)
    elif isinstance(value, list):
        for v in value:
            yield from card_ids(v)


def test_a_face_down_message_in_transit_shows_no_card_id_to_seats_that_have_not_seen_it() -> None:
    checked = 0
    for seed in range(60):
        players, identities = CONFIGS[seed % len(CONFIGS)]
        game = Game.new(GameConfig(players=players, identities=identities), seed)
        rng = random.Random(seed)
        sent_at = 0
        while not game.over:
            m = game.state.message
            if m is not None and not m.face_up:
                for seat in observers(game):
                    if seat is not None and seat in m.seen_by:
                        continue
                    v = view(game, seat)
                    assert v["message"] is not None and v["message"]["card"] is None  # type: ignore[index]
                    assert m.card not in set(card_ids(v))
                    assert m.card not in set(card_ids(events_for(game, seat, sent_at)))
                    checked += 1
            elif m is None:
                sent_at = len(game.events)
            prompt = rng.choice(sorted(game.pending(), key=lambda p: p.seat))
            game.choose(prompt.seat, prompt.id, rng.choice(prompt.options).id)
    assert checked > 1000


def test_a_spectator_sees_no_hand_and_no_unrevealed_identity() -> None:
    for seed in range(40):
        players, identities = CONFIGS[seed % len(CONFIGS)]
        game = Game.new(GameConfig(players=players, identities=identities), seed)
        rng = random.Random(seed)
        while True:
            v = view(game, None)
            assert v["hand"] == [] and v["identity"] is None and v["prompt"] is None
            for seat, shown in zip(game.state.seats, v["seats"], strict=True):  # type: ignore[call-overload]
                assert shown["identity"] == (seat.identity if seat.revealed else None)
            hands = {c for p in game.state.seats for c in p.hand}
            assert not hands & set(card_ids(v))
            if game.over:
                break
            prompt = rng.choice(sorted(game.pending(), key=lambda p: p.seat))
            game.choose(prompt.seat, prompt.id, rng.choice(prompt.options).id)
        for event in events_for(game, None):
            if event["kind"] in ("dealt", "drew", "identity"):
                assert set(event) <= {"seq", "kind", "seat", "count"}


def test_a_pass_in_a_response_window_is_secret_until_the_window_closes() -> None:
    """Who has passed would tell the others who is still thinking over a card (a client passes at
    once when it holds nothing playable): until the window closes, a pass changes nothing any
    other seat (or a spectator) is sent, and every asked seat stays listed as waiting."""
    checked = 0
    for seed in range(12):
        players, identities = CHARACTER_CONFIGS[seed % len(CHARACTER_CONFIGS)] if seed % 2 else CONFIGS[seed % 2]
        game = Game.new(GameConfig(players=players, identities=identities, characters=bool(seed % 2)), seed)
        rng = random.Random(seed)
        while not game.over:
            prompts = sorted(game.pending(), key=lambda p: p.seat)
            responses = [p for p in prompts if p.kind == "response"]
            if len(responses) >= 2 and len(responses) == len(prompts):
                passer = rng.choice(responses)
                others = [s for s in [None, *range(players)] if s != passer.seat]
                before = {s: msgpack.packb(view(game, s)) for s in others}
                asked = [w["seat"] for w in view(game, None)["waiting"]]
                game.choose(passer.seat, passer.id, passer.default)
                if game.pending():  # the window is still open
                    for s in others:
                        assert msgpack.packb(view(game, s)) == before[s], (seed, passer.seat, s)
                    assert [w["seat"] for w in view(game, passer.seat)["waiting"]] == asked
                    checked += 1
                continue
            prompt = rng.choice(prompts)
            options = prompt.options
            game.choose(prompt.seat, prompt.id, rng.choice(options).id if rng.random() < 0.3 else prompt.default)
    assert checked > 50


# ---------------------------------------------------------------------------- what others are shown
# while a seat decides: waiting lists, prompt kinds, and the frames the server sends


def swap_hidden_characters(game: Game, seat: int | None, rng: random.Random) -> Game:
    """A copy in which the face-down characters of the others are other characters nobody shows
    (the engine's cast follows): everything else, identities and hands included, stays. A seat
    in the middle of something its own character started (a skill prompt, a queued step, an answer
    held by the open window) keeps its character: a swap there would make a state no game reaches."""
    other = copy.deepcopy(game)
    s = other.state
    busy = {st.seat for st in s.agenda} | ({s.asking.seat} if s.asking is not None else set())
    busy |= {p.seat for p in other.prompts.values() if p.kind == "skill"}
    if s.window is not None:
        busy |= set(s.window.answers)
    swapped = [p for p in s.seats if p.index != seat and p.character is not None and not p.face_up
               and not p.revealed and p.index not in busy]
    kept = {p.character for p in s.seats if p not in swapped}
    pool = sorted(set(roster()) - kept)
    for p, cid in zip(swapped, rng.sample(pool, len(swapped)), strict=True):
        p.character = cid
    other.cast = cast_of(tuple(p.character for p in s.seats))
    return other


def public_trace_matches(a: Game, b: Game, seat: int | None, rng: random.Random, steps: int) -> int:
    """Play `a` and `b` on together and check that `seat` is shown the same bytes at every step.

    A seat whose character differs between the two answers with its default in both (that is
    always a legal choice: decline, pass); every other seat makes the same random choice in both,
    which must be offered in both. Returns the number of steps compared; stops at the end of the
    game, at a secret task completed (a hidden character's task may legitimately end the game) or
    when a seat whose character differs leaves the game (it then shows its character)."""
    changed = {p.index for p, q in zip(a.state.seats, b.state.seats, strict=True) if p.character != q.character}
    for step in range(steps):
        if a.over or b.over:  # the end shows every character
            assert a.over and b.over, f"step {step}: only one game ended"
            return step
        assert sent_to(a, seat) == sent_to(b, seat), f"step {step}: seat {seat} is shown different things"
        prompts_a = sorted(a.pending(), key=lambda p: a.priority_key(p.seat))
        prompts_b = sorted(b.pending(), key=lambda p: b.priority_key(p.seat))
        assert [(p.seat, p.kind, p.id) for p in prompts_a] == [(p.seat, p.kind, p.id) for p in prompts_b]
        pa = rng.choice(prompts_a)
        pb = next(p for p in prompts_b if p.seat == pa.seat)
        if pa.seat in changed:
            a.choose(pa.seat, pa.id, pa.default)
            b.choose(pb.seat, pb.id, pb.default)
        else:
            option = rng.choice(pa.options).id if rng.random() < 0.5 else pa.default
            assert pb.find(option) is not None, f"seat {pa.seat} is offered {option} in one game only"
            a.choose(pa.seat, pa.id, option)
            b.choose(pb.seat, pb.id, option)
        if any(e.kind == "task_completed" for e in (*a.events[-3:], *b.events[-3:])):
            return step
        if any(not a.state.seats[c].in_game for c in changed):
            return step  # a seat that dies or loses shows its character (RULES.md §8.1, §8.2)
    return steps


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config_index=st.integers(0, len(CHARACTER_CONFIGS) - 1), seed=st.integers(0, 2**32),
       steps=st.integers(0, 300), trace_seed=st.integers(0, 2**32))
@example(config_index=4, seed=492, steps=280, trace_seed=1)  # a swapped seat loses: shown at once
def test_who_is_asked_what_depends_on_public_facts_only(
        config_index: int, seed: int, steps: int, trace_seed: int) -> None:
    """Not only one state: from a reached state, two games whose face-down characters differ are
    played on with the same choices, and every step shows the watching seat the same view (so the
    same `waiting` list, the same prompt kinds and ids) and the same events."""
    game = reach(config_index, seed, steps, characters=True)
    if game.state.node == CHARACTER_PICK:
        return
    rng = random.Random(trace_seed)
    seat = rng.choice(list(observers(game)))
    other = swap_hidden_characters(game, seat, rng)
    public_trace_matches(game, other, seat, rng, 80)


def targeted_face_down(game: Game) -> tuple[int, str] | None:
    """(a face-down seat, the option id) for a 试探 or 锁定 the current player may play on it now."""
    prompt = game.prompts.get(game.state.current)
    if prompt is None or prompt.kind != "play":
        return None
    seats = game.state.seats
    for option in prompt.options:
        target = option.target_seat
        if option.verb == "play" and option.card is not None and target is not None \
                and game.card(option.card).function in ("试探", "锁定") and not seats[target].face_up:
            return target, option.id
    return None


@pytest.mark.parametrize("hidden", ["laoqiang", "laogui", "laojin", "shanling"])
def test_a_face_down_seat_targeted_by_a_probe_or_lock_is_asked_whoever_it_is(hidden: str) -> None:
    """老枪 and 老鬼 are offered 就计 when targeted face-down; any other face-down character must be
    asked alike, or the `skill` entry in `waiting` would name the character to the whole table."""
    checked = 0
    for seed in range(400):
        players, identities = CHARACTER_CONFIGS[seed % len(CHARACTER_CONFIGS)]
        game = reach(seed % len(CHARACTER_CONFIGS), seed, 0, characters=True)
        rng = random.Random(seed)
        for _ in range(200):
            if game.over:
                break
            found = targeted_face_down(game) if game.state.node != CHARACTER_PICK else None
            if found is not None:
                break
            prompts = sorted(game.pending(), key=lambda p: p.seat)
            prompt = rng.choice(prompts)
            game.choose(prompt.seat, prompt.id, prompt.default if rng.random() < 0.6 else rng.choice(prompt.options).id)
        if found is None:
            continue
        target, option = found
        shown = {p.character for p in game.state.seats if p.face_up or p.revealed}
        if hidden in shown or game.state.seats[target].character == hidden:
            continue
        other = copy.deepcopy(game)
        taken = {p.index: p.character for p in other.state.seats}
        holder = next((i for i, c in taken.items() if c == hidden), None)
        if holder is not None:  # the one copy of a character: whoever had it gets the target's
            other.state.seats[holder].character = other.state.seats[target].character
        other.state.seats[target].character = hidden
        other.cast = cast_of(tuple(p.character for p in other.state.seats))
        player, prompt_id = game.state.current, game.prompts[game.state.current].id
        for g in (game, other):
            g.choose(player, prompt_id, option)
        watchers = [s for s in observers(game) if s not in (target, holder)]
        for seat in watchers:
            public_trace_matches(copy.deepcopy(game), copy.deepcopy(other), seat, random.Random(seed), 12)
        checked += 1
        if checked >= 6:
            break
    assert checked >= 3


async def _frames_seen(hidden: str) -> tuple[dict[str, list[dict[str, object]]], bool]:
    """A real table over TCP on 127.0.0.1 (three players and a spectator, a still clock): seat 0
    picks `hidden`, a face-down character, and is soon the target of a 试探 or 锁定. Every frame
    seats 1, 2 and the spectator receive, in order, and whether seat 0 was asked a skill prompt."""
    table = Table("t", players=3, characters=True, timers={k: 600.0 for k in ("play", "send", "response", "receive",
                  "probe_discard", "skill", "character_pick")}, bot_delay=0, auto_start=True, seed=0,
                  clock=lambda: 0.0)
    server = GameServer("127.0.0.1", 0)
    server.add_table(table)
    await server.start()
    clients = [Client() for _ in range(3)]
    watcher = Client()
    seen: dict[str, list[dict[str, object]]] = {"1": [], "2": [], "spectator": []}
    readers = {"1": clients[1], "2": clients[2], "spectator": watcher}

    async def drain(quiet: float) -> None:
        """Whatever has arrived (a frame late for one drain is read by the next: the lists compare whole)."""
        for key, client in readers.items():
            try:
                while (msg := await client.recv(timeout=quiet)) is not None:
                    if msg["type"] in ("update", "patch"):
                        seen[key].append(msg)
            except TimeoutError:
                pass

    try:
        for i, client in enumerate(clients):
            await client.connect("127.0.0.1", server.port, f"p{i}")
        await watcher.connect("127.0.0.1", server.port, "eye", spectate=True)
        probed, after, asked = False, 0, False
        while after < 12:
            game = table.game
            assert game is not None and not game.over
            prompt = min(game.pending(), key=lambda p: game.priority_key(p.seat))
            option = prompt.default
            if prompt.kind == "character_pick" and prompt.seat == 0:
                option = next(o.id for o in prompt.options if o.name == hidden)
            elif not probed and prompt.kind == "play":
                target = next((o.id for o in prompt.options if o.verb == "play" and o.target_seat == 0
                               and o.card is not None and game.card(o.card).function in ("试探", "锁定")), None)
                if target is not None:
                    option, probed = target, True
            after += probed
            count = len(game.choices)
            await clients[prompt.seat].choose(prompt.id, option)
            async with asyncio.timeout(5):
                while len(game.choices) == count:
                    await asyncio.sleep(0.005)
            asked = asked or any(p.seat == 0 and p.kind == "skill" for p in game.pending())
            await drain(0.02)
        await drain(0.5)
        assert probed
    finally:
        for client in (*clients, watcher):
            await client.close()
        await server.close()
    return seen, asked


async def test_the_frames_others_receive_do_not_tell_which_face_down_character_is_targeted() -> None:
    """On the wire: 老鬼 (offered 就计) or 老金 (not) in seat 0, the other seats and a spectator are
    sent the very same frames while a 试探/锁定 on him resolves."""
    (real, offered), (decoy, _) = await _frames_seen("laogui"), await _frames_seen("laojin")
    assert offered, "老鬼 was offered 就计"
    assert len(real["spectator"]) > 10
    for key in real:
        assert real[key] == decoy[key], f"seat {key} is sent different frames"
