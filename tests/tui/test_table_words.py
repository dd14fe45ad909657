"""What last session's playtest found grating on the table (issue 14): the ring chooses each seat
box's form from the rows and columns it really has (words wherever they fit, nothing ever cut);
English puts a space before a bracket; the message's route uses the width it has; every key is
named one way on every screen."""

from __future__ import annotations

import re
from string import Formatter

import pytest
from rich.console import Console

from bots import make_bot
from engine import Game, GameConfig, events_for, view
from fengsheng_tui.app import FengshengApp
from fengsheng_tui.i18n import UI, Words
from fengsheng_tui.keys import SCREENS, bindings, check_keymap, describe, key_label
from fengsheng_tui.widgets.hand import HandPanel
from fengsheng_tui.widgets.message_path import MessagePath, route
from fengsheng_tui.widgets.ring import SIDE_MIN, Ring

from .screen_text import counts_forms, screen_text, widget_text
from .states import ScriptedSession, update, welcome
from .test_playtest import help_text
from .test_ring import app_for, frozen, settle, travelling
from .waiting import wait_until

#: The short forms a box falls back to on a narrow screen.
SHORT = re.compile(r"\bR\d+ B\d+ Bk\d+\b|\[L\]|\[S\]|·(M|F|MF)\b")


def seat_texts(app: FengshengApp) -> dict[int, str]:
    return {i: widget_text(app, f".seat-{i}") for i, box in app.screen.query_one(Ring).boxes.items()
            if box.display}


@pytest.mark.parametrize("size", [(80, 24), (100, 30), (120, 40), (160, 48)])
@pytest.mark.parametrize("players", [3, 4, 5, 6, 7, 8, 9])
async def test_each_seat_box_takes_the_words_where_the_ring_has_the_rows_and_is_never_cut(
        size: tuple[int, int], players: int) -> None:
    """The table shows one form: every box in words, or every box in the short forms where some
    box's words would need a row the ring does not have; at 120×40 and wider every box says it in
    words; no box is cut by the panel below the ring."""
    game = travelling(players)
    msg = update(game, 0)
    seats = msg["view"]["seats"]
    seats[1]["locked"] = True
    seats[-1]["skipped"] = True
    words = Words("en")
    app = app_for([welcome(0), msg])
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        ring = app.screen.query_one(Ring)
        hand = app.screen.query_one(HandPanel)
        assert ring.region.bottom <= hand.region.y
        for index, text in seat_texts(app).items():
            box = ring.boxes[index]
            seat = seats[index]
            # Whole: every row it needs is inside the ring, above the hand panel.
            assert box.region.height == box.rows(*box.chosen) and box.region.bottom <= ring.region.bottom, text
            assert words.seat_name(seats, index, 0) in text and words.cards(seat["hand_count"]) in text, text
            assert any(form in text for form in counts_forms(words, seat["counts"])), text
            character = seat.get("character")
            if character and "id" in character:
                assert words.character(character) in text, text
            roomy, framed = box.chosen
            if size[0] >= 120:
                assert not SHORT.search(text), (size, text)
        # One form for the whole table; the short one only where some box's words cost a row.
        shown = [box for box in ring.boxes.values() if box.display]
        assert len({box.chosen for box in shown}) == 1, [box.chosen for box in shown]
        roomy, framed = shown[0].chosen
        if not roomy:
            assert any(box.rows(True, framed) > box.rows(False, framed) for box in shown)
        assert "[locked]" in seat_texts(app).get(1, "[locked]") or size[0] < 120
        if not ring.merged:  # our seat in the middle of the middle
            me, middle = ring.boxes[0].region, app.screen.query_one(".ring-center").region
            assert abs((me.x - middle.x) - (middle.right - me.right)) <= 2, (me, middle)


async def test_the_side_boxes_at_120_columns_say_red_blue_black_in_words() -> None:
    """The playtest's case: 5 seats at 120×40, side boxes 28 cells wide wrote `R0 B0 Bk0`."""
    game = travelling(5)
    msg = update(game, 0)
    app = app_for([welcome(0), msg])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        ring = app.screen.query_one(Ring)
        for index in [*ring.on_left, *ring.on_right]:
            text = widget_text(app, f".seat-{index}")
            assert counts_forms(Words("en"), msg["view"]["seats"][index]["counts"])[1] in text, text


