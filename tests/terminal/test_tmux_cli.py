"""The full-screen commands' `--log FILE` in a real terminal: the screen stays clean, the file says
what the client and Textual did, and never the seed or a bot's choice."""

from __future__ import annotations

import time
from pathlib import Path

from .conftest import FENGSHENG


def test_play_log_writes_the_client_and_textual_log_and_no_secret(tmux_panes, tmp_path: Path) -> None:
    log = tmp_path / "logs" / "play.log"
    pane = tmux_panes([FENGSHENG, "play", "--lang", "en", "--bot-delay", "0", "--seed", "7", "--log", str(log)])
    deadline = time.monotonic() + 20
    while "fengsheng.client: joined" not in (log.read_text() if log.exists() else ""):
        assert time.monotonic() < deadline, f"no join logged; screen:\n{pane.capture()}"
        time.sleep(0.1)
    screen = pane.capture()
    assert "INFO" not in screen and "fengsheng.client" not in screen  # nothing printed over the game
    pane.send("q")
    pane.send("y")
    pane.wait_gone(timeout=10)
    text = log.read_text()
    assert "Compose() >>> FengshengApp" in text  # Textual's own log (TEXTUAL_LOG)
    assert "fengsheng.server: listening on 127.0.0.1" in text
    assert "seed" not in text and " bot: " not in text


def test_joining_an_address_where_nothing_listens_says_what_to_check(tmux_panes) -> None:
    """A typo'd port (or a host that has stopped): main said only `Cannot reach the server` (zh:
    `无法连接服务器`) and the socket error; the line now says what to check."""
    from .conftest import free_port

    port = free_port()
    for lang, hint in (("zh", "请核对地址和端口（房主打印的"), ("en", "check the address and port the host printed")):
        pane = tmux_panes([FENGSHENG, "join", f"127.0.0.1:{port}", "--lang", lang], width=100)
        pane.wait_gone(timeout=15)
        # What it printed after leaving the full screen, in the scrollback; wrapped rows joined.
        assert "".join(hint.split()) in "".join(pane.history().split()), pane.history()
