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
    (3, 'default', 0): ('43086860eb8448995312df83e2f82e26afb1361161d007c4cfea601869a8b854', 'bae754981a75cc4d7fc6103e0b42b691c3bf3195d0d95d7d8c41980493e77701', 248),
    (3, 'default', 1): ('19dfb73b4eb9dff1fa0fc24c6b6801844c3b696da79271594bb0960ea648e8be', '726e3c35dbfe083a5652a654681fe360e126eed778fe5831616c714019255b58', 111),
    (3, 'default', 2): ('8337aa9059e3ddb5b08d19c3069707be3a9a01471ed40158e52e5b8ab74d5d87', '0242699c53e09e50ee7d27f3f50cae28f9bc1c519ad045dbc1afe7b07fad2227', 328),
    (5, 'default', 0): ('f0a79c6081ba4120a89a8ba1bdc967efb03d0af5d8ffc784feb5d3d78db528ef', 'cd9fb7971f43ae3c0c4e8b52bc718b36a589faed78b1a4a621d686ba72ec0899', 289),
    (5, 'default', 1): ('1ff25ac58bc1a7212444d7dd6dccc913291f560cfb7aa7bea3e41bb21d49645a', 'a84bf26992bc8620e1c3f90c455cf420577a547d824ea74d46d828c9a7deec04', 327),
    (5, 'default', 2): ('e258077784d5f8276a87e59d05b58842cbceeba80ae4ea47f907f393de957323', '646fa0d60d398d2e2bd30b3cf3dd1e0edb2f3be270f5d33e3d91a4cc14b1e97b', 302),
    (6, '3v3', 0): ('56505df89586e3cca274ea504fa9fa74bf6bf128032315aaf0f9467e6ae48148', '325d60a553f2f6e6064ab81df166a68abce6d35a63e0ab2b20938f0c70a0c978', 175),
    (6, '3v3', 1): ('9e64e6e984b25776afb50a11ad6bf24beaa20cd5f9368aaf98d2c3cffa29df31', 'd8cc0a640e7bc70713c7440c05fd27ad18049b3171b3a3c4fccafc92b2419f37', 630),
    (6, '3v3', 2): ('a54f33fcb562138c46b24722d37a26ae37ec0f003bcf99f03bed383c0939c3cf', '1e5de7ddc460ed2b5cf7c3bc851d4639dac58e10856ea160c7f6677ed3860b0f', 554),
    (7, 'alt', 0): ('cff3165686191be54e533e4c93c4444570a428ead111879fc1b09726f564e8fd', 'bfdd656b8a10b35395a627f400b883d5caab91631d4fec939e16a4e00d676a61', 813),
    (7, 'alt', 1): ('b7261bfd8ebd087460e15b6c471d125be4dad1aaf4015e2f3635bca7ead354d2', '68bb2a44b92920bf778900cfb0c038985e0e436c21dbb19008f6e7dc68a2b338', 713),
    (7, 'alt', 2): ('5e415663e71c8623fd88d4d5337c472a629bf50d7e0cb635c26a90dc223e52f9', '841b56c58928068e558967a54f80700d6746a6653e17cb9b58402ea3515c9c5c', 436),
    (9, 'default', 0): ('a2abc7c71508df86d455ab08380cc1d4ddb8e0f0711e22e11f742e9e3e05cdad', '0f1022935c7e3ab6c11aa4fbaa265ae181b3719ead212fda17af467ee871b5b8', 1033),
    (9, 'default', 1): ('8a37392b0c2b76014573791db2561e3fac4d0749dc0f090fd824e58d8bcd6549', 'e134f9eeae1413b1f3275b427cc823ab1a4eb3ab665cbd01289cbe806c27e79f', 1553),
    (9, 'default', 2): ('340f2f603b3589642321989987a1bb66b153c3171a7a18587736fae90a006c8d', '7a5cfe735cb54ccad133367719332a46699d777976b68f387d50c9111578109e', 1532),
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
