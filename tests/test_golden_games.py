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
    (3, 'default', 0): ('f948e9f1f1e695d6202e08c49b89c2500bc612a2dc972b4425499f0d36e534e1', '99a967117c3b0950b9fa10bfbfdc521c23277d89e6457fba4eac26de25076f30', 378),
    (3, 'default', 1): ('2e0302aff0a34db5dd8367a5d6d4c41153879a22eebfc993774666d7afd22780', '2aca0034cbaa01e41aa11d6c697ed5bec70474f80acdbf4dff2e386d74f36147', 203),
    (3, 'default', 2): ('5b6570aa1dc895df4c46fa5e24b8d6eab0a02703e8c443efee0f836566494a2b', 'e392a5b06482a3be565d99a9dfac0e8522eb1b954b6cad0ed2d8f5a10fe2d256', 280),
    (5, 'default', 0): ('a1bb16a705746e8d0fdb94ea98b337aaa59fec16c7d044c4b3a995053e9452ff', '0af62d001e659badc1fba06e6610a0c41f3a0c39ff591b70c37f839edffc2c1c', 371),
    (5, 'default', 1): ('0210aafac891e8847d056ffc2da1cbcec6a8730df32047e3e3efe1bb172ced4f', '6b76ab2bb108ff16255b14d49b19d0aca8a7edbf5da60d62ca95f041e2ec4f46', 761),
    (5, 'default', 2): ('b29e651afd42524d4906bce11cb99a7c67ba73f871b9d305756426cb889a8b96', '792a904bc44a6e01c86a71e121756dcdce11fd4944c9a2c4c815e67bf34e558a', 566),
    (6, '3v3', 0): ('b5a275c7a7afe6a6bcce50c437f0db81c36ccde78b9275521c501a5ff8c6deae', 'f883d4eac6ff25a9328fadfff463c66c5ff7d983f1f2a98840e70589bce6feab', 441),
    (6, '3v3', 1): ('5b83d4ac31154ada7ece6f6f8c8410376f3b7107dcb61c6f6cbcf640bc5eaa15', 'a34d1f2456726d3ba9a58b4852832b5efae69b696c8601039e4247af842bcf32', 404),
    (6, '3v3', 2): ('3af53fdad7be041427cd72be90fe1d799f6a0035ba6e7405a09b04598624810b', 'a9394c41e5c675c5a4f9a63790177ccf7726663e5d90585b6cce85bdf2d71893', 473),
    (7, 'alt', 0): ('62a6c97a71f6a0da096103f8cb92ebe875a7523223022d99e118a9ea37ba7d3a', '7ec4993fbfcccb893b0435c3553416b668ec3c95ab4d601b27099cb07759a465', 885),
    (7, 'alt', 1): ('2f2b400760b7b2b5f2ee6685ba74462be37373810432e5d1ea0665139451a0ca', '1dad3adec6678fe4434a57004b6722045bd7c7177a66d285387e716802783c2a', 623),
    (7, 'alt', 2): ('6300d588063c3db8b7a3157188408e09df772a6c4c07ec4b1a9f2c0336a5febf', '8038a8cbf03b6c4496f1229c69cd2bff00300012c56140ac39423be605f98bb3', 1074),
    (9, 'default', 0): ('fe43995cd23e08444c9161781c3a2c9a4b9d2c7197fa1669d916b74bbc603b08', 'f963dc96c2db53c40553d007aa4536985a018b952ae94636bf371f46d0c7473b', 950),
    (9, 'default', 1): ('2c80b3ba37dea4ed589df020cbfcc9bc079e8bfa4b04f572480f81f2240f1fb9', '5a7dab8ad831d71d63cbe85f109c9fa24620a7dc66f9e150190660a3c93ec08d', 830),
    (9, 'default', 2): ('eefce5e7591ce6ba74e23d989ac7fb6ac3f7b6f6b8b968c07e0b6f6ed302cafa', 'e8838baf3fc41bbf3c78af8c9e12c4eed6fddca869b78e5999858011d3e50a2d', 577),
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
