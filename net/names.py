"""Player names at a table: what may be a name, and when two names are the same name.

A name must show at least one visible character, fits on one line, and is not one the table
uses itself (its bots, "System", the host marker, a spectator marker) in either language the UI
speaks. Two names are the same when their skeletons are: NFKC, case-folded, with invisible
characters and spaces dropped and a small map of look-alikes (Cyrillic and Greek letters that
look Latin, full-width forms via NFKC, 0/o, 1/l/i) applied. The map is deliberately small: it
stops "Al1ce" posing as "alice" and "Аlice" (Cyrillic А) as "Alice", not every trick there is.
"""

from __future__ import annotations

import re
import unicodedata

#: Characters that draw nothing (or a blank) though Unicode calls them letters or symbols.
INVISIBLE = frozenset(
    "\u115f\u1160\u3164\uffa0"  # Hangul fillers
    "\u2800"  # braille blank
    "\u034f\u180e\u17b4\u17b5\u2060\u2061\u2062\u2063\u2064\ufeff\u200b\u200c\u200d\u200e\u200f"
    "\u00ad\u061c\u115f\u1cbc"
)
_CONFUSABLES = str.maketrans({
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c",
    "т": "t", "у": "y", "х": "x", "і": "l", "ї": "l", "ј": "j", "ѕ": "s", "ԁ": "d", "ԛ": "q", "ԝ": "w",
    "һ": "h", "ӏ": "l",
    # Greek
    "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "l", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t",
    "υ": "u", "χ": "x", "ω": "w", "ϲ": "c",
    # Latin and digits
    "0": "o", "1": "l", "i": "l", "ı": "l", "|": "l", "!": "l", "ɡ": "g", "ⅼ": "l",
})
#: Names the table itself uses, as skeletons: its bots ("Bot 3", "机器人 3"), the system, the
#: host marker ("host", "房主") and the spectator marker ("spectator", "观战").
_RESERVED = re.compile(r"(bot|机器人|电脑)[\dol]*|system|系统|host|房主|spectator|观战|server|服务器")
#: Markers the UI writes after a name ("Ann (you)", "host"): a name may not end in one.
_MARKER = re.compile(r".*\((you|你|host|房主|bot|机器人|spectator|观战|spectating)\)")


def skeleton(name: str) -> str:
    """The form two names are compared in: equal skeletons are the same name."""
    text = unicodedata.normalize("NFKC", name).casefold()
    text = "".join(ch for ch in text if _shown(ch) and not ch.isspace())
    text = unicodedata.normalize("NFD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))  # é ~ e, Å ~ A
    return text.translate(_CONFUSABLES).replace("rn", "m").replace("vv", "w")


def _shown(ch: str) -> bool:
    """A character that draws something: not a control, format, separator, mark or filler."""
    if ch in INVISIBLE:
        return False
    return unicodedata.category(ch)[0] in "LNPS"


def problem(name: str) -> str | None:
    """Why `name` cannot be a player's name (None: it can). Uniqueness is the table's to check."""
    if any(unicodedata.category(ch) in ("Cc", "Zl", "Zp") for ch in name):
        return "a name is one line of text: no control characters or line breaks"
    if not any(_shown(ch) for ch in unicodedata.normalize("NFKC", name)):
        return "a name needs at least one visible character"
    if _RESERVED.fullmatch(skeleton(name)) or _MARKER.fullmatch(unicodedata.normalize("NFKC", name).casefold().strip()):
        return f"the name {name.strip()!r} is reserved for the table itself (its bots, the system, the host)"
    return None
