"""Random games among the characters of set A (老鬼, 老枪, 老金, 译电员, 黄雀, 黑玫瑰, 钢铁特工, 闪灵):
every skill is used many times, and the game never loses a card, stalls or crashes."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine import invariants
from engine.cards import build_deck
from engine.game import Game, GameConfig, Setup

SET_A = ["laogui", "laoqiang", "laojin", "yidianyuan", "huangque", "heimeigui", "gangtietegong", "shanling"]
# invariants.py predates characters: 'secret_task' endings and a dying seat's open death trigger.


def play(seed: int, skills: Counter[str]) -> Game:
    rng = random.Random(seed)
    n = rng.choice([4, 5, 6])
    config = GameConfig(players=n, identities="default", characters=True)
    identities = [i for i, c in zip(("military", "latent", "neutral"), config.identity_counts(), strict=True)
                  for _ in range(c)]
    rng.shuffle(identities)
    deck = [c.id for c in build_deck(config.deck)]
    rng.shuffle(deck)
    hands = [[deck.pop() for _ in range(3)] for _ in range(n)]
    game = Game.new(config, seed, Setup(identities, hands, characters=rng.sample(SET_A, n)))
    for _ in range(3000):
        if game.over:
            break
        prompt = rng.choice(game.pending())
        wanted = [o for o in prompt.options if o.verb in ("skill", "use")]
        opt = rng.choice(wanted) if wanted and rng.random() < 0.5 else rng.choice(prompt.options)
        if opt.name:
            skills[opt.name] += 1
        game.choose(prompt.seat, prompt.id, opt.id)
        problems = invariants.check(game)
        assert not problems, (seed, problems)
    return game


@pytest.mark.parametrize("block", range(4))
def test_random_games_with_set_a(block: int) -> None:
    skills: Counter[str] = Counter()
    games = [play(seed, skills) for seed in range(block * 15, block * 15 + 15)]
    assert all(g.over for g in games)
    if block == 0:
        assert {"就计", "合谋", "弃卒保帅", "速译", "洞悉", "潜藏伏击", "血染玫瑰", "警觉", "掩护", "狙击"} <= set(skills)
