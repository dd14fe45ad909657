"""The Settings screen's choices, kept in ~/.config/fengsheng/settings.json across runs.

A flag on the command line wins over the saved value, the saved value over the defaults; the
language's default comes from the locale (LC_ALL, LC_MESSAGES, LANG: zh_* is Chinese, anything
else English), as a player whose system speaks Chinese expects. Like
recent.json, a corrupt or unwritable file never breaks the game: it only loses the settings, and a
damaged one is moved aside (`paths.set_aside`) before anything is saved over it.
"""

from __future__ import annotations

import json
import logging
import os
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

from .paths import DamagedFile, config_dir, load_json, set_aside, write_config

log = logging.getLogger("fengsheng.settings")

LANGS = ("zh", "en")


def locale_lang() -> str:
    """The locale's language: the first of LC_ALL, LC_MESSAGES, LANG that is set decides (POSIX)."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name)
        if value:
            return "zh" if value.lower().startswith("zh") else "en"
    return "en"


@dataclass(frozen=True)
class Preferences:
    lang: str = field(default_factory=locale_lang)
    mono: bool = False
    auto_pass: bool = True
    #: Ring the terminal bell when a prompt of ours opens (off: a bell in a shared room annoys).
    bell: bool = False
    #: One of the colour themes Textual ships (checked against the app's themes when applied).
    theme: str = "textual-dark"


def settings_path() -> Path:
    return config_dir() / "settings.json"


def load_preferences(path: Path | None = None) -> Preferences:
    """The saved choices; a missing, unreadable or ill-typed value falls back to its default."""
    path = path or settings_path()
    try:
        data = load_json(path)
    except FileNotFoundError:
        return Preferences()
    except DamagedFile as exc:
        set_aside(path, exc, "the default settings are used")
        return Preferences()
    except OSError as exc:
        log.warning("%s cannot be used (%s): the default settings are used", path, exc)
        return Preferences()
    if not isinstance(data, dict):
        set_aside(path, "not a JSON object", "the default settings are used")
        return Preferences()
    prefs = Preferences()
    if data.get("lang") in LANGS:
        prefs = replace(prefs, lang=data["lang"])
    if isinstance(data.get("mono"), bool):
        prefs = replace(prefs, mono=data["mono"])
    if isinstance(data.get("auto_pass"), bool):
        prefs = replace(prefs, auto_pass=data["auto_pass"])
    if isinstance(data.get("bell"), bool):
        prefs = replace(prefs, bell=data["bell"])
    if isinstance(data.get("theme"), str) and 0 < len(data["theme"]) <= 64:
        prefs = replace(prefs, theme=data["theme"])
    return prefs


def save_preferences(prefs: Preferences, path: Path | None = None) -> None:
    """Write every choice; a read-only home only loses them, never the game."""
    path = path or settings_path()
    try:
        write_config(path, json.dumps(asdict(prefs)), 0o644)
    except OSError:
        pass


def resolve(lang: str | None = None, mono: bool | None = None) -> Preferences:
    """What a run starts with: each flag given (not None) wins, the rest comes from settings.json."""
    saved = load_preferences()
    return replace(saved, lang=lang or saved.lang, mono=saved.mono if mono is None else mono)


def resolve_lang(flag: str | None) -> str:
    """`--lang` if given, else the saved language, else the locale's — the same for every command."""
    return resolve(lang=flag).lang
