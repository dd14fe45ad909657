"""The non-Textual parts: the keys file, sentences for every event kind, the no-tty refusal."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from fengsheng_tui.choice import Chooser
from fengsheng_tui.client_state import ClientState
from fengsheng_tui.i18n import EVENTS, Words
from fengsheng_tui.keys import TABLE_KEYS, load_keymap

from .states import play_until


def test_keys_file_remaps_by_binding_id(tmp_path: Path) -> None:
    path = tmp_path / "keys.toml"
    path.write_text('[keys]\npass = "p"\nconfirm = "enter,y"\n', encoding="utf-8")
    assert load_keymap(path).keys == {"pass": "p", "confirm": "enter,y"}
    assert {"pass", "confirm"} <= {spec.id for spec in TABLE_KEYS}
    path.write_text("not toml [", encoding="utf-8")
    broken = load_keymap(path)
    assert broken.keys == {} and "not valid TOML" in broken.problems[0]


def test_no_table_key_needs_ctrl() -> None:
    assert not [s for s in TABLE_KEYS if "ctrl" in s.keys]


def test_every_logged_event_has_a_sentence_in_both_languages() -> None:
    kinds = set()
    for seed in (3, 5, 8):
        game = play_until(seed, lambda g: False)
        kinds |= {e.kind for e in game.events}
        for lang in ("zh", "en"):
            words = Words(lang)
            seats = [{"name": p.name} for p in game.state.seats]
            for e in game.events:
                line = words.event(e.project(0), seats, 0)
                assert line != e.kind and line != f"probe_answer_{e.project(0).get('answer')}", (lang, line)
    assert {k.removeprefix("probe_answer_") for k in EVENTS["en"]} >= kinds - {"probe_answer"}
    assert set(EVENTS["zh"]) == set(EVENTS["en"])


def test_play_without_a_tty_says_use_ssh_t() -> None:
    result = subprocess.run([sys.executable, "-m", "fengsheng_tui.cli", "play"], stdin=subprocess.DEVNULL,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert "ssh -t" in result.stderr


def test_countdowns_run_from_the_table_clock_the_view_was_sent_at() -> None:
    """Deadlines are on the server's table clock: the time left is `deadline - clock` when the view
    left, counted down locally from its arrival (a view that did not change is not re-sent)."""
    now = [100.0]
    state = ClientState(clock=lambda: now[0])
    view = {"clock": 40.5, "prompt": {"id": 7, "deadline": 50.5},
            "waiting": [{"seat": 2, "prompt_id": 7, "deadline": 50.5}, {"seat": 3, "prompt_id": 8, "deadline": 45.0}]}
    state.apply({"type": "update", "view": view, "events": []})
    assert state.countdowns() == {2: 10, 3: 5}
    now[0] += 3.5
    assert state.countdowns() == {2: 7, 3: 1} and state.seconds_left(view["prompt"]) == 7
    now[0] += 60
    assert state.countdowns() == {2: 0, 3: 0}
    state.apply({"type": "update", "view": {**view, "clock": None}, "events": []})
    assert state.countdowns() == {2: None, 3: None}


def test_our_seat_follows_the_newest_frame_when_the_seats_are_renumbered() -> None:
    """Someone leaving the lobby renumbers the seats: `(you)` must follow `you` and the view's `seat`,
    not the seat the welcome gave."""
    state = ClientState()
    state.apply({"type": "welcome", "seat": 3, "token": "t", "table": "t", "host": False})
    state.apply({"type": "lobby", "table": {"you": 2, "seats": [], "host": True}})
    assert state.seat == 2 and state.host  # the host left the lobby: his rights passed to us
    state.apply({"type": "update", "view": {"seat": 1, "seats": []}, "events": []})
    assert state.seat == 1
    state.apply({"type": "lobby", "table": {"you": None, "seats": []}})
    assert state.seat is None


def test_space_ends_a_skill_that_goes_on_step_by_step() -> None:
    """黑玫瑰/老金/闪灵 ask again after each step with a `done` option; the prompt line says Space
    declines, so Space sends `done`, and the letters move among the other steps only."""
    chooser = Chooser()
    prompt = {"id": 9, "seat": 0, "kind": "skill", "default": "done", "options": [
        {"id": "done", "verb": "done"}, {"id": "skill:黑玫瑰:c12:s3", "verb": "skill", "name": "黑玫瑰", "card": 12}]}
    chooser.reset(prompt, [])
    assert [o["id"] for o in chooser.card_options()] == ["skill:黑玫瑰:c12:s3"]
    assert chooser.pass_() == "done"


def test_a_prompt_that_ran_out_is_logged_not_left_on_the_next_prompt() -> None:
    """`timed_out` says what happened to the last prompt: a log line in the player's language, never
    a note under the next prompt (which would look as if it had run out too)."""
    for lang in ("en", "zh"):
        state = ClientState()
        state.apply({"type": "error", "code": "timed_out", "message": "time ran out", "ref": 7})
        assert state.error is None
        assert [text for text, _ in state.log_lines(Words(lang))] == [EVENTS[lang]["timed_out"]]


def test_a_new_game_gets_a_line_and_a_reconnect_repeats_nothing() -> None:
    state = ClientState()
    first = [{"seq": 0, "kind": "turn_start", "turn": 1, "seat": 0}, {"seq": 1, "kind": "turn_end", "seat": 0}]
    state.apply({"type": "update", "view": {"seat": 0, "seats": [{"name": "A"}], "over": False}, "events": first})
    state.apply({"type": "update", "view": {"seat": 0, "seats": [{"name": "A"}], "over": False}, "events": first})
    assert len(state.log) == 2  # the reconnect's snapshot: already logged
    state.apply({"type": "update", "view": {"seat": 0, "seats": [{"name": "A"}], "over": True}, "events": []})
    state.apply({"type": "update", "view": {"seat": 0, "seats": [{"name": "A"}], "over": False}, "events": first})
    assert [entry.event["kind"] for entry in state.log if entry.event] == [
        "turn_start", "turn_end", "new_game", "turn_start", "turn_end"]
