"""Every event kind the engine logs has a sentence in both languages, with its secret part shown
exactly to the seats that may see it.

The kinds and their fields are read from the engine's source (every `log("kind", {secret}, ...)`
call), so a new event without a sentence fails here rather than showing raw English in the UI.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import pytest

from fengsheng_tui.client_state import ClientState
from fengsheng_tui.i18n import LANGS, Words, events

ENGINE = Path(__file__).resolve().parents[2] / "engine"
SEATS = [{"index": i, "name": name} for i, name in enumerate(("甲", "乙", "丙", "丁"))]
PROBE = {"id": 7, "function": "试探", "colour": "red", "method": "密电",
         "probe": {"identity": "latent", "on_yes": "draw", "on_no_say": "其实我是卧底"}}
LOCK = {"id": 8, "function": "锁定", "colour": "black", "method": "直达"}
#: A plausible value for every field name the engine logs.
SAMPLE: dict[str, Any] = {
    "seat": 1, "by": 2, "to": 2, "source": 2, "user": 2, "origin": 0, "target": 2, "declarer": 1,
    "card": LOCK, "target_card": LOCK, "cards": [LOCK, PROBE], "identity": "latent", "count": 2,
    "skill": "就计", "character": "daofeng", "characters": ["daofeng", "laogui"], "answer": "draw",
    "line": "我是一个好人", "method": "密电", "direction": 1, "turn": 3, "winners": [1], "reason": "faction",
    "identities": ["latent", "military", "latent", "military"], "function": "锁定", "face_up": True,
}
SECRET_SAMPLE = {**SAMPLE, "card": PROBE, "answer": "answer_no"}


def keys_of(node: ast.expr) -> set[str]:
    """The string keys of a dict literal (nothing for anything else)."""
    if not isinstance(node, ast.Dict):
        return set()
    return {k.value for k in node.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)}


def logged_kinds() -> dict[str, tuple[set[str], set[str]]]:
    """kind -> (secret field names, public field names), over every `log(...)` call in engine/."""
    kinds: dict[str, tuple[set[str], set[str]]] = {}
    for path in ENGINE.rglob("*.py"):
        if path.name == "scenario.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        # `log("sent", ..., **public)`: the keys of the dict literal bound to that name.
        spread: dict[str, set[str]] = {}
        for node in ast.walk(tree):
            target = node.target if isinstance(node, ast.AnnAssign) else (
                node.targets[0] if isinstance(node, ast.Assign) else None)
            if isinstance(target, ast.Name) and isinstance(getattr(node, "value", None), ast.Dict):
                spread[target.id] = keys_of(node.value)  # type: ignore[attr-defined]
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "log" and node.args):
                continue
            first = node.args[0]
            names = [first] if isinstance(first, ast.Constant) else (
                [first.body, first.orelse] if isinstance(first, ast.IfExp) else [])
            secret = keys_of(node.args[1]) if len(node.args) > 1 else set()
            public = {k.arg for k in node.keywords if k.arg and k.arg != "seen_by"}
            for k in node.keywords:
                if k.arg is None and isinstance(k.value, ast.Name):
                    public |= spread.get(k.value.id, set())
            for name in names:
                if isinstance(name, ast.Constant) and isinstance(name.value, str):
                    entry = kinds.setdefault(name.value, (set(), set()))
                    entry[0].update(secret)
                    entry[1].update(public)
    return kinds


KINDS = logged_kinds()


def test_the_source_was_parsed() -> None:
    assert {"played", "probe_read", "message_swapped", "identity_taken", "hand_seen"} <= set(KINDS)
    assert KINDS["probe_read"] == ({"card"}, {"seat", "user"})


def detail(words: Words, field: str, value: Any) -> str:
    if field == "identity":
        return words.identity(value)
    if field == "cards":
        return words.card(value[0])
    if field == "character":
        return words.character_name(value)
    if field == "characters":
        return words.character_name(value[0])
    if field == "answer":
        return words(value)
    return words.card(value)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_kind_has_a_sentence_with_its_secret_for_those_who_see_it(kind: str, lang: str) -> None:
    words = Words(lang)
    secret, public = KINDS[kind]
    event = {"seq": 1, "kind": kind, **{f: SAMPLE[f] for f in public}}
    seen = {**event, **{f: SECRET_SAMPLE[f] for f in secret}}
    generic = events.generic(words, seen, {"seat": "乙"})
    for ev in (seen, event):
        if ev is event and kind == "identity":
            assert words.event(ev, SEATS, 0) is None  # nothing to say without the secret
            continue
        if ev is event and secret:
            ev = {k: v for k, v in ev.items() if k not in secret}
        text = words.event(ev, SEATS, 1)
        assert text and text != generic, (kind, lang, text)
        assert "{" not in text and (lang == "en" or kind not in text)
        if lang == "zh":
            assert not re.search(r"[A-Za-z]{2,}", text), text
        for field in secret:
            shown = detail(words, field, SECRET_SAMPLE[field])
            assert (shown in text) == (ev is seen), (kind, field, text)


@pytest.mark.parametrize("lang", LANGS)
def test_a_probe_shows_its_question_to_its_user_in_the_answer(lang: str) -> None:
    """The answer names no card; the user saw the 试探 when it was played, so his log says which."""
    words = Words(lang)
    state = ClientState(seat=0)
    played = {"seq": 1, "kind": "played", "seat": 0, "card": PROBE, "target": 1, "target_card": None}
    state.apply({"type": "update", "view": {"seats": SEATS}, "events": [
        played, {"seq": 2, "kind": "resolved", "seat": 0, "card": {"function": "试探"}, "target": 1},
        {"seq": 3, "kind": "probe_answer", "seat": 1, "answer": "draw"}]})
    lines = [line for line, _ in state.log_lines(words)]
    assert words.card(PROBE) in lines[0] and "(" in words.card(PROBE)
    assert words.probe_text(PROBE) in lines[2]
    other = ClientState(seat=2)
    other.apply({"type": "update", "view": {"seats": SEATS}, "events": [
        {**played, "card": {"function": "试探"}}, {"seq": 3, "kind": "probe_answer", "seat": 1, "answer": "draw"}]})
    assert words.probe_text(PROBE) not in " ".join(line for line, _ in other.log_lines(words))


def test_a_skill_that_counts_as_a_card_is_one_line_and_a_card_played_as_another_says_so() -> None:
    words = Words("zh")
    seats = [{"index": 0, "name": "刀锋", "character": {"id": "daofeng"}}, *SEATS[1:]]
    state = ClientState(seat=1)
    state.apply({"type": "update", "view": {"seats": seats}, "events": [
        {"seq": 1, "kind": "skill_used", "seat": 0, "skill": "就计", "target": None},
        {"seq": 2, "kind": "played", "seat": 0, "card": {"function": "识破", "skill": "就计"}, "target": None,
         "target_card": None},
        {"seq": 3, "kind": "played", "seat": 0, "card": PROBE, "function": "锁定", "target": 3,
         "target_card": None}]})
    lines = [line for line, _ in state.log_lines(words)]
    assert lines == ["刀锋发动【就计】（当作识破）", f"刀锋【亮剑】把{words.card(PROBE)}当作锁定使用 → 丁"]
