"""Key bindings: every binding has an id, so a player can remap it from a config file.

The defaults use only letters, digits, arrows, Enter, Escape, Backspace, Space, `?` and `>`: ctrl
combinations are swallowed by many SSH clients and by tmux. Backspace backs out wherever Esc does:
a lone Esc waits out the terminal's escape delay, Backspace answers at once. The remap file is TOML with a `[keys]` table
(`pass = "space,p"`), read from $FENGSHENG_CONFIG or ~/.config/fengsheng/keys.toml.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from .i18n import Words
from .paths import keys_file, read_config_text


@dataclass(frozen=True)
class KeySpec:
    id: str
    keys: str
    action: str
    word: str  # i18n key of the footer description
    show: bool = True
    #: How the footer and hints name it while nothing it stands for is remapped (`1–9`, `←/→`).
    key_display: str | None = None
    #: Other bindings its `key_display` stands for too (`←/→`: target_next as well as target_prev).
    covers: tuple[str, ...] = ()


CARD_KEYS = tuple(
    KeySpec(f"card_{n}", str(n), f"card({n})", "card_key", show=n == 1, key_display="1–9",
            covers=tuple(f"card_{m}" for m in range(2, 10)) if n == 1 else ()) for n in range(1, 10)
)
TARGET_LETTERS = "asdfghjkl"

TABLE_KEYS = (
    *CARD_KEYS,
    KeySpec("target_prev", "left,up", "target(-1)", "target_key", key_display="←/→", covers=("target_next",)),
    KeySpec("target_next", "right,down", "target(1)", "target_key", show=False),
    *(KeySpec(f"target_{ch}", ch, f"pick({i})", "target_key", show=False) for i, ch in enumerate(TARGET_LETTERS)),
    KeySpec("skill", "u", "skill", "skill_key"),
    KeySpec("confirm", "enter", "confirm", "confirm"),
    KeySpec("pass", "space", "pass", "pass_key", key_display="Space"),
    KeySpec("back", "escape,backspace", "back", "back", key_display="Esc"),
    KeySpec("chat", "c", "chat", "chat_key"),
    KeySpec("quick_chat", "w", "quick_chat", "quick_chat_key", show=False),
    KeySpec("notes", "n", "notes", "note_key", show=False),
    KeySpec("result", "r", "result", "result_key"),
    KeySpec("help", "question_mark,f1", "help", "help", key_display="?"),
    KeySpec("settings", "o", "settings", "settings", show=False),
    KeySpec("pause", "b", "pause", "pause_key", show=False),
    KeySpec("auto", "m", "auto", "auto_key", show=False),
    KeySpec("fast_forward", "greater_than_sign", "fast_forward", "fast_forward_key", show=False, key_display=">"),
    KeySpec("log_older", "pageup", "log(1)", "log_older", show=False, key_display="PgUp"),
    KeySpec("log_newer", "pagedown", "log(-1)", "log_newer", show=False, key_display="PgDn"),
    KeySpec("log_newest", "end", "log(0)", "log_newest", show=False, key_display="End"),
    KeySpec("quit", "q", "quit", "quit"),
)

REPLAY_KEYS = (
    KeySpec("replay_prev", "left", "step(-1)", "prev", key_display="←"),
    KeySpec("replay_next", "right,space", "step(1)", "next", key_display="→"),
    KeySpec("replay_start", "home", "jump(0)", "replay_start", show=False),
    KeySpec("replay_end", "end", "jump(-1)", "replay_end", show=False),
    KeySpec("replay_turn_prev", "up,pageup", "turn(-1)", "replay_turn_prev", key_display="↑"),
    KeySpec("replay_turn_next", "down,pagedown", "turn(1)", "replay_turn_next", key_display="↓"),
    KeySpec("replay_decision_next", "n", "decision(1)", "replay_decision_next"),
    KeySpec("replay_decision_prev", "p", "decision(-1)", "replay_decision_prev", show=False),
    KeySpec("help", "question_mark,f1", "help", "help", key_display="?"),
    KeySpec("quit", "q", "quit", "quit"),
)


def config_path() -> Path:
    return keys_file()


@dataclass(frozen=True)
class Keymap:
    """The player's remapping as it will be applied (`keys`: binding id -> keys), and what in the
    file was refused and why (`problems`, shown to the player at start-up)."""

    keys: dict[str, str]
    problems: tuple[str, ...] = ()


def load_keymap(path: Path | None = None) -> Keymap:
    """The remapping in the keys file, checked against every screen's keys (see `check_keymap`).

    A missing file is no remapping; a file that cannot be read or parsed is one problem and no
    remapping, never a silent fallback."""
    path = path or config_path()
    try:
        text = read_config_text(path)
    except FileNotFoundError:
        return Keymap({})
    except (OSError, ValueError) as exc:
        return Keymap({}, (f"{path}: cannot be read ({exc}); the default keys are used",))
    try:
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError) as exc:
        return Keymap({}, (f"{path}: not valid TOML ({type(exc).__name__}: {str(exc)[:80]}); the default keys are used",))
    table = data.get("keys", data)
    if not isinstance(table, dict):
        return Keymap({}, (f"{path}: [keys] must be a table of id = \"keys\"; the default keys are used",))
    return check_keymap(table, str(path))


#: Keys Textual itself binds on every screen, ahead of ours: a remap to one would never be seen.
TEXTUAL_KEYS = {"ctrl+q": "Textual's own quit", "ctrl+c": "Textual's copy", "ctrl+p": "the command palette"}


def check_keymap(table: dict[str, object], where: str = "keys.toml") -> Keymap:
    """Keep each remapping that names a known binding, real keys, and clashes with no other key
    on any screen where the binding is; refuse the others, each with a reason."""
    problems: list[str] = []
    accepted: dict[str, str] = {}
    known = {s.id for specs in SCREENS.values() for s in specs}
    for binding_id, value in table.items():
        if binding_id not in known:
            problems.append(f"{where}: no key called {binding_id!r} (see ? for the keys)")
            continue
        if not isinstance(value, str) or not value.strip():
            problems.append(f"{where}: {binding_id} must be a string of keys such as \"p\" or \"space,p\"")
            continue
        keys = [normal_key(k) for k in value.split(",") if k.strip()]
        bad = [k for k in keys if not is_key(k)]
        if bad:
            problems.append(f"{where}: {binding_id} = {value!r}: {', '.join(map(repr, bad))} is not a key")
            continue
        textual = [k for k in keys if k in TEXTUAL_KEYS]
        if textual:
            problems.append(f"{where}: {binding_id} = {value!r} refused: {_shown(textual[0])} is "
                            f"{TEXTUAL_KEYS[textual[0]]} on every screen")
            continue
        accepted[binding_id] = ",".join(keys)
    # A clash is judged screen by screen, after every remapping, so swapping two keys is allowed.
    for binding_id in list(accepted):
        for screen, specs in SCREENS.items():
            if not any(s.id == binding_id for s in specs):
                continue
            taken = _keys_by_binding(specs, accepted)
            mine = set(taken[binding_id])
            for other, keys in taken.items():
                if other != binding_id and mine & set(keys) and _action(specs, other) != _action(specs, binding_id):
                    clash = ", ".join(sorted(mine & set(keys)))
                    problems.append(f"{where}: {binding_id} = {table[binding_id]!r} refused: {clash} already "
                                    f"does {other} on the {screen} screen")
                    accepted.pop(binding_id)
                    break
            if binding_id not in accepted:
                break
    return Keymap(accepted, tuple(problems))


def normal_key(key: str) -> str:
    """Textual's name of a key: `?` is `question_mark`, `Space` is `space`."""
    from textual.keys import _character_to_key

    key = key.strip()
    return _character_to_key(key) if len(key) == 1 else key.lower()


