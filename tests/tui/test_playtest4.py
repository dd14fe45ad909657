"""Grates a new player met in tmux (session 8's playtest): each test drives the real screens.

- The character pick at 80×24: the chosen choice is scrolled into view, and Chinese skill texts
  wrap by 禁则 (no line starts with `，`).
- 禁则 in every other text that wraps: the log, the prompt panel, the stack, the game-over screen.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot

from engine import Game
from fengsheng_tui.app import FengshengApp
from fengsheng_tui.i18n.characters import base_characters
from fengsheng_tui.screens.character_pick import CharacterPickScreen
from fengsheng_tui.widgets.cjk_text import NO_START

from .screen_text import screen_text
from .states import ScriptedSession, play_until, play_with_characters, update, welcome
from .waiting import wait_until


def frozen() -> float:
    return 1000.0


def pick_app(lang: str) -> tuple[FengshengApp, Game]:
    game = play_with_characters(7, lambda g: True)
    session = ScriptedSession([welcome(0), update(game, 0)])
    return FengshengApp(session, lang=lang, clock=frozen, keymap={}), game


def stranded_marks(text: str) -> list[str]:
    """Screen lines whose first character (after indentation and box edges) may not start a line."""
    out = []
    for line in text.splitlines():
        body = line.strip(" │┃▁▂▃▄▅▆▇█")
        if body and body[0] in NO_START:
            out.append(line)
    return out


async def show_choices(pilot: Pilot[Any], app: FengshengApp, choices: list[str]) -> CharacterPickScreen:
    screen = app.screen
    assert isinstance(screen, CharacterPickScreen)
    app.state.view["character_choices"] = choices  # type: ignore[index]
    screen.refresh_view()
    await pilot.pause()
    return screen


async def test_the_chosen_character_is_scrolled_into_view_at_80_by_24() -> None:
    """English at 80×24: three choices are taller than the screen; a digit or an arrow that chooses
    the third must show its name and skills (main left it below the screen, chosen blind)."""
    app, game = pick_app("en")
    choices = game.state.seats[0].character_choices
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, CharacterPickScreen), what="the pick")
        for keys, index in ((("3",), 2), (("1",), 0), (("down",), 1), (("down",), 2), (("up", "up"), 0)):
            for key in keys:
                await pilot.press(key)
            info = base_characters()[choices[index]]
            wanted = [f"{index + 1}  {info.name_en}", *(s.title("en") for s in info.skills)]
            await wait_until(pilot, lambda wanted=wanted: all(w in screen_text(app) for w in wanted),
                             what=f"choice {index + 1} ({info.name_en}) on screen after {keys}")


async def test_no_line_of_the_pick_starts_with_a_closing_mark_for_any_character() -> None:
    """Every character's skills and task, in Chinese at 80 and 100 columns (and English at 80):
    main folded `…翻面朝上` / `，然后摸两张牌。` at any cell."""
    ids = sorted(base_characters())
    groups = [ids[i:i + 3] for i in range(0, len(ids), 3)]
    for lang, width in (("zh", 80), ("zh", 100), ("en", 80)):
        app, _ = pick_app(lang)
        async with app.run_test(size=(width, 60)) as pilot:
            await wait_until(pilot, lambda app=app: isinstance(app.screen, CharacterPickScreen), what="the pick")
            for group in groups:
                await show_choices(pilot, app, group)
                for n in range(1, len(group) + 1):
                    await pilot.press(str(n))
                    await pilot.pause()
                    assert stranded_marks(screen_text(app)) == [], (lang, width, group, n)


# ------------------------------------------------------------------ 禁则 in every wrapped text


def log_rows_all(app: FengshengApp) -> list[str]:
    from fengsheng_tui.widgets.log import EventLog

    log = app.screen.query_one(EventLog)
    lines = screen_text(app).splitlines()
    return [line[log.region.x + 1: log.region.right - 1] for line in lines[log.region.y + 1: log.region.bottom - 1]]


@pytest.mark.parametrize("width", [80, 120])
async def test_no_log_row_starts_with_a_closing_mark(width: int) -> None:
    """Chat lines whose `，` or `。` falls at every column, read page by page (PgUp): main let Rich
    fold Chinese at any cell, leaving `，好好。` at the start of a row."""
    from fengsheng_tui.widgets.log import EventLog

    game = play_until(6, lambda g: g.state.turn > 2)
    chats = [{"type": "chat", "name": "Bob", "text": "好" * k + "，好。" + "好" * (k % 3) + "。"} for k in range(20, 60)]
    app = FengshengApp(ScriptedSession([welcome(0), update(game, 0), *chats]), lang="zh", clock=frozen, keymap={})
    async with app.run_test(size=(width, 40)) as pilot:
        last = chats[-1]["text"]
        await wait_until(pilot, lambda: any(e.chat is not None and e.chat[1] == last for e in app.state.log),
                         what="the last chat line")
        log = app.screen.query_one(EventLog)
        seen = -1
        while log.scrolled_back != seen:
            seen = log.scrolled_back
            assert stranded_marks("\n".join(log_rows_all(app))) == [], log.scrolled_back
            await pilot.press("pageup")
            await pilot.pause()
        assert seen > 0  # the whole log was read


async def test_no_line_of_the_game_over_screen_starts_with_a_closing_mark() -> None:
    """The winner's secret task (`有玩家宣告胜利时，场上尚无人死亡…`) at every width from 60 to 100."""
    from fengsheng_tui.screens.game_over import GameOverScreen

    game = play_with_characters(126, lambda g: False)  # 蝮蛇's task (seed 46 until rules5 changed the games)
    assert game.state.win_reason == "secret_task"
    app = FengshengApp(ScriptedSession([welcome(0), update(game, 0)]), lang="zh", clock=frozen, keymap={})
    async with app.run_test(size=(60, 40)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen), what="the game-over screen")
        for width in range(60, 101):
            await pilot.resize_terminal(width, 40)
            await wait_until(pilot, lambda width=width: app.size.width == width and "场上尚无人" in screen_text(app))
            assert stranded_marks(screen_text(app)) == [], width


