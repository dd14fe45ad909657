"""`fengsheng play --web`: the player in his terminal (tmux) hosts, a friend joins from Chromium.

Also the page's own keyboard path: a session that ended says so, and Enter opens a fresh one.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest

from .cdp import Chromium
from .conftest import FENGSHENG, Host, need_chromium

TMUX = shutil.which("tmux")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class Pane:
    def __init__(self, tmp: Path, command: list[str], env: dict[str, str]) -> None:
        assert TMUX is not None
        self.socket = str(tmp / "tmux.sock")
        exports = " ".join(f"{key}={value}" for key, value in env.items())
        line = f"env {exports} " + " ".join(command)
        self.tmux("new-session", "-d", "-s", "t", "-x", "100", "-y", "30", line)

    def tmux(self, *args: str) -> str:
        assert TMUX is not None
        done = subprocess.run([TMUX, "-S", self.socket, "-f", "/dev/null", *args], capture_output=True,
                              text=True, timeout=10)
        return done.stdout

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "t")

    def wait_for(self, text: str, timeout: float = 40.0) -> str:
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            screen = self.screen()
            if text in screen:
                return screen
            time.sleep(0.1)
        raise AssertionError(f"{text!r} not in the pane:\n{screen}")

    def pids(self) -> list[int]:
        return [int(pid) for pid in self.tmux("list-panes", "-t", "t", "-F", "#{pane_pid}").split()]

    def kill(self) -> None:
        pids = self.pids()
        self.tmux("kill-server")
        for pid in pids:
            try:
                os.killpg(pid, 9)
            except (ProcessLookupError, PermissionError):
                pass


async def test_play_web_a_friend_joins_from_a_browser(tmp_path: Path) -> None:
    need_chromium()
    if TMUX is None:
        pytest.skip("tmux is not installed")
    port = free_port()
    env = {"TEXTUAL_ANIMATIONS": "none", "LANG": "C.UTF-8", "XDG_DATA_HOME": str(tmp_path / "data"),
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "PATH": os.environ["PATH"]}
    pane = Pane(tmp_path, [FENGSHENG, "play", "--web", str(port), "--name", "阿东", "--lang", "zh",
                           "--bot-delay", "0.05"], env)
    browser = None
    try:
        lobby = pane.wait_for("房主")  # --web keeps the seats open: the player is in the table lobby
        assert "阿东（你）" in lobby
        pane.wait_for(f":{port}/")  # the notice names the address guests open
        browser = Chromium(1000, 700)
        page = await browser.new_page()
        await page.open(f"http://127.0.0.1:{port}/")
        await page.wait_for("你的名字", 60)
        await page.type_text("小红")
        await page.key("Enter")
        guest_lobby = await page.wait_for("小红（你）")
        assert "阿东" in guest_lobby
        pane.wait_for("小红")
        for key in ("b", "b", "s"):
            pane.tmux("send-keys", "-t", "t", key)
            time.sleep(0.4)
        pane.wait_for("第1回合")
        assert "手牌" in await page.wait_for("第1回合")
    finally:
        if browser is not None:
            await browser.close()
        pane.kill()


async def test_an_ended_session_says_so_and_enter_starts_another(web_host: Host) -> None:
    need_chromium()
    browser = Chromium(900, 600)
    try:
        page = await browser.new_page()
        await page.open(web_host.url)
        await page.wait_for("你的名字", 60)
        await page.key("Escape")  # leave at the name prompt: the client exits, the socket closes
        for _ in range(200):
            if await page.evaluate("document.body.classList.contains('-closed')"):
                break
            await asyncio.sleep(0.1)
        assert await page.evaluate("document.body.classList.contains('-closed')")
        assert await page.evaluate("document.activeElement.id") == "restart"
        assert "You left the table" in await page.evaluate("document.getElementById('closed').innerText")
        await page.key("Enter")
        await page.wait_for("你的名字", 60)
        assert not await page.evaluate("document.body.classList.contains('-closed')")
    finally:
        await browser.close()