def is_key(key: str) -> bool:
    from textual.keys import Keys, key_to_character

    return len(key) == 1 or key in {k.value for k in Keys} or key_to_character(key) is not None


def _keys_by_binding(specs: tuple[KeySpec, ...], keymap: dict[str, str]) -> dict[str, list[str]]:
    return {s.id: keymap.get(s.id, s.keys).split(",") for s in specs}


def _action(specs: tuple[KeySpec, ...], binding_id: str) -> str:
    return next(s.action for s in specs if s.id == binding_id)


def bindings(specs: tuple[KeySpec, ...], words: Words, keymap: dict[str, str] | None = None) -> list[object]:
    """Textual `Binding`s for these specs after the player's remapping, described and their keys
    named in the player's language (the footer says 空格 for a remapped Space too)."""
    from textual.binding import Binding

    keymap = keymap or {}
    out: list[object] = []
    for s in specs:
        description = words(s.word)
        if words.lang == "en":  # the footer's labels are all lower-case words, as Textual's are
            description = description[:1].lower() + description[1:]
        out.append(Binding(keymap.get(s.id) or s.keys, s.action, description, show=s.show,
                           key_display=shown_label(s, words, keymap), id=s.id))
    return out


def shown_label(spec: KeySpec, words: Words, keymap: dict[str, str]) -> str:
    """How the footer and the hints name a binding's key: its usual name (`Enter`, `Esc`, `←/→`,
    Chinese `回车`) while neither it nor what its name stands for is remapped; else the key of each,
    as bound now (`p`, `空格/p`, `h/l`)."""
    ids = (spec.id, *spec.covers)
    if not any(i in keymap for i in ids):
        return words.key_name(spec.key_display or _shown(spec.keys.split(",")[0]))
    if not spec.covers:
        return key_names(keymap[spec.id], words)
    by_id = {s.id: s for specs in SCREENS.values() for s in specs}
    return "/".join(words.key_name(_shown((keymap.get(i) or by_id[i].keys).split(",")[0])) for i in ids if i in by_id)


