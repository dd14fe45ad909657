"""Findings of a second new-user playtest: the seat rows at 80 columns, a refused join, words."""

from __future__ import annotations

import argparse
import asyncio
import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from rich.text import Text

from bots import make_bot
from engine import Game, GameConfig, events_for, view
from engine.cards import SEE_THROUGH
from fengsheng_tui.app import FengshengApp
from fengsheng_tui.character_data import base_characters
from fengsheng_tui.commands import play
from fengsheng_tui.i18n import Words
from fengsheng_tui.replay_model import view_at
from fengsheng_tui.screens.help import character_reference
from fengsheng_tui.screens.lobby import LobbyScreen
from fengsheng_tui.session import NetSession
from fengsheng_tui.widgets.message_path import MessagePath
from net.client import Client
from net.server import GameServer
from net.table import DEFAULT_TIMERS, Table

from .screen_text import cells, counts_forms, screen_text, widget_text
from .states import ScriptedSession, play_until, update, welcome
from .test_lobby_host import VENV_BIN, wait_for
from .test_playtest import app_for
from .waiting import wait_until


def seat_rows(app: FengshengApp) -> list[str]:
    """What each seat's box on the ring shows, by seat index (one string per seat)."""
    return [widget_text(app, f".seat-{i}") for i in range(len(app.state.seats))]


# ------------------------------------------------------------------ 1. the seat rows at 80 columns


def six_seats(characters: bool) -> Game:
    """A 6-seat game with a dead seat (its identity shown) and a locked seat, seat 0 alive."""
    names = ("Player",) + tuple(f"Bot {i}" for i in range(2, 7))
    for seed in range(1, 200):
        game = Game.new(GameConfig(players=6, identities="default" if characters else "3v3", names=names,
                                   characters=characters), seed)
        bots = {s: make_bot("random", s, seed * 7 + s) for s in range(6)}
        while not game.over:
            seats = game.state.seats
            if game.state.locked and any(not s.alive for s in seats) and seats[0].alive:
                return game
            prompt = min(game.pending(), key=lambda p: game.priority_key(p.seat))
            game.choose(prompt.seat, prompt.id, bots[prompt.seat].decide(view(game, prompt.seat)))
    raise AssertionError("no such game")


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("characters", [False, True])
async def test_six_seat_rows_keep_hand_messages_markers_and_countdown_at_80_columns(
        lang: str, characters: bool) -> None:
    game = six_seats(characters)
    words = Words(lang)
    msg = update(game, 0, deadline=12.0)
    app = app_for([welcome(0), msg], lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        rows = seat_rows(app)
        assert len(rows) == 6
        locked = next(iter(game.state.locked))
        waiting = {w["seat"] for w in msg["view"]["waiting"]}
        for seat, row in zip(game.state.seats, rows, strict=True):
            name = words.seat_name(msg["view"]["seats"], seat.index, 0)
            assert name in row, (name, row)
            assert words.cards(len(seat.hand)) + " " in row, row
            counts = counts_forms(words, msg["view"]["seats"][seat.index]["counts"])
            assert any(form in row for form in counts), (counts, row)
            # The flag in the table's one form: `[locked]` in words, `[L]` where the ring is short.
            assert (f"[{words('locked')}]" in row or f"[{words('locked_short')}]" in row) == (seat.index == locked)
            assert ("⏳" + words("countdown", s=12) in row) == (seat.index in waiting), row
            if not seat.alive:
                assert words.identity(seat.identity, short=True) in row


# ------------------------------------------------------------------ 2. a refused join


@pytest.fixture
async def locked_server() -> AsyncIterator[GameServer]:
    srv = GameServer("127.0.0.1", 0)
    srv.add_table(Table("桌", players=4, identities="novice", bot_delay=0.0, password="secret", seed=3))
    await srv.start()
    try:
        yield srv
    finally:
        await srv.close()


@pytest.mark.parametrize(("lang", "reason"), [("en", "Cannot join: Wrong password or seat token"),
                                              ("zh", "无法加入：密码或座位凭证不对")])
async def test_a_refused_join_from_the_lan_lobby_goes_back_there_with_the_reason(
        locked_server: GameServer, lang: str, reason: str) -> None:
    app = FengshengApp(lang=lang, lobby=True, interfaces=[], keymap={})
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
        first = app.screen
        assert isinstance(first, LobbyScreen)
        first.join("127.0.0.1", locked_server.port)
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen is not first)
        await pilot.pause()
        text = screen_text(app)
        assert reason in text and Words(lang)("nothing_to_do") not in text
        assert app.session is None and len(app.screen_stack) == 2


