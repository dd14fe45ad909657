"""Findings of a new-user playtest: the log's newest line, the message's direction, chat and keys in
the table lobby, the line after our own pass, a key landing on a prompt not yet seen, help text."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from rich.console import Console
from textual.widgets import Static

from engine import Game
from fengsheng_tui.app import FengshengApp
from fengsheng_tui.i18n import Words
from fengsheng_tui.screens.game_over import GameOverScreen
from fengsheng_tui.screens.table import KEY_GUARD
from fengsheng_tui.screens.table_lobby import TableLobbyScreen
from fengsheng_tui.session import NetSession
from fengsheng_tui.widgets.log import EventLog
from net.server import GameServer
from net.table import Table

from .screen_text import screen_text, widget_text
from .states import ScriptedSession, play_until, play_with_characters, update, welcome
from .test_lobby_host import wait_for
from .test_snapshots import LOBBY_TABLE
from .waiting import wait_until


def frozen() -> float:
    return 1000.0


def app_for(messages: list[dict[str, Any]], lang: str = "en") -> FengshengApp:
    return FengshengApp(ScriptedSession(messages), lang=lang, clock=frozen, keymap={})


def log_rows(app: FengshengApp) -> list[str]:
    """The log box's rows as drawn, between its borders."""
    log = app.screen.query_one(EventLog)
    lines = screen_text(app).splitlines()
    top = log.region.y
    return [line[log.region.x + 2: log.region.right - 2].rstrip() for line in lines[top + 1: top + log.region.height - 1]]


def response_game() -> Game:
    return play_until(6, lambda g: 0 in g.prompts and g.prompts[0].kind == "response" and len(g.prompts) > 2
                      and g.state.turn > 3)


# ------------------------------------------------------------------ 1. the log


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_newest_log_line_is_always_whole_at_the_bottom(size: tuple[int, int]) -> None:
    game = play_until(6, lambda g: g.state.turn > 6)
    long = "a long line " * 30  # wraps over several rows at either width
    app = app_for([welcome(0), update(game, 0), {"type": "chat", "name": "Bob", "text": long},
                   {"type": "chat", "name": "Bob", "text": "the newest line"}])
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        rows = log_rows(app)
        assert rows[-1] == "» Bob: the newest line"
        assert rows[-2].endswith("a long line")  # the long line's end, just above it
        assert len(rows) == app.screen.query_one(EventLog).size.height


# ------------------------------------------------------------------ 2. the message's direction


@pytest.mark.parametrize(("lang", "right", "left"), [("en", "passing right", "left"), ("zh", "向右传", "向左传")])
async def test_a_message_going_to_the_next_seat_passes_right(lang: str, right: str, left: str) -> None:
    game = play_until(3, lambda g: g.state.message is not None and g.state.message.method != "直达"
                      and g.state.message.direction == 1 and not g.state.message.returning)
    assert game.state.message is not None
    app = app_for([welcome(0), update(game, 0)], lang)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert right in text and left not in text


# ------------------------------------------------------------------ 3-5. the table lobby


async def test_lobby_chat_is_shown_in_the_lobby_and_escape_closes_the_line(server: tuple[GameServer, Table]) -> None:
    srv, _table = server
    app = FengshengApp(NetSession("127.0.0.1", srv.port, "阿东"), lang="en", keymap={})
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, TableLobbyScreen) and bool(app.state.lobby))
        chat = app.screen.query_one("#lobby-chat")
        await pilot.press("c")
        await wait_until(pilot, lambda: chat.display and "Enter sends, Esc cancels" in screen_text(app))
        await pilot.press("x", "escape")
        await wait_until(pilot, lambda: not chat.display and app.screen.focused is None)
        await pilot.press("c", *"hello", "enter")
        await wait_for(pilot, lambda: "» 阿东 (you): hello" in screen_text(app))
        assert not chat.display


async def test_lobby_keys_that_do_nothing_say_why(server: tuple[GameServer, Table]) -> None:
    srv, table = server
    words = Words("en")
    app = FengshengApp(NetSession("127.0.0.1", srv.port, "Hannah"), lang="en", keymap={})
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, TableLobbyScreen) and bool(app.state.lobby))
        await pilot.press("plus")
        await wait_until(pilot, lambda: "5 players need characters" in screen_text(app))
        assert table.players == 4
        await pilot.press("i")
        await wait_until(pilot, lambda: "4 players without characters: only novice" in screen_text(app))
        await pilot.press("h")
        await wait_for(pilot, lambda: table.characters)
        await pilot.press("plus")
        await wait_for(pilot, lambda: table.players == 5 and (app.state.lobby or {}).get("players") == 5)
        assert words("players_need_characters", n=5) not in screen_text(app)
        await pilot.press("i")
        await wait_until(pilot, lambda: "5 players with characters: only standard" in screen_text(app))
        await pilot.press("h")
        await wait_until(pilot, lambda: words("players_need_characters", n=5) in screen_text(app))
        assert table.characters


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_lobby_footer_keeps_the_essential_keys(lang: str, size: tuple[int, int]) -> None:
    words = Words(lang)
    app = app_for([welcome(0), {"type": "lobby", "table": LOBBY_TABLE}], lang)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        text = screen_text(app)
        footer = text.splitlines()[-1]
        for key, word in (("r", "toggle_ready"), ("s", "start"), ("c", "chat_key"), ("?", "help"), ("q", "quit")):
            assert f"{key} {words(word)}" in footer, (key, footer)
        assert "k" in words("host_hint") and "".join(words("host_hint").split()) in "".join(text.split())


