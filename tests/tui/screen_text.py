"""The screen as plain text, for assertions on what a player would read."""

from __future__ import annotations

from typing import Any

from textual.app import App


def screen_text(app: App[Any]) -> str:
    update: Any = app.screen._compositor.render_update(full=True)
    return "\n".join("".join(segment.text for strip in line for segment in strip) for line in update.strips)
