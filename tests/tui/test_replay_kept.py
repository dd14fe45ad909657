"""A remote player keeps his own seat's replay, written by his client from the frames it received
(real TCP on loopback, a server with no data folder: no server file), and steps through it on the
same ring as the live table: the hand, the travelling message and the stack at every step, by
turn and to his next decision, from the first event on."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

import msgpack
import pytest

from engine import events_for
from fengsheng_tui.app import FengshengApp
from fengsheng_tui.commands import replay as replay_command
from fengsheng_tui.local_game import start_local_table
from fengsheng_tui.replay_model import load_replay
from fengsheng_tui.screens.game_over import GameOverScreen
from fengsheng_tui.screens.replay import ReplayScreen
from fengsheng_tui.screens.server_error import ServerErrorScreen
from fengsheng_tui.session import NetSession
from fengsheng_tui.widgets.hand import HandPanel
from fengsheng_tui.widgets.message_path import MessagePath
from fengsheng_tui.widgets.ring import Ring
from fengsheng_tui.widgets.stack import StackView

from .screen_text import screen_text, widget_text
from .waiting import wait_until


async def keep_a_replay(tmp_path: Path) -> tuple[Path, list[dict[str, Any]], int]:
    """Play a whole game as a remote client of a server that keeps no files; the replay the
    client kept, the events the server projected for its seat, and the seat."""
    # Short timers: our own decisions time out to their defaults, so no key needs pressing.
    quick = dict.fromkeys(("play", "send", "response", "receive", "probe_discard", "turn_window"), 0.02)
    local = await start_local_table(4, seed=5, bot_level="random", bot_delay=0.0, replay_dir=None, timers=quick)
    own = tmp_path / "own"
    try:
        session = NetSession("127.0.0.1", local.port, "Me", token=local.host_token)
        app = FengshengApp(session, lang="en", keymap={}, keep_replays=own)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen), timeout=60)
            seat = app.state.seat
            assert seat is not None
            (kept,) = own.glob("*.replay")
            assert kept.name.endswith(f".seat{seat}.replay")
            assert kept.name in " ".join(screen_text(app).split())  # the game over names it
            game = local.table.game
            assert game is not None
            projected = events_for(game, seat, 0)
    finally:
        await local.close()
    return kept, projected, seat


async def test_a_remote_player_keeps_his_own_seats_replay_and_steps_through_it(tmp_path: Path) -> None:
    kept, projected, seat = await keep_a_replay(tmp_path)
    replay = load_replay(kept)
    assert replay["seat"] == seat
    assert replay["events"] == projected  # exactly what that seat was shown, nothing more
    frames = replay["frames"]
    assert len(frames) > 10 and any(f["prompt"] for f in frames) and any(f["message"] for f in frames)
    assert any(f["stack"] for f in frames)
    assert replay["final"]["over"] and replay["final"]["seat"] == seat

    # It is what `fengsheng replay --last` opens: the newest, on our own seat.
    tables = tmp_path / "tables"
    tables.mkdir()
    older = tables / "old-20260101-000000-00001.public.replay"
    older.write_bytes(b"x")
    os.utime(older, (1000, 1000))
    assert replay_command.newest_replay(tables, kept.parent) == kept

    # Stepped through on the ring: the hand, the message and the stack at every step.
    app = FengshengApp(lang="en", replay=replay, keymap={})
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        assert screen.step == 1  # the first event, not an empty table before it
        assert "step 1/" in screen_text(app)
        assert screen.query_one(Ring).boxes  # the live table's ring, our seat at the bottom
        assert screen.query_one(Ring).bottom == seat
        hands, messages, stacks = set(), 0, 0
        for step in range(1, len(replay["events"]) + 1):
            drawn = step % 4 == 0
            if step % 40 == 0:
                await pilot.press("right")
            elif drawn:
                screen.show_step(step)  # the same as → pressed, without a key's round trip
            else:
                screen.step = step  # the model alone: what the ring would draw at this step
            assert screen.step == step
            view = screen.state_at().view or {}
            # Our box agrees with our hand, from the first event on (before the first frame: our deal).
            assert view["seats"][seat]["hand_count"] == len(view["hand"]), step
            if view.get("hand"):
                hands.add(tuple(c["id"] for c in view["hand"]))
                if drawn:  # the screen paints after the step: wait for it (a layout change takes a frame)
                    await wait_until(pilot, lambda: "1 " in widget_text(app, "HandPanel"), 5, f"hand at {step}")
            if view.get("message"):
                messages += 1
                if drawn:
                    await wait_until(pilot, lambda: "sent by" in widget_text(app, "MessagePath"), 5,
                                     f"message at {step}")
            if view.get("stack"):
                stacks += 1
        assert len(hands) > 3 and messages > 3 and stacks > 0
        await pilot.press("home")
        assert screen.step == 1
        # ↓ to the next turn: the step after a turn_start event.
        await pilot.press("down")
        assert replay["events"][screen.step - 1]["kind"] == "turn_start"
        # n to our next decision: the frame where our prompt opened, said on the step line.
        await pilot.press("home", "n")
        frame = replay["frames"][screen.shown_frame()]
        assert frame["prompt"] is not None and screen.step == frame["at"]
        assert "you were to decide" in screen_text(app)
        assert isinstance(screen.query_one(HandPanel), HandPanel)
        assert screen.query_one(MessagePath) and screen.query_one(StackView)


def run_replay(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    args = argparse.Namespace(file=path, last=False, list=False, lang="en", mono=None)
    code = replay_command.run(args)
    return code, capsys.readouterr().err


@pytest.mark.parametrize("damage", ["garbage", "truncated", "list", "bad_frame", "frame_order", "ext"])
def test_a_damaged_replay_gives_a_clear_error_never_a_traceback(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], damage: str) -> None:
    from engine import Game, GameConfig, view
    from net.replays import frame_of

    game = Game.new(GameConfig(players=4, identities="novice"), 1)
    v = view(game, 0)
    good = {"table": "t", "seat": 0, "config": {}, "events": events_for(game, 0, 0), "final": v,
            "frames": [frame_of(v, 3)]}
    path = tmp_path / "x.seat0.replay"
    if damage == "garbage":
        data = os.urandom(200)
    elif damage == "truncated":
        data = msgpack.packb(good)[:-40]
    elif damage == "list":
        data = msgpack.packb([1, 2, 3])
    elif damage == "bad_frame":
        data = msgpack.packb({**good, "frames": [{"at": 1, "hand": [{"colour": 5}]}]})
    elif damage == "frame_order":
        data = msgpack.packb({**good, "frames": [frame_of(v, 3), frame_of(v, 1)]})
    else:
        data = msgpack.packb(msgpack.ExtType(3, b"boom"))
    path.write_bytes(data)
    code, err = run_replay(path, capsys)
    assert code == 1 and err.startswith("fengsheng replay: ") and "Traceback" not in err
    assert str(path) in err


async def hostile_game_over(tmp_path: Path, names: tuple[str, ...], line: str) -> tuple[type, Path]:
    """A hostile server on loopback sends a whole game with these seat names and a probe line;
    the client (keeping replays in `tmp_path/own`) plays nothing. Returns the screen it ended on
    and that folder."""
    from hostile_server import HostileServer, frame

    from engine import Game, GameConfig
    from engine import view as engine_view
    from net import protocol as P

    game = Game.new(GameConfig(players=4, identities="novice", names=names), 0)
    middle = engine_view(game, 0)
    while not game.over:
        prompt = min(game.pending(), key=lambda p: game.priority_key(p.seat))
        game.choose(prompt.seat, prompt.id, prompt.default)
    events = events_for(game, 0, 0)
    events[1] = {**events[1], "line": line}
    welcome = {"type": "welcome", "version": P.PROTOCOL_VERSION, "seat": 0, "token": "tok", "table": "t",
               "host": False}
    case = [frame(welcome), frame({"type": "update", "view": middle, "events": events[:5]}),
            frame({"type": "update", "view": engine_view(game, 0), "events": events[5:]})]
    server = await HostileServer(case).start()
    own = tmp_path / "own"
    app = FengshengApp(NetSession("127.0.0.1", server.port, "victim"), lang="en", keymap={}, keep_replays=own)
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen | ServerErrorScreen))
            ended = type(app.screen)
    finally:
        await server.close()
    return ended, own


async def test_a_replay_kept_from_a_hostile_servers_frames_is_checked_like_them(tmp_path: Path) -> None:
    """What the client's schema refuses (a control or format character in a name or a line) ends on
    the error screen and no replay is kept of it; markup that keeps to the schema reaches the kept
    replay as plain text, and the file opens as inert text (no style, no click)."""
    from fengsheng_tui.replay_model import check_replay

    from .test_safe_text import assert_inert

    ended, own = await hostile_game_over(tmp_path / "a", ("\x1b]0;pwned\x07老王", "Alice", "小李", "Bob"), "x")
    assert ended is ServerErrorScreen and not list(own.glob("*.replay"))

    ended, own = await hostile_game_over(tmp_path / "b", ("[@click=app.quit()]x", "[/]", "[bold red on white]X", "{kind}"),
                                       "[@click=app.screenshot()]look")
    assert ended is GameOverScreen
    (kept,) = own.glob("*.replay")
    replay = load_replay(kept)
    assert check_replay(replay) is replay and len(replay["frames"]) == 2
    assert [seat["name"] for seat in replay["final"]["seats"]][:2] == ["[@click=app.quit()]x", "[/]"]  # as text
    viewer = FengshengApp(lang="en", replay=replay, keymap={})
    async with viewer.run_test(size=(100, 30)) as pilot:
        for key in ("right", "n", "end", "home", "down"):
            await pilot.press(key)
            assert_inert(viewer)


def test_a_server_sending_updates_without_end_is_kept_within_bounds() -> None:
    from fengsheng_tui import replay_recorder

    recorder = replay_recorder.ReplayRecorder()
    for n in range(replay_recorder.MAX_FRAMES + 100):
        recorder.take({"seat": 0, "hand": [{"id": n}], "message": None, "stack": [], "prompt": None},
                      [{"seq": n, "kind": "drew"}])
    assert len(recorder.frames) == replay_recorder.MAX_FRAMES
    assert len(recorder.events) == replay_recorder.MAX_EVENTS


@pytest.mark.parametrize("padding", ["dense", "large"])
async def test_a_hostile_servers_frames_never_make_a_replay_that_cannot_be_read(tmp_path: Path, padding: str) -> None:
    """Before: a replay the client could not read back was written. Events may carry fields this
    client does not know (a newer server's), unchecked: 30,000 empty arrays in two of them made
    a replay denser than `fengsheng replay` reads, and 84 frames of 200 KB each one over its
    16 MiB cap. Now nothing is written, the player is told why, and the client kept no more
    than the cap of them in memory."""
    from hostile_server import HostileServer, frame

    from engine import Game, GameConfig
    from engine import view as engine_view
    from net import protocol as P
    from net.journal import MAX_REPLAY

    game = Game.new(GameConfig(players=4, identities="novice", names=("老王", "Alice", "小李", "Bob")), 0)
    middle = engine_view(game, 0)
    while not game.over:
        prompt = min(game.pending(), key=lambda p: game.priority_key(p.seat))
        game.choose(prompt.seat, prompt.id, prompt.default)
    events = events_for(game, 0, 0)
    welcome = {"type": "welcome", "version": P.PROTOCOL_VERSION, "seat": 0, "token": "tok", "table": "t",
               "host": False}
    case = [frame(welcome), frame({"type": "update", "view": middle, "events": events[:5]})]
    if padding == "dense":
        case += [frame({"type": "update", "view": middle, "events": [{"kind": "note", "extra": [[]] * 15000}]})
                 for _ in range(2)]  # each frame within the client's 16,384 arrays and maps
    else:
        case += [frame({"type": "update", "view": middle, "events": [{"kind": "note", "extra": "x" * 200_000}]})
                 for _ in range(84)]
    case.append(frame({"type": "update", "view": engine_view(game, 0), "events": events[5:]}))
    server = await HostileServer(case).start()
    own = tmp_path / "own"
    app = FengshengApp(NetSession("127.0.0.1", server.port, "victim"), lang="en", keymap={}, keep_replays=own)
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen | ServerErrorScreen), timeout=60)
            assert isinstance(app.screen, GameOverScreen)
            for kept in own.glob("*.replay"):
                load_replay(kept)  # before: "more arrays or maps than a replay … holds", "over the cap"
            assert not list(own.glob("*.replay"))
            told = " ".join(str(n.message) for n in app._notifications)
            assert "This game's replay was not kept:" in told, told
            recorder = app.state.recorder
            assert sum(len(msgpack.packb(e)) for e in recorder.events) <= MAX_REPLAY
    finally:
        await server.close()
