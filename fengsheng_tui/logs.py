"""`--log FILE` for the full-screen commands: what the client and Textual did, in one file.

A full-screen app cannot print, so `play` and `join` write Python logging (the client, the local
server of `play`) and Textual's own log (`TEXTUAL_LOG`) to the file instead. It must be set
before Textual is imported, which the commands do only in `run()`. See docs/logging.md.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def start_logging(path: Path | None, level: int = logging.INFO) -> None:
    """Log to `path` (appended); without one, logging stays off so nothing reaches the screen.

    INFO, not DEBUG: the local server of `play` logs the seed and every bot's choice at DEBUG,
    which would show a player the bots' cards.
    """
    if path is None:
        logging.disable(logging.CRITICAL)  # a stray handler would write over the full-screen app
        return
    path = path.expanduser().resolve()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.open("a", encoding="utf-8").close()  # a path that cannot be written fails here, plainly
    os.environ["TEXTUAL_LOG"] = str(path)
    logging.disable(logging.NOTSET)
    logging.basicConfig(filename=str(path), level=level, format=FORMAT, force=True)
    for noisy in ("asyncio", "zeroconf"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    logging.getLogger(__name__).info("logging to %s (pid %d)", path, os.getpid())
