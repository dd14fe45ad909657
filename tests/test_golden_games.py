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
    (4, 'novice', 0): ('dce5ed56e8ca9822a6f53c0740cb823791eed08e6afd4537bcb70c64abcf6321', 'c0e1cbc2a3a4e75f63151df76adef78f3da570358183c48003d3b68100e89871', 435),
    (4, 'novice', 1): ('132a9f0842f4a009269bf45f74dc6181bf8532c2f744dc35da853b677a01d185', 'efaa2d035a62bb679737f799aa4b37550f252b318a6aca2dae80bb8f3c44b36c', 352),
    (4, 'novice', 2): ('ba397fe98bcc1384e2e01918e39e5de4e4556ef2f3c76b485a5274e266cb6564', '61777a1b45b63c913ded705ace99ade75b5b64008c380c3b3bd4f6d05ea45d69', 411),
    (4, 'novice', 3): ('6b7cea3402f7136eede7c471b00322c06e30cbfbee7d8f2e6dc9ced1df61937f', '3ca6941a101a051c843a90311815754f10adc3f69fca52f6035eee86fda2faa0', 191),
    (4, 'novice', 4): ('1ed5cf08be7ac9010aa5f554950e9c553591fdb093e8f90ae1d3708594231de9', '1273e1b2b89aaed5aecfe98668fef2abc16925e488b7c88b5429642abc174745', 397),
    (4, 'novice', 5): ('84be97369abb7a2c3a34b38da0d38a33d8ec68bd75a8e6bda091f9c8c0854ba5', 'bb280e3d2680f509ec82d5de1a443ece9bf3bf22ea2ca693001497c16451cb7e', 337),
    (4, 'novice', 6): ('b713e2ccce978a3bdb5a25dcd290567407c3d33573d2eee34c5b14a9fc51f43e', 'd501eb93671938deedd1e09cb076654bf2dee345de3ff1056b558ad1da042f8d', 318),
    (4, 'novice', 7): ('07b7cbb407d0642f78ef0ba4b02e68190dbb8d0b42c75051ae57fd60932e512f', '60589ba9cb47394b49f3d8d10039e81d15edb638e2d073aa6fd1be4ffa48b426', 244),
    (4, 'novice', 8): ('3ee39d89cd11dd72343bbb4bcfd1e807844de3bad41cb9f3ae7d076238d96665', '9f55b6f4fe51fbf7695bc1eea2a224277023fca7e6ec1924c68d3e081de1dcf5', 327),
    (4, 'novice', 9): ('08673bdd24d852fbd9a600d0e92c3561348479d6c575244e96b3bd7c57e6d54a', '0e6e9684c38599143853bdeded50425c322b72befe6e985384dfe1f796b4217d', 306),
    (6, '3v3', 0): ('e5d0fac8e163e592be3679618ce3f3910f0526f34f1be3ff0bc7a449f0bde955', '20092e2ab8d8102856485cf43ee8295c830c039ffb7a51670f77e11577e150e9', 593),
    (6, '3v3', 1): ('8d4b152e919b2b3ac38128971015505a1c27c3cb36d58a51b7d1a62bb66a3f6c', 'abc9931e76749afd3967018cc1a944e827ba2d2eccdcb2c8e24ae4b33890c448', 734),
    (6, '3v3', 2): ('de17f6dedc07f4b9467c5efdd765e336d9d99e41725da30231d3bb40eea29ee8', 'b02c35671d11c1963cb9004246d4cc3b6782aed58f15b4920ca1567d5a0c08a6', 313),
    (6, '3v3', 3): ('5aa5a0d2b2a603de8a0487ad0c775ed0931645adf24f464c98d658d76789409d', '38d28f5912982fc1358412532bcbe4a6903b0afdb262fc61d32989c37397c3b3', 206),
    (6, '3v3', 4): ('b59f8da58d3ac4c7ee93559661ce53251e9a4d297227064cd447f612ef83cbae', '5099ff1530319f248a7b424146d19de5aed742d0874db69e942f0c32779a9625', 610),
    (6, '3v3', 5): ('04f605d11422c10e8d1b41717b3a32fc04365bed8e83f2abdaf1342e25e6f0c9', '58611c3aee2e3175cc265f1a09194fd857848e838dd9a1f0067766baec9f848d', 426),
    (6, '3v3', 6): ('2a7eda234fff470ea694e39668bd4a3529912734231b77742c261d265c1c6ae4', '03fb13d10872941c809551bad0929f3588e6aa5e03f1bc3f1fc81ec5bffee548', 507),
    (6, '3v3', 7): ('9b598c4c4ed0820e5c4063d8c4f8f238b866d676ba965f6a25c3b62cbf47ab73', '8940fc8507e0f73b9057808cb9c7fd15aa8025902d7209efd714a3b4ef252995', 493),
    (6, '3v3', 8): ('3d27484e37762228da4da9cae3780ba42eb60ae00bbbee83d069b4ddd2175471', '6ca09b091bf22028957cd33ff0a5ada90532c35e3b418d63f677cf8c03783dbd', 701),
    (6, '3v3', 9): ('44e7c76ba93c143f1e234cfe1e425062b445517640173de27f60f93f74755338', 'ef1d6f0cc4017937d2cf6cd9c9f539918725c216cd403f62c805a96827946bed', 430),
}


