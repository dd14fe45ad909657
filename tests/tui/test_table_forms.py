"""The grates issue 14's work left on the table: every line that says the table is paused names
who paused it; a name with the "you" marker, and a character with its gender, are written one
way on every screen; the ring uses one form at a time and keeps it while the room stays; our
own secret task is never cut; a replay's hand is the hand of the moment shown."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from fengsheng_tui.i18n import Words

from .screen_text import widget_text
from .states import play_until, update
from .test_ring import app_for, settle
from .waiting import wait_until

# ------------------------------------------------------------------ who paused

def paused_guest() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A LAN guest's last lobby frame (老王 holds the host rights), and its messages: a paused
    table with our prompt open, then the server's refusal of a choice sent as the pause arrived."""
    game = play_until(3, lambda g: 1 in g.prompts and g.state.turn > 1)
    msg = update(game, 1)
    msg["view"]["paused"] = True
    seats = [{"name": s["name"], "host": s["index"] == 0} for s in msg["view"]["seats"]]
    lobby = {"host": False, "you": 1, "seats": seats}
    welcome = {"type": "welcome", "seat": 1, "token": "t", "table": "lan", "host": False}
    refused = {"type": "error", "code": "paused", "message": "paused by the host", "ref": msg["view"]["prompt"]["id"]}
    return lobby, [welcome, msg, copy.deepcopy(refused)]


@pytest.mark.parametrize(("lang", "who"), [("en", "Paused by the host (老王)"), ("zh", "房主（老王）已暂停牌桌")])
async def test_every_line_that_says_the_table_is_paused_names_who_paused_it(lang: str, who: str) -> None:
    """The status bar, the prompt's pause line, the refusal and the note a held key leaves."""
    lobby, messages = paused_guest()
    app = app_for(messages, lang=lang)
    app.state.lobby = lobby  # the lobby before the game (its frame came before the first update)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await wait_until(pilot, lambda: app.state.error_code == "paused" and app.state.paused_by == "老王")
        assert who in widget_text(app, "#status")
        prompt = widget_text(app, "#prompt")
        assert f"⏸ {who}" in prompt
        assert prompt.count(who) == 2, prompt  # the pause line and the refusal
        await pilot.press("space")  # held by the pause: the note names him too
        await wait_until(pilot, lambda: widget_text(app, "#prompt").count(who) == 3)


# ------------------------------------------------------------------ one way to write a name, a character

#: The one way each language writes a name with its marker, and a character with its gender.
MARKED = {"zh": "{}（{}）", "en": "{} ({})"}
GENDERED = {"zh": "{}·{}", "en": "{} · {}"}


def you(words: Words, name: str) -> str:
    return MARKED[words.lang].format(name, words("you"))


def gendered(words: Words, name: str, gender: object) -> str:
    return GENDERED[words.lang].format(name, words.gender(gender))


def wrong_you(words: Words, name: str) -> list[str]:
    """The other ways `name (you)` was written: with and without the space, full-width brackets."""
    mark = words("you")
    forms = [f"{name} ({mark})", f"{name}({mark})", f"{name}（{mark}）", f"{name} （{mark}）"]
    return [f for f in forms if f != you(words, name)]


def wrong_gender(words: Words, name: str, gender: object) -> list[str]:
    word = words.gender(gender)
    forms = [f"{name} ({word})", f"{name}({word})", f"{name}（{word}）", f"{name} · {word}", f"{name}·{word}"]
    return [f for f in forms if f != gendered(words, name, gender)]