def key_label(binding: str, words: Words, keymap: dict[str, str] | None = None) -> str:
    """The key of a binding as a hint line names it (see `shown_label`)."""
    spec = next((s for specs in SCREENS.values() for s in specs if s.id == binding), None)
    if spec is None:
        return binding
    if spec.key_display and "–" in spec.key_display:
        # A range (`0–4`) names a group of keys in the footer; a hint naming one of them means that
        # one (`1 红 · 2 蓝 …`, not `0–4 红 · 0–4 蓝 …`).
        return key_names((keymap or {}).get(spec.id, spec.keys), words)
    return shown_label(spec, words, keymap or {})


def target_letters(keymap: dict[str, str] | None, prefix: str = "target") -> str:
    """The letter keys that pick the 1st, 2nd ... option (or seat), after the remapping."""
    keymap = keymap or {}
    return "".join(keymap.get(f"{prefix}_{ch}", ch).split(",")[0] for ch in TARGET_LETTERS)


#: How every screen names a key (help, footer, hints): one readable style, never Textual's ids.
NAMED = {"space": "Space", "enter": "Enter", "escape": "Esc", "backspace": "Backspace", "tab": "Tab",
         "home": "Home", "end": "End", "pageup": "PgUp", "pagedown": "PgDn", "delete": "Del", "insert": "Ins",
         "up": "↑", "down": "↓", "left": "←", "right": "→"}


def _shown(key: str) -> str:
    """One key by its usual name: `Esc`, `PgUp`, `↑`, `F1`, `Ctrl+P`, `?` (Textual's `question_mark`)."""
    from textual.keys import format_key, key_to_character

    key = key.strip()
    if key in NAMED:
        return NAMED[key]
    *mods, last = key.split("+") if len(key) > 1 else [key]
    if mods:
        return "+".join([*(m.capitalize() for m in mods), _shown(last).upper()])
    if len(last) > 1 and last[0] == "f" and last[1:].isdigit():
        return last.upper()
    char = (key_to_character(last) or format_key(last)) if len(last) > 1 else last
    return char if char and char.isprintable() and not char.isspace() else last


def key_names(keys: str, words: Words) -> str:
    """A binding's keys (`escape,backspace`) as every screen shows them: `Esc/Backspace`, with
    the player's language naming Space and Enter (`空格`, `回车`)."""
    return "/".join(words.key_name(_shown(k)) for k in keys.split(",") if k.strip())


#: Bindings that share a meaning become one help row: (keys as shown, description word).
GROUPS = {"card_key": ("1–9", "card_keys_help"), "target_key": ("←/→ ↑/↓ a–l", "target_key")}


