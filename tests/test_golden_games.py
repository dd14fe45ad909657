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
    (4, 'novice', 0): ('e925683b5299812db28a490c2ea92f2f9ae8f1f482e3f010b9bc12e48eb130ef', 'b25bdceebeecc127d31ed82beb82d831443f72b93b29b2896e4b139fc4ff5133', 344),
    (4, 'novice', 1): ('9ec1476dda0d8e2d787146d62f147f586365daa9a04cb90bb0dc358a47aa760a', '4a6415f54faf17822a647a60bee2def0d76f5a9e6c37c5f743b00aa3f04f373f', 203),
    (4, 'novice', 2): ('dc2daf4040461f866776e56f79ec2a488b1bc7c801d54aba446c525dfcdae29f', '43120842879ba594883cacba75fadcd368e7e008237bd981684eb1ede96ee479', 390),
    (4, 'novice', 3): ('57ca7c69c707d7af2615d7dc5c80acc35f4a055a6ac21ad2a9cf948c062c1ae9', 'f240a6d1b0bc76591277d62e10be7449711003af8a7a4b8880265cd17eaf2f8d', 216),
    (4, 'novice', 4): ('8eb6127c0bb5f4f92f1f2a62cf75ad246886c68a664c40e7d8ef0d750a2475a7', '648d1b359500355f345189071a8bb45006a1f7febe491073758b70ac1e6c8004', 420),
    (4, 'novice', 5): ('8c9e0981308215cabb4d9fe800f6c463f837bd2c425c8b4ed6da8b847ab6c935', 'c20934f7e53024a81c5a924f9ab3622d17dba3e874357312cc7753ff1867e16a', 359),
    (4, 'novice', 6): ('08a4d83abbbe2bcf3488c23d76391a7a3bb254da5ab56170e1d9a891944d6339', 'cfcf7ebf0507c193858a5c272fc23727c293828c40ecf8e58a692b0afd1eec38', 218),
    (4, 'novice', 7): ('a286d98bbccbaacbc903622f045b325d1a069724bbaeda922bcaae8fc8b9f739', '2e965ad84c8cd5c3bf7c7163050a309ff97d10176833770dff9ad902a94745ee', 293),
    (4, 'novice', 8): ('67b01cf101aae4d1329e712551b9b4ba1a53900514a6adc92109684ed4cd48ea', 'd3d1b3157e7b5db6684d931d3a82535539634f27a6ee64151e00164b57a44e2e', 296),
    (4, 'novice', 9): ('ba771d15cffe57f62653b7da74f768c53148497906efdbac8709e1bd66611a7a', '6b1b8c75ef3eca2e9be564d18c7e64e544c0750d9fb456683f440a05d0b1413c', 283),
    (6, '3v3', 0): ('d95cf3a3ac8f021365412f88c5172eef866edd3b6c98b6415ab1e46b41ba8ae7', '858d2c649c444f0b240c0d4ce1dfdf58bf9f6122974a3f70b850ed1c1f0c7810', 648),
    (6, '3v3', 1): ('21684fd61993262fe2ea6add2eac7aefc240d59444b67f89d3fa4529b073a558', '6a78fa5d9ac1ebad4fb47337df262f661495949ac9b333633087b21636a1161a', 701),
    (6, '3v3', 2): ('02c4eb0d69320be008cd15c41b4736e8d18e640904d2222bc11248ba1f541fea', '5c6b6bc7890cdbf9de6629825a243c6afc5b45286b1a03496d2b51ee729ecd14', 691),
    (6, '3v3', 3): ('433114c4485e8d408717106394a2db99eec7a8de876b52cc61d57697c1dcf2e3', '8be06f17605ad181cb333decb67ed4fd2a1cee88b1f6e2e9adc051495c8f6fc7', 196),
    (6, '3v3', 4): ('c5d072abec69921a9309e7fdba9c2afac2e70b864d16edc2d57563ca0d66c021', '845774095f2055bc515576bfd78e026f751e544e58ab7cc2c2819f1f6f3f41ed', 845),
    (6, '3v3', 5): ('00f6ec7d9219aa94bd0b447b01e5d572b1873f0bc2d3025fd15e73f9b345f6f6', '2e423c94a2e1fbb4d11ee254ba6d66988d4255fb4f8eac1c2965ecb2f81f08ae', 486),
    (6, '3v3', 6): ('54bc884ee15c8d5a90dca5d3a44ffab5f96e892576e05393257f220e979bae3f', '45eea08cd77b6563b0f16461d5ad27ffdd98b7ff7a0aaaed6cac7545404668b8', 727),
    (6, '3v3', 7): ('de5cf4cd92bd612e071ac64bf6e54315140f42840dc9d83d3e0022da80b11ab1', '0393961fa83dccfd1bc2b5096a72f17eb09468db348fb3569b388fc9081cf133', 826),
    (6, '3v3', 8): ('4019c1e3c217f6cdd9c0651e9f6aa631eea3cec8ebb6f1418a10bf0153d80681', '0ab6982e59befe5402214ea2f68e099e4db207d57cfa186a02edbe6a4464c13a', 561),
    (6, '3v3', 9): ('d13fce0f78a2938d238fcb9885f4f6ef655a4a14d5cd7fd1b1a67e61270067e0', 'b14c7e6227f58c08200da746df16b58758e640fda1c1101085ecc5194fb6374f', 581),
}


