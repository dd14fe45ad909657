"""Findings of a third playtest: the automatic pass and the Space meant for it, 后著's options,
the replay's hand counts and phase, and words."""

from __future__ import annotations

import time
from typing import Any

import pytest

from bots import make_bot
from engine import Game, GameConfig, Setup, events_for, view
from engine.cards import build_deck
from engine.config import identity_options
from fengsheng_tui.app import FengshengApp
from fengsheng_tui.i18n import Words
from fengsheng_tui.replay_model import rebuild
from fengsheng_tui.screens import table as table_screen
from fengsheng_tui.screens.table import KEY_GUARD, LOG_MIN
from fengsheng_tui.widgets.log import EventLog
from fengsheng_tui.widgets.prompt import ROWS, PromptPanel, paginate

from .screen_text import screen_text, widget_text
from .states import ScriptedSession, play_until, update, welcome
from .test_lobby_host import wait_for
from .test_playtest import help_text
from .test_waiting import frozen, nothing_playable


def own_play_phase(g: Game) -> bool:
    prompt = g.prompts.get(0)
    return prompt is not None and prompt.kind == "play" and g.state.turn > 3


# ------------------------------------------------------------------ 1. the automatic pass and Space


@pytest.mark.parametrize(("lang", "invite"), [("en", "Space passes"), ("zh", "空格 放弃")])
async def test_a_pending_automatic_pass_says_so_instead_of_inviting_space(
        lang: str, invite: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # A loaded machine can take longer than the short turn-window delay to paint the first frame.
    monkeypatch.setattr(table_screen, "AUTO_PASS_DELAY", (3.0, 3.0))
    monkeypatch.setattr(table_screen, "TURN_AUTO_PASS_DELAY", (3.0, 3.0))
    game = play_until(6, nothing_playable)
    session = ScriptedSession([welcome(0), update(game, 0)])
    app = FengshengApp(session, lang=lang, clock=frozen, keymap={})
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert Words(lang)("auto_passing") in screen_text(app)
        assert invite not in widget_text(app, "PromptPanel")
        await wait_for(pilot, lambda: bool(session.sent))
        app.auto_pass = False
        app.handle_message(update(game, 0) | {"events": []})  # the same prompt, now answered by hand
        await pilot.pause()
        assert Words(lang)("auto_passing") not in screen_text(app)


async def test_space_and_enter_wait_after_an_automatic_pass_and_other_keys_do_not() -> None:
    window = play_until(6, nothing_playable)
    play = play_until(6, own_play_phase)
    words = Words("en")
    session = ScriptedSession([welcome(0), update(window, 0)])
    app = FengshengApp(session, lang="en", clock=frozen, keymap={})
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: bool(session.sent))
        passed = session.sent[0]
        app.handle_message(update(play, 0) | {"events": []})
        shown = time.monotonic()
        await pilot.pause()
        assert "Play phase" in screen_text(app)
        await pilot.press("space", "enter")
        await pilot.pause()
        assert session.sent == [passed]  # the Space meant for the window did not end the play phase
        assert words("keys_resume") in screen_text(app)
        usable = next(i for i, c in enumerate(play.state.seats[0].hand, 1)
                      if any(o.card == c for o in play.prompts[0].options))
        await pilot.press(str(usable))  # a digit still picks a card at once
        await pilot.pause()
        assert app.table_screen().chooser.selected == play.state.seats[0].hand[usable - 1]
        await pilot.pause(max(0.0, KEY_GUARD - (time.monotonic() - shown)) + 0.1)
        assert words("keys_resume") not in screen_text(app)
        await pilot.press("escape", "space")
        await wait_for(pilot, lambda: len(session.sent) == 2)
        prompt = play.prompts[0]
        end = next(o.id for o in prompt.options if o.verb == "end")
        assert session.sent[1] == ("choose", (prompt.id, end))


# ------------------------------------------------------------------ 2. 后著's options