def describe(specs: tuple[KeySpec, ...], words: Words, keymap: dict[str, str] | None = None) -> list[tuple[str, str]]:
    """(keys, what they do) rows for the help screen, after the player's remapping: one row per
    meaning (the nine card keys are one row), described in words, never by binding id; keys named
    as everywhere else (`Esc/Backspace`, `?/F1`, `↑/PgUp`)."""
    keymap = keymap or {}
    rows: dict[str, tuple[str, str]] = {}
    for s in specs:
        keys = key_names(keymap.get(s.id, s.keys), words)
        group = GROUPS.get(s.word)
        members = [m for m in specs if m.word == s.word]
        if group is not None and not any(m.id in keymap for m in members):
            rows.setdefault(s.word, (group[0], capital(words(group[1]))))
        elif group is not None:  # remapped: one row still, every key of the group as bound now
            shown = dict.fromkeys(key_names(keymap.get(m.id, m.keys), words) for m in members)
            rows.setdefault(s.word, (" ".join(shown), capital(words(group[1]))))
        else:
            rows.setdefault(f"{s.word}:{s.action}", (keys, capital(words(s.word))))
    return list(rows.values())


def capital(text: str) -> str:
    """A help row's description starts with a capital, as a line of its own does (Chinese: unchanged)."""
    return text[:1].upper() + text[1:]


