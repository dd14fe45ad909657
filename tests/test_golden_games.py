"""Pinned final states of seeded random games: engine speed-ups must not change behaviour.

A pin changes only when a rule fix changes what a game does; regenerate with
`.venv/bin/python tests/test_golden_games.py` and say which rule fix moved them.
"""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from engine import GameConfig, events_for
from engine.selfplay import play

# (players, identities, seed) -> (final state_hash, hash of every seat's event log, decisions)
GOLDEN: dict[tuple[int, str, int], tuple[str, str, int]] = {
    (4, 'novice', 0): ('59fe1cddd817f4419289b7fbf55778bf1c1b17497f63513fb10bfb90ed117bf4', 'f4c9738c2b1e05913ca2367002c83240349e2149704bde03cbd92b9ceabc6dd8', 283),
    (4, 'novice', 1): ('5a0b877086f332d6154f9d516ed5046ff7fee87a4d2d1ac6da2b484ab9c46dfc', 'ec3b1168ac327ce2a58e719bee47f40096bc522e4dc3d12c9f50da1c3cc0b858', 317),
    (4, 'novice', 2): ('383f35ece37e7633ad740a9f340d55591c7c7f84a6bbc3fb80701a1ce58f2a2e', '3f83920db49b81c5908f98aa15fd2db7e337ebcc8a048c87d0804743103e38de', 275),
    (4, 'novice', 3): ('a136f104fd8b92c9beb783e8609b4c1c6315253cb308b67edccb81acdcf34cf7', 'eb76855b9a86f054c34851fdb5e879aa5f9f0305a0bb245bc957ac0661230552', 308),
    (4, 'novice', 4): ('9b0fa76ee0a5189b18fc8d1569d510d33ca035fc9332203f4f190d7ab72f0f4a', 'd2e2fa0c7bf2744b4a351d961df9cc7924e7e993cec9b2d48e3d19bc7b87c769', 466),
    (4, 'novice', 5): ('2696eb8e93adbff456a9617bb3cc179f5162adac01a7d3671f430030bd97bff8', '48fd848a9cd0ee376ccc75f0e68a2b31fb2d33c9fddd91a915d0cb1bc434040c', 423),
    (4, 'novice', 6): ('5b2a80c45d3ac2c661fc6a1746df6ec0823cc4fe7ecb0c1de0a5e0f41d40c34c', '495aef082a15929be3501ecc7605efd52dabb6094be99cb6dc2cfe9284110246', 283),
    (4, 'novice', 7): ('ecd399c8ed815eb572002244ff2ba8a6de3e65adf348d9fa56b6f482c9b86fd5', '6fcceac55a3ff965b5d4565e92d25d7da0df9e9cafda42f632ca000cc48f2407', 248),
    (4, 'novice', 8): ('6856f51585b7256c15bd81aa617d5aa190367138a0825a0bd60d7d1fefd15046', 'f9877ca3734b5c5b1fe0adfe2da1ee1f1dfdc0e860ec6eb9e97bc0fe056a1aec', 222),
    (4, 'novice', 9): ('695dc13709ff313fa4288acba70aa54f3801aa4b77a5c784fafbbca00d2e37fd', 'f7fe9477ff43bf2dc3a7793254ce4db21ca168d55b261e044c324af9afe7b9c3', 215),
    (6, '3v3', 0): ('ac8dc37e7e1e355ed727872ace7fe9809af3b28c434f56cecbe311ada7397668', '42233985994fefa8e151392161b7411c49627e6903afff9bab437ccffe0351a8', 274),
    (6, '3v3', 1): ('e49555715c992171702054cd0aa8a60e65bd0060eb28dd0f79afe4abdee3664b', '28a5320787ab010bc6ca523990b05eedf569420a8d753a84fbfdc8b4edd65275', 539),
    (6, '3v3', 2): ('e1476938a30b3bb7b1e8646f1803f48cba454343077551defc201d191a0cc1cf', '2ddec12a987f3186d68ece86b8d997d27903d08405c78f0f51b317e832755cad', 359),
    (6, '3v3', 3): ('2e3a6c50efff0b142444572977f3ff53eabb92d05f9d2b9b5b5b81f2234262e5', 'bbfb65677423b9be636719191a22546aca6db8891e2a14045601887b98c715d9', 246),
    (6, '3v3', 4): ('6dc5f2585cdb5fbd89d72f3b3ae61f6fabb0c82aa65c8544d58d42e569ffdf9c', 'c993d5ccb559f33b67ed52f735dd063a595e3150ae4337b0f26a2f78c23e6d56', 394),
    (6, '3v3', 5): ('a5eb096ecaa0b04484a772c4facda28178d75ed071654d244f675cbee83fbf00', '93ca45db78f0ec21d538f2cb3931b6450a836689ae5948a4b7758d0fd6855952', 402),
    (6, '3v3', 6): ('5b57593d06f327c671a60f63f3579d7f64fe76b1d4f0d5966b644c86836390c7', '91e6e380aa7b04b9b39c954b2bf4ad592d70805cf004c6e2c7e5625867aa2902', 359),
    (6, '3v3', 7): ('281b5faa8c96352497e8f65a6e4543a7519d536fd8a55c31b4efa028ec93996e', '6a825edc4297cd36db9537c3c086a12299c859ecb0bfd633a19f5bd785a674b6', 438),
    (6, '3v3', 8): ('1794c77c149316b9d1bb42a3940beb0ad2aed2390c341c19bfd0d8bdafcf4729', 'f89120b929e60377e8ad886a79e69569370db46a6ae520c0546dd651575a5d24', 306),
    (6, '3v3', 9): ('b9a2bf02b116c2e56b9ace46a38d4e9b7e94fcb31350de4c47808033f2361343', '0ee38ad53ca2b1132a99efb4aa49d4aeb72e89e2f943c4e6c5cb80cdee31cf73', 501),
}