def houzhu_game() -> Game:
    """浮萍 (seat 0, face up) dies of a third black message and looks at seat 2's four cards:
    each card may go to any of three players, twelve options for nine letters."""
    deck = build_deck()
    used: set[int] = set()

    def card(function: str, colour: str, method: str | None = None) -> int:
        found = next(c for c in deck if c.id not in used and c.function == function and c.colour == colour
                     and method in (None, c.method))
        used.add(found.id)
        return found.id

    hands = [[], [card("锁定", "black", "直达")],
             [card("截获", "red"), card("破译", "blue"), card("退回", "red"), card("烧毁", "blue")], []]
    messages = [[card("截获", "black"), card("截获", "black")], [], [], []]
    identities = ["military", "latent", "military", "latent"]
    counts = tuple(identities.count(x) for x in ("military", "latent", "neutral"))
    name = next(k for k, v in identity_options(4).items() if v == counts)
    config = GameConfig(players=4, identities=name, characters=True, names=("Player", "Bot 1", "Bot 2", "Bot 3"))
    game = Game.new(config, 0, Setup(identities, hands, [card("识破", "red"), card("识破", "blue")], 1, messages,
                                     characters=["fuping", "laogui", "laogui", "laogui"],
                                     face_up=[True, False, False, False]))
    script = [(1, "end", None), (1, "send", 0), (0, "accept", None), (0, "use", 2)]
    while script:
        seat, verb, target = script[0]
        prompt = game.prompts.get(seat)
        found = [o for o in prompt.options if o.verb == verb and target in (None, o.target_seat)] if prompt else []
        if found and prompt is not None:
            game.choose(seat, prompt.id, found[0].id)
            script.pop(0)
            continue
        responder = min(game.pending(), key=lambda p: game.priority_key(p.seat))
        game.choose(responder.seat, responder.id, next(o.id for o in responder.options if o.verb == "pass"))
    return game


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_houzhu_options_name_each_card_and_player_and_all_are_reachable(lang: str) -> None:
    game = houzhu_game()
    prompt = game.prompts[0]
    places = [o for o in prompt.options if o.verb == "place"]
    assert len(places) == 12
    words = Words(lang)
    session = ScriptedSession([welcome(0), update(game, 0)])
    app = FengshengApp(session, lang=lang, clock=frozen, keymap={})
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        seats = view(game, 0)["seats"]
        assert isinstance(seats, list)

        def label(option: Any) -> str:
            face = game.deck[option.card].face()
            return f"{words.card(face)} → {words.seat_name(seats, option.target_seat, 0)}"

        text = screen_text(app)
        panel = app.screen.query_one(PromptPanel)
        assert words("face_down") not in widget_text(app, "PromptPanel") and panel.page_first == 0
        assert label(places[0]) in text and label(places[-1]) not in text
        assert ("of 12" if lang == "en" else "共12项") in text
        assert app.screen.query_one(EventLog).region.height >= LOG_MIN + 2  # the log keeps rows of its own
        assert app.screen.query_one(PromptPanel).region.height <= ROWS
        for _ in range(11):
            await pilot.press("right")
        await pilot.pause()
        text = screen_text(app)
        first = panel.page_first
        assert 0 < first <= 11 and label(places[11]) in text and label(places[0]) not in text
        await pilot.press("a")  # the first letter picks the first option of the page shown
        await pilot.press("enter")
        await wait_for(pilot, lambda: bool(session.sent))
        assert session.sent == [("choose", (prompt.id, str(places[first].id)))]


def test_pages_of_options_fit_the_rows_and_the_letters() -> None:
    assert paginate([10] * 20, 80, 1) == [(0, 6), (6, 12), (12, 18), (18, 20)]  # 13 cells each, 6 a row
    assert paginate([10] * 20, 80, 3) == [(0, 9), (9, 18), (18, 20)]  # never more than nine letters
    assert paginate([200, 5], 80, 2) == [(0, 1), (1, 2)]  # a label wider than the row still gets a page


# ------------------------------------------------------------------ 3. the replay's hands and phase


def recorded(seed: int, characters: bool) -> tuple[Game, list[tuple[int, list[int], list[dict[str, int]], str]]]:
    """A whole game of random bots, and after each choice: (events so far, every hand's size, every
    seat's message counts, seat 0's phase) as the real game had them."""
    players = 5 if characters else 4
    game = Game.new(GameConfig(players=players, identities="default" if characters else "novice",
                               characters=characters), seed)
    bots = {s: make_bot("random", s, seed * 7 + s) for s in range(players)}
    moments = []
    while not game.over:
        prompt = min(game.pending(), key=lambda p: game.priority_key(p.seat))
        game.choose(prompt.seat, prompt.id, bots[prompt.seat].decide(view(game, prompt.seat)))
        seen: dict[str, Any] = view(game, 0)
        moments.append((len(game.events), [len(s.hand) for s in game.state.seats],
                        [dict(s["counts"]) for s in seen["seats"]], str(seen["phase"])))
    return game, moments


