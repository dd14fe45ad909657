"""The one boundary between text from elsewhere and the screen.

Every string another player or the network chose (names, chat, table names, LAN adverts, error
messages, anything in a server's frames or a replay file) is untrusted. Two things keep it from
acting on the player's terminal or UI:

- **Control and format characters are removed** (`clean`, by the one rule of `net.text.shown`
  that the LAN adverts and the doors' prompts use too): C0/C1 controls and ESC (which start
  terminal sequences such as OSC 0 titles and OSC 52 clipboard writes), DEL, bidi overrides and
  isolates, zero-width characters, line and paragraph separators, surrogates and private-use
  characters; and what draws otherwise than the layout counts it: unassigned code points,
  the invisible Hangul fillers, more than four combining marks on one character. `clean_tree` does it to a whole message; `ClientState.apply`, the replay screen and
  the LAN lobby pass everything they receive through it, so nothing in the client's state holds a
  control character.
- **Right-to-left text cannot reorder what is around it** (`clean` ends it with a left-to-right
  mark, `net.text.isolated`): a terminal that applies the bidi algorithm would otherwise run a
  Hebrew name, the digits and box lines after it and the next Hebrew name together right to left
  (two seat boxes' contents swapped). Only for screens: what is sent back (a table name in a
  hello) is never `clean`ed.
- **It is never parsed as markup** (`plain`): Rich and Textual read `[bold]`, `[/]` and
  `[@click=...]` in a *string* handed to a table cell, an `Option`, a `Static`, a border title or
  a notification. Untrusted text reaches those only as a `rich.text.Text` built by `plain`, which
  is taken literally. tests/tui/test_safe_text.py checks the source of every widget and screen
  for string markup given to those sinks, and plays every screen with hostile names.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text

from net.text import isolated, shown

#: Deepest structure `clean_tree` walks (inbound frames are capped at 32 already).
MAX_DEPTH = 40


def clean(value: object, limit: int | None = None) -> str:
    """`value` as one line of text that draws as it is counted (`net.text.shown`: controls, format
    characters, separators, unassigned code points, invisible fillers and stacks of combining
    marks removed; tabs and line breaks become a space), at most `limit` characters, and ended
    with a left-to-right mark if it holds right-to-left letters (`net.text.isolated`: a bidi
    terminal cannot move the text after it). For screens only: never send it back."""
    text = shown(value if isinstance(value, str) else str(value))
    return isolated(text if limit is None or len(text) <= limit else text[: max(0, limit - 1)] + "…")


def plain(value: object, style: str = "", limit: int | None = None, **text_options: Any) -> Text:
    """Untrusted text for a widget: cleaned, and taken literally (never parsed as markup)."""
    return Text(clean(value, limit), style=style, **text_options)


def clean_tree(node: Any, depth: int = 0, isolate: bool = True) -> Any:
    """A copy of a decoded message with every string in it (keys too) `clean`ed (`isolate`: with
    the left-to-right mark of `clean`, for a screen; False for output a program reads back);
    numbers, bools and None stay as they are. Deeper than MAX_DEPTH the rest is dropped (None)."""
    if isinstance(node, str):
        return isolated(shown(node)) if isolate else shown(node)
    if depth > MAX_DEPTH:
        return None
    if isinstance(node, dict):
        return {clean_tree(str(key), depth, isolate): clean_tree(value, depth + 1, isolate)
                for key, value in node.items()}
    if isinstance(node, list | tuple):
        return [clean_tree(value, depth + 1, isolate) for value in node]
    return node
