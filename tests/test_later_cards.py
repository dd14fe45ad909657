"""Deck variant `later` (issue 6): its make-up, random play with every invariant, and secrecy of 调包."""

from __future__ import annotations

from collections import Counter

import pytest

from bots import make_bot
from engine import Game, GameConfig, Setup, view
from engine.cards import FUNCTIONS, GAMBLE, REINFORCE, SEND_BACK, SWITCH, TRANSFER, WEIGH, build_deck
from engine.selfplay import play

NEW = {TRANSFER, SWITCH, REINFORCE, GAMBLE, WEIGH}


def test_the_later_deck_has_seed_002s_counts_and_no_send_back() -> None:
    deck = build_deck("later")
    assert len(deck) == 108
    counts = Counter(c.function for c in deck)
    assert counts[SEND_BACK] == 0
    assert {f: counts[f] for f in NEW} == {TRANSFER: 8, SWITCH: 8, REINFORCE: 4, GAMBLE: 2, WEIGH: 2}
    assert set(counts) <= set(FUNCTIONS)
    GameConfig(players=4, identities="novice", deck="later").validate(deal_characters=False)


@pytest.mark.parametrize(("players", "identities"), [(4, "novice"), (6, "3v3")])
def test_random_games_with_the_later_deck_keep_every_invariant(players: int, identities: str) -> None:
    """`play` checks every invariant after every step; the new cards must actually resolve."""
    config = GameConfig(players=players, identities=identities, deck="later")
    resolved: Counter[str] = Counter()
    for seed in range(100):
        bots = [make_bot("random", seat, seed * 16 + seat) for seat in range(players)]
        game = play(config, seed, lambda seat, v, bots=bots: bots[seat].decide(v))
        assert game.over
        resolved.update(str(e.data["card"]["function"]) for e in game.events  # type: ignore[index]
                        if e.kind == "resolved")
    assert set(resolved) >= NEW


def test_switch_hides_a_face_down_old_message_from_those_who_never_saw_it() -> None:
    config = GameConfig(players=4, identities="novice", deck="later")
    deck = build_deck("later")
    secret = next(c.id for c in deck if c.function == REINFORCE)
    switch = next(c.id for c in deck if c.function == SWITCH)
    identities = ["潜伏战线", "军情处", "潜伏战线", "军情处"]
    game = Game.new(config, 1, Setup(identities, [[secret], [], [switch], []]))
    game.choose(0, game.prompts[0].id, "end")
    send = next(o for o in game.prompts[0].options if o.card == secret)
    game.choose(0, game.prompts[0].id, send.id)
    play_switch = next(o for o in game.prompts[2].options if o.card == switch)
    game.choose(2, game.prompts[2].id, play_switch.id)
    while game.prompts and not any(p.kind == "receive" for p in game.prompts.values()):
        seat, prompt = next(iter(game.prompts.items()))
        game.choose(seat, prompt.id, prompt.default)
    assert game.state.message is not None and game.state.message.card == switch
    for seat in (1, 2, 3):
        seen = view(game, seat)
        assert seen["message"]["card"]["id"] == switch
        assert secret not in _card_ids(seen)
        assert secret not in _card_ids([e.project(seat) for e in game.events])
    switched = next(e for e in game.events if e.kind == "switched")
    assert switched.project(0)["old"]["id"] == secret
    assert "old" not in switched.project(1)


def _card_ids(value: object) -> set[int]:
    """Every card id shown anywhere in a projection (a card face is a dict with id and function)."""
    found: set[int] = set()
    if isinstance(value, dict):
        if "function" in value and isinstance(value.get("id"), int):
            found.add(value["id"])
        for v in value.values():
            found |= _card_ids(v)
    elif isinstance(value, list | tuple):
        for v in value:
            found |= _card_ids(v)
    return found
