"""One SSH guest's game client, started by the door on its own pseudo-terminal: `fengsheng join`'s UI.

`python -m fengsheng_tui.doors.ssh_guest FD`: the process imports the game first, then reads its
guest from the pipe FD (JSON, to the end of the pipe: where to connect, the name and password he
typed, his environment and folder), so the door can start it while the guest is still typing (a
spare) and a closed pipe with nothing in it just ends it. The password comes through the pipe, never
the command line. HOME and XDG_CONFIG_HOME are the guest's own folder: his seat tokens, settings and
keys are his alone, which is how logging in again gives him his seat back. The exit status tells the
door why the client stopped (`EXIT_*`).
"""

from __future__ import annotations

import json
import os
import signal
import sys
from pathlib import Path
from typing import Any

#: The table has no seat for a new player (full, or its game has started): the door offers to watch.
EXIT_FULL = 3
#: The server refused anything else (name, password, version): the door asks again.
EXIT_REFUSED = 1
ANIMATION_LEVELS = ("none", "basic", "full")


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    # A hang-up ends a guest even when the host was started ignoring it (`nohup fengsheng host`):
    # an ignored SIGHUP is inherited, and a client whose pty hung up would spin on it for good.
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    _take_terminal()
    from fengsheng_tui.compiled.loader import activate

    activate()  # before the game is imported, with the host's environment (the guest's comes later)
    from fengsheng_tui import app as app_module
    from fengsheng_tui.app import FengshengApp
    from fengsheng_tui.screens import table, table_lobby  # noqa: F401  (imported before the guest comes)
    from fengsheng_tui.seat_tokens import SeatTokens
    from fengsheng_tui.session import NetSession

    config = _read_config(int(args[0]))
    if config is None:
        return 0
    os.environ.update({str(k): str(v) for k, v in config.get("env", {}).items()})
    os.chdir(config["cwd"])

    class GuestApp(FengshengApp):
        CSS_PATH = str(Path(app_module.__file__).with_name(FengshengApp.CSS_PATH))
        refusal: object = None

        def refused(self, code: object, message: str) -> None:
            self.refusal = code
            super().refused(code, message)

    name = str(config["name"])
    session = NetSession(str(config["host"]), int(config["port"]), name, password=config.get("password"),
                         table=config.get("table"), spectate=bool(config.get("spectate")), seats=SeatTokens(),
                         source=config.get("source"))
    app = GuestApp(session, player_name=name)
    animations = os.environ.get("TEXTUAL_ANIMATIONS")
    if animations in ANIMATION_LEVELS:
        app.animation_level = animations  # type: ignore[assignment]  # read by Textual at import, before the guest came
    app.run()
    if app.refusal == "full":
        return EXIT_FULL
    return int(app.return_code or 0)


def _read_config(fd: int) -> dict[str, Any] | None:
    """The guest, once the door writes him and closes the pipe; None if it closed it empty."""
    chunks = []
    while chunk := os.read(fd, 65536):
        chunks.append(chunk)
    os.close(fd)
    if not chunks:
        return None
    config: dict[str, Any] = json.loads(b"".join(chunks))
    return config


def _take_terminal() -> None:
    """Make stdin's pty our controlling terminal (the door started us in a new session), so that
    window-size changes reach us as SIGWINCH and a hang-up as SIGHUP."""
    import fcntl
    import termios

    try:
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    except OSError:
        pass


if __name__ == "__main__":
    sys.exit(main())
