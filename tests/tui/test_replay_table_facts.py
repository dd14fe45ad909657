"""A replay shows the table as it was at each step, not as it ended: a seat handed to a bot (托管)
late in the game, or a pause, must not mark the replay from its first step."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine import events_for, view
from fengsheng_tui.app import FengshengApp
from fengsheng_tui.local_game import start_local_table
from fengsheng_tui.replay_model import load_replay
from fengsheng_tui.screens.game_over import GameOverScreen
from fengsheng_tui.screens.replay import ReplayScreen
from fengsheng_tui.session import NetSession

from .screen_text import screen_text
from .states import frames_of, play_until
from .waiting import wait_until


async def test_a_seat_put_on_auto_play_during_the_game_is_not_shown_on_auto_from_the_start(tmp_path: Path) -> None:
    quick = dict.fromkeys(("play", "send", "response", "receive", "probe_discard", "turn_window"), 0.05)
    local = await start_local_table(4, seed=5, bot_level="random", bot_delay=0.0, replay_dir=None, timers=quick)
    own = tmp_path / "own"
    try:
        session = NetSession("127.0.0.1", local.port, "Me", token=local.host_token)
        app = FengshengApp(session, lang="en", keymap={}, keep_replays=own)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: app.state.view and app.state.view.get("turn", 0) >= 2, timeout=30)
            await pilot.press("m")  # 托管 from turn 2 on
            await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen), timeout=60)
            seat = app.state.seat
            assert seat is not None
    finally:
        await local.close()
    (kept,) = own.glob("*.replay")
    replay = load_replay(kept)
    assert replay["final"]["seats"][seat]["auto"]  # the game ended with the seat on 托管

    app = FengshengApp(lang="en", replay=replay, keymap={})
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen) and screen.step == 1
        view = screen.state_at().view or {}
        assert not any(s.get("auto") for s in view["seats"])
        assert view.get("paused") is None and not view.get("fast_forward")
        text = screen_text(app)
        assert "Auto-play on" not in text and "[auto]" not in text
        # The frames keep 托管: it shows from the step it began (turn 2), and not before.
        frames = replay["frames"]
        began = next(i for i, f in enumerate(frames) if seat in f.get("auto", []))
        assert not any(seat in f.get("auto", []) for f in frames[:began])
        turn_two = next(i + 1 for i, ev in enumerate(replay["events"]) if ev.get("kind") == "turn_start"
                        and ev.get("turn") == 2)
        assert frames[began]["at"] >= turn_two
        screen.show_step(frames[began]["at"])
        await wait_until(pilot, lambda: "Auto-play on" in screen_text(app) and "[auto]" in screen_text(app))
        assert (screen.state_at().view or {})["seats"][seat]["auto"] is True
        screen.show_step(frames[began]["at"] - 1)
        await wait_until(pilot, lambda: "Auto-play on" not in screen_text(app))


async def test_a_replay_reads_as_a_record_in_both_languages() -> None:
    """Turn 1 from the first event (the deal), "Alice's turn", "this step", "you were to decide":
    never a live call to act (your move, playable now, a countdown) in either language."""
    game = play_until(3, lambda g: False)
    replay = {"seat": 2, "table": "t", "events": events_for(game, 2, 0), "final": view(game, 2),
              "frames": frames_of(game, 2)}
    live = {"zh": ("轮到你了", "现在可用", "刚才", "第0回合", "⏳"), "en": ("Your move", "now", "Last:", "Turn 0", "⏳")}
    record = {"zh": ("第1回合", "老王的回合", "发牌", "这一步：", "你当时要决定：响应"),
              "en": ("Turn 1", "老王's turn", "deal", "This step: ", "you were to decide: respond")}
    for lang in ("zh", "en"):
        seen = await replay_screens(replay, lang)
        first, decision = seen[0], seen[1]
        turn, whose, phase, step, deciding = record[lang]
        assert turn in first and whose in first and phase in first and step in first
        assert deciding in decision
        for text in seen:
            for word in live[lang]:
                assert word not in text, (lang, word, text)


async def replay_screens(replay: dict[str, Any], lang: str) -> list[str]:
    """The viewer's screen at the first step, then after each of a few jumps."""
    app = FengshengApp(lang=lang, replay=replay, keymap={})
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen))
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        seen = [screen_text(app)]
        for key in ("n", "n", "down", "n", "end"):
            shown = (screen.step, screen.frame)
            await pilot.press(key)
            await wait_until(pilot, lambda shown=shown: (screen.step, screen.frame) != shown)
            seen.append(screen_text(app))
    return seen


def test_a_frame_from_an_earlier_turn_shows_no_message_stack_or_decision_of_that_turn() -> None:
    """A client takes a frame per update, and an update may carry a whole turn's events: a step
    after a later turn's start must not show the last turn's travelling message, its stack, or
    "you were to decide" for a prompt long closed (nor a message taken in since the frame)."""
    from fengsheng_tui.replay_model import frame_index, view_at

    game = play_until(3, lambda g: False)
    frames = frames_of(game, 2)
    sparse = [f for i, f in enumerate(frames) if i % 7 == 0]  # as if updates came in big batches
    replay = {"seat": 2, "table": "t", "events": events_for(game, 2, 0), "final": view(game, 2), "frames": sparse}
    events = replay["events"]
    checked = 0
    for step in range(1, len(events)):
        index = frame_index(replay, step)
        if index is None:
            continue
        later = {ev["kind"] for ev in events[sparse[index]["at"]:step]}
        shown = view_at(replay, step)
        if "turn_start" in later:
            assert shown["message"] is None and shown["stack"] == [] and shown["deciding"] is None, step
            checked += 1
        elif later & {"received", "message_discarded", "cannot_send"}:
            assert shown["message"] is None, step
    assert checked > 5
