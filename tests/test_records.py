"""Records replay exactly, survive msgpack, and refuse tampering."""

from __future__ import annotations

import random

import msgpack
import pytest

from engine import ChoiceError, Game, GameConfig, IllegalOption, NoPrompt, StalePrompt, playable_configs
from engine.prompts import Prompt
from engine.selfplay import play, play_prompts
from net.records import RecordError, pack_record, unpack_record

CONFIGS = playable_configs(False)


def random_decider(seed: int):
    rng = random.Random(seed)

    def decide(seat: int, v: dict) -> str:
        prompt = v["prompt"]
        if prompt["kind"] == "response" and rng.random() < 0.7:
            return str(prompt["default"])
        return str(rng.choice(prompt["options"])["id"])

    return decide


def random_game(k: int) -> Game:
    players, identities = CONFIGS[k % len(CONFIGS)]
    return play(GameConfig(players=players, identities=identities), 1000 + k, random_decider(k), check=False)


@pytest.mark.parametrize("chunk", range(4))
def test_replay_reproduces_the_final_state(chunk: int) -> None:
    for k in range(chunk * 40, chunk * 40 + 40):
        game = random_game(k)
        replayed = Game.replay(game.record())
        assert replayed.over
        assert replayed.state_hash() == game.state_hash()
        assert replayed.state.winners == game.state.winners


CHARACTER_CONFIGS = playable_configs(True)


def character_game(k: int) -> Game:
    """A random game with characters: the pick, skills, tasks; a random option often a skill."""
    players, identities = CHARACTER_CONFIGS[k % len(CHARACTER_CONFIGS)]
    rng = random.Random(k)

    def pick(prompt: Prompt) -> str:
        skills = [o.id for o in prompt.options if o.verb in ("skill", "use")]
        if skills and rng.random() < 0.4:
            return rng.choice(skills)
        if prompt.kind == "response" and rng.random() < 0.7:
            return str(prompt.default)
        return rng.choice(prompt.options).id

    return play_prompts(GameConfig(players=players, identities=identities, characters=True), 3000 + k, pick,
                        check=False)


@pytest.mark.parametrize("chunk", range(2))
def test_replay_with_characters_reproduces_the_final_state(chunk: int) -> None:
    for k in range(chunk * 30, chunk * 30 + 30):
        game = character_game(k)
        replayed = Game.replay(game.record())
        assert replayed.over
        assert replayed.state_hash() == game.state_hash()
        assert replayed.events == game.events  # secret parts and who saw them included
        assert [p.character for p in replayed.state.seats] == [p.character for p in game.state.seats]
        assert replayed.state.winners == game.state.winners


def test_the_state_hash_of_a_character_game_covers_the_characters() -> None:
    game = character_game(1)
    before = game.state_hash()
    game.state.seats[0].face_up = not game.state.seats[0].face_up
    assert game.state_hash() != before


def test_a_character_record_round_trips_through_msgpack() -> None:
    for k in range(5):
        game = character_game(k)
        record = game.record()
        assert record["config"]["characters"] is True  # type: ignore[index]
        assert Game.replay(unpack_record(pack_record(record))).state_hash() == game.state_hash()


def test_record_round_trips_through_msgpack() -> None:
    for k in range(20):
        game = random_game(k)
        record = game.record()
        data = pack_record(record)
        assert unpack_record(data) == record
        assert Game.replay(unpack_record(data)).state_hash() == game.state_hash()


def tampered(record: dict, index: int, position: int, value: object) -> dict:
    choices = [list(c) for c in record["choices"]]
    choices[index][position] = value
    return {**record, "choices": choices}


def test_a_tampered_choice_is_refused() -> None:
    game = random_game(3)
    record = game.record()
    n = len(record["choices"])  # type: ignore[arg-type]
    rng = random.Random(7)
    for index in rng.sample(range(n), 10):
        seat, prompt_id, option_id = record["choices"][index]  # type: ignore[index]
        with pytest.raises(IllegalOption):
            Game.replay(tampered(record, index, 2, "play:9999"))
        with pytest.raises(StalePrompt):
            Game.replay(tampered(record, index, 1, prompt_id + 100_000))
        other = next(s for s in range(game.n()) if s != seat)
        with pytest.raises(ChoiceError):
            Game.replay(tampered(record, index, 0, other))
    with pytest.raises(NoPrompt):
        Game.replay(tampered(record, 0, 0, 99))


def test_a_choice_with_a_different_legal_option_diverges_or_is_refused() -> None:
    """Swapping one recorded option for another option of the same prompt changes the game."""
    game = random_game(5)
    record = game.record()
    probe = Game.new(GameConfig.from_dict(record["config"]), int(record["seed"]))  # type: ignore[arg-type, call-overload]
    choices: list = record["choices"]  # type: ignore[assignment]
    for index, (seat, prompt_id, option_id) in enumerate(choices):
        prompt = probe.prompts[seat]
        others = [o.id for o in prompt.options if o.id != option_id]
        if others:
            try:
                changed = Game.replay(tampered(record, index, 2, others[0]))
            except ChoiceError:
                return
            assert changed.state_hash() != game.state_hash()
            return
        probe.choose(seat, prompt_id, option_id)
    pytest.fail("no prompt with two options in the whole game")


@pytest.mark.parametrize("data", [
    b"",
    b"\xc1",
    msgpack.packb([1, 2, 3]),
    msgpack.packb({"config": {}, "seed": 1}),
    msgpack.packb({"config": {}, "seed": "1", "choices": []}),
    msgpack.packb({"config": {}, "seed": 1, "choices": [[0, 1]]}),
    msgpack.packb({"config": {}, "seed": 1, "choices": [[0, 1, b"end"]]}, use_bin_type=True),
    msgpack.packb({"config": {}, "seed": 1, "choices": []}) + b"\x00",
    msgpack.packb({"config": {}, "seed": 1, "choices": [], 1: 2}, strict_types=False),
    msgpack.packb({"config": {"a": msgpack.ExtType(1, b"x")}, "seed": 1, "choices": []}),
    msgpack.packb({"config": {}, "seed": True, "choices": []}),
])
def test_bad_bytes_are_a_record_error(data: bytes) -> None:
    with pytest.raises(RecordError):
        unpack_record(data)