@pytest.mark.parametrize(("players", "names"), [(5, ""), (6, ""), (7, ""), (6, "Bot 1{}")])
async def test_the_route_uses_the_width_it_has(players: int, names: str) -> None:
    """At 120×40 the route is drawn across the middle when it would wrap beside the stack, and the
    side columns give the middle the cells a long route needs (`小明 (you) → Bot 1 → … → 小明 (you)`)."""
    game = travelling(players)
    msg = update(game, 0)
    m = msg["view"]["message"]
    assert m is not None
    if names:
        for seat in msg["view"]["seats"]:
            seat["name"] = names.format(seat["index"]) if seat["index"] else "小明"
    app = app_for([welcome(0), msg])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        path = app.screen.query_one(MessagePath)
        full = app.screen.query_one(".ring-center").region.width - 2
        # No more rows than the route takes across the whole middle: it wraps only where it must.
        assert path.lines == path.count(app.state, app.words, app.mono, full), path.lines
        if path.natural(app.state, app.words, app.mono) <= 120 - 2 * SIDE_MIN - 2:
            # It fits across the middle once the sides give up their spare cells: method and way,
            # route, face, each on one line.
            assert path.lines == 3, screen_text(app)
            rows = [row for row in screen_text(app).splitlines() if "→" in row or "⇒" in row]
            order = route(msg["view"]["seats"], m)
            assert any(row.count("→") + row.count("⇒") == len(order) - 1 and not row.rstrip(" │┃").endswith("→")
                       for row in rows), rows


# ------------------------------------------------------------------ English spacing

#: A bracket glued to the word before it (`Player(you)`, `Lock[red·Direct](...)`), or padded inside.
GLUED = re.compile(r"[A-Za-z0-9\])][(\[]|[(\[] | [)\]]")


def english_sentences(seed: int, players: int, characters: bool) -> list[str]:
    names = tuple(f"P{i + 1}" for i in range(players))
    identities = "default" if characters else "novice"
    game = Game.new(GameConfig(players=players, identities=identities, names=names, characters=characters), seed)
    bots = {s: make_bot("random", s, seed * 7 + s) for s in range(players)}
    while not game.over:
        prompt = min(game.pending(), key=lambda p: game.priority_key(p.seat))
        game.choose(prompt.seat, prompt.id, bots[prompt.seat].decide(view(game, prompt.seat)))
    seats = view(game, 0)["seats"]
    words = Words("en")
    return [s for ev in events_for(game, 0, 0) if (s := words.event(ev, seats, 0))]


@pytest.mark.parametrize(("seed", "players", "characters"), [(1, 4, False), (2, 5, True), (3, 9, True)])
def test_english_log_lines_put_a_space_before_a_bracket(seed: int, players: int, characters: bool) -> None:
    lines = english_sentences(seed, players, characters)
    assert any("P1 (you)" in line for line in lines) and any("[" in line for line in lines)
    for line in lines:
        assert not GLUED.search(line), line
        assert not line[:1].islower(), line


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_english_screens_put_a_space_before_a_bracket(size: tuple[int, int]) -> None:
    """The table (seats, route, hand, log) and help; `(you)` as the lobby writes it."""
    game = travelling(5)
    app = app_for([welcome(0), update(game, 0)])
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        shown = screen_text(app)
        assert "(you)" in shown and not GLUED.search(shown), shown
        await pilot.press("question_mark")
        await wait_until(pilot, lambda: app.screen.__class__.__name__ == "HelpScreen")
        text = help_text(app)
        assert not GLUED.search(text), GLUED.search(text)
        assert not re.search(r"^• [a-z]", text, re.M), re.search(r"^• [a-z].*", text, re.M)


# ------------------------------------------------------------------ one naming for every key

#: Textual's own key names and glyphs, which no screen may show.
RAW = re.compile(r"\b(escape|backspace|enter|space|question_mark|pageup|pagedown|greater_than_sign|"
                 r"equals_sign|plus|minus|left|right|up|down|home|end|ctrl\+\w|f\d+)\b|[⏎⌫]|\bArrows\b|"
                 r"\bUp/Down\b|方向键|←→|↑↓|(?<![–\d])\d-\d")
#: The same in a sentence, where `up` or `end` may be plain English.
PROSE_RAW = re.compile(r"\b(escape|backspace|question_mark|pageup|pagedown|greater_than_sign|equals_sign|"
                       r"ctrl\+\w)\b|[⏎⌫]|\bArrows\b|\bUp/Down\b|方向键|←→|↑↓|(?<![–\d])\d-\d")
REMAPS = [{}, {"back": "escape,backspace", "pass": "space,p", "help": "f1", "quit": "ctrl+x",
               "log_older": "pageup,home", "target_next": "right,down,full_stop", "replay_next": "right,space"}]


