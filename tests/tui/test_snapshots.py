"""SVG snapshots of every screen at 80×24 and 120×40, from deterministic states.

States come from real engine games with fixed seeds (tests/tui/states.py); countdowns are frozen
by a constant clock. Baselines live in __snapshots__/ (regenerate with --snapshot-update).
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot

from engine import events_for, view
from fengsheng_tui.app import FengshengApp
from fengsheng_tui.screens.lobby import LobbyScreen

from .states import ScriptedSession, frames_of, play_until, update, welcome

SIZES = [(80, 24), (120, 40)]


@pytest.fixture(autouse=True)
def fixed_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    """Help and settings print the keys file's path: make it the same on every run."""
    monkeypatch.setenv("FENGSHENG_CONFIG", "/nonexistent/fengsheng/keys.toml")


def frozen() -> float:
    return 1000.0


def table_app(messages: list[dict[str, Any]], lang: str = "zh") -> FengshengApp:
    return FengshengApp(ScriptedSession(messages), lang=lang, clock=frozen, keymap={})


def mid_game() -> list[dict[str, Any]]:
    """Seat 0 in a response window with a message travelling and a card on the stack."""
    game = play_until(5, lambda g: bool(g.state.stack) and g.state.message is not None
                      and 0 in g.prompts and g.state.turn > 1)
    assert not game.over
    return [welcome(0), update(game, 0)]


def own_play_phase() -> list[dict[str, Any]]:
    game = play_until(4, lambda g: g.state.current == 0 and g.state.node == "play" and g.state.turn > 4)
    return [welcome(0), update(game, 0)]


async def settle(pilot: Pilot[Any], *keys: str) -> None:
    await pilot.pause()
    for key in keys:
        await pilot.press(key)
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES)
def test_table_response_window(snap_compare: Any, size: tuple[int, int]) -> None:
    assert snap_compare(table_app(mid_game()), terminal_size=size, run_before=settle)


@pytest.mark.parametrize("size", SIZES)
def test_table_choosing_a_target_en(snap_compare: Any, size: tuple[int, int]) -> None:
    messages = own_play_phase()
    prompt = messages[1]["view"]["prompt"]
    hand = [c["id"] for c in messages[1]["view"]["hand"]]
    digit = str(next(hand.index(o["card"]) + 1 for o in prompt["options"] if o.get("target_seat") is not None))

    async def pick(pilot: Pilot[Any]) -> None:
        await settle(pilot, digit, "right")

    assert snap_compare(table_app(messages, "en"), terminal_size=size, run_before=pick)


@pytest.mark.parametrize("size", SIZES)
def test_game_over(snap_compare: Any, size: tuple[int, int]) -> None:
    game = play_until(3, lambda g: False)
    assert game.over
    assert snap_compare(table_app([welcome(1), update(game, 1)]), terminal_size=size, run_before=settle)


@pytest.mark.parametrize("size", SIZES)
def test_help(snap_compare: Any, size: tuple[int, int]) -> None:
    assert snap_compare(table_app(mid_game()), terminal_size=size,
                        run_before=lambda pilot: settle(pilot, "question_mark"))


@pytest.mark.parametrize("size", SIZES)
def test_settings(snap_compare: Any, size: tuple[int, int]) -> None:
    assert snap_compare(table_app(mid_game()), terminal_size=size, run_before=lambda pilot: settle(pilot, "o"))


@pytest.mark.parametrize("size", SIZES)
def test_confirm_quit(snap_compare: Any, size: tuple[int, int]) -> None:
    assert snap_compare(table_app(mid_game()), terminal_size=size, run_before=lambda pilot: settle(pilot, "q"))


LOBBY_TABLE = {
    "name": "老王的桌", "phase": "lobby", "players": 4, "identities": "novice",
    "identity_options": ["novice"], "deck": "resolved", "decks": ["resolved"], "characters": False,
    "password": False, "timers": {"play": 30.0, "send": 20.0, "response": 10.0, "receive": 10.0},
    "you": 0, "host": True,
    "seats": [
        {"index": 0, "name": "老王", "bot": None, "online": True, "ready": True, "host": True},
        {"index": 1, "name": "Alice", "bot": None, "online": True, "ready": False, "host": False},
        {"index": 2, "name": "Bot 1", "bot": "normal", "online": True, "ready": True, "host": False},
    ],
}


