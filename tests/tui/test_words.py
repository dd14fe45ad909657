"""English on the table says things in words where there is room (issue 14, "Keys and words"):
no `3c`, `[L]`, `[S]`, `Neu?disc`; the short colour letters only on a seat box too narrow for the
words; every sentence starts with a capital."""

from __future__ import annotations

import re
from typing import Any

import pytest

from fengsheng_tui.app import FengshengApp
from fengsheng_tui.i18n import EVENTS, Words
from fengsheng_tui.widgets.seat import SeatBox

from .screen_text import screen_text, widget_text
from .states import ScriptedSession, play_until, update, welcome
from .test_playtest import help_text
from .test_ring import app_for, frozen, settle, travelling
from .waiting import wait_until

#: What a newcomer had to decode: a hand as `3c`, flags as `[L]`/`[S]`, a probe as `(Neu?disc)`.
CRYPTIC = re.compile(r"\b\d+c\b|\b(Mil|Lat|Neu)\?|\?disc\b|\bBk\b|\(down\)")


@pytest.mark.parametrize(("size", "players"), [((80, 24), 9), ((80, 24), 6), ((120, 40), 9), ((160, 48), 4)])
async def test_english_seat_boxes_say_it_in_words(size: tuple[int, int], players: int) -> None:
    game = travelling(players)
    msg = update(game, 0)
    seats = msg["view"]["seats"]
    seats[1]["locked"] = True
    seats[2]["skipped"] = True
    app = app_for([welcome(0), msg])
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        for seat in seats:
            box = app.screen.query_one(f".seat-{seat['index']}", SeatBox)
            if not box.display or box.region.width == 0:
                continue  # our own facts went into the hand panel's title on a short screen
            text = widget_text(app, f".seat-{seat['index']}")
            n = seat["hand_count"]
            assert (f"{n} cards" if n != 1 else "1 card") in text, text
            width = box.content_region.width
            counts = seat["counts"]
            full = " ".join(f"{c} {counts.get(c, 0)}" for c in ("red", "blue", "black"))
            if len(f"{n} cards {full}") + 2 <= width and box.chosen is not None and box.chosen[0]:
                assert full in text, (width, text)  # room for the words: no letters
            # One form for the table: short only where the ring could not give every box its words.
            assert not re.search(r"\b\d+c\b", text), text
        # The flag in words where a line of the box holds it, else its short mark (never a cut).
        assert "[locked]" in widget_text(app, ".seat-1") or "[L]" in widget_text(app, ".seat-1")
        assert "[lured away]" in widget_text(app, ".seat-2") or "[S]" in widget_text(app, ".seat-2")
        forms = {box.chosen for box in app.screen.query(SeatBox) if box.display and box.region.width}
        assert len(forms) == 1, forms
        if forms == {(True, False)} or forms == {(True, True)}:
            assert "[locked]" in widget_text(app, ".seat-1") and "[lured away]" in widget_text(app, ".seat-2")
        assert not CRYPTIC.search(re.sub(r"\bR\d B\d Bk\d\b", "", screen_text(app))), screen_text(app)


def test_a_probe_card_says_its_question_in_words() -> None:
    probe = {"id": 7, "function": "试探", "colour": "black", "method": "密电",
             "probe": {"identity": "neutral", "on_yes": "discard", "on_no_say": "其实我是卧底"}}
    en = Words("en").card(probe)
    assert en == "Probe [black·Secret] (Neutral? yes: discard)", en
    assert Words("zh").card(probe) == "试探[黑·密电](酱油?弃)"


def test_english_sentences_start_with_a_capital() -> None:
    """An event sentence and the prompt's waiting line are sentences: a capital or a name first."""
    for kind, text in EVENTS["en"].items():
        assert not text[:1].islower(), (kind, text)
    assert Words("en")("waiting_for", who="Bob")[0].isupper()
    assert Words("en").cards(1) == "1 card" and Words("en").cards(3) == "3 cards"
    assert Words("zh").cards(1) == "1张"


# ------------------------------------------------------------------ hints name the keys really bound

#: Keys a hint used to name as they are by default; after a remap only `{key_…}` may name them.
NAMED_KEY = re.compile(r"\b(Enter|Space|Esc|PageUp|PageDown|PgUp|PgDn|Home|End)\b|回车|空格|\? (help|shows)|"
                       r"按 [a-z?] |\b[a-z] (starts|uses|ready|quit|types|refreshes|in Settings)\b|[(（][a-z][)）]|"
                       r"(^| |：)[a-z?](/[a-z])? [\u4e00-\u9fff]")
#: Texts about keys no keys.toml binds: the name door's form fields, the chat input line, Textual's palette.
NOT_BINDINGS = {"door_hint", "chat_placeholder", "palette_help"}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_hint_names_a_key_by_its_default(lang: str) -> None:
    from fengsheng_tui.i18n import UI
    from fengsheng_tui.i18n.words import key_fields
    from fengsheng_tui.keys import SCREENS

    ids = {s.id for specs in SCREENS.values() for s in specs}
    for name, text in UI[lang].items():
        if name not in NOT_BINDINGS:
            assert not NAMED_KEY.search(text.replace("{key_", "{")), (name, text)
        assert set(key_fields(text)) <= ids, (name, text)


def play_phase() -> list[dict[str, Any]]:
    game = play_until(4, lambda g: g.state.current == 0 and g.state.node == "play" and g.state.turn > 4)
    return [welcome(0), update(game, 0)]


REMAP = {"confirm": "z", "pass": "p", "back": "backspace", "help": "f1", "skill": "v",
         **{f"target_{ch}": new for ch, new in zip("asd", "yei", strict=True)}}


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_prompt_and_help_lines_name_the_remapped_keys(lang: str) -> None:
    words = Words(lang)
    messages = play_phase()
    prompt = messages[1]["view"]["prompt"]
    hand = [c["id"] for c in messages[1]["view"]["hand"]]
    digit = str(next(hand.index(o["card"]) + 1 for o in prompt["options"] if o.get("target_seat") is not None))
    app = FengshengApp(ScriptedSession(messages), lang=lang, clock=frozen, keymap=REMAP)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: bool(widget_text(app, "PromptPanel").strip()))
        line = widget_text(app, "PromptPanel")
        said = {"en": ("z uses it", "p ends the phase"), "zh": ("z 使用", "p 结束出牌")}[lang]
        assert all(s in line for s in said), line
        assert words.key_name("Space") not in line and words.key_name("Enter") not in line, line
        await pilot.press("x")  # a key that does nothing here
        await wait_until(pilot, lambda: "F1" in widget_text(app, "PromptPanel"))
        await pilot.press(digit)
        await wait_until(pilot, lambda: "y/e/i" in widget_text(app, "PromptPanel"))
        line = widget_text(app, "PromptPanel")
        assert " y " in line and "backspace" in line.lower() and words.key_name("Enter") not in line, line
        await pilot.press("backspace", "f1")
        await wait_until(pilot, lambda: app.screen.__class__.__name__ == "HelpScreen")
        shown = help_text(app)
        star = {"en": "used now (v)", "zh": "（按 v）"}[lang]
        assert star in shown and "F1" in shown, shown
