"""The table as a ring (issue 14): seats placed as people sit, the travelling message drawn on the
ring, the last action in a banner, our move standing out (and the optional bell), identity notes
kept on this machine only, quick chat phrases on one key."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from engine import Game
from fengsheng_tui import app as app_module
from fengsheng_tui.app import FengshengApp
from fengsheng_tui.i18n import QUICK_CHAT, Words
from fengsheng_tui.preferences import load_preferences
from fengsheng_tui.screens.notes import NotesScreen
from fengsheng_tui.widgets.hand import HandPanel
from fengsheng_tui.widgets.message_path import MessagePath
from fengsheng_tui.widgets.ring import Ring, placement, sides
from fengsheng_tui.widgets.seat import SeatBox
from fengsheng_tui.widgets.status import Banner

from .screen_text import counts_forms, screen_text, widget_text
from .states import ScriptedSession, play_until, play_with_characters, update, welcome


def frozen() -> float:
    return 1000.0


class BellApp(FengshengApp):
    """The real app, counting the bells it rings (the terminal's bell cannot be read back)."""

    CSS_PATH = str(Path(app_module.__file__).with_name("app.tcss"))
    bells = 0

    def bell(self) -> None:
        self.bells += 1
        super().bell()


def app_for(messages: list[dict[str, Any]], lang: str = "en", seat: int = 0) -> BellApp:
    return BellApp(ScriptedSession(messages), lang=lang, clock=frozen, keymap={})


async def settle(pilot: Any) -> None:
    """A new ring is built when the first view arrives: let it mount and draw."""
    for _ in range(3):
        await pilot.pause()


def travelling(players: int) -> Game:
    stop = lambda g: g.state.message is not None and 0 in g.prompts and g.state.turn > 1  # noqa: E731
    if players in (3, 5, 7, 8, 9):
        return play_with_characters(5, stop, players=players)
    return play_until(5, stop, players=players)


def test_every_seat_count_places_the_others_round_the_ring() -> None:
    """seat+1 is on our right: up the right side, right to left along the top, down the left."""
    for n in range(3, 10):
        for me in range(n):
            right, top, left = placement(n, me)
            assert right + top + left == [(me + i) % n for i in range(1, n)]
            assert len(right) == len(left) == sides(n - 1)[0] <= 2


@pytest.mark.parametrize("size", [(80, 24), (100, 30), (160, 48)])
@pytest.mark.parametrize("players", [3, 4, 6, 9])
async def test_seats_sit_as_people_sit_and_show_everything_a_player_needs(size: tuple[int, int],
                                                                          players: int) -> None:
    game = travelling(players)
    msg = update(game, 0)
    words = Words("en")
    app = app_for([welcome(0), msg])
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        lines = screen_text(app).splitlines()
        assert len(lines) == size[1] and "q" in lines[-1] and words("quit") in lines[-1]
        boxes = {i: app.screen.query_one(f".seat-{i}", SeatBox).region for i in range(players)}
        ring = app.screen.query_one(Ring)
        hand = app.screen.query_one(HandPanel)
        if ring.merged:
            # A short screen: our seat's facts are in the hand panel's title, right under the ring.
            me = hand.region
            title = str(hand.border_title)
            assert words.cards(msg["view"]["seats"][0]["hand_count"]) in title and "r" in title.lower()
        else:
            me = boxes[0]
        right, top, left = placement(players, 0)
        # We sit at the bottom: below the top row, between the sides, no one lower than our box.
        assert all(me.y > boxes[s].y for s in top) and all(me.bottom + 2 >= b.bottom for b in boxes.values())
        for seat in right:
            assert boxes[seat].right > me.x + me.width // 2
        for a, b in zip(right, right[1:], strict=False):
            assert boxes[b].y < boxes[a].y  # up the right side
        for a, b in zip(top, top[1:], strict=False):
            assert boxes[b].x < boxes[a].x and boxes[b].y == boxes[a].y  # right to left along the top
        for a, b in zip(left, left[1:], strict=False):
            assert boxes[b].y > boxes[a].y and boxes[a].x < me.x + me.width // 2  # down the left side
        waiting = {w["seat"] for w in msg["view"]["waiting"]}
        for seat in msg["view"]["seats"]:
            if seat["index"] == 0 and ring.merged:
                continue
            text = widget_text(app, f".seat-{seat['index']}")
            assert words.seat_name(msg["view"]["seats"], seat["index"], 0) in text
            assert words.cards(seat["hand_count"]) in text
            assert any(form in text for form in counts_forms(words, seat["counts"])), text
            assert ("⏳12s" in text) == (seat["index"] in waiting)
            character = seat.get("character")
            if character and "id" in character:
                assert words.character(character) in text  # the whole name, never cut


async def test_dead_lost_offline_and_locked_are_on_the_seat() -> None:
    game = play_until(6, lambda g: not g.state.seats[0].alive)  # seed 2 until rules5 changed the games
    assert not game.over and not game.state.seats[0].alive
    msg = update(game, 0)
    seats = msg["view"]["seats"]
    seats[1].update(online=False, bot=False)
    seats[2]["locked"] = True
    seats[3]["lost"] = True
    app = app_for([welcome(0), msg])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "✗dead" in widget_text(app, ".seat-0")
        assert "offline" in widget_text(app, ".seat-1")
        assert "[locked]" in widget_text(app, ".seat-2")
        assert "✗lost" in widget_text(app, ".seat-3")
        assert app.screen.query_one(".seat-3", SeatBox).has_class("-out")


async def test_the_message_is_drawn_on_the_ring_with_its_route() -> None:
    """Where it is (✉ on that seat and in the route), where it came from, which way, who is skipped."""
    game = play_until(3, lambda g: g.state.message is not None and g.state.message.method != "直达"
                      and g.state.message.sender != g.state.message.position, players=6)
    msg = update(game, 0)
    m = msg["view"]["message"]
    skipped = next(i for i in range(6) if i not in (m["sender"], m["position"])
                   and msg["view"]["seats"][i]["alive"] and not msg["view"]["seats"][i].get("lost"))
    msg["view"]["seats"][skipped]["skipped"] = True
    words = Words("en")
    app = app_for([welcome(0), msg])
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        seats = msg["view"]["seats"]
        holder = app.screen.query_one(f".seat-{m['position']}", SeatBox)
        assert holder.has_class("-holder") and "✉" in widget_text(app, f".seat-{m['position']}")
        path = widget_text(app, "MessagePath")
        assert words("sent_by", sender=words.seat_name(seats, m["sender"], 0)) in path
        way = "direction_right" if m["direction"] == 1 else "direction_left"
        assert words(way) in path
        assert "✉" + words.seat_name(seats, m["position"], 0) in path
        assert "[lured away]" in widget_text(app, f".seat-{skipped}")
        group: Any = app.screen.query_one(MessagePath).content
        name = words.seat_name(seats, skipped, 0)
        struck = [line.plain[span.start:span.end] for line in group.renderables
                  for span in line.spans if "strike" in str(span.style)]
        assert name in struck, struck


async def test_the_banner_says_the_last_action() -> None:
    game = travelling(4)
    msg = update(game, 0)
    app = app_for([welcome(0), msg])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        last = app.state.last_action(Words("en"))
        assert last and last in widget_text(app, "Banner")
        assert app.screen.query_one(Banner).region.y == 1


async def test_our_move_stands_out_and_rings_the_bell_only_when_asked() -> None:
    game = play_until(4, lambda g: g.state.current == 0 and g.state.node == "play" and g.state.turn > 4)
    later = copy.deepcopy(update(game, 0))
    later["view"]["prompt"]["id"] += 100
    app = app_for([welcome(0), update(game, 0)])
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.screen.has_class("-your-move")
        assert "Your move" in screen_text(app).splitlines()[0]
        assert app.bells == 0  # the bell is off by default
        await pilot.press("space")  # end the play phase: no longer ours to decide
        await pilot.pause()
        assert not app.screen.has_class("-your-move")
        await pilot.press("o", "b", "escape")
        await pilot.pause()
        assert app.bell_on_move and load_preferences().bell
        app.handle_message(later)
        await pilot.pause()
        assert app.bells == 1 and app.screen.has_class("-your-move")


async def test_identity_notes_show_on_the_ring_stay_local_and_go_with_the_game() -> None:
    game = travelling(4)
    session = ScriptedSession([welcome(0), update(game, 0)])
    app = FengshengApp(session, lang="zh", clock=frozen, keymap={})
    words = Words("zh")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, NotesScreen)
        await pilot.press("s", "1")  # second seat in the list (seat 2): red
        await pilot.press("a", "2")  # seat 1: blue
        await pilot.press("d", "4", "d", "0")  # seat 3: unknown, then cleared
        await pilot.press("escape")
        await pilot.pause()
        assert app.state.notes == {2: "red", 1: "blue"}
        assert words("note_red") in widget_text(app, ".seat-2")
        assert words("note_blue") in widget_text(app, ".seat-1")
        assert words("note_unknown") not in widget_text(app, ".seat-3")
        assert not any(kind == "chat" or "red" in repr(args) for kind, args in session.sent)
        # The next game (its first event, after this one ended) starts with no notes.
        app.state._game_ended = True
        app.handle_message({"type": "update", "view": update(game, 0)["view"],
                            "events": [{"seq": 0, "kind": "first_player", "seat": 1}]})
        await pilot.pause()
        assert app.state.notes == {}
        assert words("note_red") not in widget_text(app, ".seat-2")


@pytest.mark.parametrize("lang", ["zh", "en"])
async def test_quick_chat_sends_a_phrase_with_two_keys(lang: str) -> None:
    game = travelling(4)
    session = ScriptedSession([welcome(0), update(game, 0)])
    app = FengshengApp(session, lang=lang, clock=frozen, keymap={})
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("w")
        await pilot.pause()
        assert QUICK_CHAT[lang][1] in screen_text(app)
        await pilot.press("2")
        await pilot.pause()
        assert ("chat", (QUICK_CHAT[lang][1],)) in session.sent
        assert app.screen.query_one(Ring) is not None  # back on the table
