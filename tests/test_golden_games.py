"""Pinned final states of seeded random games: engine speed-ups must not change behaviour.

A pin changes only when a rule fix changes what a game does; regenerate with
`.venv/bin/python tests/test_golden_games.py` and say which rule fix moved them.
"""

from __future__ import annotations

import hashlib
import json

import pytest

from bots.random_bot import random_decider
from engine import GameConfig, events_for
from engine.selfplay import play

# (players, identities, seed) -> (final state_hash, hash of every seat's event log, decisions)
GOLDEN: dict[tuple[int, str, int], tuple[str, str, int]] = {
    (4, 'novice', 0): ('51ca9b55aecaa27da5921be7e44608468602dd6a3220f8545d17d54a70536f39', 'a990fd9964bcf931de6060192cf492e362a025064a891e97ba5ed0a4a48a859b', 410),
    (4, 'novice', 1): ('d9735bb862b19e9b9415edf34677fc8444b176f57ccebe9938e353c2680cfc3c', '0eac855c3d09314f42bfeacc87f1956e3960c2edb7aefb7cfb91958add7c671a', 429),
    (4, 'novice', 2): ('cf81d7a4b4fa0ee31921e557d152c220959905b8cca88b4fc0c6822fad511b30', 'f11fefa863dbf96d3df38a38c1c5f069f909842df0de3debdfdde4880e9c63ee', 532),
    (4, 'novice', 3): ('da65bb6782aab7265c38bfdce049f54036f883720625d8aa1c97ab83d1d2339a', 'e67926d83f8cee2565c7f48a5c784e9583ec5ff0d90ad3149ff6982ff5f4c26a', 185),
    (4, 'novice', 4): ('d05aadc088f4903fcc12e9dcce1b4c12da8b3b08011f4c17c72987155d28b768', 'c202ee85dfbcefbefc01ddded123afb315d5bb89562925574ac3a4f49951b1c4', 227),
    (4, 'novice', 5): ('7018dacee642ed1ff9053f056aa2aca9913885c07129952707d2252dc0673b17', 'cde1c1a17b9b7c095fd070fef18a231978d8273b81f2c2245cd5b7a3604cd72b', 324),
    (4, 'novice', 6): ('55f7a4accacd790a7d3c412d742f7301913d8267edcaeb6056a2782999c38474', 'f870057a3251231f2f795c2364c468d0f511c784f5fa2f6140cbab9b42bd984a', 214),
    (4, 'novice', 7): ('1bed6250923ef5095f339a677e2b312a4dfe376b358b761ba62db550dd32113c', '800655dcbe029ef4777ac088ec7ed83cc35348b721e6afeec1415d2e03bf67c7', 379),
    (4, 'novice', 8): ('eefd7fe8447f33576fe070e56a50b74a45374418a47d823c60af973cae98afb2', '8d831500edf0459449d3ddd5b29dc62eaea9c6c276b068a53be4375791b0637d', 279),
    (4, 'novice', 9): ('415be8aad2249b71aa929c3c99413d958c4a47c815bcea69b8f4e4c46f046106', '2a9d267d35ccde419a774a6a52284c80d9243f24e3f106ab51d682da617b2df1', 370),
    (6, '3v3', 0): ('054332769a483370b6744b26bb697c8a47aa89ec444e435bafbcf394d6a4afd7', '4d2638937d3b140882de5380d434df867551624b93ee7784910187f1b4d9433c', 413),
    (6, '3v3', 1): ('98ae9d6db064ad7733a5fe35de533e87026a39a437d041479cc09889536e0ef9', '334c8b2a5b5b94673e6cd703fb7112812473dbff5b69328d9b70a76dbbae41ad', 582),
    (6, '3v3', 2): ('29db42edb5172afc6d6cb97b7fdf29729636fa428660d6449a45bc3c14127943', '74323a4b9fab20a46f9ecf40354a921c87a29db5f5cdd7ecd6b93b3c5a7c3ca7', 426),
    (6, '3v3', 3): ('c3dd6345b258e8af42b268b4877e57fc32931822ef765e30536d2d9fe3c35437', '4ae43cbfbc74c4ece33db8051318483611400f9d5e3becdb41081c901ea802d3', 668),
    (6, '3v3', 4): ('f416fdd19855320da03d00bbb9ea5746c14cb542d5abc1545a4e57b721bbbf72', '9c30f450ba5a8186ff252b1541c0b7960817a33651a002ee340f322a67a7eeca', 356),
    (6, '3v3', 5): ('d5c605e69b3a93e8200791b4e2e94e0c9c4197ffa057097846056df1f54ac80a', '7994af7b6458e5acfd7c04910ee458ee9156e18584a7235b8ef9b97d4abe6483', 452),
    (6, '3v3', 6): ('e3ed8aab5d92863e31ee71a37bc0c99e1b5b8912104c4ced5df837597232a071', '52cb57dcd91840546629ba6c07f868e84937a479851cbbe3abbef36c9f277548', 632),
    (6, '3v3', 7): ('5a34591ab831a5384a404066a324f10ae5471e94e106b118b7a42883569df958', '84df7befdfbde76d7fbf7f52a0a0d45049f453a5b93d0b958c92f3b164a282b7', 618),
    (6, '3v3', 8): ('c479cbd3fca5b82890a9c2b46a7880027ccdfa2a9c0ff88782e994d4e81f0c45', '776887ea34c87219b95a3deeda97cb842b0db30477a12024017fd700adfd5467', 682),
    (6, '3v3', 9): ('23ce8c896feefea0589c788340135deddb79d9607ccc3b8641099391b7e8d086', 'a33dd68962736238c0bea30dfbef51f74947643ccbe37e7e5e5da445d923c2d0', 1034),
}