# ------------------------------------------------------------------ 6. after our own pass


async def test_after_our_pass_the_prompt_line_waits_for_the_others_only() -> None:
    game = response_game()
    msg = update(game, 0)
    msg["view"]["prompt"] = None  # passed: the window still lists every eligible seat, us too
    assert 0 in [w["seat"] for w in msg["view"]["waiting"]]
    app = app_for([welcome(0), msg])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        line = screen_text(app).splitlines()[-2]
        assert "You passed — waiting for the others (" in line and "(you)" not in line
        others = [game.state.seats[w["seat"]].name for w in msg["view"]["waiting"] if w["seat"] != 0]
        assert all(name in line for name in others)


# ------------------------------------------------------------------ 7. a key meant for the last prompt


async def test_space_right_after_a_new_prompt_does_not_answer_it() -> None:
    """Only after a prompt that closed without our key (here: replaced, as by a timeout); after one
    we answered ourselves the next prompt takes keys at once."""
    game = response_game()
    first = update(game, 0)
    session = ScriptedSession([welcome(0), first])
    app = FengshengApp(session, lang="en", clock=frozen, keymap={})
    app.auto_pass = False
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(KEY_GUARD + 0.05)
        second = copy.deepcopy(first)
        second["events"] = []
        second["view"]["prompt"]["id"] += 1000
        app.handle_message(second)
        await pilot.press("space")
        await pilot.pause()
        assert session.sent == [] and "Error" not in screen_text(app)
        await pilot.pause(KEY_GUARD)
        await pilot.press("space")
        await wait_for(pilot, lambda: bool(session.sent))
        assert session.sent == [("choose", (second["view"]["prompt"]["id"], game.prompts[0].default))]
        third = copy.deepcopy(second)
        third["view"]["prompt"]["id"] += 1000
        app.handle_message(third)
        await pilot.press("space")
        await wait_for(pilot, lambda: len(session.sent) == 2)
        assert session.sent[1] == ("choose", (third["view"]["prompt"]["id"], game.prompts[0].default))


# ------------------------------------------------------------------ 8. words


def help_text(app: FengshengApp) -> str:
    console = Console(width=120, record=True, color_system=None)
    console.print(app.screen.query_one("#help", Static).content)
    return console.export_text()


@pytest.mark.parametrize("deck", ["resolved", "later"])
async def test_help_explains_abbreviations_and_lists_the_cards_of_the_deck(deck: str) -> None:
    game = response_game()
    msg = update(game, 0)
    msg["view"]["config"]["deck"] = deck
    app = app_for([welcome(0), msg])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        text = help_text(app)
        for shown in ("(Military? yes: draw)", "3 cards:", "Bk", "[locked]", "[lured away]"):
            assert shown in text
        assert "Lure Away" in text and ("Transfer" in text) == (deck == "later")


async def test_footer_and_target_hints_read_naturally() -> None:
    game = response_game()
    app = app_for([welcome(0), update(game, 0)], "zh")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: "空格 放弃" in screen_text(app).splitlines()[-1])
        assert "Space" not in screen_text(app).splitlines()[-1]
    game = play_until(4, lambda g: g.state.current == 0 and g.state.node == "play" and g.state.turn > 4)
    prompt = game.prompts[0]
    hand = game.state.seats[0].hand
    digit = str(next(hand.index(o.card) + 1 for o in prompt.options if o.target_seat is not None and o.card is not None))
    app = app_for([welcome(0), update(game, 0)])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press(digit)
        await wait_until(pilot, lambda: "←/→ or a/s/d pick a target" in screen_text(app))


async def test_a_dead_you_row_shows_your_identity() -> None:
    game = play_until(6, lambda g: not g.state.seats[0].alive)  # seed 2 until rules5 changed the games
    assert not game.state.seats[0].alive and not game.over
    app = app_for([welcome(0), update(game, 0)])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        row = widget_text(app, ".seat-0")
        assert "(you)" in row and "dead" in row
        assert Words("en").identity(game.state.seats[0].identity) in row


async def test_game_over_shows_every_character() -> None:
    game = play_with_characters(5, lambda g: False)
    assert game.over
    app = app_for([welcome(0), update(game, 0)])
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        text = screen_text(app)
        words = Words("en")
        for seat in game.state.seats:
            assert words.character_name(seat.character) in text