async def test_no_row_of_the_prompt_panel_starts_with_a_closing_mark() -> None:
    """A play prompt with a long Chinese refusal under it (a code the catalog does not know is
    shown as the server wrote it), at every width from 80 to 120: the panel counts and draws its
    rows by 禁则 (main folded it at any cell: `，好好。` began a row at 96 and 97 columns)."""
    from fengsheng_tui.widgets.prompt import PromptPanel

    game = play_until(6, lambda g: 0 in g.prompts and g.prompts[0].kind == "play")
    error = {"type": "error", "code": "odd", "message": "好" * 45 + "，好好。" + "好" * 40 + "。", "ref": None}
    app = FengshengApp(ScriptedSession([welcome(0), update(game, 0), error]), lang="zh", clock=frozen, keymap={})
    async with app.run_test(size=(80, 40)) as pilot:
        await wait_until(pilot, lambda: app.state.error is not None, what="the error")
        for width in range(80, 121):
            await pilot.resize_terminal(width, 40)
            await wait_until(pilot, lambda width=width: app.size.width == width)
            panel = app.screen.query_one(PromptPanel)
            lines = screen_text(app).splitlines()[panel.region.y: panel.region.bottom]
            assert stranded_marks("\n".join(lines)) == [], width
            drawn = "".join(lines).replace(" ", "")
            assert "好" * 40 + "。" in drawn  # the panel drew every row it counted


