"""A player's keys.toml: every remap works on every screen, a clash with a key some screen uses is
refused with a reason, a broken file is reported, and the footer names remapped keys in the
player's language."""

from __future__ import annotations

from pathlib import Path

import pytest

from fengsheng_tui.app import FengshengApp
from fengsheng_tui.keys import SCREENS, check_keymap, load_keymap
from fengsheng_tui.local_game import LocalTable
from fengsheng_tui.session import NetSession

from .screen_text import screen_text
from .test_keys import open_prompt, wait_for
from .waiting import wait_until


def test_a_remap_that_clashes_on_any_screen_is_refused_with_the_screen_named() -> None:
    keymap = check_keymap({"quit": "x", "pass": "a", "chat": "t", "result": "e"})
    assert keymap.keys == {"chat": "t", "result": "e"}
    quit_problem, pass_problem = keymap.problems
    assert "quit" in quit_problem and "remove_bot" in quit_problem and "table lobby" in quit_problem
    assert "pass" in pass_problem and "target_a" in pass_problem and "table screen" in pass_problem


def test_swapping_two_keys_is_not_a_clash() -> None:
    keymap = check_keymap({"pass": "c", "chat": "space"})
    assert keymap.keys == {"pass": "c", "chat": "space"} and keymap.problems == ()


@pytest.mark.parametrize(("table", "words"), [
    ({"qiut": "z"}, "no key called 'qiut'"),
    ({"quit": "ctrl+shift+nonsense"}, "is not a key"),
    ({"quit": 5}, "must be a string"),
    ({"quit": ""}, "must be a string"),
])
def test_an_unknown_id_or_a_bad_key_is_reported(table: dict[str, object], words: str) -> None:
    keymap = check_keymap(table)
    assert keymap.keys == {} and words in keymap.problems[0]


def test_every_screen_has_a_way_out_after_the_default_keys() -> None:
    for name, specs in SCREENS.items():
        assert any(s.action in ("quit", "close", "back", "leave", "answer(False)") for s in specs), name


@pytest.mark.parametrize(("content", "words"), [
    ("[keys\nquit = 'z'", "not valid TOML"),
    ("keys = 3", "must be a table"),
    (b"\xff\xfe", "cannot be read"),
])
def test_a_broken_keys_file_is_reported_not_ignored(tmp_path: Path, content: str | bytes, words: str) -> None:
    path = tmp_path / "keys.toml"
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    keymap = load_keymap(path)
    assert keymap.keys == {} and words in keymap.problems[0] and str(path) in keymap.problems[0]


async def test_a_broken_keys_file_is_shown_when_the_game_starts(table: LocalTable, monkeypatch: pytest.MonkeyPatch,
                                                               tmp_path: Path) -> None:
    path = tmp_path / "broken" / "keys.toml"
    path.parent.mkdir()
    path.write_text('[keys]\nquit = "x"\n', encoding="utf-8")
    monkeypatch.setenv("FENGSHENG_CONFIG", str(path))
    app = FengshengApp(NetSession("127.0.0.1", table.port, "Me", token=table.host_token), lang="en")
    async with app.run_test(size=(120, 30)) as pilot:
        await wait_for(pilot, lambda: bool(app._notifications))
        assert any("quit" in n.message and "refused" in n.message for n in app._notifications)
        assert "q" == next(b.key for b in app.table_screen()._bindings.key_to_bindings.values()
                           for b in b if b.id == "quit")


async def test_remapped_keys_work_in_a_game_and_old_ones_say_they_do_nothing(table: LocalTable) -> None:
    keymap = {"quit": "z", "pass": "p", "chat": "t", "result": "e"}
    app = FengshengApp(NetSession("127.0.0.1", table.port, "Me", token=table.host_token), lang="en", keymap=keymap)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: open_prompt(app) is not None)
        footer = screen_text(app).splitlines()[-1]
        assert "z quit" in footer and "p pass" in footer and "q quit" not in footer
        await pilot.press("z")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "ConfirmQuit")
        assert "does nothing" not in screen_text(app)
        await pilot.press("n")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "TableScreen")
        await pilot.press("q")
        await wait_until(pilot, lambda: "does nothing" in screen_text(app))
        assert type(app.screen).__name__ == "TableScreen"


async def test_a_remapped_pass_keeps_its_translated_name_in_the_footer(table: LocalTable) -> None:
    app = FengshengApp(NetSession("127.0.0.1", table.port, "我", token=table.host_token), lang="zh",
                       keymap={"pass": "space,p"})
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: open_prompt(app, "pass", "end") is not None)
        footer = screen_text(app).splitlines()[-1]
        assert "空格/p" in footer and "space" not in footer.lower()


async def test_enter_on_the_only_lan_table_joins_it_and_its_state_is_in_words(table: LocalTable) -> None:
    from fengsheng_tui.screens.lobby import LobbyScreen
    from net.discovery import GameFound
    from net.version import PROTOCOL_VERSION

    app = FengshengApp(lang="zh", lobby=True, interfaces=[], keymap={})
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        # What the zeroconf browser hands the screen for one advertised table.
        lobby.games = {"friday": GameFound(name="friday", host="127.0.0.1", port=table.port, version=PROTOCOL_VERSION,
                                           table="周五", seats_taken=2, seats_total=6, phase="lobby",
                                           password=False, addresses=("127.0.0.1",))}
        lobby.refresh_view()
        await pilot.pause()
        text = screen_text(app)
        assert "周五" in text and "等人中" in text and "lobby" not in text
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.session is not None and app.state.view is not None)
        assert app.session.port == table.port  # type: ignore[attr-defined]


@pytest.mark.parametrize("width", [40, 60, 80, 100])
async def test_chinese_help_never_starts_a_line_with_a_closing_mark(width: int) -> None:
    import io

    from rich.console import Console
    from textual.widgets import Static

    from fengsheng_tui.screens.help import HelpScreen
    from fengsheng_tui.widgets.cjk_text import NO_END, NO_START

    app = FengshengApp(lang="zh", lobby=True, interfaces=[], keymap={})
    async with app.run_test(size=(width, 30)) as pilot:
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        content = app.screen.query_one("#help", Static).content
        console = Console(width=width - 2, record=True, color_system=None, file=io.StringIO())
        console.print(content)
        rows = [row.strip() for row in console.export_text().splitlines() if row.strip()]
    assert any("先选角色、后发身份" in row or "后发身份" in row for row in rows)
    assert any("右手边" in row for row in rows)
    # Chinese marks only: a key table row may well start with `?`.
    stranded = [row for row in rows if (row[0] in NO_START and not row[0].isascii())
                or (row[-1] in NO_END and not row[-1].isascii())]
    assert not stranded, stranded


async def test_english_help_says_characters_come_first_and_messages_go_right() -> None:
    from fengsheng_tui.screens.help import HelpScreen

    app = FengshengApp(lang="en", lobby=True, interfaces=[], keymap={})
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        text = screen_text(app)
    assert "characters are chosen before identities" in text and "always go to the right" in text
