"""Worlds sampled from a seat's view and log project back to exactly that view, at every moment."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bots import make_bot
from bots.beliefs import Beliefs, identity_counts
from bots.worlds import Sampler, World
from engine import Game, GameConfig, events_for, view
from engine import worlds as W
from engine.cards import PROBE


def moments(config: GameConfig, seeds: range, levels: tuple[str, ...], on_moment) -> Counter:
    """Play games; at every decision of every seat call `on_moment(game, seat, view, events)`.
    Returns how many moments were rebuilt and how many (by prompt kind) are out of scope."""
    tally: Counter = Counter()
    for seed in seeds:
        game = Game.new(config, seed)
        bots = [make_bot(levels[s % len(levels)], s, seed * 16 + s) for s in range(config.players)]
        seen = [0] * config.players
        order = random.Random(seed)
        while not game.over:
            prompts = sorted(game.pending(), key=lambda p: p.seat)
            prompt = prompts[order.randrange(len(prompts))]
            seat = prompt.seat
            seat_view = view(game, seat)
            try:
                on_moment(game, seat, seat_view, events_for(game, seat))
                tally["rebuilt"] += 1
            except W.Unsupported:
                tally[prompt.kind] += 1
            bots[seat].observe(events_for(game, seat, seen[seat]))
            seen[seat] = len(game.events)
            game.choose(seat, prompt.id, bots[seat].decide(seat_view))
    return tally


def beliefs_of(seat_view: dict, events: list[dict]) -> Beliefs:
    config = seat_view["config"]
    b = Beliefs(int(seat_view["seat"]), int(config["players"]),
                identity_counts(int(config["players"]), str(config["identities"])), seat_view["identity"])
    b.observe(events)
    return b


CASES = [
    (GameConfig(players=6, identities="3v3"), range(3), ("random",)),
    (GameConfig(players=4, identities="novice"), range(3, 9), ("normal", "random")),
    (GameConfig(players=5, identities="default", characters=True), range(5, 8), ("random",)),
    (GameConfig(players=7, identities="alt", characters=True), range(8, 9), ("normal", "random")),
]


@pytest.mark.parametrize(("config", "seeds", "levels"), CASES)
def test_every_sampled_world_projects_back_to_the_seats_view(config: GameConfig, seeds: range,
                                                             levels: tuple[str, ...]) -> None:
    rng = random.Random(seeds[0])
    differs = Counter()

    def check(game: Game, seat: int, seat_view: dict, events: list[dict]) -> None:
        sampler = Sampler(seat_view, events, beliefs_of(seat_view, events))
        world = sampler.game(sampler.sample(rng))
        assert view(world, seat) == seat_view
        # The world is a game of its own: the hidden parts differ from the real game's.
        s, r = world.state, game.state
        differs["hands"] += any(a.hand != b.hand for a, b in zip(s.seats, r.seats, strict=True) if a.index != seat)
        differs["pile"] += s.pile != r.pile
        # Every card is somewhere, once.
        cards = [*s.pile, *s.discard, *s.removed, *(c for p in s.seats for c in p.hand + p.messages),
                 *(i.card for i in s.stack if i.card >= 0), *([s.message.card] if s.message else [])]
        assert sorted(cards) == list(range(len(world.deck)))

    tally = moments(config, seeds, levels, check)
    assert tally["rebuilt"] > 400, tally
    assert tally["rebuilt"] > 0.95 * sum(tally.values()), tally  # out of scope: skill offers, the pick, probe answers
    assert differs["hands"] > 0.5 * tally["rebuilt"] and differs["pile"] > 0.5 * tally["rebuilt"]


def true_fill(game: Game, reading: W.Reading) -> W.Fill:
    """The real game's own hidden values, as a filling (only a test can know them)."""
    s = game.state
    h = reading.hidden
    message = s.message.card if s.message is not None and h.message is not None else None
    return W.Fill({x: s.seats[x].identity for x in h.identities}, {x: str(s.seats[x].character) for x in h.characters},
                  {x: list(s.seats[x].hand) for x in h.hands}, list(s.pile), list(s.discard) if h.discard else [],
                  list(s.removed), message, {i: s.stack[i].card for i in h.probes})