@pytest.mark.parametrize("keymap", REMAPS, ids=["defaults", "remapped"])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_screen_names_its_keys_one_way(lang: str, keymap: dict[str, str]) -> None:
    """Footer, help rows and every hint: Esc, Backspace, Enter (回车), Space (空格), ↑/↓, PgUp, F1, Ctrl+X."""
    words = Words(lang, keymap)
    for name, specs in SCREENS.items():
        for binding in bindings(specs, words, keymap):
            display = str(getattr(binding, "key_display", ""))
            assert display and not RAW.search(display), (name, binding)
        for keys, what in describe(specs, words, keymap):
            assert not RAW.search(keys), (name, keys, what)
            if lang == "en":
                assert what[:1].isupper(), (name, what)
        for spec in specs:
            assert not RAW.search(key_label(spec.id, words, keymap)), spec
    for key, template in UI[lang].items():
        fields = {f for _, f, _, _ in Formatter().parse(template) if f and not f.startswith("key_")}
        text = words(key, **dict.fromkeys(fields, "x"))
        assert not PROSE_RAW.search(text), (key, text)
    if keymap:
        assert check_keymap(keymap).keys == keymap and check_keymap({"quit": "ctrl+q"}).problems
        assert key_label("quit", words, keymap) == "Ctrl+X"
        assert key_label("target_prev", words, keymap) == "←/→"
        assert key_label("pass", words, keymap) == f"{words.key_name('Space')}/p"


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_help_and_footer_on_screen_name_keys_one_way(lang: str) -> None:
    keymap = REMAPS[1]
    game = travelling(4)
    app = FengshengApp(ScriptedSession([welcome(0), update(game, 0)]), lang=lang, clock=frozen, keymap=keymap)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: "Esc/Backspace" in screen_text(app).splitlines()[-1])
        footer = screen_text(app).splitlines()[-1]
        assert not RAW.search(footer), footer
        await pilot.press("f1")
        await wait_until(pilot, lambda: app.screen.__class__.__name__ == "HelpScreen")
        text = help_text(app)
        keys = text[text.index(Words(lang)("key_bindings")):]
        assert "Esc/Backspace" in keys and "PgUp/Home" in keys and "Ctrl+X" in keys, keys
        for row in keys.splitlines()[1:]:
            columns = re.split(r"\s{2,}", row.strip())
            if len(columns) == 2:  # a key row: the keys, then what they do
                assert not RAW.search(columns[0]), row


# ------------------------------------------------------------------ game over, one entry per seat


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@pytest.mark.parametrize(("lang", "players"), [("zh", 9), ("en", 9), ("en", 5), ("zh", 4)])
async def test_game_over_reads_as_one_entry_per_seat(size: tuple[int, int], lang: str, players: int) -> None:
    """Each seat: one row in columns, then (where the row would not hold it) how it ended on a line
    indented under the character; nothing abbreviated, no cell broken in the middle."""
    from .states import play_until, play_with_characters

    game = play_with_characters(5, lambda g: False, players=players) if players != 4 else \
        play_until(3, lambda g: False)
    assert game.over
    msg = update(game, 1)
    words = Words(lang)
    seats = msg["view"]["seats"]
    left = {e["seat"]: e for e in msg["view"]["ending"]["left"]}
    app = FengshengApp(ScriptedSession([welcome(1), msg]), lang=lang, clock=frozen, keymap={})
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        text = app.screen.query_one("#over").content
        console = Console(width=size[0] - 4, record=True, color_system=None)
        console.print(text)
        lines = console.export_text().splitlines()
        names = [words.seat_name(seats, s["index"], 1) for s in seats]
        rows = [next(i for i, line in enumerate(lines) if line[:3] in ("★  ", "   ") and line[3:].startswith(name))
                for name in names]
        assert rows == sorted(rows), rows
        for index, row in enumerate(rows):
            end = rows[index + 1] if index + 1 < len(rows) else row + 3
            entry = [lines[row]] + [line for line in lines[row + 1:end] if line.startswith(" " * 8)]
            joined = " ".join(" ".join(part.split()) for part in entry)
            counts = counts_forms(words, seats[index]["counts"] if index not in left else
                                  {c["colour"]: sum(1 for d in left[index]["messages"] if d["colour"] == c["colour"])
                                   for c in left[index]["messages"]})
            assert counts[1] in joined or index in left, (joined, counts)
            assert not SHORT.search(joined), joined
            gone = left.get(index)
            if gone and gone.get("died"):
                by = gone.get("by")
                killer = words("killed_by", who=words.seat_name(seats, by, 1)) if isinstance(by, int) \
                    else words("killed_by_nobody")
                assert any(killer in line for line in entry), entry  # whole, on one line
                assert any(words("in_turn", turn=gone["turn"]) in line for line in entry), entry
            character = seats[index].get("character")
            if character and "id" in character:
                assert words.character(character) in joined, joined
