"""A small Chrome DevTools Protocol client: headless Chromium driven over its WebSocket.

Enough to open a page, press keys as a keyboard does, read the terminal's text (xterm's
screen-reader rows, which the web door turns on), list every URL the page requested and take a
screenshot. Chromium runs in its own process group, killed whole on close.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

#: Keys xterm needs as real key events (code, key, Windows virtual key code, text sent).
SPECIAL_KEYS = {
    "Enter": ("Enter", "Enter", 13, "\r"),
    "Tab": ("Tab", "Tab", 9, "\t"),
    "Escape": ("Escape", "Escape", 27, ""),
    "Backspace": ("Backspace", "Backspace", 8, ""),
    "Space": ("Space", " ", 32, " "),
    "ArrowUp": ("ArrowUp", "ArrowUp", 38, ""),
    "ArrowDown": ("ArrowDown", "ArrowDown", 40, ""),
    "ArrowLeft": ("ArrowLeft", "ArrowLeft", 37, ""),
    "ArrowRight": ("ArrowRight", "ArrowRight", 39, ""),
}

#: The terminal's rows as xterm holds them (what it paints), through xterm's public buffer API.
SCREEN_JS = """(() => {
  const terminal = window.fengshengTerminal;
  if (!terminal) return "";
  const buffer = terminal.buffer.active, rows = [];
  for (let y = 0; y < terminal.rows; y++) {
    const line = buffer.getLine(buffer.viewportY + y);
    rows.push(line ? line.translateToString(true) : "");
  }
  return rows.join("\\n");
})()"""


class Page:
    """One tab: `call` a CDP method; network requests and console messages are recorded."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.ids = itertools.count(1)
        self.pending: dict[int, asyncio.Future[Any]] = {}
        self.requested: list[str] = []
        self.console: list[str] = []
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for message in self.ws:
            data = json.loads(message.data)
            if "id" in data:
                future = self.pending.pop(data["id"], None)
                if future is not None and not future.done():
                    if "error" in data:
                        future.set_exception(RuntimeError(f"CDP error: {data['error']}"))
                    else:
                        future.set_result(data.get("result", {}))
            elif data.get("method") == "Network.requestWillBeSent":
                self.requested.append(data["params"]["request"]["url"])
            elif data.get("method") == "Runtime.consoleAPICalled":
                self.console.append(" ".join(str(a.get("value", a.get("description", "")))
                                             for a in data["params"]["args"]))
            elif data.get("method") == "Log.entryAdded":
                self.console.append(data["params"]["entry"].get("text", ""))

    async def call(self, method: str, **params: Any) -> Any:
        ident = next(self.ids)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.pending[ident] = future
        await self.ws.send_json({"id": ident, "method": method, "params": params})
        return await asyncio.wait_for(future, 30)

    async def evaluate(self, expression: str) -> Any:
        result = await self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        return result.get("result", {}).get("value")

    async def open(self, url: str) -> None:
        for domain in ("Page", "Network", "Runtime", "Log"):
            await self.call(f"{domain}.enable")
        await self.call("Page.navigate", url=url)

    async def screen(self) -> str:
        """The terminal's text, one line per row (empty until the terminal exists, or while the
        page is being replaced)."""
        try:
            return str(await self.evaluate(SCREEN_JS) or "")
        except RuntimeError:
            return ""

    async def wait_for(self, test: str | Callable[[str], bool], timeout: float = 40.0) -> str:
        """Poll the screen until it contains `test` (or `test(screen)` holds); return the screen."""
        check = (lambda text: test in text) if isinstance(test, str) else test
        deadline = time.monotonic() + timeout
        text = ""
        while time.monotonic() < deadline:
            text = await self.screen()
            if check(text):
                return text
            await asyncio.sleep(0.1)
        raise AssertionError(f"not on screen after {timeout} s: {test!r}\n--- screen ---\n{text}")

    async def key(self, name: str) -> None:
        """Press and release one key: a name of SPECIAL_KEYS, or one printable character."""
        if name in SPECIAL_KEYS:
            code, key, vk, text = SPECIAL_KEYS[name]
        else:
            code, key, vk, text = "", name, ord(name.upper()) if name.isalnum() else 0, name
        down: dict[str, Any] = {"type": "keyDown", "key": key, "code": code, "windowsVirtualKeyCode": vk}
        if text:
            down["text"] = text
        await self.call("Input.dispatchKeyEvent", **down)
        await self.call("Input.dispatchKeyEvent", type="keyUp", key=key, code=code, windowsVirtualKeyCode=vk)

    async def type_text(self, text: str) -> None:
        """Text as an input method commits it (Chinese included)."""
        await self.call("Input.insertText", text=text)

    async def screenshot(self, path: Path) -> None:
        shot = await self.call("Page.captureScreenshot", format="png")
        path.write_bytes(base64.b64decode(shot["data"]))

    async def close(self) -> None:
        self.reader.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self.reader
        await self.ws.close()


class Chromium:
    """Headless Chromium with a throwaway profile and DevTools on a free loopback port."""

    def __init__(self, width: int = 1200, height: int = 800, lang: str = "zh-CN,zh") -> None:
        """`lang`: the languages the browser asks pages for (`Accept-Language`): Chinese unless a
        test asks for another (the door starts a guest in his browser's language; the suite reads
        the Chinese screens)."""
        assert CHROMIUM is not None
        self.profile = tempfile.mkdtemp(prefix="fs-chromium-")
        self.proc = subprocess.Popen(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--disable-default-apps", "--disable-extensions", "--metrics-recording-only",
             "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0",
             f"--user-data-dir={self.profile}", f"--window-size={width},{height}",
             f"--accept-lang={lang}", f"--lang={lang.partition(',')[0]}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
        )
        self.http: aiohttp.ClientSession | None = None
        self.pages: list[Page] = []
        self.devtools = self._devtools_url()

    def _devtools_url(self, timeout: float = 30.0) -> str:
        assert self.proc.stderr is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            line = self.proc.stderr.readline().decode("utf-8", "replace")
            if not line and self.proc.poll() is not None:
                break
            found = re.search(r"DevTools listening on (ws://\S+)", line)
            if found:
                # Keep draining stderr, or Chromium blocks once the pipe fills.
                threading.Thread(target=self.proc.stderr.read, daemon=True).start()
                return found.group(1)
        self.kill()
        raise RuntimeError("chromium did not start its DevTools server")

    @property
    def http_base(self) -> str:
        return "http://" + self.devtools.split("/")[2]

    async def new_page(self) -> Page:
        if self.http is None:
            self.http = aiohttp.ClientSession()
        async with self.http.put(f"{self.http_base}/json/new?about:blank") as response:
            target = await response.json(content_type=None)
        ws = await self.http.ws_connect(target["webSocketDebuggerUrl"], max_msg_size=0)
        page = Page(ws)
        self.pages.append(page)
        return page

    def pids(self) -> list[int]:
        """Every process of Chromium's group (renderers, GPU, zygotes)."""
        out = subprocess.run(["ps", "-o", "pid=", "-g", str(self.proc.pid)], capture_output=True, text=True)
        return [int(pid) for pid in out.stdout.split()]

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        with contextlib.suppress(Exception):
            self.proc.wait(10)
        shutil.rmtree(self.profile, ignore_errors=True)

    async def close(self) -> None:
        for page in self.pages:
            with contextlib.suppress(Exception):
                await page.close()
        if self.http is not None:
            await self.http.close()
        self.kill()
