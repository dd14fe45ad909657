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
    (4, 'novice', 0): ('38bfff23e4870defd5a848210947610947ceb23f2a6f63b8ccb4ab8ad9a722c5', '9659f1a9595768c12f72512b47135621a2bc7b32eef33fbbb3f351b0cee71159', 309),
    (4, 'novice', 1): ('9ec1476dda0d8e2d787146d62f147f586365daa9a04cb90bb0dc358a47aa760a', '4a6415f54faf17822a647a60bee2def0d76f5a9e6c37c5f743b00aa3f04f373f', 203),
    (4, 'novice', 2): ('028f64325c5b086ad09a6ea5226902777b7ac12ca179cd4c350fd581a16922fd', '61777a1b45b63c913ded705ace99ade75b5b64008c380c3b3bd4f6d05ea45d69', 411),
    (4, 'novice', 3): ('161d2420d4e720899b0ee599770d9f0c697ca77fce964f2d1c5297df335b26d9', '4fa26140bdee049f0f1f8a8010f4c39fe0846275c8c5f877be792d085e3cbfe5', 234),
    (4, 'novice', 4): ('a752e38d958c8b1ce11bee8b8cb034bd882e7d20eeface91288f642224311b5b', '2b6350d9d0d0429bb7948bfe3d6231dae3f3f6690e71c5452f1a6ef9cdb6efad', 357),
    (4, 'novice', 5): ('db7fd3b76a5d434b8f94451c455d655783e4fce98597c7c61cbf4208a40d012a', 'bb280e3d2680f509ec82d5de1a443ece9bf3bf22ea2ca693001497c16451cb7e', 337),
    (4, 'novice', 6): ('51299b071c0958cc5ae293ae2dabb3f7ef100e2b52ea5eeca8a569b655bac03d', 'f8a38cae362dc2da47ba8328e03f22ebab409934d611e8bd5f288aef0c4fd000', 440),
    (4, 'novice', 7): ('2e69e8fee9f69b8a817d30ece933bdbe71f5c956781c5ddf08f3558142796906', 'ab0d1cec5d9657c8a8f0b1aca6f146ae1234dde8fce41772b67e4a1675a938b8', 248),
    (4, 'novice', 8): ('e6fd14f6d422ed2f5d4f886a03a9417b51a7a63e43a91269caafd314dd169ead', 'b12621fa5ee6e75c97042a3a6cddbac41efea159b0ab92c33a29ae8ad71cd028', 214),
    (4, 'novice', 9): ('02c7c172b2582cf715d28217629d79cb860a94ed7f0746c20311eb1955f34467', '0e6e9684c38599143853bdeded50425c322b72befe6e985384dfe1f796b4217d', 306),
    (6, '3v3', 0): ('790dec06a83484138ff02639f7ae59c7f8331c8848b51458d092852698f56572', 'd6862b0b9fcf45e5dac67527ca0bfded907d81a972bf6fc8745f0bfdb29cc6ad', 429),
    (6, '3v3', 1): ('d008ff0874e63cd4ea2b6f475221258673b22604fa27560cc66ef11d9e821669', '1f23147a560d8c6d3ebfd16026c06a7072720b4037fe1aa9582871c1c7670e99', 685),
    (6, '3v3', 2): ('8ed70f5ec8af2289a09f59caff6ac1c6133e9260c7141914f788653dc8abfafa', '23f8f428895fce9393b035a3c3d730e96017819847dff326fea197863bcdf5a0', 287),
    (6, '3v3', 3): ('26505bde3e8404be07d8cf778f3e0ef31df2e33653f4871a89211bdf1f4e78fb', '8f4dceae43685ef318e5f605d4b20ddaa44062a7a5d11470c06c3472dc7e9da7', 197),
    (6, '3v3', 4): ('209f188ec2123beb6eb1098443b4283754a3b99ba344938593e25c53afb70ba4', '3d50160f38f08f67bd0cb9c5d915e5f75c81c34027de8c87248199f05394136a', 435),
    (6, '3v3', 5): ('2ffcc0192b4d8606c21666c1dd5592c0f51bdbd0d2856d02dbf5ac2fc43e4aa0', '5724569717a8cb2f8a6c3677a580efbe7e5b03439f669d9adf787c64815159e4', 387),
    (6, '3v3', 6): ('6c105e9a81dbae598d3c7dd97f142599b5d16d85f8b91cc08ecdc663b8d859cc', '5624e269ae3263f49764e02499d73caa719a651009ee0d69eb50de5e78b52968', 405),
    (6, '3v3', 7): ('8304c440346863074ff49a62139b29703d27e87633817a24a502338a91532e89', '77567960416ce5889a9474c9bd87720ccdd7c27052fc13600ffaf7459abef29b', 414),
    (6, '3v3', 8): ('3a9b36bd0375357160c2a2306943f50c15eaf00a3eed7b205eace55bf82796a4', '7bbb191a2e4739cef1a6aa6f693b601c048ae5306d26d6c7644b00cb43282b94', 700),
    (6, '3v3', 9): ('13eb9f32a90f38191130be6cf8e72207dd0dc3509b3cda98c2b52433303b0ccd', '20c046e4008b06de3da0924de43f01b38b52858ed922b5225aab50cabec70b54', 506),
}