# ------------------------------------------------------------------ the status line


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("paused", [False, True])
async def test_the_status_line_drops_whole_fields_and_never_cuts_one(lang: str, paused: bool) -> None:
    """80×24, our play phase (the `Your move` badge), paused by the host or not: main cut the line
    at the edge, leaving `Identity:` with its word past it. Whole fields give way (the title,
    then our identity, which the hand's title shows); whose turn, the phase and who paused stay."""
    from rich.cells import cell_len

    from fengsheng_tui.i18n import Words

    game = play_until(3, lambda g: 1 in g.prompts and g.prompts[1].kind == "play")
    msg = update(game, 1)
    msg["view"]["paused"] = paused
    seats = [{"name": s["name"], "host": s["index"] == 0} for s in msg["view"]["seats"]]
    hello = {"type": "welcome", "seat": 1, "token": "t", "table": "lan", "host": False}
    app = FengshengApp(ScriptedSession([hello, msg]), lang=lang, clock=frozen, keymap={})
    app.state.lobby = {"host": False, "you": 1, "seats": seats}
    words = Words(lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: app.state.prompt is not None, what="our play prompt")
        await pilot.pause()
        row = screen_text(app).splitlines()[0].strip()
        assert cell_len(row) <= 78, row
        assert words.phase("play") in row and words.seat_name(app.state.seats, 1, 1) in row, row
        identity = words.label("identity") + words.identity(msg['view']['identity'])
        assert row.split(" · ")[-1] in (words.phase("play"), identity), row  # the last field is whole
        if paused:
            assert words.paused("老王") in row, row


# ------------------------------------------------------------------ every key named where it works


def test_the_host_hint_names_every_host_key_the_footer_does_not() -> None:
    """The table lobby's footer has room for a newcomer's keys only; the host's line under the
    settings must name the rest (main left out `l`, the next bot's level, and `m`, mute spectators,
    which README lists)."""
    from fengsheng_tui.i18n import Words
    from fengsheng_tui.i18n.words import key_fields
    from fengsheng_tui.keys import TABLE_LOBBY_KEYS
    from fengsheng_tui.screens.table_lobby import HOST_ACTIONS

    host_keys = {s.id for s in TABLE_LOBBY_KEYS if not s.show and s.action.split("(")[0] in HOST_ACTIONS}
    for lang in ("zh", "en"):
        named = set(key_fields(Words(lang).ui["host_hint"]))
        assert host_keys <= named, (lang, host_keys - named)


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("width", [80, 90, 100])
async def test_the_host_hint_breaks_only_between_its_items(lang: str, width: int) -> None:
    """The hint wraps at 80 columns; Rich broke it at any space (`… d 计时，l` / `机器人水平 …`):
    each line now ends with a list separator (or the hint's end)."""
    from fengsheng_tui.i18n import Words

    from .test_snapshots import LOBBY_TABLE

    app = FengshengApp(ScriptedSession([welcome(0), {"type": "lobby", "table": LOBBY_TABLE}]), lang=lang,
                       clock=frozen, keymap={})
    hint = Words(lang)("host_hint")
    async with app.run_test(size=(width, 30)) as pilot:
        await wait_until(pilot, lambda: hint[:12] in screen_text(app), what="the host hint")
        lines = [line.strip() for line in screen_text(app).splitlines()]
        first = next(i for i, line in enumerate(lines) if line.startswith(hint[:12]))
        rows = []
        for line in lines[first:]:
            rows.append(line)
            if hint.replace(" ", "").endswith(line.replace(" ", "")[-8:]):
                break
        assert "".join(rows).replace(" ", "") == hint.replace(" ", ""), rows
        assert all(row.endswith(("，", ",")) for row in rows[:-1]), rows


# ------------------------------------------------------------------ a replay's characters


def character_truth(seed: int, seat: int, players: int) -> tuple[dict[str, Any], dict[int, list[Any]]]:
    """A replay of `seat` (every event, the final view, no frames) and, at each step a choice
    left, what the seat's own view showed of every seat's character and identity then."""
    from engine import Game, GameConfig, events_for, view

    game = play_with_characters(seed, lambda g: False, players)
    record = game.record()
    again = Game.new(GameConfig.from_dict(record["config"]), int(record["seed"]))  # type: ignore[arg-type]
    truth: dict[int, list[Any]] = {}
    for choice in record["choices"]:  # type: ignore[attr-defined]
        again.choose(int(choice[0]), int(choice[1]), str(choice[2]))
        v = view(again, seat)
        truth[len(events_for(again, seat, 0))] = [(s["character"], s["identity"]) for s in v["seats"]]
    events = events_for(game, seat, 0)
    replay = {"seat": seat, "table": "t", "events": events, "final": view(game, seat), "frames": []}
    return replay, {at: facts for at, facts in truth.items() if at < len(events)}


