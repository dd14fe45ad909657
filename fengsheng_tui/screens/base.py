"""What every screen shares: the app's state and words, and bindings in the player's language."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, cast

from rich.console import Group, RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from ..keys import KeySpec
from ..widgets.cjk_text import CjkText
from ..widgets.footer import GameFooter

if TYPE_CHECKING:
    from ..app import FengshengApp


class Localized:
    """Mixin: `KEYS` become the screen's bindings, relabelled when the language changes."""

    KEYS: ClassVar[tuple[KeySpec, ...]] = ()
    #: Set in on_mount: before it the widgets to render into do not exist yet.
    shown = False

    def _localize(self) -> None:
        screen = cast(Any, self)
        screen._bindings = self.fs_app.screen_bindings(self.KEYS)

    @property
    def fs_app(self) -> FengshengApp:
        return cast("FengshengApp", cast(Any, self).app)

    def relabel(self) -> None:
        self._localize()
        cast(Any, self).refresh_bindings()


class FsScreen(Localized, Screen[None]):
    def __init__(self) -> None:
        super().__init__()
        self._localize()


class FsModal(Localized, ModalScreen[bool]):
    def __init__(self) -> None:
        super().__init__()
        self._localize()


class BoxModal(FsModal):
    """A small box over the table (notes, quick chat, timers): lines of text over the footer.

    Subclasses name the block (`BODY_ID`, for styles) and say what it shows (`lines`)."""

    BODY_ID: ClassVar[str] = "body"

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(id=self.BODY_ID)
        yield GameFooter()

    def on_mount(self) -> None:
        self.shown = True
        self.refresh_view()

    def refresh_view(self) -> None:
        if self.shown:
            self.query_one(f"#{self.BODY_ID}", Static).update(Group(*self.lines()))

    def lines(self) -> list[RenderableType]:
        raise NotImplementedError


class TextScreen(FsScreen):
    """A screen that is one scrollable block of text over the footer (game over, settings).

    Subclasses name the block (`TEXT_ID`, for styles) and say what it shows (`parts`)."""

    TEXT_ID: ClassVar[str] = "text"

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(id=self.TEXT_ID)
        yield GameFooter(show_command_palette=False)

    def on_mount(self) -> None:
        self.shown = True
        self.refresh_view()

    def refresh_view(self) -> None:
        if self.shown:
            # Lines of text wrap by 禁则 (no line starts with `，`); tables keep their own columns.
            parts = [CjkText(p) if isinstance(p, Text) else p for p in self.parts()]
            self.query_one(f"#{self.TEXT_ID}", Static).update(Group(*parts))

    def parts(self) -> list[RenderableType]:
        raise NotImplementedError
