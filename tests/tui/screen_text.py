"""The screen as plain text, for assertions on what a player would read."""

from __future__ import annotations

from textual.app import App


def screen_text(app: App) -> str:  # type: ignore[type-arg]
    update = app.screen._compositor.render_update(full=True)
    rows = []
    for line in update.strips:  # type: ignore[attr-defined]
        rows.append("".join(segment.text for strip in line for segment in strip))
    return "\n".join(rows)
