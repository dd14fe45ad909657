"""The footer of every screen: Textual's `Footer`, rebuilt only when what it shows changes.

Textual's footer recomposes all its keys whenever the screen's bindings are signalled as updated
(a screen shown again, focus moved, a binding's check changed), though most often the same keys
come back. Each recompose mounts a dozen widgets and styles them: about a third of the time
opening or closing help took. This one keeps its keys while the list it would show is the same.
"""

from __future__ import annotations

from typing import Any

from textual.screen import Screen
from textual.widgets import Footer


class GameFooter(Footer):
    _shown: Any = None

    def shown_keys(self, screen: Screen[Any]) -> tuple[Any, ...]:
        """What the footer would draw for `screen`: each shown binding's key, label and state."""
        return tuple((binding.key, binding.key_display, binding.description, binding.action, enabled, tooltip)
                     for _, binding, enabled, tooltip in screen.active_bindings.values() if binding.show)

    def bindings_changed(self, screen: Screen[Any]) -> None:
        if self.is_attached and screen is self.screen and screen.app.app_focus and self._bindings_ready:
            shown = self.shown_keys(screen)
            if shown == self._shown:
                return
            self._shown = shown
        super().bindings_changed(screen)

    def compose(self) -> Any:
        if self._bindings_ready and self.is_attached:
            self._shown = self.shown_keys(self.screen)
        return super().compose()
