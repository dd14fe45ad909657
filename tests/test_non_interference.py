"""Hidden information stays hidden: what seat s is shown depends only on what s may know.

Over reachable states (random seeds, random numbers of random steps) every secret of the others is
scrambled — hands, pile, face-down discard, removed cards, cards face-down on the table, unrevealed
identities, face-down characters (and so their secret tasks), the character choices and picks
during the pick, the RNG, the secret parts of events s did not see (skill effects included) — and
the bytes sent to s must not change. States are reached without characters and with them, at
every player count.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from collections.abc import Iterator

import msgpack
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Game, GameConfig, events_for, playable_configs, view
from engine.characters import roster
from engine.state import CHARACTER_PICK

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
