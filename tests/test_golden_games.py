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
    (4, 'novice', 0): ('78f03713a6d7c44a3d48c8829636067dd8cd708492268ce1777fd3a28f25b281', '9659f1a9595768c12f72512b47135621a2bc7b32eef33fbbb3f351b0cee71159', 309),
    (4, 'novice', 1): ('9ec1476dda0d8e2d787146d62f147f586365daa9a04cb90bb0dc358a47aa760a', '4a6415f54faf17822a647a60bee2def0d76f5a9e6c37c5f743b00aa3f04f373f', 203),
    (4, 'novice', 2): ('ba397fe98bcc1384e2e01918e39e5de4e4556ef2f3c76b485a5274e266cb6564', '61777a1b45b63c913ded705ace99ade75b5b64008c380c3b3bd4f6d05ea45d69', 411),
    (4, 'novice', 3): ('3f033f2d2e2ab93afecf201a3a47064220b557fc117db03717d4f444c3fe899f', '4fa26140bdee049f0f1f8a8010f4c39fe0846275c8c5f877be792d085e3cbfe5', 234),
    (4, 'novice', 4): ('644b4d83c686fe27a2e0b764bdef7349486a10aeb6425ecdefadcb6b4ba34576', '2b6350d9d0d0429bb7948bfe3d6231dae3f3f6690e71c5452f1a6ef9cdb6efad', 357),
    (4, 'novice', 5): ('84be97369abb7a2c3a34b38da0d38a33d8ec68bd75a8e6bda091f9c8c0854ba5', 'bb280e3d2680f509ec82d5de1a443ece9bf3bf22ea2ca693001497c16451cb7e', 337),
    (4, 'novice', 6): ('92627e68a6d7b9c9067ae2d48eefff8f51671d91a411b591c274466cf53952c1', 'f8a38cae362dc2da47ba8328e03f22ebab409934d611e8bd5f288aef0c4fd000', 440),
    (4, 'novice', 7): ('348e634cc36f1949367e5bba2326cd5ef65891a6fb7cfc8e28552a1d5e96b969', 'ab0d1cec5d9657c8a8f0b1aca6f146ae1234dde8fce41772b67e4a1675a938b8', 248),
    (4, 'novice', 8): ('afdbf68385bf73ff670695ee59d76c5252bfe2e88338a853e0d6843d1961f2ce', 'b12621fa5ee6e75c97042a3a6cddbac41efea159b0ab92c33a29ae8ad71cd028', 214),
    (4, 'novice', 9): ('08673bdd24d852fbd9a600d0e92c3561348479d6c575244e96b3bd7c57e6d54a', '0e6e9684c38599143853bdeded50425c322b72befe6e985384dfe1f796b4217d', 306),
    (6, '3v3', 0): ('070934da952f2eaae5f25d74b8815e7b4f5372ca75a2b7ef55d1b99998c6c551', 'd6862b0b9fcf45e5dac67527ca0bfded907d81a972bf6fc8745f0bfdb29cc6ad', 429),
    (6, '3v3', 1): ('5af3e45bc7ff35a56a1f2654e49243d94e350b63a1dc7dfd71bbe48e0483628c', 'f3039948fb3fdd2b21518d37e24cd3755baf32f2f085c61ffe940beeb048e966', 692),
    (6, '3v3', 2): ('efe8817f73448d29bc07bc7f7d02ee80f7077c955a4b7e89ac8c14a9de48534a', '23f8f428895fce9393b035a3c3d730e96017819847dff326fea197863bcdf5a0', 287),
    (6, '3v3', 3): ('7a5129689c06fe3e2ed80dcb2a2a6687b83894a90e5885b735cad97f0a3ab2fa', '8f4dceae43685ef318e5f605d4b20ddaa44062a7a5d11470c06c3472dc7e9da7', 197),
    (6, '3v3', 4): ('932289b30a7c775dab7cd0e66e52405530cc3f694f62b060c9e47e5e72000aec', '3d50160f38f08f67bd0cb9c5d915e5f75c81c34027de8c87248199f05394136a', 435),
    (6, '3v3', 5): ('88f67555cdd4d28bdb0328366ed827f812255a93ded51669c7f7820fd7ed6528', '5724569717a8cb2f8a6c3677a580efbe7e5b03439f669d9adf787c64815159e4', 387),
    (6, '3v3', 6): ('38729b918f69c75497c71ee2966b31bb4cad4b94503140de7d5f91af54d560af', '5624e269ae3263f49764e02499d73caa719a651009ee0d69eb50de5e78b52968', 405),
    (6, '3v3', 7): ('8304c440346863074ff49a62139b29703d27e87633817a24a502338a91532e89', '77567960416ce5889a9474c9bd87720ccdd7c27052fc13600ffaf7459abef29b', 414),
    (6, '3v3', 8): ('c6da93517c386b624364917ba1147642945c570b7e84545c173c343c67108d6c', '8638de974d5cdd18380d5472b93305d38e2db2739bc3932c67993ce69adedb9e', 651),
    (6, '3v3', 9): ('2dabe920609d1b85edf8d6b2b1f4a90e62e2e66e16eb8916debb3acbe87a386c', '20c046e4008b06de3da0924de43f01b38b52858ed922b5225aab50cabec70b54', 506),
}


