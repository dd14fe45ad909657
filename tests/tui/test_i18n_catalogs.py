"""The catalogs a translator edits: plain data, the same keys in every language, the same `{fields}`
in each text; and every event sentence in one family, the family its builder module is named after."""

from __future__ import annotations

import ast
import string
from pathlib import Path
from typing import Any

import pytest

from fengsheng_tui.i18n import catalogs, events
from fengsheng_tui.i18n.events import character, end, message, played, probe

I18N = Path(catalogs.__file__).parent


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def shape(value: Any, path: str = "") -> dict[str, Any]:
    """Every leaf of a table, by its path (`EVENTS.message.sent`), for comparing catalogs."""
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for key, item in value.items():
            out.update(shape(item, f"{path}.{key}"))
        return out
    return {path: value}


@pytest.mark.parametrize("lang", catalogs.LANGS)
def test_a_catalog_is_plain_data(lang: str) -> None:
    """Only docstring, `from __future__` and assignments of literals: nothing a translator could break by running."""
    tree = ast.parse((I18N / f"{lang}.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue
        if isinstance(node, ast.ImportFrom) and node.module == "__future__":
            continue
        assert isinstance(node, ast.Assign | ast.AnnAssign), ast.dump(node)
        assert node.value is not None
        ast.literal_eval(node.value)


def test_every_language_has_the_same_keys_and_fields() -> None:
    """English-only tables (names of the engine's Chinese vocabulary) aside, the catalogs match key
    for key, and a text's `{fields}` are the ones the code fills in, in every language."""
    zh = {name: getattr(catalogs.zh, name) for name in dir(catalogs.zh) if name.isupper()}
    en = {name: getattr(catalogs.en, name) for name in dir(catalogs.en) if name.isupper()}
    assert set(en) - set(zh) == {"FUNCTION", "METHOD", "SKILL", "PROBE_LINE"}
    for name, table in zh.items():
        if name == "KEY_NAMES":
            continue  # a key a language does not name keeps its English name
        if isinstance(table, list):
            assert len(table) == len(en[name]), name
            continue
        zh_leaves, en_leaves = shape(table, name), shape(en[name], name)
        assert set(zh_leaves) == set(en_leaves), set(zh_leaves) ^ set(en_leaves)
        for path, text in zh_leaves.items():
            assert fields(text) == fields(en_leaves[path]), path


def test_every_event_sentence_is_in_one_family() -> None:
    kinds = [kind for family in catalogs.zh.EVENTS.values() for kind in family]
    assert len(kinds) == len(set(kinds))
    assert set(kinds) == set(catalogs.EVENTS["zh"])


@pytest.mark.parametrize("module", [message, played, probe, character, end])
def test_a_builder_prepares_only_its_own_family(module: Any) -> None:
    """`events/message.py` prepares message events: its kinds' sentences are in EVENTS['message']."""
    family = module.__name__.rsplit(".", 1)[1]
    for kind in module.KINDS:
        assert any(k == kind or k.startswith(f"{kind}_") for k in catalogs.zh.EVENTS[family]), kind
    assert all(events.PREPARE[kind] is module.prepare for kind in module.KINDS)


def test_words_and_character_texts_import_one_way() -> None:
    """`i18n.characters` reads the catalogs, never `Words`: no circle between words and character data."""
    source = (I18N / "characters.py").read_text(encoding="utf-8")
    imported = {node.module for node in ast.walk(ast.parse(source)) if isinstance(node, ast.ImportFrom)}
    assert imported <= {"__future__", "dataclasses", "functools", "importlib", "catalogs", None}, imported
    catalog_source = (I18N / "catalogs.py").read_text(encoding="utf-8")
    assert "characters" not in {node.module for node in ast.walk(ast.parse(catalog_source))
                                if isinstance(node, ast.ImportFrom)}
