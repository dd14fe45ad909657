"""The footer of every screen: Textual's `Footer`, rebuilt only when what it shows changes.

Textual's footer recomposes all its keys whenever the screen's bindings are signalled as updated
(a screen shown again, focus moved, a binding's check changed), though most often the same keys
come back. Each recompose mounts a dozen widgets and styles them: about a third of the time
opening or closing help took. This one keeps its keys while the list it would show is the same.

Keys are named in words (`Enter`, `Esc`, `PgUp`: keys.py); where they would not all fit the line
the footer takes Textual's compact style (one space less round each key) rather than lose one;
where even that is too wide (English at 80 columns with a skill to use), the keys other lines name
too give way whole (`GIVE_WAY`), never one cut in the middle (`q qu`).
"""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len
from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

#: Actions whose keys the footer leaves out, in this order, when the line cannot hold every key
#: even compact: Esc is named by every prompt that picks a target, chat by the help screen, and
#: the skill key by the prompt line that offers a skill.
GIVE_WAY = ("back", "chat", "skill")


class GameFooter(Footer):
    _shown: Any = None
    #: The actions left out to fit the line (see `fit`).
    hidden: tuple[str, ...] = ()

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
            self.fit()
        keys = [widget for widget in super().compose()
                if not (isinstance(widget, FooterKey) and widget.action in self.hidden)]
        if self.hidden:
            self.styles.grid_size_columns = len(keys)
        return keys

    def on_resize(self) -> None:
        hidden = self.hidden
        self.fit()
        if self.hidden != hidden:
            self.refresh(recompose=True)

    def fit(self) -> None:
        """Compact only when the keys at their usual spacing (a space each side of the key, one
        after the description) would not fit the width."""
        by_action = {action: (key, display, description) for key, display, description, action, *_ in
                     reversed(self._shown or ())}  # one key per action, as Footer.compose shows them
        wide = sum(cell_len(str(display or key)) + cell_len(str(description)) + 3
                   for key, display, description in by_action.values())
        width = self.size.width or self.app.size.width
        self.compact = wide > width
        # Compact: one space between a key and its description, one after each.
        need = {action: cell_len(str(display or key)) + cell_len(str(description)) + 2
                for action, (key, display, description) in by_action.items()}
        hidden: list[str] = []
        for action in GIVE_WAY:
            if sum(need.values()) <= width + 1:
                break
            if need.pop(action, None) is not None:
                hidden.append(action)
        self.hidden = tuple(hidden)