# The same with characters (the pick, skills and secret tasks), a few configurations of 3–9 players.
GOLDEN_CHARACTERS: dict[tuple[int, str, int], tuple[str, str, int]] = {
    (3, 'default', 0): ('06ad6f1076607a2b9391554d9363bdceabc830aefc2d9bff2c7c1b8ed1b4523f', '1caf4a4beea413e65ff74fbe112d0a1c96df53fcdeb518852c19ba29d2a4b5eb', 346),
    (3, 'default', 1): ('9a4e6d8ee6f9521bbf127028dfd46de101f27ead4049216c5e25a92603f572f7', 'c4f696b289dbf705f8fae9e83895971dfb74d43fd734201b88193fb785152672', 99),
    (3, 'default', 2): ('8902da0f117cf01d9abc8a1058935fda511370ff012220d2c8e5f787fa4d0e5d', 'ee1a9d8bd669645da39dc6c6ddfe2c6707110221ef22ec522dce2aa247ca6a98', 306),
    (5, 'default', 0): ('0b1c2f2a00c755b6cf5fa1c19ea4023cf591ac7a9c835defe00ac87759ce7aa0', 'd3d2b8bfff56000cdb1a4dcdb7f343ce41fad62c2da3e03f9f8bf201eb61faa3', 312),
    (5, 'default', 1): ('8f6f5696ef43a3b865a39354c3f56141d2238e576b37fa5e7f5de8be016e9c30', '368c7de0a247afc7610ba5b5edc1857c9d5cb34e2772c6486b4841e986076407', 803),
    (5, 'default', 2): ('9357c50e723c88c9990b75018fa54b4bd7950d71039187ed8ff1546ed46af8f1', 'e73d981466f9830e50371b8c35fb7fac05be061b66e2f49a82c8fa35f79e0bbb', 465),
    (6, '3v3', 0): ('3d58e4481613c4b783b007e7bcd8e059a3680f795b593f57b44c3214acd46328', '063f34dc900290046b7da09a28e2fc98d39815b2d98ad215e1ee8d4341469a7f', 730),
    (6, '3v3', 1): ('c90c79b972e1ff02744093d6fde248b6c46adb5ce5f0cfa5b18dd95e4efe1918', 'e2f3dbd378fb7f5ffb591e7a19f2155c0074e2a160477031ccc3ef84c5252525', 729),
    (6, '3v3', 2): ('67336ec6829bb2ddcc5557890a3a0a4b79769952d41e8f7b72a343d5b191a769', '7824568fc81dd3cf88c676e94ecf62d7241105778cdd937dc4ad65a154dc3ca7', 468),
    (7, 'alt', 0): ('784153e192f4094d6edc0d8d84cf94145b172f4463da86a66b63cf6147e1dcb3', 'c807dec579b89fe6415e469bee8478da16fe0afa576b78709ac22592190cc69e', 966),
    (7, 'alt', 1): ('a775affff0f8a3601538bf256f9425c85c4aaf99f42c76aa6529cc0492fd926d', '417cde9f366bb92e9fa6732541b1fd173f17c546f119e00b8cb50c9490336e3b', 797),
    (7, 'alt', 2): ('954ad1bf9aadcb63ccd5951d9ac9f4cf20a3864dc73ec56f53aca5656fe0218d', '2803bc17a79b6244c1376ba459aad70e47d89fca616dd9cb5830711f4932c93b', 820),
    (9, 'default', 0): ('631b660ccc2fdd47bd1d5e53156b2f33ca12d1ff828876e218bcf4eb7b7c5a1d', '5d23dc5ae24324b67ccda80dcad0f7ae3963c286c95ad76f6963268a4a7cfa57', 1362),
    (9, 'default', 1): ('b333edc500044466d4488da4f7606195fb29cac2bb8ab9d60a68683569ae5e8a', 'baf5ab6013457d5de8c6da2c3e2db5ed88ff543916fa87b0a4d3729b3faf93b0', 644),
    (9, 'default', 2): ('dd9d76ad0e1c1d670dfed80ea4996738c26ba3ae67827f51d6a51081b0391a29', '8fba454c5983afd7831688b1a11724a305c71b3d4d5330d53e64979d3dfefa76', 813),
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