def test_a_replay_shows_each_character_as_the_table_saw_it_at_that_step() -> None:
    """Main copied the end's characters into every step: picked before the pick, hidden ones
    face-up from the start (the live table showed 盖), a revealed identity never shown."""
    from fengsheng_tui.replay_model import view_at

    kinds: set[str] = set()
    for seed, seat, players in ((5, 1, 5), (6, 3, 5), (11, 0, 7), (12, 4, 9), (46, 1, 5)):
        replay, truth = character_truth(seed, seat, players)
        kinds |= {ev.get("kind") for ev in replay["events"]}
        for step, facts in truth.items():
            shown = view_at(replay, step)
            assert [(s["character"], s["identity"]) for s in shown["seats"]] == facts, (seed, seat, step)
    assert {"character", "character_flipped"} <= kinds  # the games flipped characters


async def test_the_replay_screen_shows_a_face_down_character_as_face_down() -> None:
    """Seed 5, seat 1's replay just after the deal: seat 0's character is face-down （盖） on the
    live table; main's replay drew its name (the end's view) from the first step."""
    from fengsheng_tui.screens.replay import ReplayScreen

    replay, _ = character_truth(5, 1, 5)
    dealt = next(i for i, ev in enumerate(replay["events"]) if ev.get("kind") == "dealt")
    hidden = next(ev["seat"] for ev in replay["events"][:dealt] if ev.get("kind") == "character" and not ev["face_up"])
    name = replay["final"]["seats"][hidden]["character"]["name"]  # the end reveals it
    app = FengshengApp(lang="zh", replay=replay, keymap={}, clock=frozen)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen), what="the replay")
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        screen.show_step(dealt)
        await wait_until(pilot, lambda: "盖" in screen_text(app), what="a face-down seat")
        assert name not in screen_text(app)
        screen.show_step(len(replay["events"]))
        await wait_until(pilot, lambda: name in screen_text(app), what="the end, where it is revealed")


@pytest.mark.parametrize("lang", ["zh", "en"])
async def test_help_names_its_scroll_keys_and_pages(lang: str) -> None:
    """The help is many screens long at 80×24; its footer said only `Esc back`. It names ↑/↓ now,
    and PgUp/PgDn page it."""
    from fengsheng_tui.i18n import Words
    from fengsheng_tui.screens.help import HelpScreen

    game = play_until(6, lambda g: 0 in g.prompts and g.prompts[0].kind == "play")
    app = FengshengApp(ScriptedSession([welcome(0), update(game, 0)]), lang=lang, clock=frozen, keymap={})
    words = Words(lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: app.state.prompt is not None, what="the table")
        await pilot.press("question_mark")
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen), what="help")
        assert f"↑/↓ {words('scroll_key')}" in screen_text(app).splitlines()[-1]
        top = screen_text(app).splitlines()[0]
        await pilot.press("pagedown")
        await wait_until(pilot, lambda: screen_text(app).splitlines()[0] != top, what="a page down")


async def test_a_long_last_action_ends_in_an_ellipsis_not_a_silent_cut() -> None:
    """80×24 English: `Last: 老王 (you) says: "I am a good person." (asks about Military: yes →`
    and nothing more: the banner wrapped into a second row its height cut off. It ends in `…`."""
    from fengsheng_tui.client_state import ClientState
    from fengsheng_tui.i18n import Words

    game = play_until(6, lambda g: len(g.events) >= 37)
    state = ClientState(seat=0)
    state.apply(welcome(0))
    state.apply(update(game, 0))
    sentence = state.last_action(Words("en")) or ""
    assert len(sentence) > 80  # wider than the screen
    app = FengshengApp(ScriptedSession([welcome(0), update(game, 0)]), lang="en", clock=frozen, keymap={})
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: sentence[:20] in screen_text(app), what="the banner")
        row = screen_text(app).splitlines()[1].rstrip()
        assert row.endswith("…") and row.removeprefix(" Last: ")[:-1] in sentence, row