@pytest.mark.parametrize(("seed", "characters"), [(1, False), (2, False), (112, True), (4, True)])
def test_the_replay_follows_every_hand_and_message_and_the_phase(seed: int, characters: bool) -> None:
    game, moments = recorded(seed, characters)
    for seat in (0, 1):
        replay: dict[str, Any] = {"seat": seat, "events": events_for(game, seat, 0), "final": view(game, seat)}
        end = rebuild(replay, len(replay["events"]))  # the events alone, not the final view
        final = replay["final"]["seats"]
        assert [s["hand_count"] for s in end["seats"]] == [s["hand_count"] for s in final]
        assert [s["counts"] for s in end["seats"]] == [s["counts"] for s in final]
        for n, hands, counts, phase in moments:
            rebuilt = rebuild(replay, n)
            assert [s["hand_count"] for s in rebuilt["seats"]] == hands, n
            assert [s["counts"] for s in rebuilt["seats"]] == counts, n
            # Nothing is logged between the message's arrival window and the decision to accept it.
            assert rebuilt["phase"] == phase or (phase, rebuilt["phase"]) == ("receive", "arrive"), n
    phases = {moment[3] for moment in moments}
    assert {"play", "send", "transmit"} <= phases


# ------------------------------------------------------------------ 4. words


@pytest.mark.parametrize(("lang", "expected"), [("en", "Player (you)'s First Move takes effect"),
                                                ("zh", "Player（你）的先机生效")])
def test_a_skill_taking_effect_is_named_in_the_language(lang: str, expected: str) -> None:
    seats = [{"name": "Player"}, {"name": "Bot 1"}]
    assert Words(lang).event({"kind": "resolved", "seat": 0, "card": {"function": "先机", "skill": "先机"}},
                             seats, 0) == expected


def test_one_card_is_singular() -> None:
    seats = [{"name": "Player"}, {"name": "Bot 4"}]
    words = Words("en")
    assert words.event({"kind": "drew", "seat": 1, "count": 1}, seats, 0) == "Bot 4 drew 1 card"
    assert words.event({"kind": "drew", "seat": 1, "count": 2}, seats, 0) == "Bot 4 drew 2 cards"
    assert words.event({"kind": "cards_taken", "seat": 0, "source": 1, "count": 1}, seats, 0) \
        == "Player (you) takes 1 card from Bot 4's hand"


async def test_the_receive_decision_footer_offers_only_the_keys_that_work() -> None:
    game = play_until(6, lambda g: 0 in g.prompts and g.prompts[0].kind == "receive")
    assert game.prompts[0].kind == "receive"
    app = FengshengApp(ScriptedSession([welcome(0), update(game, 0)]), lang="en", clock=frozen, keymap={})
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        footer = screen_text(app).splitlines()[-1]
        assert "confirm" in footer and "Space" in footer
        assert "1–9" not in footer and "target" not in footer


async def test_the_help_puts_the_replay_keys_under_their_own_heading() -> None:
    game = play_until(6, lambda g: g.state.turn > 2)
    app = FengshengApp(ScriptedSession([welcome(0), update(game, 0)]), lang="en", clock=frozen, keymap={})
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        lines = [line.strip() for line in help_text(app).splitlines()]
        heading = lines.index("Replay")
        assert any("Pick a hand card" in line for line in lines[:heading])
        assert any("To the start" in line for line in lines[heading:])
        assert not any("To the start" in line for line in lines[:heading])


@pytest.mark.parametrize("seed", [3, 5])
async def test_the_log_says_why_the_game_ended(seed: int) -> None:
    game = play_until(seed, lambda g: False)
    assert game.over
    words = Words("en")
    seats = view(game, 1)["seats"]
    assert isinstance(seats, list)
    declarer = game.state.declarer
    expected = {
        "faction": f"Game over — {words.identity(game.state.seats[declarer or 0].identity)} wins: "
                   f"{words.seat_name(seats, declarer, 1)} has three",
        "last_standing": f"Game over — {words.seat_name(seats, declarer, 1)} wins, the last one standing",
        "nobody_left": "Game over — nobody is left",
    }[str(game.state.win_reason)]
    app = FengshengApp(ScriptedSession([welcome(1), update(game, 1)]), lang="en", clock=frozen, keymap={})
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert any(line.startswith(expected) for line, _ in app.state.log_lines(words))


# ------------------------------------------------------------------ a spectator's hand panel


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_spectator_is_told_what_stays_hidden_instead_of_an_empty_hand(lang: str) -> None:
    game = play_until(3, lambda g: g.state.turn > 2)
    watching = {"type": "update", "view": {**view(game, None), "clock": 0.0}, "events": events_for(game, None, 0)}
    session = ScriptedSession([{**welcome(0), "seat": None}, watching])
    app = FengshengApp(session, lang=lang, clock=frozen, keymap={})
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        words = Words(lang)
        assert words("spectator_hand")[:30] in screen_text(app)
        played = play_until(3, lambda g: g.state.turn > 2)
        app.handle_message({"type": "update", "view": {**view(played, 0), "clock": 0.0}, "events": []})
        await pilot.pause()
        assert words("spectator_hand")[:30] not in screen_text(app)  # a seat's view shows its hand again
