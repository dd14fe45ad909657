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
    (4, 'novice', 0): ('cc0a203297d643ddf5a2a365e159394ad721acbe5caad15f29de843c2a44a2fb', '97a8074803f932e55b9c3f4d0ba8d4dee40f52cf2dae4decf7f8950a81abf218', 283),
    (4, 'novice', 1): ('e0087db9373435b1056ade1fa1ae03f6fea74d4cef91ce2e3c0df5177baeb39f', 'ec3b1168ac327ce2a58e719bee47f40096bc522e4dc3d12c9f50da1c3cc0b858', 317),
    (4, 'novice', 2): ('3fd6d527c2c5fed8ca2d7fc31a4b1a3811edd41b59f616f2fc0938b362d485cb', '3f83920db49b81c5908f98aa15fd2db7e337ebcc8a048c87d0804743103e38de', 275),
    (4, 'novice', 3): ('b16fc39241f1855d335bd5fb4347231f99e7bd99b18bad0208e434f53e5847cf', 'eb76855b9a86f054c34851fdb5e879aa5f9f0305a0bb245bc957ac0661230552', 308),
    (4, 'novice', 4): ('e7d52370ffaf4bc3d84751e1e7c898463114aed1d24ae0f13e15e12b8f4de1b9', 'bccd851af6a4d7059830560a7b4af522e659f4dbb5f9563d1866e5a580a81644', 466),
    (4, 'novice', 5): ('31cac5bfc1673239d5202cd4815a375fe858442be61562305b8145e3b28ee58c', '7a19d5351b5a8126c588d4d46ade5bd02004446638042fac37827d65846f6e61', 423),
    (4, 'novice', 6): ('384ae05e95ae2c9f3b8200d1b9de1d8206edf86a0773dcfe9fa40afa120b25ad', '99c6e2e708b85e32eaf56ee9078967004bc70edb2e54357800a0e73fde6abdd9', 283),
    (4, 'novice', 7): ('ecd399c8ed815eb572002244ff2ba8a6de3e65adf348d9fa56b6f482c9b86fd5', 'ecbe70fcd1dbed0e6d7c589dfee876fa6bae6ff82eea0c948d515851fa2b3c0e', 248),
    (4, 'novice', 8): ('8629264e38a662d1cd44ba211d73b5e8a1298e991ace0253215cb6f70f34197e', '03ae4448a37e5ceb19ff5f69aefc16821d8fb81acc212cadea6c2743bbfd5458', 222),
    (4, 'novice', 9): ('fb213e092e286152e6d3907ac8e3468bc8b9a12bf2a96e4c52dfa28acb67a633', 'f7fe9477ff43bf2dc3a7793254ce4db21ca168d55b261e044c324af9afe7b9c3', 215),
    (6, '3v3', 0): ('461ae49f8c9d0313ca10871ee4f5da7fbae6106849181140543cf8c13a848a7c', 'acdf100fe443f8dc45b122171404c054992ce3ab7b5fc8c2bc62043c2ef68fb6', 274),
    (6, '3v3', 1): ('c880a58425f069603e08a9c07f4336bfc0b801359045fdff8f37f0aa4012b5fd', '9b54d70d6fd56477b288f5ec9975d0f89094b9e6f07dd69bec79b369885acd8d', 539),
    (6, '3v3', 2): ('39fdde3590363dc02019ebcb997b893e57fa919a350c06784577adeee3627fac', '2c1b4f21c9fa801dabe3b63faceb513d736a8a6cd4c38842af0a035c21f29eb0', 359),
    (6, '3v3', 3): ('892461fc07c9e0b3528c8732309064e297e54e0fafc3f0e1c855cb1bec017f01', '0592164ca6be6e94298735d8bb9f6d29efe04091357012b96a5bcd1f0d502711', 246),
    (6, '3v3', 4): ('4ad4587dd6c1d1e36f744218c2c6374d3828f527616042139e34d5e3d67ef468', '8261500956db03afcd584f536b0104d0e156a8dcce1e619ed5b4f12d89419f38', 394),
    (6, '3v3', 5): ('a3e3b9c1e34168362d33182e47fda0a46c320512e38dbd2a92fdc4d0ed20612d', '93ca45db78f0ec21d538f2cb3931b6450a836689ae5948a4b7758d0fd6855952', 402),
    (6, '3v3', 6): ('35aef5ecaf357bc1db5a649058cbe82c015fe1db1f941b0d7ed83be3b1ca5e00', 'a4317a9a949f7fa68f2044f0e0f319688914cb7f2ccb2c3f2a7863a36a12e77a', 359),
    (6, '3v3', 7): ('63a12955b4c2459e4fea8412ad9e5b1f5abf77534592a51f22797240c3933fb4', '20594766609f24813ae43d66b60c3e70b254911eff5e25aa622205003b295579', 438),
    (6, '3v3', 8): ('6514a849d0636a49098be8a8fb0c2c8de3ff79a48c67897567186c96dd322941', '51c1e94e3b34c937c04d3a5c5f89e032e5d86bc62ffdf453978682998a53a3d8', 306),
    (6, '3v3', 9): ('5d96f3a78c61a09f54dd5d3cbb216a03bb3599781ca21e5c05220f91ef1fe0d8', 'a74c593ef874436993fcbbb877a2116209bb9948883d3db8c3dd50415211d356', 501),
}