@pytest.mark.parametrize("size", SIZES)
def test_table_lobby(snap_compare: Any, size: tuple[int, int]) -> None:
    app = table_app([welcome(0), {"type": "lobby", "table": LOBBY_TABLE}])
    assert snap_compare(app, terminal_size=size, run_before=settle)


@pytest.mark.parametrize("size", SIZES)
def test_lan_lobby(snap_compare: Any, size: tuple[int, int], tmp_path: Any) -> None:
    from fengsheng_tui.recent import remember

    remember("192.168.1.20", 7531)
    app = FengshengApp(lang="zh", interfaces=[], keymap={}, clock=frozen)

    async def check(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        assert isinstance(app.screen, LobbyScreen)

    assert snap_compare(app, terminal_size=size, run_before=check)


@pytest.mark.parametrize("size", SIZES)
def test_replay(snap_compare: Any, size: tuple[int, int]) -> None:
    game = play_until(3, lambda g: False)
    replay = {"seat": 2, "table": "snap", "events": events_for(game, 2, 0), "final": view(game, 2),
              "frames": frames_of(game, 2)}
    app = FengshengApp(lang="zh", replay=replay, keymap={}, clock=frozen)
    # Our seventh decision, then five steps on: our hand, a message coming to us, on the ring.
    assert snap_compare(app, terminal_size=size, run_before=lambda pilot: settle(pilot, *["n"] * 7, *["right"] * 5))


@pytest.mark.parametrize("size", SIZES)
def test_character_pick(snap_compare: Any, size: tuple[int, int]) -> None:
    from .states import play_with_characters

    game = play_with_characters(7, lambda g: True)
    assert snap_compare(table_app([welcome(0), update(game, 0)]), terminal_size=size, run_before=settle)


@pytest.mark.parametrize("size", SIZES)
def test_table_with_characters_choosing_a_skill(snap_compare: Any, size: tuple[int, int]) -> None:
    """Seat 0 (face-down 浮萍) in its play phase, `u` pressed: 先机 and its targets. (Seed 5, its
    first choice, had come to play to the game's end under the issue-11 rules: it showed game over.)"""
    from .states import play_with_characters

    game = play_with_characters(26, lambda g: 0 in g.prompts and g.prompts[0].kind == "play"
                                and any(o.verb == "skill" for o in g.prompts[0].options))
    assert not game.over
    app = table_app([welcome(0), update(game, 0)])
    assert snap_compare(app, terminal_size=size, run_before=lambda pilot: settle(pilot, "u"))


RING_SIZES = [(80, 24), (100, 30), (160, 48)]


def ring_state(players: int) -> list[dict[str, Any]]:
    """Seat 0 while a message travels (a stack where the game has one): 4 and 6 seats without
    characters, 9 with them (9 players always play with characters)."""
    from .states import play_with_characters

    if players == 9:
        game = play_with_characters(5, lambda g: g.state.message is not None and 0 in g.prompts
                                    and g.state.turn > 2, players=9)
    else:
        game = play_until(5, lambda g: g.state.message is not None and 0 in g.prompts and g.state.turn > 1,
                          players=players)
    assert not game.over
    return [welcome(0), update(game, 0)]


@pytest.mark.parametrize("players", [4, 6, 9])
@pytest.mark.parametrize("size", RING_SIZES)
def test_the_ring(snap_compare: Any, size: tuple[int, int], players: int) -> None:
    """The table as people sit: us at the bottom, the others in 顺位 round the ring, the message's
    route and the stack in the middle, every seat whole at every size."""
    async def built(pilot: Pilot[Any]) -> None:
        for _ in range(3):  # the ring places its seats, then plans its rows from their widths
            await pilot.pause()

    app = table_app(ring_state(players), "en" if players == 6 else "zh")
    app.auto_pass = False  # a pass by itself after a random pause would make the picture depend on timing
    assert snap_compare(app, terminal_size=size, run_before=built)
