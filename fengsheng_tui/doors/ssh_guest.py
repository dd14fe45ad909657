"""One guest's game client, started by a door on its own pseudo-terminal: `fengsheng join`'s UI.

The door passes what the guest typed in `FENGSHENG_GUEST` (JSON; the environment, not the command
line, so the table password is not shown by `ps`), with HOME and XDG_CONFIG_HOME set to the guest's
own folder: his seat tokens, settings and keys are his alone, which is how logging in again gives
him his seat back. The exit status tells the door why the client stopped (`EXIT_*`).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

ENV = "FENGSHENG_GUEST"
#: The table has no seat for a new player (full, or its game has started): the door offers to watch.
EXIT_FULL = 3
#: The server refused anything else (name, password, version): the door asks again.
EXIT_REFUSED = 1


def main() -> int:
    config: dict[str, Any] = json.loads(os.environ.pop(ENV, "{}") or "{}")
    _take_terminal()
    from fengsheng_tui import app as app_module
    from fengsheng_tui.app import FengshengApp
    from fengsheng_tui.seat_tokens import SeatTokens
    from fengsheng_tui.session import NetSession

    class GuestApp(FengshengApp):
        CSS_PATH = str(Path(app_module.__file__).with_name(FengshengApp.CSS_PATH))
        refusal: object = None

        def refused(self, code: object, message: str) -> None:
            self.refusal = code
            super().refused(code, message)

    name = str(config["name"])
    spectate = bool(config.get("spectate"))
    session = NetSession(str(config["host"]), int(config["port"]), name, password=config.get("password"),
                         table=config.get("table"), spectate=spectate, seats=SeatTokens())
    app = GuestApp(session, player_name=name)
    app.run()
    if app.refusal == "full":
        return EXIT_FULL
    return int(app.return_code or 0)


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