async def test_a_refused_direct_join_exits_with_the_reason_and_code_1(
        locked_server: GameServer, capfd: pytest.CaptureFixture[str]) -> None:
    app = FengshengApp(NetSession("127.0.0.1", locked_server.port, "Me", password="wrong"), lang="en", keymap={})
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.return_code is not None)
    assert app.return_code == 1
    printed = capfd.readouterr()
    assert "Cannot join: Wrong password or seat token (wrong or missing table password)" in printed.err + printed.out


# ------------------------------------------------------------------ 3. words


def see_through_game() -> Game:
    """Seat 0 may answer the stack's top item with a 识破 from its hand."""
    def ready(g: Game) -> bool:
        prompt = g.prompts.get(0)
        return bool(g.state.stack) and prompt is not None and prompt.kind == "response" and any(
            o.card is not None and g.deck[o.card].function == SEE_THROUGH for o in prompt.options)
    for seed in range(1, 400):  # the first seeded game with that moment (rule changes move it)
        game = play_until(seed, ready, players=6)
        if not game.over and ready(game):
            return game
    raise AssertionError("no seed reaches a 识破 answer")


@pytest.mark.parametrize(("lang", "template"), [("en", "cancel {seat}'s {function}"), ("zh", "识破{seat}的【{function}】")])
async def test_a_see_through_option_names_what_it_cancels(lang: str, template: str) -> None:
    game = see_through_game()
    prompt = game.prompts[0]
    option = next(o for o in prompt.options if o.card is not None and game.deck[o.card].function == SEE_THROUGH)
    top = game.state.stack[-1]
    words = Words(lang)
    app = app_for([welcome(0), update(game, 0)], lang)
    app.auto_pass = False
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert option.card is not None
        await pilot.press(str(game.state.seats[0].hand.index(option.card) + 1))
        await pilot.pause()
        seat = words.seat_name(view(game, 0)["seats"], top.user, 0)  # type: ignore[arg-type]
        expected = template.format(seat=seat, function=words.function(top.function))
        assert expected in screen_text(app)


@pytest.mark.parametrize(("lang", "expected"), [("en", "Bot 1 uses Snipe → Bot 3"), ("zh", "机器人1发动【狙击】 → 机器人3")])
def test_a_skill_that_counts_as_itself_is_not_said_twice(lang: str, expected: str) -> None:
    seats = [{"name": f"Bot {i}"} for i in range(1, 5)]
    words = Words(lang)
    assert words.event({"kind": "played", "seat": 0, "card": {"function": "狙击", "skill": "狙击"}, "target": 2},
                       seats, None) == expected
    assert words.event({"kind": "played", "seat": 0, "card": {"function": "识破", "skill": "警觉"}},
                       seats, None) == ("Bot 1 uses Alert (as See Through)" if lang == "en" else "机器人1发动【警觉】（当作识破）")


def test_english_character_texts_name_cards_in_english() -> None:
    lines = [str(t.plain) for t in character_reference(Words("en")) if isinstance(t, Text)]
    rows = "\n".join(skill.summary("en") for info in base_characters().values() for skill in info.skills)
    tasks = "\n".join(info.task("en") or "" for info in base_characters().values())
    for chinese in ("试探", "锁定", "识破", "破译", "密电", "老金"):
        assert chinese not in rows + tasks, chinese
    assert "Probe or Lock" in rows and lines
    assert "【试探】或【锁定】" in "\n".join(skill.summary("zh") for info in base_characters().values() for skill in info.skills)


async def test_the_message_panel_keeps_each_seat_name_on_one_line() -> None:
    names = tuple(f"Bot {i}" for i in range(1, 7))
    game = play_until(3, lambda g: g.state.message is not None and g.state.message.method != "直达"
                      and g.state.message.sender != g.state.message.position, players=6)
    message = game.state.message
    assert message is not None
    msg = update(game, 0)
    for seat, name in zip(msg["view"]["seats"], names, strict=True):
        seat["name"] = name
    app = app_for([welcome(0), msg])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        panel = app.screen.query_one(MessagePath)
        lines = screen_text(app).splitlines()[panel.region.y: panel.region.bottom]
        rows = [cells(line, panel.region.x, panel.region.right).strip() for line in lines]
        text = " ".join(rows)
        assert f"sent by Bot {message.sender + 1}" in text and f"✉Bot {message.position + 1}" in text
        assert not any(row.endswith("Bot") or row[:1].isdigit() for row in rows), rows


