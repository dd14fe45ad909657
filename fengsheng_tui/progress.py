"""Progress of a long command on stderr (rich), so stdout stays the command's result alone.

On a terminal it is a live bar that goes away when done; elsewhere (a pipe, CI) rich prints the
finished bar once, on stderr, which a script reading `--json` from stdout never sees.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager


@contextmanager
def progress(label: str, total: int, enabled: bool = True) -> Iterator[Callable[[int], None]]:
    """Yields `advance(n)`; the bar shows `label`, the count, the rate and the time left."""
    if not enabled:
        yield lambda n: None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    console = Console(stderr=True)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn(), TextColumn("left"), TimeRemainingColumn())
    # Redrawn from the caller's thread, at most 4 times a second: no refresh thread competes with
    # the work (benchmarks time it).
    with Progress(*columns, console=console, transient=console.is_terminal, auto_refresh=False) as bar:
        task = bar.add_task(label, total=total)
        last = 0.0

        def advance(n: int) -> None:
            nonlocal last
            bar.advance(task, n)
            now = time.monotonic()
            if now - last >= 0.25:
                last = now
                bar.refresh()

        yield advance