# The same with characters (the pick, skills and secret tasks), a few configurations of 3–9 players.
GOLDEN_CHARACTERS: dict[tuple[int, str, int], tuple[str, str, int]] = {
    (3, 'default', 0): ('b011a05c1c5075e89ab5b4ce298379560a356cf587da578542a4ae6e04d78ca6', 'f7a1c25e6d02f55621a5506d67e6d3e65b70a8be9bde5ef7c1875f5d6a457ffa', 297),
    (3, 'default', 1): ('6705d7b41fc14075a330e616337327576f2587d3d256c84d4fb978e2795e345b', '257bae84f0fc4ad6fcd9186f4f18d7088c00bfb41170467c7dd3e999e1a9ad45', 181),
    (3, 'default', 2): ('f8ab67dc0e9daa98521b7f97486feab568db791a14bf4bd52612a9416407bc17', '6f87ebfecbb7306ad49a08508a49f975557ab8415a6182c2fdaab0f4ce62e5d2', 334),
    (5, 'default', 0): ('0fe84e2a8ec9fbca7a358b65c1c5985e5992f265f32157efe7c2f2e2c1b934f6', 'fae1e2065897efa8789ccadddb98f0f7b7546e25b4dc7a165de6d38147503522', 386),
    (5, 'default', 1): ('f14e1be80cb357c0810b11f822b0d5272fe12d05e43277abfe066a868c2031f6', 'c96532e9fed7394a3d1855f4807ceec8e80b1eb2beca8331b924fad2c09b3c02', 474),
    (5, 'default', 2): ('4bbc20f457e42110f0f3f90803d7560ff0351a8e23c39cc5d19be9945db3d12d', '651d4706866757e84bcaf8487247107e833507dc533091799dc1421c971783ba', 387),
    (6, '3v3', 0): ('a69eaaf34e2d42cea1bc39e0cb987ac37265fe019c6aab2323f9550cd191f02c', '720844c939814e6941da1734775a1f565d08ecf351feffc637faf4210361730d', 409),
    (6, '3v3', 1): ('ca277c116998b6650f07f7e33835d48e955db676f640dbe9a5c1c7e2078915b3', 'ca7831e328efdd937be9ed75438e460a13b1201e1230d215bf458a4b1613fc50', 563),
    (6, '3v3', 2): ('a80fd95d6dde5be8c9d9c9c1f49f0fbce911d665d11c81609b695f97ba577c03', '7ad5410936df478a950c3ddf0bbd380ddbd7df14a44902787b05608b34ae4cc0', 560),
    (7, 'alt', 0): ('ab7b82615f39c89b1cd488e4e0495fc4e63ec93756d08202415ffa639a720713', '3f3344022cb1c18d8f645e8e22bea7748028a49c9c9658fb994721b1615c9710', 627),
    (7, 'alt', 1): ('41630031bbecbe2890569fa26c8b2d26722fd33f176f32d20da3955bd3a30604', '5550b70db516eef012a7acecdd8d37ef112c691f3f7436ba59dcf687a2ffb0f4', 759),
    (7, 'alt', 2): ('34c08488cbda0ea118c6004b97da397448696af887520e77c2749bfd4db175a6', '8e6aed3cbc0ad1f573843b352542505d967c4cbc5a8086f3c1c880ebdd561039', 643),
    (9, 'default', 0): ('bab21e71f53eb619de6088e04e0c626b4214616699d6fdaec9db46e2cee92f16', 'efdb645f4525ce0f725cd649ec59d1703b01d0df3ca515cc7d384491d97de7e5', 770),
    (9, 'default', 1): ('3da59cf466ced9bb3e464fa16ff8ffb9c3b36ee93ae63a821c6fd1c8e358e13e', '85083b6303c3ddc226d7f988f54cd71913ea1d2b8e5d887d655f7212cd0cdd5f', 788),
    (9, 'default', 2): ('2a495ae48741a1376a6de012cd0b79eb2c0f3c52b37dfada572fb915af81d9da', 'c58a5daf7f5095105830f5772f79cb883654d8dec9e593454f8d7b0464da8075', 1199),
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