# The same with characters (the pick, skills and secret tasks), a few configurations of 3–9 players.
GOLDEN_CHARACTERS: dict[tuple[int, str, int], tuple[str, str, int]] = {
    (3, 'default', 0): ('7f203f98f77d6a6ad650b8cf83a6e4756066335911ca3d28bdb7ca3656e99b9a', '65247d8c9bb63b796560224704aeea23c8f56da41d25632b584c6c0201a495f4', 305),
    (3, 'default', 1): ('819527993e893894de4854e67074f189e27d88e73ea459a49c89ada0b37a39cb', '1735e208e9e6b8624918d57a30cf767f3fdc3baacf068786b6d9b476d580b934', 109),
    (3, 'default', 2): ('71143dadf3eb0b792e97395cfa586f39b7b54b2d9e4e7ac75a58e3b5d0624e95', '62d13d7efb4612f61c87be709f42eb5a6108e9a4d2320f2a466e9f92191d4591', 334),
    (5, 'default', 0): ('ab388e7890c5ee9b9d4dbcc58cc69edc2fb083251756490e55486c5b35865477', '286981d3c1b9e71f4a8808fe9d4925d70c9e0a627e1e4fe490e4c96d2f1c7863', 386),
    (5, 'default', 1): ('4a069490710fa3c197b18b6052f3c51af05f1427f7b2484aa92513d6248ded20', 'c96532e9fed7394a3d1855f4807ceec8e80b1eb2beca8331b924fad2c09b3c02', 474),
    (5, 'default', 2): ('faf27630cf7af69a6366736735e5104d3f07d2941d5819faa12dc61290f4d30e', '7614b75f1262d8c3d20e7193f2d53e251a01407ef132933487cd9d5028b8fbe2', 387),
    (6, '3v3', 0): ('82ca7b0cea3d3c15923ebd7fab57cc07955485a414aa9b15e684cb276f1d6c11', '5836b5f9f96d0d6f4aa4beca4ab9571ac9e8642a1a0a7630d267497169420f4d', 317),
    (6, '3v3', 1): ('2f52b775b8e56e2cb3d6650b8ea1a6034d6991371e853a2782e2ddfd124e44ff', '44ad4463f90a82965d12da1ace98e7550845ce41de90c77a462598689bae2b47', 694),
    (6, '3v3', 2): ('cad438c4f0502ecc95f6c6af39df3eb9f1564a584f5b1128d8f5411f125e06bd', '5d6630e6f1288c6969a4651acd0b034bfca0d5b11b68f49b67e078afbffa9c6e', 579),
    (7, 'alt', 0): ('8868981547651429db8ccf17c31e9ec9c0fe74db9a5f679c5aa710c3a9b31224', '3f3344022cb1c18d8f645e8e22bea7748028a49c9c9658fb994721b1615c9710', 627),
    (7, 'alt', 1): ('73d444b2c6951a2a8da021712494dfd89243ce6b05dbfd2b90eca167a4597eb4', '87314d9f0c8b4126dc5e97877b923f825e2d64d239042f74760e5daf1f4193ce', 713),
    (7, 'alt', 2): ('cb26f322834d5884a7782c31e4403954643c95dc9b0c6f1928d0c1ed3ca5635b', 'fc392b9993f3f2390b19efbc71f8b6ba685259b4e1cf324b165f299417b4261d', 643),
    (9, 'default', 0): ('705ef461839d537f3a8c87251435241b99b4f64dd649b86edcea736c156067c2', 'e3b16c10965314cd9858e8a6006da3950848813df00f07657be7390deaf8bbee', 770),
    (9, 'default', 1): ('23f025af3d50cc6b23aa8e30492eb97ab9c09d3aa37c3ebeacd9bd20b642c14a', 'dca40d7a65eb1fe0d6d51f7f34dab9e35b7b737c18cd2d289e392ac039a3d91c', 788),
    (9, 'default', 2): ('9e51e97e026400642afd477802d6811ddedd698d4bb4522a65c4c609f4fe1af9', '320e7164fb68e9e5ac50fb8881e79f80b280cabc3d48957d0bc3d11cf9d5aa7f', 717),
}
CHARACTER_PINS = [(3, "default"), (5, "default"), (6, "3v3"), (7, "alt"), (9, "default")]


