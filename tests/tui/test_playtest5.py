"""Grates a new player met at a LAN table and in the doors (session 9's playtest); each test drives
the real screens with Pilot.

- A Chinese table writes the table's own bots as `机器人1`, not the server's `Bot 1`.
- After we answered a window the server still holds open, the prompt line says we answered and
  whom the table waits for; it never lists ourselves as the one it waits on.
"""

from __future__ import annotations

import re

import pytest

from bots import make_bot
from engine import Game, GameConfig, view
from fengsheng_tui.app import FengshengApp

from .screen_text import screen_text
from .states import ScriptedSession, update, welcome
from .waiting import wait_until

BOT_TABLE = ("小明", "Bot 1", "Bot 2", "Bot 3")


def frozen() -> float:
    return 1000.0


def bot_game(stop: object, seed: int = 3) -> Game:
    """Four seats, three of them named as the table names its bots, played by random bots to `stop`."""
    game = Game.new(GameConfig(players=4, identities="novice", names=BOT_TABLE), seed)
    bots = {s: make_bot("random", s, seed * 7 + s) for s in range(4)}
    for _ in range(5000):
        if game.over or stop(game):  # type: ignore[operator]
            return game
        prompt = min(game.pending(), key=lambda p: game.priority_key(p.seat))
        game.choose(prompt.seat, prompt.id, bots[prompt.seat].decide(view(game, prompt.seat)))
    return game


def our_response(game: Game) -> bool:
    """Seat 0 is asked to respond and holds a card it could play (so no automatic pass)."""
    return any(p.seat == 0 and p.kind == "response" and len(p.options) > 1 for p in game.pending())


@pytest.mark.parametrize(("lang", "shown", "hidden"), [("zh", "机器人", "Bot"), ("en", "Bot ", "机器人")])
async def test_a_chinese_table_names_its_bots_in_chinese(lang: str, shown: str, hidden: str) -> None:
    """The ring, the stack, the message path and the log: every name of the table's bots."""
    game = bot_game(lambda g: g.state.turn >= 3)
    app = FengshengApp(ScriptedSession([welcome(0), update(game, 0)]), lang=lang, clock=frozen, keymap={})
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: shown + "3" in screen_text(app) and "小明" in screen_text(app))
        text = screen_text(app)
        assert hidden not in text, text
        for name in ("1", "2", "3"):
            assert shown + name in text, text


async def test_the_game_over_screen_names_bots_in_the_tables_language() -> None:
    game = bot_game(lambda g: False)
    assert game.over
    app = FengshengApp(ScriptedSession([welcome(0), update(game, 0)]), lang="zh", clock=frozen, keymap={})
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: "游戏结束" in screen_text(app))
        text = screen_text(app)
        assert "机器人2" in text and "Bot" not in text, text


@pytest.mark.parametrize(("lang", "passed"), [("zh", "你已放弃"), ("en", "You passed")])
async def test_after_our_answer_the_line_does_not_say_the_table_waits_on_us(lang: str, passed: str) -> None:
    """We pass a window the server keeps open (passes stay secret until it closes): main wrote
    `等待 小明(你), 机器人1 …`, as if the table still waited on us."""
    game = bot_game(our_response)
    assert our_response(game)
    session = ScriptedSession([welcome(0), update(game, 0)])
    app = FengshengApp(session, lang=lang, clock=frozen, keymap={})
    app.auto_pass = False
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: "⏳" in screen_text(app))
        await pilot.press("space")
        await wait_until(pilot, lambda: any(kind == "choose" for kind, _ in session.sent))
        await wait_until(pilot, lambda: passed in screen_text(app))
        line = next(row for row in screen_text(app).splitlines() if passed in row)
        assert "小明" not in line, line


# ---------------------------------------------------------------- Chinese punctuation
#: Chinese text takes full-width punctuation (`：`, `，`, `、`, `（）`, no space after them); the
#: half-width exceptions are codes read as one token: a card's `[红·密电]` and its probe tag
#: `(潜伏?摸)`, a seat note's `红?`, `主机:端口`, and an English command quoted as printed.
HALF_WIDTH_CODES = {
    "UI.probe_tag", "UI.note_red", "UI.note_blue", "UI.note_neutral", "UI.address", "ABBREVIATIONS[3]",
    "ERRORS.connect",
}
CJK = "\u3400-\u9fff"
WRONG_WIDTH = re.compile(rf"[:,;?!] |[:,;?!](?=[{CJK}])|(?<=[{CJK}])[:,;?!()]|\((?=[{CJK}])|[：，；、？！] ")


