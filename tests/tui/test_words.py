"""English on the table says things in words where there is room (issue 14, "Keys and words"):
no `3c`, `[L]`, `[S]`, `Neu?disc`; the short colour letters only on a seat box too narrow for the
words; every sentence starts with a capital."""

from __future__ import annotations

import re

import pytest

from fengsheng_tui.i18n import EVENTS, Words
from fengsheng_tui.widgets.seat import SeatBox

from .screen_text import screen_text, widget_text
from .states import update, welcome
from .test_ring import app_for, settle, travelling

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
            if len(f"{n} cards {full}") + 2 <= width:
                assert full in text, (width, text)  # room for the words: no letters
            assert not re.search(r"\b\d+c\b", text), text
        # The flag in words where a line of the box holds it, else its short mark (never a cut).
        assert "[locked]" in widget_text(app, ".seat-1") or "[L]" in widget_text(app, ".seat-1")
        assert "[lured away]" in widget_text(app, ".seat-2") or "[S]" in widget_text(app, ".seat-2")
        if players == 6:
            assert "[locked]" in widget_text(app, ".seat-1") and "[lured away]" in widget_text(app, ".seat-2")
        assert not CRYPTIC.search(re.sub(r"\bR\d B\d Bk\d\b", "", screen_text(app))), screen_text(app)


def test_a_probe_card_says_its_question_in_words() -> None:
    probe = {"id": 7, "function": "试探", "colour": "black", "method": "密电",
             "probe": {"identity": "neutral", "on_yes": "discard", "on_no_say": "其实我是卧底"}}
    en = Words("en").card(probe)
    assert en == "Probe[black·Secret](Neutral? yes: discard)", en
    assert Words("zh").card(probe) == "试探[黑·密电](酱油?弃)"


def test_english_sentences_start_with_a_capital() -> None:
    """An event sentence and the prompt's waiting line are sentences: a capital or a name first."""
    for kind, text in EVENTS["en"].items():
        assert not text[:1].islower(), (kind, text)
    assert Words("en")("waiting_for", who="Bob")[0].isupper()
    assert Words("en").cards(1) == "1 card" and Words("en").cards(3) == "3 cards"
    assert Words("zh").cards(1) == "1张"