# The same with characters (the pick, skills and secret tasks), a few configurations of 3–9 players.
GOLDEN_CHARACTERS: dict[tuple[int, str, int], tuple[str, str, int]] = {
    (3, 'default', 0): ('828cced859ba96ca9577888e6361e60b803e3122cbb978c4b6aba09da1ac464d', '127bf092a034c4621e2437e148d35f0cd6d69089479ddc17c88fd5eab6917f56', 114),
    (3, 'default', 1): ('6ebaae680f2d2e448d8e24f37d2117af0dfd2ad4c250ea0a1bd50dca2e01739c', '9e54393a32a267b393ada842985d5f319e36970a52d995c2692f4be21610731f', 149),
    (3, 'default', 2): ('53ba1e36b3548e171cecbce0a9a4f1e10f432295485c2647e976ff7d11ba3931', 'd5690489fe618d5878631bb759d6c2767385d1ae2175827b3fd662a81e22ed9d', 302),
    (5, 'default', 0): ('b934f35e6d809fcbf4499e2dae9ac5457c7a6299bc59b9d4c973e0a48d7f3804', 'ccd5ec0234b1f020ca068e39db09904f9aa2cd6632c950bde3cca572f5a7627a', 178),
    (5, 'default', 1): ('346bbeae599b7bf0747533afd7ea62a7b434a8c89154520cafcd5aeca2985216', 'c0a57319cea9a4b6b64ca66d46f235f93ee6018edfc7c91afc9aea5ec2fed272', 350),
    (5, 'default', 2): ('7e3c5efebc86ee7dccd8f15a96f0e9edd6ccc9a0517987b92aeca2a30989b58d', '04f6c996d5beeac5cc7ce8fc32aa2a1082cb6846694d5cbf116685513cb28754', 445),
    (6, '3v3', 0): ('65bbab528a3d4a4281aa1c9232da4302509e7d66cc2b89e1759dd881a932c0f0', 'b14dd695a72c94f1fb867285b7c2b9e25275e35519ad8ff4484528e3cc3443b0', 442),
    (6, '3v3', 1): ('f4381cdd2fd2cac8671808c89984982968a6297a421c5029fe550b18340e31a1', 'a6c00bb2eddaf946fc198690664726ba942f2518ac9577b25ec986c5745ae7fb', 631),
    (6, '3v3', 2): ('79e512d7eda254f440cbf8744818137003a04a1ae1e884ccc7674df262985f28', 'b12dfbc2023de6f4cfe0bf61108bc204c35b1b97a6d5a537ed7ca43fbc387ef5', 473),
    (7, 'alt', 0): ('b1fe46607b85b083bd59e1e17b93f34614b93199a01adf75c78462429bd2d192', 'b22cf75f28d0afc4f1b13a59be9818210397f224dbd2a0f1a5b452d0a381848a', 1024),
    (7, 'alt', 1): ('ab59b51008974f3358cac9ddfc74c04e419f969a0a8ce369295cee0d7a38dae5', 'a62ee8818da4fabaac4a71f311ddc8e0e69ad684a1c0e115c4cc732de1653bd3', 982),
    (7, 'alt', 2): ('546e713306d420f29576618145c5e8ee7655e09c1a05a9f8176f4238a2e93607', '676fcbe1cfa3c6334714b3ea79636b72f2698cbc50a60a204ff5cc4c9dbc5387', 613),
    (9, 'default', 0): ('78eac26d6d217ce6e8f69fcb87b24f794a6243c9e21479d1bb73ec680a21356c', '10c5ad6586b23e6bca6ef3a70d961ad0891dfe000e9ac74eac46225fe04ca275', 1004),
    (9, 'default', 1): ('962ee8ae441e6cc26077ed54332536efafc9540813bc45261f92529861b50e44', '22dd608753bceaaf35df709e30402b89b31f9be71a0e5aa9328592b1bc766ed5', 1192),
    (9, 'default', 2): ('f9ed8be7bf7dc4829ff407b49b6aed0ba3463da24c7754627b5b0de4cbd463fc', '738c7ee57ae7c84ad7fe17c3fc82266656bdbaee10ca22f8e2f48943e8a08d95', 942),
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