# ------------------------------------------------------------------ 4. replay, bot seats


async def test_the_replay_marks_the_first_player_at_step_0() -> None:
    game = play_until(4, lambda g: g.state.turn > 3 and g.state.current != first_player(g))
    first = first_player(game)
    events = events_for(game, 0, 0)
    replay: dict[str, Any] = {"seat": 0, "config": {}, "events": events, "final": view(game, 0)}
    assert view_at(replay, 0)["current"] == first != view_at(replay, len(events))["current"]
    app = FengshengApp(lang="en", keymap={}, replay=replay)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        marked = [line for line in screen_text(app).splitlines() if "▶" in line]
        assert len(marked) == 1 and Words("en").seat_name(replay["final"]["seats"], first, 0) in marked[0]


def first_player(game: Game) -> int:
    seat = next(e["seat"] for e in events_for(game, None, 0) if e["kind"] == "first_player")
    assert isinstance(seat, int)
    return seat


async def test_fengsheng_bot_numbers_seats_from_1_like_the_lobby() -> None:
    srv = GameServer("127.0.0.1", 0)
    table = Table("桌", players=4, identities="novice", bot_delay=0.0, open_host=True, seed=3)
    srv.add_table(table)
    await srv.start()
    human = Client()
    bots = None
    try:
        await human.connect("127.0.0.1", srv.port, "人")
        bots = await asyncio.create_subprocess_exec(
            str(VENV_BIN / "fengsheng"), "bot", "--connect", f"127.0.0.1:{srv.port}", "--delay", "0",
            stdout=asyncio.subprocess.PIPE, env={**os.environ, "PYTHONUNBUFFERED": "1"})
        assert bots.stdout is not None
        line = await asyncio.wait_for(bots.stdout.readline(), 20)
        assert line.decode().strip() == "bot 1 joined table 桌 in seat 2"
    finally:
        if bots is not None:
            bots.terminate()
            await bots.wait()
        await human.close()
        await srv.close()


# ------------------------------------------------------------------ 5. play --timer


async def test_play_passes_its_timers_to_the_table(tmp_path: Path) -> None:
    parser = argparse.ArgumentParser()
    play.add_arguments(parser)
    args = parser.parse_args(["--timer", "response=30", "--timer", "play=90", "--bot-delay", "0"])
    local = await play.start_table(args, tmp_path)
    try:
        assert local.table.timers["response"] == 30 and local.table.timers["play"] == 90
        assert local.table.timers["send"] == DEFAULT_TIMERS["send"]
    finally:
        await local.close()
    assert "--timer KIND=S" in parser.format_help() and "response=30" in parser.format_help()


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_dropped_seat_says_offline_and_then_that_a_bot_plays_it(lang: str) -> None:
    game = play_until(3, lambda g: g.state.turn > 1)
    words = Words(lang)
    msg = update(game, 0)
    seats = msg["view"]["seats"]
    seats[1].update(online=False, bot=False)  # just dropped
    seats[2].update(online=False, bot=True)  # dropped a while ago: a stand-in bot plays it
    seats[3].update(online=True, bot=True)  # a bot the host added
    app = app_for([welcome(0), msg], lang)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        rows = seat_rows(app)
        assert words("offline") in rows[1] and words("standin") not in rows[1]
        assert words("standin") in rows[2]
        assert words("offline") not in rows[3] and words("standin") not in rows[3]


async def test_countdowns_turn_each_second_on_time() -> None:
    """The table clock's deadline, counted down from the frame's arrival: the shown second turns
    within a quarter second of the real one (a once-a-second timer could hold a number for 2 s)."""
    now = [100.0]
    game = play_until(3, lambda g: g.state.turn > 1)
    app = FengshengApp(ScriptedSession([welcome(0), update(game, 0, deadline=10.0)]), lang="en",
                       clock=lambda: now[0], keymap={})
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: "⏳10s" in screen_text(app))
        now[0] += 1.1
        await wait_until(pilot, lambda: "⏳9s" in screen_text(app) and "⏳10s" not in screen_text(app))
        now[0] += 6.0
        await wait_until(pilot, lambda: "⏳3s" in screen_text(app))