HELP_KEYS = (
    KeySpec("help_close", "escape,backspace,question_mark,q", "close", "back", key_display="Esc"),
    KeySpec("help_up", "up,k", "scroll(-1)", "scroll_key", key_display="↑/↓", covers=("help_down",)),
    KeySpec("help_down", "down,j", "scroll(1)", "scroll_key", show=False),
    KeySpec("help_page_up", "pageup", "page(-1)", "scroll_key", key_display="PgUp/PgDn", covers=("help_page_down",)),
    KeySpec("help_page_down", "pagedown", "page(1)", "scroll_key", show=False),
)
SETTINGS_KEYS = (
    KeySpec("settings_language", "l", "language", "language"),
    KeySpec("settings_colour", "m", "colour", "colour_mode"),
    KeySpec("settings_auto_pass", "a", "auto_pass", "auto_pass_key"),
    KeySpec("settings_bell", "b", "bell", "bell_key"),
    KeySpec("settings_theme", "t", "theme", "theme"),
    KeySpec("settings_close", "escape,backspace,q", "close", "back", key_display="Esc"),
)
OVER_KEYS = (
    KeySpec("over_back", "escape,backspace", "back", "back", key_display="Esc"),
    KeySpec("over_next", "s", "next_game", "next_game"),
    KeySpec("over_quit", "enter,q", "leave", "quit"),
    KeySpec("over_help", "question_mark", "help", "help", key_display="?"),
)
NOTES_KEYS = (
    KeySpec("notes_prev", "up", "move(-1)", "target_key", key_display="↑/↓", covers=("notes_next",)),
    KeySpec("notes_next", "down", "move(1)", "target_key", show=False),
    *(KeySpec(f"notes_{ch}", ch, f"seat({i})", "target_key", show=False) for i, ch in enumerate(TARGET_LETTERS)),
    *(KeySpec(f"notes_mark_{n}", str(n), f"mark({n})", "note_key", show=n == 1, key_display="0–4",
              covers=("notes_mark_0", "notes_mark_2", "notes_mark_3", "notes_mark_4") if n == 1 else ())
      for n in range(5)),
    KeySpec("notes_close", "escape,backspace,n", "close", "back", key_display="Esc"),
)
QUICK_CHAT_KEYS = (
    *(KeySpec(f"quick_chat_{n}", str(n), f"say({n - 1})", "quick_chat_key", show=n == 1, key_display="1–8",
              covers=tuple(f"quick_chat_{m}" for m in range(2, 9)) if n == 1 else ())
      for n in range(1, 9)),
    KeySpec("quick_chat_close", "escape,backspace,w", "close", "back", key_display="Esc"),
)
#: The host's timers in the table lobby (`screens/timers.py`).
TIMERS_KEYS = (
    KeySpec("timers_prev", "up", "move(-1)", "target_key", key_display="↑/↓", covers=("timers_next",)),
    KeySpec("timers_next", "down", "move(1)", "target_key", show=False),
    KeySpec("timers_less", "left,minus", "change(-1)", "timers_less", key_display="←/→", covers=("timers_more",)),
    KeySpec("timers_more", "right,plus,equals_sign", "change(1)", "timers_more", show=False),
    KeySpec("timers_close", "escape,backspace,d", "close", "back", key_display="Esc"),
)
#: The server broke the protocol: back to the LAN lobby (when the player came from it), or quit.
SERVER_ERROR_KEYS = (
    KeySpec("broken_back", "escape,backspace", "back", "back", key_display="Esc"),
    KeySpec("broken_quit", "enter,q", "leave", "quit"),
)
CONFIRM_KEYS = (
    KeySpec("quit_yes", "y", "answer(True)", "yes"),
    KeySpec("quit_no", "n,escape,backspace", "answer(False)", "no"),
)
LOBBY_KEYS = (
    KeySpec("lobby_join", "enter", "join", "confirm"),
    KeySpec("lobby_manual", "m", "manual", "address"),
    KeySpec("lobby_refresh", "r", "refresh", "refresh"),
    KeySpec("lobby_back", "escape", "back", "back", key_display="Esc"),
    KeySpec("help", "question_mark", "help", "help", key_display="?"),
    KeySpec("quit", "q", "quit", "quit"),
)
PICK_KEYS = (
    KeySpec("pick_1", "1", "choice(0)", "pick_key", key_display="1–9", covers=tuple(f"pick_{n}" for n in range(2, 10))),
    *(KeySpec(f"pick_{n}", str(n), f"choice({n - 1})", "pick_key", show=False) for n in range(2, 10)),
    KeySpec("pick_prev", "up,left", "move(-1)", "pick_key", show=False, key_display="↑/↓", covers=("pick_next",)),
    KeySpec("pick_next", "down,right", "move(1)", "pick_key", show=False),
    KeySpec("pick_page_up", "pageup", "page(-1)", "scroll_key", key_display="PgUp/PgDn", covers=("pick_page_down",)),
    KeySpec("pick_page_down", "pagedown", "page(1)", "scroll_key", show=False),
    KeySpec("confirm", "enter", "confirm", "confirm"),
    KeySpec("help", "question_mark,f1", "help", "help", key_display="?"),
    KeySpec("quit", "q", "quit", "quit"),
)
#: Only the keys a newcomer needs are in the footer (it must fit 80 columns in either language);
#: the host's option keys are listed in the host hint line above it.
TABLE_LOBBY_KEYS = (
    KeySpec("ready", "r", "ready", "toggle_ready"),
    KeySpec("start", "s", "start", "start"),
    KeySpec("chat", "c", "chat", "chat_key"),
    KeySpec("help", "question_mark", "help", "help", key_display="?"),
    KeySpec("quit", "q", "quit", "quit"),
    KeySpec("add_bot", "b", "bot(1)", "add_bot", show=False),
    KeySpec("remove_bot", "x", "bot(-1)", "remove_bot", show=False),
    KeySpec("bot_level", "l", "bot_level", "bot_level", show=False),
    KeySpec("players_up", "plus,equals_sign", "players(1)", "players", show=False),
    KeySpec("players_down", "minus", "players(-1)", "players", show=False),
    KeySpec("identities", "i", "identities", "identities", show=False),
    KeySpec("characters", "h", "characters", "characters", show=False),
    KeySpec("deck", "k", "deck", "deck", show=False),
    KeySpec("mute_spectators", "m", "mute_spectators", "mute_spectators", show=False),
    KeySpec("timers", "d", "timers", "timers_key", show=False),
    KeySpec("lobby_chat_back", "escape", "back", "back", show=False),
)

#: Every screen's keys, by the name the refusal of a clashing remap gives the screen.
SCREENS: dict[str, tuple[KeySpec, ...]] = {
    "table": TABLE_KEYS, "replay": REPLAY_KEYS, "help": HELP_KEYS, "settings": SETTINGS_KEYS,
    "game-over": OVER_KEYS, "quit question": CONFIRM_KEYS, "LAN list": LOBBY_KEYS,
    "character pick": PICK_KEYS, "table lobby": TABLE_LOBBY_KEYS,
    "identity notes": NOTES_KEYS, "quick chat": QUICK_CHAT_KEYS, "server error": SERVER_ERROR_KEYS,
    "timers": TIMERS_KEYS,
}
