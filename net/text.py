"""The one rule for which characters of a string someone else chose may be shown.

Names, chat, table names, LAN adverts, server messages and SSH user names all pass through
`shown` before they reach a screen, a terminal or a prompt (the UI's `safe_text.clean`, the LAN
adverts' `discovery._txt_text`, the doors' prompts and logs). It removes what acts on a terminal
or draws otherwise than it is counted:

- controls (Cc: C0, ESC, DEL, C1), format characters (Cf: bidi overrides and isolates, zero-width
  characters, BOM, soft hyphen, tags; all but the left-to-right mark, which only ends a
  right-to-left run), surrogates (Cs), private use (Co), line and paragraph
  separators (Zl, Zp); tabs and line breaks become one space;
- unassigned code points and noncharacters (Cn): terminals give them no width (wcwidth -1)
  while the layout counts one or two cells, so a row of them shifts every column after it;
- letters and marks that draw nothing (`FILLERS`: the Hangul fillers, U+034F, U+17B4/5): the
  layout counts U+3164 0 cells, terminals 2, so 150 of them in a chat line pushed it 300 cells
  past the edge of the screen (SSH's SASLprep turns U+3164 into U+1160, invisible too);
- combining marks past MAX_MARKS on one character ("Zalgo" text, drawn above and below its
  row over the rows around it).

Printable text — CJK, emoji, accents, right-to-left letters, `[锁]` — is kept as it is.

`isolated` is for screens only (never for text sent back, such as a table's name in a hello): it
ends a string that holds right-to-left letters with a left-to-right mark (U+200E, zero cells for
the layout and for terminals alike). Terminals that reorder lines by the Unicode bidi algorithm
(GNOME Terminal and every VTE one, Konsole, mlterm) otherwise join a Hebrew or Arabic name with
the digits and separators after it, up to the next right-to-left name, into one right-to-left
run: `שלום 3 │ דני 5` shows as `5 ינד │ 3 םולש`, one seat's figures beside the other's name. With
the mark, the name reads right to left within itself and nothing around it moves.
"""

from __future__ import annotations

import re
import unicodedata

REMOVED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
#: Characters that would otherwise fold lines or columns: they become one space.
SPACED = frozenset("\t\n\r\x0b\x0c\u2028\u2029\x85")
#: Letters and marks that draw nothing (the Hangul fillers, the combining grapheme joiner, Khmer's
#: inherent vowels); the layout and terminals disagree on the width of some (U+3164: 0 and 2).
FILLERS = frozenset("\u115f\u1160\u3164\uffa0\u034f\u17b4\u17b5")
#: The left-to-right mark, kept (`isolated` puts it after right-to-left text): it draws nothing,
#: counts zero cells everywhere, and can only end a right-to-left run, never start or reverse one.
LRM = "\u200e"
#: Combining marks kept on one character (Vietnamese needs two, Indic clusters a few more).
MAX_MARKS = 4


def _ranges(codes: list[int]) -> str:
    """A regex character class body for these code points, as ranges."""
    parts = []
    start = prev = codes[0]
    for code in [*codes[1:], -2]:
        if code != prev + 1:
            parts.append(re.escape(chr(start)) + ("-" + re.escape(chr(prev)) if prev > start else ""))
            start = code
        prev = code
    return "".join(parts)


#: A string `isprintable` passes that `shown` may still change: a filler, a combining mark of the
#: Basic Multilingual Plane, or any character beyond that plane (emoji, rare scripts and their
#: marks). Those take the slow path; the rest (nearly every string) is one regex search. One
#: class with BMP code points listed and the rest as one range stays a fast bitmap.
_SUSPECT = re.compile("[" + "".join(sorted(FILLERS))
                      + _ranges([c for c in range(0x10000) if unicodedata.category(chr(c)) in ("Mn", "Me")])
                      + "\U00010000-\U0010ffff]")


def shown(text: str) -> str:
    """`text` as one line of characters that draw as they are counted (see the module's rule)."""
    if text.isprintable() and not _SUSPECT.search(text):
        return text
    out = []
    marks = 0
    for ch in text:
        if ch in SPACED:
            out.append(" ")
            marks = 0
            continue
        category = unicodedata.category(ch)
        if (ch in FILLERS or category in REMOVED_CATEGORIES) and ch != LRM:
            continue
        if category in ("Mn", "Me"):
            marks += 1
            if marks > MAX_MARKS:
                continue
        else:
            marks = 0
        out.append(ch)
    return "".join(out)

#: The blocks that hold every right-to-left letter (Hebrew to NKo and Arabic extensions, the
#: presentation forms, the old right-to-left scripts of plane 1), searched at import.
_RTL_BLOCKS = ((0x0590, 0x08FF), (0xFB1D, 0xFDFF), (0xFE70, 0xFEFF), (0x10800, 0x10FFF), (0x1E800, 0x1EFFF))
_RTL = re.compile("[" + _ranges([c for low, high in _RTL_BLOCKS for c in range(low, high + 1)
                                 if unicodedata.bidirectional(chr(c)) in ("R", "AL")]) + "]")


def isolated(text: str) -> str:
    """`text` (already `shown`) for a screen: with a left-to-right mark after it if it holds a
    right-to-left letter, so that a bidi terminal cannot reorder the text around it."""
    return text + LRM if not text.endswith(LRM) and _RTL.search(text) else text