@pytest.mark.parametrize("lang", ["zh", "en"])
async def test_our_name_and_a_character_with_its_gender_are_written_one_way_on_every_screen(lang: str) -> None:
    """Lobby, table (seat box, status, route, log and our own chat line), hand panel, game over,
    help's character list: our name always `小红（你）` / `Ann (you)`, a character `浮萍·女` /
    `Blade · male` (`Words.you`, `Words.gendered`; the short `Blade·M` only where a seat box is
    narrow)."""
    from fengsheng_tui.screens.game_over import GameOverScreen
    from fengsheng_tui.screens.table_lobby import TableLobbyScreen

    from .screen_text import screen_text
    from .states import play_with_characters
    from .test_playtest import help_text
    from .test_snapshots import LOBBY_TABLE

    words = Words(lang)
    me = "老王"
    app = app_for([welcome_of(0), {"type": "lobby", "table": LOBBY_TABLE}], lang=lang)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, TableLobbyScreen) and you(words, me) in screen_text(app))
        text = screen_text(app)
        assert not any(f in text for f in wrong_you(words, me)), text
    game = play_with_characters(5, lambda g: g.state.message is not None and 0 in g.prompts and g.state.turn > 1)
    msg = update(game, 0)
    ours = msg["view"]["seats"][0]["character"]
    chat = {"type": "chat", "seat": 0, "name": me, "text": "hello"}
    app = app_for([welcome_of(0), msg, chat], lang=lang)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: "hello" in widget_text(app, "#log"))
        text = screen_text(app)
        assert f"» {you(words, me)}{words.colon}hello" in text, text  # our own chat line, marked as every name of ours
        assert not any(f in text for f in wrong_you(words, me)), text
        hand = widget_text(app, "#hand")
        if ours.get("gender"):  # a face-down character of ours shows it (the view gives it us)
            assert gendered(words, words.character(ours), ours["gender"]) in hand, hand
        for seat in msg["view"]["seats"]:
            character = seat.get("character")
            if isinstance(character, dict) and character.get("gender"):
                shown = words.character(character)
                assert not any(f in text for f in wrong_gender(words, shown, character["gender"])), text
        await pilot.press("question_mark")
        await wait_until(pilot, lambda: app.screen.query("#help"))
        reference = help_text(app)
        from fengsheng_tui.i18n.characters import base_characters

        for info in base_characters().values():
            assert gendered(words, info.name(lang), info.gender) in reference, info.name(lang)
            assert not any(f in reference for f in wrong_gender(words, info.name(lang), info.gender))
    over = play_with_characters(5, lambda g: False)
    app = app_for([welcome_of(0), update(over, 0)], lang=lang)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        await settle(pilot)
        text = screen_text(app)
        assert you(words, me) in text and not any(f in text for f in wrong_you(words, me)), text


def welcome_of(seat: int) -> dict[str, Any]:
    return {"type": "welcome", "seat": seat, "token": "t", "table": "snap", "host": True}


# ------------------------------------------------------------------ the replay's hand

def sparse_replays() -> list[tuple[dict[str, Any], dict[int, list[int]]]]:
    """Replays whose client took one frame in seven (updates that carry many events, as with fast
    bots), with the hand each step really had (the frame the server took after every choice)."""
    from engine import events_for, view

    from .states import frames_of, play_with_characters

    out = []
    for seed, maker, seat in ((2, play_until, 0), (4, play_until, 2), (5, play_with_characters, 1),
                              (6, play_with_characters, 3)):
        game = maker(seed, lambda g: False)
        frames = frames_of(game, seat)
        truth = {f["at"]: [c["id"] for c in f["hand"] or []] for f in frames}  # the last frame at each step
        sparse = [f for i, f in enumerate(frames) if i % 7 == 0]
        events = events_for(game, seat, 0)
        replay = {"seat": seat, "table": "t", "events": events, "final": view(game, seat), "frames": sparse}
        out.append((replay, {at: ids for at, ids in truth.items() if at < len(events)}))
    return out


def test_a_replay_shows_the_hand_of_the_step_shown_not_of_its_last_frame() -> None:
    """Between two frames our own events (drew, played, sent, given, taken, died …) move the hand:
    at every step it is the hand the seat really held then, in its order."""
    from fengsheng_tui.replay_model import view_at

    lagging = 0
    for replay, truth in sparse_replays():
        for step, ids in truth.items():
            shown = view_at(replay, step)
            assert [c["id"] for c in shown["hand"]] == ids, (replay["seat"], step)
            assert shown["seats"][replay["seat"]]["hand_count"] == len(ids)
            frames = [f for f in replay["frames"] if f["at"] <= step]
            lagging += bool(frames) and [c["id"] for c in frames[-1]["hand"] or []] != ids
    assert lagging > 50  # the frames alone were behind at that many steps


async def test_the_replay_screen_draws_the_hand_of_the_step_shown() -> None:
    from fengsheng_tui.app import FengshengApp
    from fengsheng_tui.screens.replay import ReplayScreen

    replay, truth = sparse_replays()[0]
    step = next(at for at, ids in truth.items()  # a step whose last frame held fewer cards
                if (fs := [f for f in replay["frames"] if f["at"] <= at]) and len(fs[-1]["hand"] or []) < len(ids))
    app = FengshengApp(lang="en", replay=replay, keymap={})
    words = Words("en")
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen))
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        screen.show_step(step)
        faces = {c["id"]: c for ev in replay["events"] for c in [*(ev.get("cards") or []), ev.get("card") or {}]
                 if isinstance(c, dict) and "id" in c}
        want = [words.card(faces[i]) for i in truth[step]]
        await wait_until(pilot, lambda: all(w in widget_text(app, "#replay-hand") for w in want)
                         and f"{len(want)} {want[-1]}" in widget_text(app, "#replay-hand"))