def random_decider(seed: int):
    """Uniform random options, passing 80% of response windows: the same as the random bot."""
    rng = random.Random(seed)

    def decide(seat: int, v: dict) -> str:
        prompt = v["prompt"]
        if prompt["kind"] == "response" and rng.random() < 0.8:
            return str(prompt["default"])
        return str(rng.choice(prompt["options"])["id"])

    return decide


def final(players: int, identities: str, seed: int, characters: bool = False) -> tuple[str, str, int]:
    """The state hash covers the public log; the second hash adds what each seat saw in secret."""
    config = GameConfig(players=players, identities=identities, characters=characters)
    game = play(config, seed, random_decider(seed))
    logs = [events_for(game, seat) for seat in range(players)]
    seen = hashlib.sha256(json.dumps(logs, sort_keys=True, ensure_ascii=False).encode()).hexdigest()
    return game.state_hash(), seen, game.state.decisions


@pytest.mark.parametrize("key", sorted(GOLDEN))
def test_golden_game(key: tuple[int, str, int]) -> None:
    assert final(*key) == GOLDEN[key]


@pytest.mark.parametrize("key", sorted(GOLDEN_CHARACTERS))
def test_golden_game_with_characters(key: tuple[int, str, int]) -> None:
    assert final(*key, characters=True) == GOLDEN_CHARACTERS[key]


def test_pins_cover_every_configuration() -> None:
    from engine import playable_configs

    assert {(p, i) for p, i, _ in GOLDEN} == set(playable_configs(False))
    assert {(p, i) for p, i, _ in GOLDEN_CHARACTERS} == set(CHARACTER_PINS)


if __name__ == "__main__":
    from engine import playable_configs

    for players, identities in playable_configs(False):
        for seed in range(10):
            print(f"    ({players}, {identities!r}, {seed}): {final(players, identities, seed)!r},")
    print("characters:")
    for players, identities in CHARACTER_PINS:
        for seed in range(3):
            print(f"    ({players}, {identities!r}, {seed}): {final(players, identities, seed, True)!r},")
