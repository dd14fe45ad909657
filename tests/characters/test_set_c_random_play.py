"""Random play at tables of set C characters (小马哥, 戴笠, 职业杀手, 蝮蛇, 福尔摩斯, 情报处长, 小白,
贝雷帽, 怪盗九九): every engine invariant holds after each choice, every game ends, every skill is used."""

from __future__ import annotations

import random
from collections import Counter

from engine import Game, GameConfig, Setup, invariants
from engine.cards import build_deck
from engine.config import IDENTITIES, identity_options

SET_C = ["xiaomage", "daili", "zhiyeshashou", "fushe", "fuermosi", "qingbaochuzhang", "xiaobai", "beileimao",
         "guaidaojiujiu"]
GAMES = 60


def _table(seed: int) -> Game:
    rng = random.Random(seed)
    players = 4 + seed % 3
    counts = identity_options(players)["default"]
    identities = [ident for ident, n in zip(IDENTITIES, counts, strict=True) for _ in range(n)]
    rng.shuffle(identities)
    deck = list(range(len(build_deck())))
    rng.shuffle(deck)
    hands = [[deck.pop() for _ in range(3)] for _ in range(players)]
    setup = Setup(identities, hands, (), rng.randrange(players), characters=rng.sample(SET_C, players),
                  face_up=[rng.random() < 0.8 for _ in range(players)])
    return Game.new(GameConfig(players=players, identities="default", characters=True), seed, setup)


WANTED = {"英雄本色", "笑里藏刀", "运筹帷幄", "连击", "声东击西", "弹药无限", "揭露", "真相", "隔墙有耳", "偷龙转凤",
          "收买", "阴谋", "阳谋", "偷天"}


def test_random_tables_of_set_c_end_cleanly_and_use_every_skill() -> None:
    """At least GAMES tables, and more (up to 4x) until every skill has been used once: a rare
    skill's first use moves with every rule change, and 偷天 needs its owner's black message to
    reach a seat that already holds a true one."""
    used: Counter[str] = Counter()
    for seed in range(4 * GAMES):
        if seed >= GAMES and set(used) >= WANTED:
            break
        rng = random.Random(f"decide/{seed}")
        game = _table(seed)
        while not game.over:
            prompt = rng.choice(game.pending())
            game.choose(prompt.seat, prompt.id, rng.choice(prompt.options).id)
            problems = invariants.check(game)
            assert not problems, (seed, problems)
            assert game.state.decisions < 3000, f"seed {seed} does not end"
        used.update(e.data["skill"] for e in game.events if e.kind == "skill_used")  # type: ignore[misc]
    assert set(used) >= WANTED, used