# The same with characters (the pick, skills and secret tasks), a few configurations of 3–9 players.
GOLDEN_CHARACTERS: dict[tuple[int, str, int], tuple[str, str, int]] = {
    (3, 'default', 0): ('bb09778baa8f79aaf244079354cd39d2ef459f4b2ecdf7aa681d07a9647022cb', '410c02b17ca18f319da20e474262ed70b4fa998d77f82d309f5c5785fc610fe5', 277),
    (3, 'default', 1): ('350df1841896c06ca0192507b23b1a4023dd162ed7175b1212a3e59365b6b0ee', '453b3261f094b247ba3859e9ef37aa1d5ea3cf6de7b1a7c2c271ded1bbff5090', 243),
    (3, 'default', 2): ('bf75a7ab091625a1beaa32f4ce8c9c0bec7151e7334e7f0faf5db3f766bf7e40', 'be4e7c56a624cc6c448345410eacb0b6080215437dba68f70e6afb05c9550cf8', 190),
    (5, 'default', 0): ('a2b3e45c0babc8ba5e9d0d21de430dbb519df6a34a385da9a2a58d55e27072f4', '1c2eda548d6b60bb61f7e77893a18620b561f1f44885a8196607e0f1c75f404e', 401),
    (5, 'default', 1): ('3764593f60b7bf323b3f593596fdb0aa87579d77e90db9863176b5a52cfdc76f', '8bed596677e3c3697c31dceaa6f9b960a1586338b42948b575148d6ef8ed1ca3', 630),
    (5, 'default', 2): ('9d0b18f4c8c179efdd9deba11387c88655549e84d7884d8fe86b7b7be37057bb', 'bd269ecabc42f26b4d374dce31f68141c5e8451ea903658845f8416188a78c3f', 516),
    (6, '3v3', 0): ('6b72fe7e134f1b2137fe2d88319c1339da8898816707fd402512e072f4dd12dd', 'ee0afa7a76e4e3a69ab80e5f584e3b3a8a24cb45a6ec912b5111a24815bf453e', 1129),
    (6, '3v3', 1): ('09d74845af3c387886d8353644ae8e994188304bb91cde87c1f6f87c97061560', 'e30b5cac726e1391349d26d8bb18d57af771361aaa282f06d5b49c9f1db59de6', 1082),
    (6, '3v3', 2): ('818c482cda6177978ffd15728194ac195ac11cea81f7fb82397c57b30996400b', '95eb999b587230e8a8f6777f5b7b07f7e8b451eb6293e6c36738a314ae1981a8', 508),
    (7, 'alt', 0): ('bfda9b371444ea7d5919d5d2ad01f6cf2ec76cf197229bc3bad80c78bbf40ee6', 'cd1253771ac9fe9a9fddaf088113035ceed49d4430707723cc2f1e9a1aca6cda', 1079),
    (7, 'alt', 1): ('73b694202914af318429b9bccd3ba6c73b53da62747ae7b682ae45f30beac680', '2648ea5387915ad18fe36383dfadae97e853059b2349fecefecf0282564f1fe3', 834),
    (7, 'alt', 2): ('74235cce738a9ea8ba733bac2d4996d24a029ba79df672acdfeb4935aeec755b', '23affb36d62f764881f3bcb9b282f28da487c5541a502f521d9f6e64329d126e', 1300),
    (9, 'default', 0): ('770d7e4a6c58025825eec5d3d9aa8a15d065942f9f98ae512a2b817d2983389f', '65ba73c0097af18edfe1c4de608c9c93cfabca77e065e3c9a5f1bb4f439d0984', 1616),
    (9, 'default', 1): ('120f316229df48434843fd9679563c4b3e7db698d7042e73b859f0686522a067', '2eef5efaaeb18944c2cab9abcf720a70f12c3413d5fe4d6983b94b9211ec9e61', 2026),
    (9, 'default', 2): ('8ccc66b9bd06fdbbe3efe7be3ebaf2125bddcf0f47046eeebc9d44e0d2d4c675', '26477d16638fe150285df69df0de88d789da0038e83b2c4a233a865a6a3c67af', 1280),
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