@pytest.mark.parametrize("characters", [False, True])
def test_a_world_filled_with_the_real_secrets_is_the_real_game_for_every_seat(characters: bool) -> None:
    """Rebuilt with the real hidden values, a world shows every seat (and a spectator) what the real
    game shows it, and goes on exactly as the real game under the same choices: what the view
    does not show (who passed, stack items cancelled, a 退回 pending, locks) is rebuilt right."""
    config = GameConfig(players=5, identities="default", characters=True) if characters \
        else GameConfig(players=6, identities="3v3")
    calls = [0]
    went_on = [0]

    def check(game: Game, seat: int, seat_view: dict, events: list[dict]) -> None:
        reading = W.read(seat_view, events)
        world = W.build(reading, true_fill(game, reading), 0)
        for other in [*range(config.players), None]:
            if other == seat or other is None or not game.prompts.get(other) or world.prompts.get(other):
                a, b = view(world, other), view(game, other)
                if other is not None and set(world.prompts) != set(game.prompts):
                    a.pop("prompt"), b.pop("prompt")
                a.pop("log_length"), b.pop("log_length")
                assert a == b, other
        calls[0] += 1
        if calls[0] % 9 or set(world.prompts) != set(game.prompts):
            return
        world.state.rng.setstate(game.state.rng.getstate())
        real = _copy(game)
        pick = random.Random(calls[0])
        for _ in range(60):
            if real.over:
                break
            assert sorted(world.prompts) == sorted(real.prompts)
            prompt = min(real.pending(), key=lambda p: p.seat)
            choice = pick.choice(prompt.options).id
            real.choose(prompt.seat, prompt.id, choice)
            world.choose(prompt.seat, prompt.id, choice)
        for other in range(config.players):
            a, b = view(world, other), view(real, other)
            a.pop("log_length"), b.pop("log_length")
            assert a == b
        went_on[0] += 1

    tally = moments(config, range(20, 22), ("random",), check)
    assert tally["rebuilt"] > 600 and went_on[0] > 15, (tally, went_on)


def _copy(game: Game) -> Game:
    import copy

    return copy.deepcopy(game)


def test_a_hidden_probe_and_a_face_down_message_get_cards_they_could_be() -> None:
    """Another seat's 试探 on the stack gets a 试探; a face-down message a card of its method."""
    config = GameConfig(players=6, identities="3v3")
    seen = Counter()
    rng = random.Random(3)

    def check(game: Game, seat: int, seat_view: dict, events: list[dict]) -> None:
        sampler = Sampler(seat_view, events)
        world: World = sampler.sample(rng)
        h = sampler.reading.hidden
        deck = game.deck
        for card in world.fill.probes.values():
            assert deck[card].function == PROBE
            seen["probe"] += 1
        if h.message is not None:
            assert world.fill.message is not None and deck[world.fill.message].method == h.message
            seen["message"] += 1

    moments(config, range(30, 34), ("random",), check)
    assert seen["probe"] > 5 and seen["message"] > 50, seen


@pytest.mark.parametrize(("config", "seeds"), [
    (GameConfig(players=6, identities="3v3"), range(2)),
    (GameConfig(players=5, identities="default", characters=True), range(2, 5)),
    (GameConfig(players=7, identities="alt", characters=True), range(5, 6)),
])
def test_a_play_outs_lazy_views_are_the_seats_views(config: GameConfig, seeds: range) -> None:
    """Every view `play_out` hands a decision equals `view(game, seat)`, key for key and in its
    order, whichever keys the bot read first (the seats' entries and card faces are shared across
    the play-out's views); read after its decision, a key not built yet raises."""
    checked = 0
    for seed in seeds:
        game = Game.new(config, seed)
        bots = [make_bot("normal", s, seed * 16 + s) for s in range(config.players)]
        earlier: list[W.LazyView] = []

        def decide(seat: int, seat_view: dict, events: list[dict], game: Game = game, bots=bots,
                   earlier=earlier) -> str:
            nonlocal checked
            assert isinstance(seat_view, W.LazyView)
            if earlier:  # the previous decision's view, its log_length never read
                with pytest.raises(RuntimeError, match="after the decision"):
                    earlier.pop()["log_length"]
            bots[seat].observe(events)
            choice = bots[seat].decide(seat_view)  # reads what the bot needs, in its own order
            assert "hand" in seat_view and "nothing" not in seat_view and seat_view.get("nothing", 1) == 1
            assert seat_view.get("identity") == game.state.seats[seat].identity
            whole = view(game, seat)
            checked += 1
            if checked % 2:
                assert all(seat_view[k] == v for k, v in whole.items() if k != "log_length")
                earlier.append(seat_view)
                return choice
            assert list(seat_view.full()) == list(whole) and seat_view.full() == whole
            assert seat_view == whole and dict(seat_view) == whole and len(seat_view) == len(whole)
            assert seat_view.copy() == {**seat_view} == whole
            return choice

        W.play_out(game, decide)
        assert game.over
    assert checked > 150
