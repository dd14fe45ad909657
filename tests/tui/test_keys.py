"""Keys do what the footer says, English mode is English, and no other seat's hand is ever drawn.

Every test plays against `fengsheng play`'s real loopback server (bots answer at once).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from textual.pilot import Pilot

from fengsheng_tui.app import FengshengApp
from fengsheng_tui.i18n import Words
from fengsheng_tui.local_game import LocalTable
from fengsheng_tui.screens.help import HelpScreen
from fengsheng_tui.screens.settings import SettingsScreen
from fengsheng_tui.session import NetSession

from .screen_text import screen_text
from .waiting import wait_until

CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")


def make_app(table: LocalTable, lang: str = "en") -> FengshengApp:
    return FengshengApp(NetSession("127.0.0.1", table.port, "Me", token=table.host_token), lang=lang, keymap={})


async def wait_for(pilot: Pilot[Any], cond: Callable[[], bool], steps: int = 500) -> None:
    for _ in range(steps):
        if cond():
            return
        await pilot.pause(0.02)
    raise AssertionError("condition never held")


def open_prompt(app: FengshengApp, *verbs: str) -> dict[str, Any] | None:
    prompt = app.state.prompt
    table = app.table_screen()
    if prompt is None or table is None or table.chooser.sent_for == prompt["id"]:
        return None
    if verbs and not any(o["verb"] in verbs for o in prompt["options"]):
        return None
    return prompt


def usable_digit(app: FengshengApp) -> str | None:
    prompt = app.state.prompt
    hand = [c["id"] for c in app.state.hand]
    for o in prompt["options"] if prompt else []:
        if o.get("card") in hand:
            return str(hand.index(o["card"]) + 1)
    return None


async def next_prompt_with_a_card(app: FengshengApp, pilot: Pilot[Any]) -> str:
    """Pass until a prompt offers a card from our hand; returns its digit key."""
    for _ in range(200):
        await wait_for(pilot, lambda: open_prompt(app) is not None)
        digit = usable_digit(app)
        if digit is not None:
            return digit
        await pilot.press("space" if open_prompt(app, "pass", "end", "decline") else "enter")
    raise AssertionError("no usable card came up")


async def test_digit_selects_enter_plays_esc_backs_out(table: LocalTable) -> None:
    app = make_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        digit = await next_prompt_with_a_card(app, pilot)
        chooser = app.table_screen().chooser
        card = app.state.hand[int(digit) - 1]
        await pilot.press(digit)
        await wait_until(pilot, lambda: chooser.selected == card["id"] and "Enter confirms" in screen_text(app))
        await pilot.press("escape")
        await wait_until(pilot, lambda: chooser.selected is None)
        await pilot.press(digit, "enter")
        me = app.state.seat
        game = table.table.game
        await wait_for(pilot, lambda: any(c[0] == me and c[2] != "pass" and c[2] != "end" for c in game.choices))
        seat, _, option = [c for c in game.choices if c[0] == me][-1]
        assert option.split(":")[1] == str(card["id"])  # the server applied exactly that card
        await wait_for(pilot, lambda: bool({"played", "sent", "probe_discarded"} & {
            e.event["kind"] for e in app.state.log if e.event and e.event.get("seat") == me}))


async def test_space_passes_and_question_mark_opens_help(table: LocalTable) -> None:
    app = make_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: open_prompt(app, "pass", "end", "decline") is not None)
        prompt = app.state.prompt
        assert prompt is not None
        me = app.state.seat
        await pilot.press("space")
        game = table.table.game
        await wait_for(pilot, lambda: any(c[0] == me and c[1] == prompt["id"] for c in game.choices))
        chosen = next(c[2] for c in game.choices if c[0] == me and c[1] == prompt["id"])
        assert chosen in ("pass", "end", "decline")
        await pilot.press("question_mark")
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen) and "Lure Away" in screen_text(app))
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, HelpScreen))
        await pilot.press("o")
        await wait_until(pilot, lambda: isinstance(app.screen, SettingsScreen))
        await pilot.press("l")  # switch to Chinese and back, live
        await wait_until(pilot, lambda: app.words.lang == "zh")
        await pilot.press("l", "escape")
        await wait_until(pilot, lambda: app.words.lang == "en" and not isinstance(app.screen, SettingsScreen))


async def test_english_mode_shows_no_chinese(table: LocalTable) -> None:
    app = make_app(table, "en")
    seen = 0
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(12):
            await wait_for(pilot, lambda: open_prompt(app) is not None or bool(app.state.view and
                                                                               app.state.view["over"]))
            if app.state.view and app.state.view["over"]:
                break
            text = screen_text(app)
            assert not CJK.findall(text), text
            seen += 1
            await pilot.press("space" if open_prompt(app, "pass", "end", "decline") else "1", "enter")
        for key, screen in (("question_mark", "HelpScreen"), ("escape", "TableScreen"), ("o", "SettingsScreen"),
                            ("escape", "TableScreen"), ("q", "ConfirmQuit")):
            await pilot.press(key)
            await wait_until(pilot, lambda screen=screen: type(app.screen).__name__ == screen)  # type: ignore[misc]
            assert not CJK.findall(screen_text(app)), screen_text(app)
        await pilot.press("n")
    assert seen >= 3


def visible_faces(view: dict[str, Any], log: list[Any]) -> set[tuple[Any, Any, Any]]:
    """Faces the seat may legitimately see: own hand, face-up cards, cards named in its log."""
    faces = [*view["hand"]]
    for seat in view["seats"]:
        faces += seat["messages"]
    for item in view["stack"]:
        faces += [item["card"], item.get("target_card") or {}]
    if view["message"] and view["message"]["card"]:
        faces.append(view["message"]["card"])
    for entry in log:
        ev = entry.event or {}
        faces += [c for c in [ev.get("card"), ev.get("target_card"), *(ev.get("cards") or [])] if c]
    return {(f.get("function"), f.get("colour"), f.get("method")) for f in faces if f}


async def test_table_never_renders_another_seats_hand(table: LocalTable) -> None:
    app = make_app(table, "en")
    words = Words("en")
    checked = 0
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(10):
            await wait_for(pilot, lambda: open_prompt(app) is not None or bool(app.state.view and
                                                                               app.state.view["over"]))
            game = table.table.game
            if game.over:
                break
            me = app.state.seat
            text = screen_text(app)
            assert app.state.view is not None
            allowed = visible_faces(app.state.view, app.state.log)
            for seat in game.state.seats:
                if seat.index == me:
                    continue
                for card_id in seat.hand:
                    face = game.face(card_id)
                    if (face["function"], face["colour"], face["method"]) not in allowed:
                        assert words.card(face) not in text, f"seat {seat.index}'s {face} is on screen"
                        checked += 1
            await pilot.press("space" if open_prompt(app, "pass", "end", "decline") else "1", "enter")
    assert checked > 0
