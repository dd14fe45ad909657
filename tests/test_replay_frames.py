"""A server-written replay carries frames: what each seat saw between events (its hand, the
travelling message, the stack, its open prompt), so the viewer shows them at every step; each
seat's frames are exactly views it was sent, never another seat's."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
from test_journal_integrity import finished_game

from engine import Game, GameConfig, view
from engine.view import table_facts
from fengsheng_tui.replay_model import load_replay
from net.client import Client
from net.records import unpack_record
from net.replays import FrameLog, add_frame, frame_of
from net.server import GameServer
from net.table import Table


async def test_each_seats_replay_holds_the_frames_that_seat_saw(tmp_path: Path) -> None:
    table, journal, _ = await finished_game(tmp_path)
    record = unpack_record(journal.with_suffix(".record").read_bytes())
    # Every view each seat could have been sent, after each choice.
    game = Game.new(GameConfig.from_dict(record["config"]), int(record["seed"]))
    possible: dict[int | None, list[dict[str, object]]] = {seat: [] for seat in [*range(4), None]}
    for choice in [None, *record["choices"]]:
        if choice is not None:
            game.choose(int(choice[0]), int(choice[1]), str(choice[2]))
        for seat in possible:
            possible[seat].append(frame_of(view(game, seat), len(game.events)))
    prompted = set()
    for seat, label in [*((s, f"seat{s}") for s in range(4)), (None, "public")]:
        replay = load_replay(journal.with_suffix(f".{label}.replay"))
        frames = replay["frames"]
        assert len(frames) > 10
        assert any(f["message"] for f in frames) and any(f["stack"] for f in frames)
        if seat is not None:
            assert any(f["hand"] for f in frames)
            if any(f["prompt"] for f in frames):
                prompted.add(seat)
        else:
            assert not any(f["hand"] or f["prompt"] for f in frames)  # a spectator holds no cards
        for frame in frames:
            assert frame in possible[seat]  # a view of this seat's, at that moment
    # The client's seat was sent its prompts (a bot answers its own before the frames go out).
    assert prompted


async def test_a_server_replay_keeps_when_a_seat_was_on_auto_play(tmp_path: Path) -> None:
    """No event records 托管: the frames do, so a replay shows it at the steps where it applied."""
    table = Table("t", players=4, bot_delay=0, data_dir=tmp_path, auto_start=True, seed=21,
                  timers=dict.fromkeys(("play", "send", "response", "receive", "probe_discard"), 60.0))
    for _ in range(3):
        table.add_bot()
    server = GameServer("127.0.0.1", 0)
    server.add_table(table)
    await server.start()
    try:
        me = Client()
        await me.connect("127.0.0.1", server.port, "me")
        seat = me.seat
        async with asyncio.timeout(30):
            while True:  # our first prompt, then 托管 for the rest of the game
                msg = await me.recv()
                assert msg is not None
                if msg["type"] == "update" and msg["view"]["prompt"] is not None:
                    break
            at = len(table.game.events) if table.game is not None else 0
            await me.auto(True)
            while not (table.game is not None and table.game.over):
                await asyncio.sleep(0.05)
        await me.close()
    finally:
        await server.close()
    (journal,) = tmp_path.glob("*.journal")
    for label in (f"seat{seat}", "public", f"seat{(seat + 1) % 4}"):  # everyone saw the seat marked
        frames = load_replay(journal.with_suffix(f".{label}.replay"))["frames"]
        before = [f for f in frames if f["at"] <= at]
        after = [f for f in frames if f["at"] > at]
        assert before and after, label
        assert not any(f["auto"] for f in before) and all(f["auto"] == [seat] for f in after), label


@pytest.mark.parametrize(("players", "identities", "characters", "seeds"), [
    (9, "default", True, range(1, 3)), (6, "3v3", False, range(1, 3)), (5, "default", True, range(4, 6)),
])
def test_the_frames_a_table_takes_are_each_seats_whole_view_cut_down(
        players: int, identities: str, characters: bool, seeds: range) -> None:
    """`FrameLog.take` builds each frame from what it shows alone (and keeps what it read while the
    game's stamp stays): at every step of whole games, through passes that leave a window open, a
    probe on the stack, a message only some seats saw and seats going on and off 托管, its frames
    are those `frame_of` cuts from every seat's whole view."""
    seen: set[str] = set()
    for seed in seeds:
        game = Game.new(GameConfig(players=players, identities=identities, characters=characters), seed)
        rng = random.Random(seed)
        log = FrameLog(players)
        expected: dict[int | None, list[dict[str, object]]] = {seat: [] for seat in [*range(players), None]}
        auto: list[int] = []
        while True:
            log.take(game, auto)
            for seat, frames in expected.items():
                add_frame(frames, frame_of(view(game, seat), len(game.events), auto))
            assert {seat: (len(frames), frames[-1]) for seat, frames in log.frames.items()} \
                == {seat: (len(frames), frames[-1]) for seat, frames in expected.items()}
            owns = table_facts(game)[1]
            seen |= {name for name, hit in (("secret message", any(f[6] is not None for f in owns)),
                                            ("probe", any(f[7] is not None for f in owns)),
                                            ("auto", bool(auto))) if hit}
            if game.over:
                break
            if rng.random() < 0.05:
                auto = sorted(rng.sample(range(players), rng.randrange(3)), reverse=True)
            prompt = rng.choice(game.pending())
            stamp = game.stamp
            game.choose(prompt.seat, prompt.id, rng.choice(prompt.options).id)
            if game.stamp == stamp:
                seen.add("stamp kept")
        assert log.frames == expected
    assert seen == {"secret message", "probe", "auto", "stamp kept"}