# ------------------------------------------------------------------ game over: why each winner won


@pytest.mark.parametrize(("seed", "players"), [(5, 7), (5, 6)])  # (17, 7), (1, 6) until rules5 changed the games
async def test_game_over_says_why_a_winner_outside_the_winning_side_won(seed: int, players: int) -> None:
    """柒佰's 风度 makes another player win with him: main's game over listed him among the
    winners (a Latent among a Military win) and said nothing of why; only the log did."""
    from fengsheng_tui.i18n import Words
    from fengsheng_tui.screens.game_over import GameOverScreen

    game: Game = play_with_characters(seed, lambda g: False, players)
    (ev,) = [e for e in game.events if e.kind == "co_winner"]
    for lang in ("zh", "en"):
        app = FengshengApp(ScriptedSession([welcome(0), update(game, 0)]), lang=lang, clock=frozen, keymap={})
        words = Words(lang)
        async with app.run_test(size=(100, 40)) as pilot:
            await wait_until(pilot, lambda app=app: isinstance(app.screen, GameOverScreen), what="game over")
            why = words.event(ev.project(0), app.state.seats, 0)
            assert why and " ".join(why.split()) in " ".join(screen_text(app).split()), why


@pytest.mark.parametrize(("lang", "marks"), [("zh", "1 红 · 2 蓝 · 3 酱油 · 4 不明 · 0 清除"),
                                             ("en", "1 red · 2 blue · 3 neutral · 4 unknown · 0 clears")])
async def test_the_notes_hint_names_each_mark_key(lang: str, marks: str) -> None:
    """`n` at 80×24: main's hint read `0–4 红 · 0–4 蓝 · 0–4 酱油 · 0–4 不明 · 0–4 清除` (each key
    named by its group's footer label)."""
    from fengsheng_tui.screens.notes import NotesScreen

    game = play_until(6, lambda g: 0 in g.prompts and g.prompts[0].kind == "play")
    app = FengshengApp(ScriptedSession([welcome(0), update(game, 0)]), lang=lang, clock=frozen, keymap={})
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: app.state.prompt is not None, what="the table")
        await pilot.press("n")
        await wait_until(pilot, lambda: isinstance(app.screen, NotesScreen), what="the notes")
        text = " ".join(line.strip(" │") for line in screen_text(app).splitlines())
        assert marks in " ".join(text.split()), text
        assert "0–4" in screen_text(app).splitlines()[-1]  # the footer keeps the group's label


@pytest.mark.parametrize(("lang", "heading"), [("zh", "牌桌上的按键"), ("en", "Keys at the table")])
async def test_settings_rows_name_their_keys_as_bound(lang: str, heading: str) -> None:
    """Settings wrote `m  颜色模式` whatever keys.toml bound, and its key list (the table's: `m
    托管`, `b 暂停`) was headed only `按键`, beside rows where m and b meant something else."""
    from fengsheng_tui.i18n import Words
    from fengsheng_tui.screens.settings import SettingsScreen

    game = play_until(6, lambda g: 0 in g.prompts and g.prompts[0].kind == "play")
    app = FengshengApp(ScriptedSession([welcome(0), update(game, 0)]), lang=lang, clock=frozen,
                       keymap={"settings_colour": "v"})
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: app.state.prompt is not None, what="the table")
        await pilot.press("o")
        await wait_until(pilot, lambda: isinstance(app.screen, SettingsScreen), what="settings")
        lines = [line.strip() for line in screen_text(app).splitlines()]
        assert f"v  {Words(lang)('colour_mode')}" in "\n".join(lines) and heading in lines, lines
        mono = app.mono
        await pilot.press("v")
        await wait_until(pilot, lambda: app.mono != mono, what="v toggles the colour mode")
