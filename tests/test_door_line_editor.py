"""The SSH door's name prompt reads raw terminal bytes: what ends up in the name, and what does not."""

from __future__ import annotations

from fengsheng_tui.doors.ssh import LineEditor, parse_listen, printable


def test_typing_editing_and_enter() -> None:
    editor = LineEditor("alice")
    assert editor.feed(b"\x7f\x7f\x7f\x7f\x7f") is None and editor.text == ""
    assert editor.feed("阿".encode()[:2]) is None and editor.text == ""  # half a character waits
    assert editor.feed("阿".encode()[2:] + "丽".encode()) is None and editor.text == "阿丽"
    assert editor.feed(b"\x7f") is None and editor.text == "阿"
    assert editor.feed(b"\r") == "enter"


def test_escape_sequences_and_controls_never_reach_the_name() -> None:
    editor = LineEditor()
    editor.feed(b"a\x1b[Ab\x1bOPc\x1b[1;5Dd\x1b]0;title\x07e\x00\x07\tf")
    assert editor.text == "abcdef"
    editor.feed(b"\x15")
    assert editor.text == ""
    editor.feed("\u2028\u202e".encode() + b"\xff\xfeok")
    assert editor.text == "ok"


def test_length_cap_cancel_and_secret() -> None:
    editor = LineEditor(limit=3)
    editor.feed(b"abcdef")
    assert editor.text == "abc"
    assert editor.feed(b"\x03") == "cancel"
    assert LineEditor("pw", secret=True).shown == "**"


def test_listen_spec() -> None:
    assert parse_listen("2222", "0.0.0.0") == ("0.0.0.0", 2222)
    assert parse_listen("127.0.0.1:0", "0.0.0.0") == ("127.0.0.1", 0)
    assert printable("a\x1b[31mb\u200bc") == "a[31mbc"


def test_only_display_variables_pass_and_only_well_formed() -> None:
    import re

    from fengsheng_tui.doors.ssh import PASSED_ENV, TERM_RE

    assert set(PASSED_ENV) == {"COLORTERM", "TEXTUAL_ANIMATIONS", "NO_COLOR"}
    assert not re.fullmatch(PASSED_ENV["NO_COLOR"], "1\x00")
    assert not re.fullmatch(PASSED_ENV["TEXTUAL_ANIMATIONS"], "none; rm -rf /")
    assert TERM_RE.fullmatch("xterm-256color") and not TERM_RE.fullmatch("xterm\nTERM=x")


def test_tabs_are_counted_for_the_door_never_typed() -> None:
    """The door's name prompt gives Tab a meaning (the game's language): counted, never in the
    name, and the keys after it in the same packet are still read."""
    editor = LineEditor("al")
    assert editor.feed(b"\tex\t\t") is None
    assert editor.text == "alex" and editor.tabs == 3