# ------------------------------------------------------------------ nothing of ours is cut

def squeezed(text: str) -> str:
    return "".join(text.split())


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("players", [3, 5, 6, 7, 9])
async def test_our_secret_task_and_skills_are_never_cut_at_80_by_24(lang: str, players: int) -> None:
    """The hand panel wraps our character, its skills and the whole secret task (no `…`); the
    prompt panel takes every row it draws; no seat box is cut."""
    from fengsheng_tui.i18n.characters import character_info
    from fengsheng_tui.widgets.hand import HandPanel
    from fengsheng_tui.widgets.prompt import PromptPanel
    from fengsheng_tui.widgets.ring import Ring

    from .states import play_with_characters

    game = play_with_characters(players, lambda g: 0 in g.prompts and g.state.turn > 1, players=players)
    msg = update(game, 0)
    words = Words(lang)
    app = app_for([welcome_of(0), msg], lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        hand = squeezed(widget_text(app, "#hand"))
        ours = msg["view"]["seats"][0]["character"]
        info = character_info(ours["id"])
        assert info is not None
        assert "…" not in hand, hand
        assert squeezed(info.task(lang)) in hand, hand
        for skill in ours.get("skills") or []:
            assert squeezed(words.skill(skill)) in hand, hand
        panel = app.screen.query_one(HandPanel)
        assert panel.region.height == panel.lines + 2
        prompt = app.screen.query_one(PromptPanel)
        assert prompt.region.height >= prompt.lines
        ring = app.screen.query_one(Ring)
        for box in ring.boxes.values():
            if box.display:
                assert box.region.height == box.rows(*box.chosen) and box.region.bottom <= panel.region.y


# ------------------------------------------------------------------ one form, kept

def shape(app: Any) -> tuple[object, ...]:
    """The ring's shape as drawn: each box's form, frames, gap, tight, our seat merged."""
    from fengsheng_tui.widgets.ring import Ring

    ring = app.table_screen().query_one(Ring)
    forms = {box.chosen for box in ring.boxes.values() if box.display}
    return (tuple(sorted(forms, key=str)), ring.has_class("-boxed"), ring.has_class("-gap"),
            ring.has_class("-tight"), ring.merged)


@pytest.mark.parametrize(("players", "size"), [(4, (80, 24)), (6, (80, 24))])
async def test_the_ring_keeps_one_form_and_does_not_flip_back_within_a_turn(players: int,
                                                                           size: tuple[int, int]) -> None:
    """A whole game's updates, one by one: every screen uses one form for all seat boxes, and
    within a turn the ring never goes back to a shape it left (framed with no message, unframed
    with one, framed again …); it changes only where it must, and at most a few times a game."""
    from engine import Game

    from .states import play_with_characters

    game = play_with_characters(7, lambda g: False, players=players)
    record = game.record()
    from engine import GameConfig, view
    again = Game.new(GameConfig.from_dict(record["config"]), int(record["seed"]))  # type: ignore[arg-type]
    app = app_for([welcome_of(0), update(again, 0)], lang="en")
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        shapes: list[tuple[int, tuple[object, ...]]] = []
        seq = 0
        for choice in record["choices"][:100]:  # type: ignore[index]
            again.choose(int(choice[0]), int(choice[1]), str(choice[2]))
            msg = update(again, 0)
            msg["events"] = [e for e in msg["events"] if e["seq"] > seq]
            seq = max([seq, *(e["seq"] for e in msg["events"])])
            app.handle_message(msg)
            await pilot.pause()
            if app.screen is not app.table_screen():
                continue  # the character pick (or the game over) stands over the table
            now = shape(app)
            assert len(now[0]) == 1, now  # one form for every box on the screen
            turn = int(view(again, 0)["turn"])
            if not shapes or shapes[-1][1] != now:
                shapes.append((turn, now))
            if again.over:
                break
        for turn in {t for t, _ in shapes}:
            within = [s for t, s in shapes if t == turn]
            assert len(within) == len(set(within)), (turn, within)  # never back to a shape it left
        assert len(shapes) <= 12, shapes