def zh_strings(obj: object, path: str) -> list[tuple[str, str]]:
    if isinstance(obj, str):
        return [(path, obj)]
    if isinstance(obj, dict):
        return [found for key, value in obj.items() for found in zh_strings(value, f"{path}.{key}" if path else key)]
    if isinstance(obj, list | tuple):
        return [found for i, value in enumerate(obj) for found in zh_strings(value, f"{path}[{i}]")]
    return []


def test_every_chinese_string_has_full_width_punctuation() -> None:
    """Every string of the Chinese catalogs (placeholders read as words)."""
    from fengsheng_tui.i18n import zh

    wrong = []
    for name in dir(zh):
        if name.startswith("_"):
            continue
        for path, text in zh_strings(getattr(zh, name), name):
            if path in HALF_WIDTH_CODES:
                continue
            if WRONG_WIDTH.search(re.sub(r"\{[^}]*\}", "字", text)):
                wrong.append((path, text))
    assert not wrong, wrong


def wrong_width_rows(text: str) -> list[str]:
    """Screen rows with half-width punctuation in Chinese, card codes (`[红·密电](潜伏?摸)`) and the
    help key `?` aside."""
    rows = []
    for row in text.splitlines():
        body = re.sub(r"\[[^\]]*\](\([^)]*\))?", "[]", row)
        body = re.sub(r"(?<!\S)\?(?= )", "", body)
        if WRONG_WIDTH.search(body.replace("…", "")):
            rows.append(row)
    return rows


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_chinese_table_and_game_over_screens_use_full_width_punctuation(size: tuple[int, int]) -> None:
    """What code puts between a label and its value (`身份: 潜伏战线`), between names (`胜者: A, B`),
    after a colon (`情报： 退回`) and round a name's mark (`玩家(你)（老枪）`): main mixed widths."""
    from .states import play_with_characters

    game = play_with_characters(5, lambda g: g.state.turn >= 2 and any(p.seat == 0 for p in g.pending()))
    app = FengshengApp(ScriptedSession([welcome(0), update(game, 0)]), lang="zh", clock=frozen, keymap={})
    async with app.run_test(size=size) as pilot:
        await wait_until(pilot, lambda: "秘密任务" in screen_text(app) or "角色" in screen_text(app))
        await pilot.pause()
        text = screen_text(app)
        assert "（你）" in text, text
        assert not wrong_width_rows(text), wrong_width_rows(text)
        for key in ("o", "escape"):
            await pilot.press(key)
            await pilot.pause()
            assert not wrong_width_rows(screen_text(app)), wrong_width_rows(screen_text(app))
    over = play_with_characters(5, lambda g: False)
    assert over.over
    app = FengshengApp(ScriptedSession([welcome(0), update(over, 0)]), lang="zh", clock=frozen, keymap={})
    async with app.run_test(size=size) as pilot:
        await wait_until(pilot, lambda: "游戏结束" in screen_text(app))
        text = screen_text(app)
        assert "胜者：" in text, text
        assert not wrong_width_rows(text), wrong_width_rows(text)


async def test_the_chinese_table_lobby_uses_full_width_punctuation() -> None:
    from .test_snapshots import LOBBY_TABLE

    chat = {"type": "chat", "seat": 1, "name": "Bot 1", "text": "求截"}
    app = FengshengApp(ScriptedSession([welcome(0), {"type": "lobby", "table": LOBBY_TABLE}, chat]), lang="zh",
                       clock=frozen, keymap={})
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: "求截" in screen_text(app))
        text = screen_text(app)
        assert "机器人1：求截" in text and "人数：" in text, text
        assert not wrong_width_rows(text), wrong_width_rows(text)


# ---------------------------------------------------------------- the footer at 80 columns
@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_footer_never_cuts_a_key_at_80_columns(lang: str) -> None:
    """English at 80×24 with a skill to use: main's footer ran to `… ? help q qu`. Keys other lines
    name too give way whole; `?` (which lists every key) and `q` always stay."""
    from .states import play_with_characters

    game = play_with_characters(26, lambda g: 0 in g.prompts and g.prompts[0].kind == "play"
                                and any(o.verb == "skill" for o in g.prompts[0].options))
    app = FengshengApp(ScriptedSession([welcome(0), update(game, 0)]), lang=lang, clock=frozen, keymap={})
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: "⏳" in screen_text(app))
        await pilot.pause()
        footer = screen_text(app).splitlines()[-1].rstrip()
        words = app.words
        for needed in (f"? {words('help')}", f"q {words('quit')}", f"u {words('skill_key')}"):
            assert needed in footer, footer
        assert footer.endswith(f"q {words('quit')}"), footer