# The same with characters (the pick, skills and secret tasks), a few configurations of 3–9 players.
GOLDEN_CHARACTERS: dict[tuple[int, str, int], tuple[str, str, int]] = {
    (3, 'default', 0): ('a4618e1fc1678ba9b4df8cd8bcb971bb7f19269bdc3669b91f8620e4ee438149', '09b9f8b7b0a7271b1b3af4c5adbec1997fd1a2d6bcabe8555273be12b1b41301', 359),
    (3, 'default', 1): ('7170c3b3aa5d47eca01cc753833c55c56d3b0ad05746f6bb92cdf45a5e5728a7', 'be37ac66185775d41fdafe69a5df9367cdc32e9d8e2b6ac13c012f6b867e6362', 189),
    (3, 'default', 2): ('93456b7ae27c4b350b6b91f37b4284d42463debe1356a52152728525bc45b35c', '953b92e8fc6c89b2ee6c69f8d76c8bf724d1d0586e51c984667de77cba930a46', 295),
    (5, 'default', 0): ('a76bf82122b5e057290471d033d1402e1be10ce67e371fc54f268398bfbe76a0', 'da264800e3ba802239e0c25bb21adfe06214cbef55366a74a46a1c9f26930708', 520),
    (5, 'default', 1): ('c6c64c03ee6f467672db7bee1f4f96ad67f791852abf29c29d26b415dc4f6be7', '2f5a1a148e1ec82fab43d1b248a7ff1dbee918277c77643cf55f3ded861c16ee', 565),
    (5, 'default', 2): ('660bddd42ebaed80b5152b2ba20ec1b1e12948d0a49db23f444de7e5381bfdd2', '02437221c99cc4bdda33d03693d92a87a24fd7d8235ae3431ae7c24b7fc185ef', 518),
    (6, '3v3', 0): ('f42ba5f9ebca5b228a5b4f6c465d07bc645b0a12a5297c87defa6c115d591c1a', '3de76b7b9dc61cd3f0cf179b9d4d618f7ec7d61fba26d1ada847492b2c010126', 533),
    (6, '3v3', 1): ('0499b4793602888a9349a907c90246dcd2defd6f006128bdacdcf95a34f6e657', '3751a47bdaee04d2ddb96d3d6277fdfa99cc69f19149a8e4b678d9bf725b9f14', 857),
    (6, '3v3', 2): ('e7661176c125b3171089e29ed9c9b4b426502dd9c5e415c52a4d0eafde3ca80f', '628ea754e18438f771ecd393c21531d5f080262597d56dbd59829f96feaefb27', 453),
    (7, 'alt', 0): ('ead7e3f1a76ed4cb5ffab2591eae0d5a7e5c27ddd8bd38c4b9a8c6310087f116', '5f0d1a9d681b95c0a7011cdf9a91b4ceebbab8fde353cf560ef6cb9327025d8d', 1121),
    (7, 'alt', 1): ('b88b96a1d2af06dcc7bcdf017ca623b6e18dbf997fa2a9c4934d7748278abe41', '5ec16ff111ecce55e3ee40aca36f30039aac0acef37ea0dcef20ca91c43a38a9', 621),
    (7, 'alt', 2): ('fd3902ac040d59b537feac560cee5df1f69e14175c5e084ff94433fdc91fd0e0', '8c5d4c44a924bad5663f320e4ac2dd63eddaab45e6feacb9a72e539f628a3505', 914),
    (9, 'default', 0): ('516261b889e585b29d8dae622ba225d44bbaaf8763136a6d582f1402c6a60ec5', '1266986e8e96a37ff4c1693a2e0b5748724de8cf422c134b6a013fc100560229', 1326),
    (9, 'default', 1): ('4ee849f5885374e3d68d0b94d144136dbf13e8e8ecf4e7b9b4f7b9c1aec89844', 'e8baedb1df58e6594c4e5f2c5908a6f535c0bb38253555048896a0a79186aa25', 1169),
    (9, 'default', 2): ('00d2d570732e97411799b6085f43f7f5d13984b2c9f9d0114ccedcaa946ca549', 'b03c02a717ac29910cb831ce892dc5b2ea27f40e7539fd29370e03bd499f59a9', 887),
}
CHARACTER_PINS = [(3, "default"), (5, "default"), (6, "3v3"), (7, "alt"), (9, "default")]


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