# The same with characters (the pick, skills and secret tasks), a few configurations of 3–9 players.
GOLDEN_CHARACTERS: dict[tuple[int, str, int], tuple[str, str, int]] = {
    (3, 'default', 0): ('0c2bdb0cb25f496a65d52e304bed496a6961d8f8876e4a1526cf6a35239e3143', '35a6f4817bf3ec62911f8ababe7dffdca3fd91e8a7d1c34a114ed34ea29830cc', 315),
    (3, 'default', 1): ('9a4e6d8ee6f9521bbf127028dfd46de101f27ead4049216c5e25a92603f572f7', 'c4f696b289dbf705f8fae9e83895971dfb74d43fd734201b88193fb785152672', 99),
    (3, 'default', 2): ('80b2d1b125185369dcf9cd21dd7ecfc0721e025e9c3d58222c84ca56917f6646', 'e392a5b06482a3be565d99a9dfac0e8522eb1b954b6cad0ed2d8f5a10fe2d256', 280),
    (5, 'default', 0): ('ea6d517799b3769d7324697196bdd65fd7d07a1a9093de519af43b623ec5fc06', '0af62d001e659badc1fba06e6610a0c41f3a0c39ff591b70c37f839edffc2c1c', 371),
    (5, 'default', 1): ('bde3e8cc41d169f8d3e9f5cce16069b9088b972669b387eb5fd2ea1c256b5d4e', '1e2134e9beec6ee91f04db9d983096f5650831ec388ff7771567c7769536d554', 806),
    (5, 'default', 2): ('b4c4d392a100acdc4bfefa46f675c56bc4f9426be14fe156b69220561575b6f2', '792a904bc44a6e01c86a71e121756dcdce11fd4944c9a2c4c815e67bf34e558a', 566),
    (6, '3v3', 0): ('36a5e416b09e32a9b81495bfa43e387ccda183f6d9171b5bd5c70f8c55b05d6f', 'e1e01f405a350d861b0a00a21c56d5ead377b489a0a9344d78260f1fc22b270c', 340),
    (6, '3v3', 1): ('48e17365c38130dddace0ef2a2e503765e5f339b91d758fe0c5cd1187aa3607b', '582157be40a9ccc8d63faf2ed32945001e5cb49901f9f379dbe605d25f1f9c21', 812),
    (6, '3v3', 2): ('d3d8a58e8bab277f014c2472206eb61aff66192d2b89e8f53b02dfb7a6a51b5b', 'a9394c41e5c675c5a4f9a63790177ccf7726663e5d90585b6cce85bdf2d71893', 473),
    (7, 'alt', 0): ('df1fb8fb994de0022d962fe375a9339ec91c6cdb232fa062e9aa8dd665fe2441', 'ed6dfbf7b4752c40d6c0b9093225f31a199a1f01f14603f016b43ed3d1b9d20f', 543),
    (7, 'alt', 1): ('4938b11660ed838742c63500f5567a9530a95f989677ef22c26f7a97dcc0b1ee', '1dad3adec6678fe4434a57004b6722045bd7c7177a66d285387e716802783c2a', 623),
    (7, 'alt', 2): ('8bb3b1b3e0c1b914d23d6ee0a63c578811076c136fa654b683683f5f4c370482', '16646929a17ad5507f54587e9806cc79465d2ae83ce1cf3a27c70c6be79382bf', 1074),
    (9, 'default', 0): ('4c4d73319817b60dd6d49e2e6323b4057bb69530c7aa8881cb087cfe5712e76d', 'f963dc96c2db53c40553d007aa4536985a018b952ae94636bf371f46d0c7473b', 950),
    (9, 'default', 1): ('e96710ccd3fd6fb38892058e499e13411f271cc5f2e1a0b5423a8c6fa550dd35', '5a7dab8ad831d71d63cbe85f109c9fa24620a7dc66f9e150190660a3c93ec08d', 830),
    (9, 'default', 2): ('7d91b75ea9eb461d0c8a58df4e44feb7185a8ed2e2cd5d031ba7f34fc6663d64', 'e8838baf3fc41bbf3c78af8c9e12c4eed6fddca869b78e5999858011d3e50a2d', 577),
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
