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
    (4, 'novice', 0): ('59fe1cddd817f4419289b7fbf55778bf1c1b17497f63513fb10bfb90ed117bf4', '97a8074803f932e55b9c3f4d0ba8d4dee40f52cf2dae4decf7f8950a81abf218', 283),
    (4, 'novice', 1): ('5a0b877086f332d6154f9d516ed5046ff7fee87a4d2d1ac6da2b484ab9c46dfc', 'ec3b1168ac327ce2a58e719bee47f40096bc522e4dc3d12c9f50da1c3cc0b858', 317),
    (4, 'novice', 2): ('383f35ece37e7633ad740a9f340d55591c7c7f84a6bbc3fb80701a1ce58f2a2e', '3f83920db49b81c5908f98aa15fd2db7e337ebcc8a048c87d0804743103e38de', 275),
    (4, 'novice', 3): ('a136f104fd8b92c9beb783e8609b4c1c6315253cb308b67edccb81acdcf34cf7', 'eb76855b9a86f054c34851fdb5e879aa5f9f0305a0bb245bc957ac0661230552', 308),
    (4, 'novice', 4): ('9b0fa76ee0a5189b18fc8d1569d510d33ca035fc9332203f4f190d7ab72f0f4a', 'bccd851af6a4d7059830560a7b4af522e659f4dbb5f9563d1866e5a580a81644', 466),
    (4, 'novice', 5): ('2696eb8e93adbff456a9617bb3cc179f5162adac01a7d3671f430030bd97bff8', '7a19d5351b5a8126c588d4d46ade5bd02004446638042fac37827d65846f6e61', 423),
    (4, 'novice', 6): ('5b2a80c45d3ac2c661fc6a1746df6ec0823cc4fe7ecb0c1de0a5e0f41d40c34c', '99c6e2e708b85e32eaf56ee9078967004bc70edb2e54357800a0e73fde6abdd9', 283),
    (4, 'novice', 7): ('ecd399c8ed815eb572002244ff2ba8a6de3e65adf348d9fa56b6f482c9b86fd5', 'ecbe70fcd1dbed0e6d7c589dfee876fa6bae6ff82eea0c948d515851fa2b3c0e', 248),
    (4, 'novice', 8): ('6856f51585b7256c15bd81aa617d5aa190367138a0825a0bd60d7d1fefd15046', '03ae4448a37e5ceb19ff5f69aefc16821d8fb81acc212cadea6c2743bbfd5458', 222),
    (4, 'novice', 9): ('695dc13709ff313fa4288acba70aa54f3801aa4b77a5c784fafbbca00d2e37fd', 'f7fe9477ff43bf2dc3a7793254ce4db21ca168d55b261e044c324af9afe7b9c3', 215),
    (6, '3v3', 0): ('ac8dc37e7e1e355ed727872ace7fe9809af3b28c434f56cecbe311ada7397668', 'acdf100fe443f8dc45b122171404c054992ce3ab7b5fc8c2bc62043c2ef68fb6', 274),
    (6, '3v3', 1): ('e49555715c992171702054cd0aa8a60e65bd0060eb28dd0f79afe4abdee3664b', '9b54d70d6fd56477b288f5ec9975d0f89094b9e6f07dd69bec79b369885acd8d', 539),
    (6, '3v3', 2): ('e1476938a30b3bb7b1e8646f1803f48cba454343077551defc201d191a0cc1cf', '2c1b4f21c9fa801dabe3b63faceb513d736a8a6cd4c38842af0a035c21f29eb0', 359),
    (6, '3v3', 3): ('2e3a6c50efff0b142444572977f3ff53eabb92d05f9d2b9b5b5b81f2234262e5', '0592164ca6be6e94298735d8bb9f6d29efe04091357012b96a5bcd1f0d502711', 246),
    (6, '3v3', 4): ('6dc5f2585cdb5fbd89d72f3b3ae61f6fabb0c82aa65c8544d58d42e569ffdf9c', '8261500956db03afcd584f536b0104d0e156a8dcce1e619ed5b4f12d89419f38', 394),
    (6, '3v3', 5): ('a5eb096ecaa0b04484a772c4facda28178d75ed071654d244f675cbee83fbf00', '93ca45db78f0ec21d538f2cb3931b6450a836689ae5948a4b7758d0fd6855952', 402),
    (6, '3v3', 6): ('5b57593d06f327c671a60f63f3579d7f64fe76b1d4f0d5966b644c86836390c7', 'a4317a9a949f7fa68f2044f0e0f319688914cb7f2ccb2c3f2a7863a36a12e77a', 359),
    (6, '3v3', 7): ('281b5faa8c96352497e8f65a6e4543a7519d536fd8a55c31b4efa028ec93996e', '20594766609f24813ae43d66b60c3e70b254911eff5e25aa622205003b295579', 438),
    (6, '3v3', 8): ('1794c77c149316b9d1bb42a3940beb0ad2aed2390c341c19bfd0d8bdafcf4729', '51c1e94e3b34c937c04d3a5c5f89e032e5d86bc62ffdf453978682998a53a3d8', 306),
    (6, '3v3', 9): ('b9a2bf02b116c2e56b9ace46a38d4e9b7e94fcb31350de4c47808033f2361343', 'a74c593ef874436993fcbbb877a2116209bb9948883d3db8c3dd50415211d356', 501),
}


