"""A pause freezes the game for every seat, as players expect: the prompt line says the table is
paused and by whom, keys that would send a choice say so and send nothing, a choice the server
refused as paused is ours to make again, and after the resume the same prompt is answered.

Real servers on 127.0.0.1, the app under Pilot: a LAN guest (the host is a raw client playing
its seat by a bot), and `fengsheng play`'s solo table (the pause key, the character pick)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bots import make_bot
from fengsheng_tui.app import FengshengApp
from fengsheng_tui.choice import PASS_VERBS
from fengsheng_tui.commands import play
from fengsheng_tui.local_game import LocalTable, start_local_table
from fengsheng_tui.screens.character_pick import CharacterPickScreen
from fengsheng_tui.screens.help import HelpScreen
from fengsheng_tui.session import NetSession
from net.client import Client, play_as_bot
from net.server import GameServer
from net.table import Table

from .screen_text import screen_text, widget_text
from .test_play_characters import play_args
from .waiting import settled, wait_until

LONG = {"play": 60.0, "send": 60.0, "response": 60.0, "receive": 60.0, "probe_discard": 60.0}


def passable(app: FengshengApp) -> bool:
    """Our own prompt is open and Space passes it."""
    screen = app.table_screen()
    chooser = screen.chooser if screen is not None else None
    return chooser is not None and chooser.prompt is not None and chooser.sent_for is None \
        and any(o.get("verb") in PASS_VERBS for o in chooser.options)


def ours(table: Table, seat: int, prompt_id: int) -> bool:
    return table.game is not None and any(c[:2] == (seat, prompt_id) for c in table.game.choices)


async def test_a_lan_guest_sees_who_paused_and_cannot_play_until_the_resume() -> None:
    table = Table("lan", players=4, identities="novice", timers=LONG, bot_delay=0.0, seed=3)
    server = GameServer("127.0.0.1", 0)
    server.add_table(table)
    await server.start()
    host = Client()
    await host.connect("127.0.0.1", server.port, "Hostess", token=table.host_token)
    app = FengshengApp(NetSession("127.0.0.1", server.port, "Guest"), lang="en", keymap={})
    app.auto_pass = False  # our pass must be our key's
    hosting: asyncio.Task[None] | None = None
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_until(pilot, lambda: len((app.state.lobby or {}).get("seats") or []) == 2)
            await host.op("start")
            hosting = asyncio.create_task(play_as_bot(host, lambda s: make_bot("random", s, 1)))
            await wait_until(pilot, lambda: passable(app), timeout=20)
            seat, prompt = app.state.seat, app.state.prompt
            assert seat is not None and prompt is not None
            await host.op("pause")
            await wait_until(pilot, lambda: app.state.paused_by == "Hostess")
            line = widget_text(app, "#prompt")
            assert "Paused by the host (Hostess): nobody can play until the host resumes" in line
            assert "Paused by the host (Hostess)" in widget_text(app, "#status")
            assert table.game is not None
            choices = list(table.game.choices)
            await pilot.press("space")  # would pass: held, and the line says why
            await wait_until(pilot, lambda: "Paused by the host (Hostess): nothing was sent" in widget_text(app, "#prompt"))
            screen = app.table_screen()
            assert screen.chooser.sent_for is None and table.game.choices == choices
            # A key pressed as the pause arrived: the server refuses it, and the prompt is ours again.
            screen._submit(screen.chooser.pass_())
            await wait_until(pilot, lambda: app.state.error_code == "paused")
            await wait_until(pilot, lambda: screen.chooser.sent_for is None
                             and "Paused by the host (Hostess): choose again once the table resumes" in widget_text(app, "#prompt"))
            assert table.game.choices == choices and not ours(table, seat, prompt["id"])
            await host.op("resume")
            await wait_until(pilot, lambda: app.state.paused_by is None)
            await wait_until(pilot, lambda: "paused" not in widget_text(app, "#prompt").lower())
            assert app.state.prompt is not None and app.state.prompt["id"] == prompt["id"]
            await pilot.press("space")
            await wait_until(pilot, lambda: ours(table, seat, prompt["id"]))
    finally:
        if hosting is not None:
            hosting.cancel()
        await host.close()
        await server.close()


async def test_the_solo_pause_key_holds_every_choice_until_it_is_pressed_again(table: LocalTable) -> None:
    session = NetSession("127.0.0.1", table.port, "Me", token=table.host_token)
    app = FengshengApp(session, lang="zh", keymap={}, replay_dir=table.replay_dir)
    app.auto_pass = False
    server = table.table
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: passable(app), timeout=20)
        seat, prompt = app.state.seat, app.state.prompt
        assert seat is not None and prompt is not None
        await pilot.press("b")
        await wait_until(pilot, lambda: app.state.paused_by == "you" and server.timing.paused)
        assert "你已暂停牌桌：恢复前谁也不能出牌（按 b 继续）" in widget_text(app, "#prompt")
        await pilot.press("space")
        await wait_until(pilot, lambda: "你已暂停牌桌：这次选择没有发出" in widget_text(app, "#prompt"))
        assert not ours(server, seat, prompt["id"])
        await pilot.press("b")
        await wait_until(pilot, lambda: app.state.paused_by is None and not server.timing.paused)
        assert "暂停" not in widget_text(app, "#prompt")
        await pilot.press("space")
        await wait_until(pilot, lambda: ours(server, seat, prompt["id"]))


async def test_the_character_pick_does_not_pause_a_solo_game_but_help_over_it_does(tmp_path: Path) -> None:
    """Solo games pause while a screen covers the table; the pick is not such a screen (nobody
    could choose while paused), help opened over it is."""
    args = play_args("--players", "5", "--bots", "random", "--bot-delay", "0", "--seed", "2", "--lang", "en")
    local = await play.start_table(args, tmp_path)
    try:
        app = FengshengApp(NetSession("127.0.0.1", local.port, "Me", token=local.host_token), lang="en", keymap={})
        server = local.table
        async with app.run_test(size=(100, 40)) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, CharacterPickScreen) and app.state.prompt)
            await settled(pilot, app)  # a wrong pause would have reached the server by now
            assert not server.timing.paused
            await pilot.press("question_mark")
            await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen) and server.timing.paused)
            await pilot.press("escape")
            await wait_until(pilot, lambda: isinstance(app.screen, CharacterPickScreen) and not server.timing.paused)
            await pilot.press("1", "enter")
            await wait_until(pilot, lambda: (app.state.view or {}).get("phase") != "character_pick")
            assert "Paused" not in screen_text(app)
    finally:
        await local.close()


async def test_an_automatic_pass_refused_by_the_pause_passes_again_after_it() -> None:
    """The automatic pass of a response window with nothing playable, sent just as the pause
    arrived, is refused: once the table runs it passes again by itself (not left to time out)."""
    table = await start_local_table(4, seed=5, bot_level="random", bot_delay=0.0,
                                    timers={**LONG, "turn_window": 60.0})
    try:
        await automatic_pass_after_the_pause(table)
    finally:
        await table.close()


async def automatic_pass_after_the_pause(table: LocalTable) -> None:
    session = NetSession("127.0.0.1", table.port, "Me", token=table.host_token)
    app = FengshengApp(session, lang="en", keymap={})
    app.auto_pass = False
    server = table.table

    def nothing_playable() -> bool:
        prompt = app.state.prompt
        return prompt is not None and prompt["kind"] == "response" \
            and all(o.get("verb") in PASS_VERBS for o in prompt["options"])

    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(200):  # answer our other prompts with their defaults until such a window
            await wait_until(pilot, lambda: app.state.prompt is not None, timeout=20)
            if nothing_playable():
                break
            prompt = app.state.prompt
            assert prompt is not None
            app.choose(int(prompt["id"]), str(prompt["default"]))
            await wait_until(pilot, lambda prompt=prompt: (app.state.prompt or {}).get("id") != prompt["id"])
        prompt = app.state.prompt
        assert prompt is not None and nothing_playable() and app.state.seat is not None
        seat = app.state.seat
        await pilot.press("b")
        await wait_until(pilot, lambda: app.state.paused_by == "you")
        screen = app.table_screen()
        app.auto_pass = True
        screen.auto_pass_for = prompt["id"]  # the automatic pass, fired as the pause came in
        screen._submit(screen.chooser.pass_(), keyed=False)
        await wait_until(pilot, lambda: app.state.error_code == "paused" and screen.chooser.sent_for is None)
        assert not ours(server, seat, prompt["id"])
        await pilot.press("b")
        await wait_until(pilot, lambda: ours(server, seat, prompt["id"]))
        assert server.timeouts == 0  # passed by the client, not by the clock