# The same with characters (the pick, skills and secret tasks), a few configurations of 3–9 players.
GOLDEN_CHARACTERS: dict[tuple[int, str, int], tuple[str, str, int]] = {
    (3, 'default', 0): ('71139185ff60eda2ab669bae67ca63e27ead153291ae57b0c28866ecee88e686', '7fbe7f6287a372e36054180409f87196a54bc5dee059770fe3f0f12e0c4941b3', 305),
    (3, 'default', 1): ('6f6199f6e6b6b961523334c86c996156533f2d9a662c3d2bf899aaf57938021d', '851a5b322778f15a9d39f3a13b1c5585889aa39453038f559b47d9efb8bafbc3', 109),
    (3, 'default', 2): ('7a20f05bb99e14137f67aad24ee30a5ddfe00da0b3adb9d8b4c6ed5bc4551667', '6f87ebfecbb7306ad49a08508a49f975557ab8415a6182c2fdaab0f4ce62e5d2', 334),
    (5, 'default', 0): ('6d3254d4eda1b9efc76cffeb0f5c9e21d897391fc549d88b8deaa4bdef8fb6df', 'fae1e2065897efa8789ccadddb98f0f7b7546e25b4dc7a165de6d38147503522', 386),
    (5, 'default', 1): ('4a069490710fa3c197b18b6052f3c51af05f1427f7b2484aa92513d6248ded20', 'c96532e9fed7394a3d1855f4807ceec8e80b1eb2beca8331b924fad2c09b3c02', 474),
    (5, 'default', 2): ('4d42b03d5db6042212de1ebfe0308a74b59e5ebaf69b7dd31ff180df622745cb', '651d4706866757e84bcaf8487247107e833507dc533091799dc1421c971783ba', 387),
    (6, '3v3', 0): ('ed16f14ee0327b7480298b5f68a2b13c260439427b04032b3903640fdd79acb9', '67a99d6a8dd3e1f31960c77cf9ba3d32e5f38c3a61baa8bd4f3f3bb44f247878', 317),
    (6, '3v3', 1): ('97827db28f19c3fd77d31726f6773c95348a485554937090552cce6989597ac3', 'b0c4ee129d17a5252e37ae0d258ab43f8e9204f717ed150886d9fe19b105fedb', 694),
    (6, '3v3', 2): ('9b6770c5832407adb21c4c7cfbb6cf45abfcd91b4315219ed6a1211d1b337b47', '46acaff1ddaeeead14bf58bcdb9ec8f8f8b41163244a6dafef96e08bd477d800', 579),
    (7, 'alt', 0): ('8868981547651429db8ccf17c31e9ec9c0fe74db9a5f679c5aa710c3a9b31224', '3f3344022cb1c18d8f645e8e22bea7748028a49c9c9658fb994721b1615c9710', 627),
    (7, 'alt', 1): ('73d444b2c6951a2a8da021712494dfd89243ce6b05dbfd2b90eca167a4597eb4', '87314d9f0c8b4126dc5e97877b923f825e2d64d239042f74760e5daf1f4193ce', 713),
    (7, 'alt', 2): ('496f26439cf675ad2d0cc56258dd2b7173819e6d7c54ae25cc3aec835efcaed7', '8e6aed3cbc0ad1f573843b352542505d967c4cbc5a8086f3c1c880ebdd561039', 643),
    (9, 'default', 0): ('3fe88bd7c9a2e5e401ee0fee8c4776c29eb821dbcd521ce88b49df047e248af6', 'efdb645f4525ce0f725cd649ec59d1703b01d0df3ca515cc7d384491d97de7e5', 770),
    (9, 'default', 1): ('7bf73b14c5838f9ace118b1c40f7f7168f52a4a7405feb2eef169a3a04b3fc61', '85083b6303c3ddc226d7f988f54cd71913ea1d2b8e5d887d655f7212cd0cdd5f', 788),
    (9, 'default', 2): ('2dbbc45df6ddc01258aed2f8b7717d6a84e700512962dc92526b0cb2bb1ed3ae', 'ba096bce23c9008795907a2862e0d28a33edadf4c0d642134d48159d10fbf3e5', 717),
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
