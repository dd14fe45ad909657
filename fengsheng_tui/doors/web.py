"""The browser door: `--web PORT` serves the game client to a browser tab, one client per tab.

Built on textual-serve's `AppService` (one Textual process per WebSocket, spoken to over pipes),
but not on its `Server`: that one serves a whole static folder with directory listings, a
download route, and a page that links fonts from a CDN. This door has exactly six fixed files
(held in memory) and the socket, so no request can name a path of the host's disk, and every byte the
page needs is served from here (a Content-Security-Policy of 'self' makes the browser refuse
anything else). Each socket starts the same fixed command, `doors.guest` bound to this table;
nothing a browser sends becomes part of a command line.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import ipaddress
import json
import logging
import os
import re
import secrets
import shutil
import signal
import socket
import sys
import tempfile
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from net.text import shown

from .guest import DOOR_META, SPAWN_BURST, SPAWN_SECONDS, QuietLog, SpawnBudget, loopback_source


def printable(text: str, limit: int = 80) -> str:
    """Text from a request as every screen shows untrusted text (`net.text.shown`), for the log."""
    return shown(text)[:limit]

log = logging.getLogger("fengsheng.web")

#: Browser guests at once, and from one address (a couple of tabs, a reload racing the old socket).
MAX_GUESTS = 12
MAX_PER_ADDRESS = 4
#: The cookie that tells one browser from another. Each browser's clients get a config folder of
#: their own (FENGSHENG_CONFIG): its seat tokens, so that a reloaded or reopened tab takes its seat
#: back by typing the same name (as `fengsheng join` does with its seats file), and its settings,
#: which never touch the host's. Only a hash of the cookie ever names a folder; a tab without a
#: well-formed cookie gets a folder for its session alone.
BROWSER_COOKIE = "fengsheng_browser"
BROWSER_ID = re.compile(r"[A-Za-z0-9_-]{32}")
#: Seconds a guest process gets to quit by itself before its process group is killed.
QUIT_GRACE = 3.0
#: TCP connections the door holds at once, from one address and in all (a browser opens about six
#: per page; the game socket is one of them). Beyond that a connection is closed as it arrives, so a
#: stranger cannot use up the host process's file descriptors, which the game server shares.
CONNECTIONS_PER_ADDRESS = 24
MAX_CONNECTIONS = 96
#: The bar the page shows when its session ends (a WebSocket close reason: at most 123 bytes).
GUEST_LEFT = "你已离开牌桌 · You left the table."
CLOSED_BY_HOST = "房主已关闭牌桌 · The host closed the table."
PUSHED_OUT = "入口已满，位置让给了别的地址 · Door full: your place went to another address."
#: The close code of a session the door ended with a reason (4000-4999: the application's own).
CLOSE_WITH_REASON = 4000

#: Seconds an HTTP connection may sit without a whole request (or between two requests) before it
#: is closed: a slowloris client holds nothing for long. The game socket is not subject to it.
HTTP_IDLE_SECONDS = 10.0

#: The terminal's font stack: monospaced Latin first, then CJK fonts of every common system, so a
#: browser without Roboto Mono or a CJK font of its own still shows 风声 (WenQuanYi is Debian's).
FONT_STACK = ("'Roboto Mono', 'DejaVu Sans Mono', Menlo, Consolas, 'Noto Sans Mono CJK SC', "
              "'Noto Sans CJK SC', 'WenQuanYi Zen Hei Mono', 'WenQuanYi Zen Hei', 'WenQuanYi Micro Hei Mono', "
              "'Source Han Sans SC', 'PingFang SC', 'Hiragino Sans GB', 'Microsoft YaHei', 'SimHei', monospace")
#: What textual-serve's bundle hard-codes (a font no LAN guest has, no CJK fallback).
STOCK_FONT = "fontFamily:\"'Roboto Mono', Monaco, 'Courier New', monospace\""
STOCK_TERMINAL = "this.terminal=new v.Terminal("

CSP = ("default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; font-src 'self'; "
       "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}

PAGE = """<!DOCTYPE html>
<html lang="zh">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>风声 · {title}</title>
<link rel="icon" href="data:,">
<link rel="preload" href="/static/RobotoMono.ttf" as="font" type="font/ttf" crossorigin>
<link rel="stylesheet" href="/static/xterm.css">
<link rel="stylesheet" href="/static/door.css">
<script src="/static/door.js"></script>
<script src="/static/textual.js"></script>
</head>
<body>
<div class="font-warm" aria-hidden="true">风声 Roboto</div>
<div id="intro">风声 · {title} …</div>
<div id="closed" role="alert"><span id="closed-why">连接已断开 · Session ended.</span>
<button type="button" id="restart">Enter: 重新连接 · reconnect</button></div>
<div id="terminal" class="textual-terminal" data-font-size="16"></div>
<noscript>风声 needs JavaScript to draw the game.</noscript>
</body>
</html>
"""

DOOR_CSS = """
@font-face { font-family: 'Roboto Mono'; src: url('/static/RobotoMono.ttf') format('truetype');
  font-weight: 100 700; font-display: block; }
html, body { margin: 0; height: 100%; background: #0c181f; color: #eee; }
body { font-family: 'Roboto Mono', FONTS; }
.font-warm { position: absolute; left: -9999px; font-family: FONTS; }
#terminal { position: absolute; inset: 0; opacity: 0; }
body.-first-byte #terminal { opacity: 1; }
#intro { position: absolute; inset: 0; display: flex; align-items: center; justify-content: center; font-size: 20px; }
body.-first-byte #intro { display: none; }
#closed { display: none; position: absolute; left: 0; right: 0; bottom: 0; z-index: 10; padding: 8px;
  background: #5e0ba7; text-align: center; }
body.-closed #closed { display: block; }
#closed button { margin-left: 16px; font: inherit; }
""".replace("FONTS", FONT_STACK)

#: Keyboard only: the terminal takes the keys as soon as it exists, and once the session has ended
#: Enter reconnects (a fresh client with its name prompt).
DOOR_JS = """
"use strict";
(function () {
  // The door closes the game socket with a reason (the guest left, the host closed the table):
  // the bar at the bottom says it. Loaded before textual.js, which opens the socket.
  var NativeSocket = window.WebSocket;
  function DoorSocket(url, protocols) {
    var socket = protocols === undefined ? new NativeSocket(url) : new NativeSocket(url, protocols);
    socket.addEventListener("close", function (event) {
      var why = document.getElementById("closed-why");
      if (why && event.reason) { why.textContent = event.reason; }
    });
    return socket;
  }
  DoorSocket.prototype = NativeSocket.prototype;
  ["CONNECTING", "OPEN", "CLOSING", "CLOSED"].forEach(function (name) { DoorSocket[name] = NativeSocket[name]; });
  window.WebSocket = DoorSocket;
  function wsUrl() {
    return (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws";
  }
  function focusTerminal() {
    var terminal = window.fengshengTerminal;
    if (terminal && !document.body.classList.contains("-closed")) { terminal.focus(); return true; }
    return false;
  }
  document.addEventListener("DOMContentLoaded", function () {
    document.getElementById("terminal").dataset.sessionWebsocketUrl = wsUrl();
    document.getElementById("restart").addEventListener("click", function () { location.reload(); });
    new MutationObserver(function () {
      if (document.body.classList.contains("-closed")) { document.getElementById("restart").focus(); }
    }).observe(document.body, {attributes: true, attributeFilter: ["class"]});
  });
  window.addEventListener("load", function () {
    var tries = 0;
    var timer = setInterval(function () { if (focusTerminal() || ++tries > 100) { clearInterval(timer); } }, 50);
  });
  window.addEventListener("focus", focusTerminal);
  document.addEventListener("keydown", function (event) {
    if (document.body.classList.contains("-closed") && event.key === "Enter") { location.reload(); }
  });
})();
"""


def own_host(host: str) -> bool:
    """Whether a request's Host names this machine: an IP address, localhost or this machine's
    own name (as `hostname` prints it, with `.local`, or fully qualified). A page of another site
    that a DNS trick points at the door (DNS rebinding) sends its own site's name, and the browser
    then sees that site as the page's origin too."""
    if host.startswith("["):
        name = host[1:].partition("]")[0]
    else:
        name = host.partition(":")[0] if host.count(":") == 1 else host
    name = name.rstrip(".").lower()
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        pass
    mine = socket.gethostname().lower()
    return name in ("localhost", mine, mine.partition(".")[0] + ".local", socket.getfqdn().lower())


def _stock_static() -> Path:
    import textual_serve

    return Path(textual_serve.__file__).parent / "static"


def textual_js() -> bytes:
    """textual-serve's bundle with our font stack, and its terminal kept as `window.fengshengTerminal`
    (door.js focuses it; its buffer is what the page shows). Fails loudly if a new version of the
    bundle no longer reads as expected."""
    source = (_stock_static() / "js" / "textual.js").read_text("utf-8")
    if source.count(STOCK_FONT) != 1 or source.count(STOCK_TERMINAL) != 1:
        raise RuntimeError("textual-serve's textual.js no longer creates its terminal as expected")
    source = source.replace(STOCK_FONT, "fontFamily:" + json.dumps(FONT_STACK))
    return source.replace(STOCK_TERMINAL, "this.terminal=window.fengshengTerminal=new v.Terminal(").encode()


def guest_command(game_host: str, game_port: int, table: str, ask_password: bool) -> list[str]:
    """The one command every browser tab runs (argv, no shell): the guest client of this table."""
    argv = [sys.executable, "-m", "fengsheng_tui.doors.guest", "--host", game_host, "--port", str(game_port),
            f"--table={table}", "--keep-seats"]
    if ask_password:
        argv.append("--ask-password")
    return argv


def browser_lang(accept: str | None) -> str | None:
    """The game's language a browser asks for (`Accept-Language: zh-CN,zh;q=0.9,en;q=0.8` -> zh):
    the first of Chinese and English in the guest's order of preference; None when it names neither."""
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate((accept or "")[:512].split(",")):
        tag, _, params = part.strip().partition(";")
        weight = 1.0
        if params.strip().startswith("q="):
            try:
                weight = float(params.strip()[2:])
            except ValueError:
                continue
        primary = tag.strip().lower().partition("-")[0]
        if primary in ("zh", "en") and weight > 0:
            ranked.append((-weight, i, primary))
    return min(ranked)[2] if ranked else None


def lan_urls(port: int, interface: str | None = None) -> list[str]:
    """The addresses a guest can open, as the zeroconf advert lists them (loopback when alone)."""
    from net.discovery import lan_ipv4_addresses

    if interface and interface != "0.0.0.0":
        addresses = [interface]
    else:
        addresses = lan_ipv4_addresses() or ["127.0.0.1"]
    return [f"http://{address}:{port}/" for address in addresses]


class WebDoor:
    """An aiohttp site in the host's event loop; `start()`, then `close()` ends every guest."""

    def __init__(self, game_host: str, game_port: int, *, table: str = "", ask_password: bool = False,
                 listen: str = "0.0.0.0", port: int = 0, lang: str | None = None,
                 max_guests: int = MAX_GUESTS, max_per_address: int = MAX_PER_ADDRESS,
                 connections_per_address: int = CONNECTIONS_PER_ADDRESS, max_connections: int = MAX_CONNECTIONS,
                 idle_seconds: float = HTTP_IDLE_SECONDS, spawn_burst: int = SPAWN_BURST,
                 spawn_seconds: float = SPAWN_SECONDS) -> None:
        self.command = guest_command(game_host, game_port, table, ask_password)
        #: The language a guest starts in when his browser asks for neither Chinese nor English
        #: (None: the host's locale); his own Settings choice, kept in his browser's folder, wins.
        self.lang = lang
        self.game_host = game_host
        self.table = table
        self.listen = listen
        self.requested_port = port
        self.max_guests = max_guests
        self.max_per_address = max_per_address
        self.connections_per_address = connections_per_address
        self.max_connections = max_connections
        self.idle_seconds = idle_seconds
        self.spawns = SpawnBudget(spawn_burst, spawn_seconds)
        self.guests: dict[Any, str] = {}  # AppService -> peer address
        #: Open TCP connections by peer address (the door's own count, see `_connection_made`).
        self.connections: dict[str, int] = {}
        self._counted: dict[Any, str] = {}  # aiohttp's protocol of each counted connection -> address
        self._refusals = QuietLog(log, "web door: ")
        #: Guests being ended to make room (`push_out`), kept until they are.
        self._ending: set[asyncio.Task[None]] = set()
        self.port = 0
        self._runner: Any = None
        self._files: dict[str, tuple[bytes, str]] = {}
        #: The browsers' config folders (0700, removed on close).
        self.root: Path | None = None

    def _load_files(self) -> None:
        from html import escape

        title = escape(shown(self.table) or "fengsheng")
        self._files = {
            "/": (PAGE.format(title=title).encode(), "text/html; charset=utf-8"),
            "/static/textual.js": (textual_js(), "text/javascript; charset=utf-8"),
            "/static/xterm.css": ((_stock_static() / "css" / "xterm.css").read_bytes(), "text/css; charset=utf-8"),
            "/static/RobotoMono.ttf": (
                (_stock_static() / "fonts" / "RobotoMono-VariableFont_wght.ttf").read_bytes(), "font/ttf"),
            "/static/door.css": (DOOR_CSS.encode(), "text/css; charset=utf-8"),
            "/static/door.js": (DOOR_JS.encode(), "text/javascript; charset=utf-8"),
        }

    async def start(self) -> None:
        from aiohttp import web

        self._load_files()
        self.root = Path(tempfile.mkdtemp(prefix="fengsheng-web-"))
        app = web.Application(client_max_size=4096)
        for path in self._files:
            app.router.add_get(path, self._file)
        app.router.add_get("/ws", self._socket)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False,
                                     keepalive_timeout=self.idle_seconds)
        await self._runner.setup()
        server = self._runner.server
        assert server is not None
        # aiohttp's Server hears of every connection its protocol makes and loses: the door counts
        # them there (an instance attribute: the Server class has no hook of its own for this).
        made, lost = server.connection_made, server.connection_lost

        def connection_made(handler: Any, transport: Any) -> None:
            made(handler, transport)
            self._connection_made(handler, transport)

        def connection_lost(handler: Any, exc: BaseException | None = None) -> None:
            self._connection_lost(handler)
            lost(handler, exc)

        setattr(server, "connection_made", connection_made)  # noqa: B010
        setattr(server, "connection_lost", connection_lost)  # noqa: B010
        site = web.TCPSite(self._runner, self.listen, self.requested_port)
        await site.start()
        server = site._server
        assert server is not None
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]

    async def close(self) -> None:
        for guest in list(self.guests):
            guest.reason = CLOSED_BY_HOST
        await asyncio.gather(*(guest.end() for guest in list(self.guests)), *self._ending, return_exceptions=True)
        if self._runner is not None:
            await self._runner.cleanup()
        if self.root is not None:
            shutil.rmtree(self.root, ignore_errors=True)

    def _connection_made(self, handler: Any, transport: Any) -> None:
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if peer else "?"
        if self.connections.get(address, 0) >= self.connections_per_address or (
                sum(self.connections.values()) >= self.max_connections):
            self._refusals.log_line(f"a connection from {address} closed at once: over {self.connections_per_address} "
                                    f"from one address or {self.max_connections} in all")
            transport.abort()
            return
        self.connections[address] = self.connections.get(address, 0) + 1
        self._counted[handler] = address

    def _connection_lost(self, handler: Any) -> None:
        address = self._counted.pop(handler, None)
        if address is not None:
            left = self.connections[address] - 1
            if left:
                self.connections[address] = left
            else:
                del self.connections[address]

    def urls(self) -> list[str]:
        return lan_urls(self.port, self.listen)

    async def _file(self, request: Any) -> Any:
        from aiohttp import web

        body, content_type = self._files[request.path]
        response = web.Response(body=body, headers={**HEADERS, "Content-Type": content_type})
        if request.path == "/" and not BROWSER_ID.fullmatch(request.cookies.get(BROWSER_COOKIE, "")):
            response.set_cookie(BROWSER_COOKIE, secrets.token_urlsafe(24), max_age=12 * 3600, httponly=True,
                                samesite="Strict", path="/")
        return response

    def config_folder(self, request: Any) -> tuple[Path, bool]:
        """This browser's config folder, and whether it is this session's alone (to remove after)."""
        assert self.root is not None
        browser = request.cookies.get(BROWSER_COOKIE, "")
        if BROWSER_ID.fullmatch(browser):
            folder, alone = self.root / hashlib.sha256(browser.encode()).hexdigest()[:32], False
        else:
            folder, alone = self.root / f"tab-{secrets.token_hex(8)}", True
        folder.mkdir(mode=0o700, exist_ok=True)
        return folder, alone

    def _refusal(self, request: Any) -> str | None:
        """Why this socket gets no client: a page of another site, or the guest limits."""
        origin = request.headers.get("Origin")
        if (origin is not None and urlsplit(origin).netloc != request.host) or not own_host(request.host):
            return "forbidden: this door only serves its own page"
        peer = request.remote or "?"
        if sum(1 for address in self.guests.values() if address == peer) >= self.max_per_address:
            return (f"同一地址最多 {self.max_per_address} 个浏览器会话 · "
                    f"at most {self.max_per_address} browser sessions from one address")
        if len(self.guests) >= self.max_guests and not self.push_out(peer):
            return (f"浏览器入口已满（{self.max_guests} 人），请稍后再试 · "
                    f"the table's browser door is full ({self.max_guests} guests): try again later")
        wait = self.spawns.wait(peer)
        if wait > 0:
            return (f"此地址新开会话太频繁，请 {wait:.0f} 秒后刷新 · "
                    f"too many new sessions from one address: reload in {wait:.0f} s")
        return None

    def push_out(self, address: str) -> bool:
        """Make room in a full door for a guest from `address`: the oldest guest still at his name
        prompt (his client has not said it is at the table) of the address holding the most
        places goes, if that address holds at least two more than `address`. A stranger with a
        few addresses cannot keep the door full by reopening tabs as they time out, and no guest
        at the table is ever ended for a newcomer. False if no one may be pushed out."""
        counts: dict[str, int] = {}
        for peer in self.guests.values():
            counts[peer] = counts.get(peer, 0) + 1
        mine = counts.get(address, 0)
        waiting = [(guest, peer) for guest, peer in self.guests.items()
                   if not guest.at_table and counts[peer] >= mine + 2]
        if not waiting:
            return False
        busiest = max(counts[peer] for _, peer in waiting)
        guest, peer = next((g, p) for g, p in waiting if counts[p] == busiest)  # the oldest: dicts keep order
        del self.guests[guest]
        self._refusals.log_line(f"door full: a guest at the prompt from {peer} ({busiest} guests) "
                                f"gave way to {address} ({mine})")
        task = asyncio.get_running_loop().create_task(guest.push_out(
            "浏览器入口已满：你在名字输入处的位置让给了来自另一地址的客人，请稍后刷新 · the door is full: your place "
            "at the name prompt went to a guest from an address with fewer guests; reload later"))
        self._ending.add(task)
        task.add_done_callback(self._ending.discard)
        return True

    async def _socket(self, request: Any) -> Any:
        from aiohttp import web

        refusal = self._refusal(request)
        if refusal is not None and refusal.startswith("forbidden"):
            self._refusals.log_line(f"refused a socket from {request.remote} (host {printable(request.host)!r}, "
                                 f"origin {printable(request.headers.get('Origin', ''))!r})")
            raise web.HTTPForbidden(text=refusal)
        socket = web.WebSocketResponse(heartbeat=15, max_msg_size=64 * 1024)
        if refusal is not None:
            self._refusals.log_line(f"refused {request.remote}: {refusal}")
            await socket.prepare(request)
            await socket.send_bytes(f"\r\n  {refusal}\r\n".encode())
            await socket.close()
            return socket
        # The guest holds its place in the limits from here, before any await lets another in.
        folder, alone = self.config_folder(request)
        argv = list(self.command)
        source = loopback_source(request.remote or "?") if self.game_host.startswith("127.") else None
        if source is not None:
            argv += ["--source", source]
        guest = _Guest(argv, socket, folder, browser_lang(request.headers.get("Accept-Language")) or self.lang)
        self.guests[guest] = request.remote or "?"
        log.info("web door: guest from %s (%d now)%s", request.remote, len(self.guests),
                 f"; at the table as {source}" if source else "")
        try:
            await socket.prepare(request)
            await guest.start(_clamp(request.query.get("width"), 80, 20, 400),
                              _clamp(request.query.get("height"), 24, 10, 200))
            await guest.relay(socket)
        except Exception:
            log.exception("web door: guest from %s failed", request.remote)
        finally:
            await guest.end()
            self.guests.pop(guest, None)  # already gone if it was pushed out
            if alone:
                shutil.rmtree(folder, ignore_errors=True)
            log.info("web door: guest from %s left (%d now)", request.remote, len(self.guests))
        return socket


def _clamp(value: str | None, default: int, low: int, high: int) -> int:
    try:
        return max(low, min(high, int(value or default)))
    except ValueError:
        return default


def _make_guest_class() -> type:
    from textual_serve.app_service import AppService
    from textual_serve.download_manager import DownloadManager

    class Guest(AppService):
        """One tab's client process: argv without a shell, in its own process group (killed whole)."""

        def __init__(self, argv: list[str], socket: Any, folder: Path, lang: str | None = None) -> None:
            super().__init__(" ".join(argv), write_bytes=socket.send_bytes, write_str=self._no_text,
                             close=self._close_socket, download_manager=DownloadManager())
            self.socket = socket
            #: What the page says when the session ends (None: its own "session ended").
            self.reason: str | None = None
            self.argv = argv
            self.folder = folder
            self.lang = lang
            #: The client said it is at the table (seated or watching), not at its name prompt.
            self.at_table = False
            self.pushed_out = False

        async def on_meta(self, data: bytes) -> None:
            """The client's word on where its guest is (`DOOR_META`); textual-serve's own kinds after."""
            try:
                meta = json.loads(data)
            except ValueError:
                return
            if isinstance(meta, dict) and meta.get("type") == DOOR_META:
                self.at_table = meta.get("at_table") is True
                return
            if isinstance(meta, dict) and meta.get("type") == "exit" and self.pushed_out:
                return  # the door closes the socket itself, after saying why
            await super().on_meta(data)

        async def push_out(self, reason: str) -> None:
            """End this guest to make room for another, telling him why in his terminal."""
            self.pushed_out = True
            self.reason = PUSHED_OUT  # the bar the page shows, however the socket gets closed
            await self.end()
            with contextlib.suppress(Exception):
                await self.socket.send_bytes(f"\r\n\r\n  {reason}\r\n".encode())
                await self.socket.close(code=CLOSE_WITH_REASON, message=PUSHED_OUT.encode())

        async def _close_socket(self) -> None:
            """The client exited: close the socket with the reason the page shows (a client that
            ended by itself with status 0 is a guest who left)."""
            process = self._process
            if self.reason is None and process is not None:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(process.wait(), 1)
                if process.returncode == 0:
                    self.reason = GUEST_LEFT
            reason = (self.reason or "").encode()
            await self.socket.close(code=CLOSE_WITH_REASON if reason else 1000, message=reason)

        async def _no_text(self, text: str) -> None:
            """open_url and file deliveries are never passed on: the game has no use for them."""

        async def _open_app_process(self, width: int = 80, height: int = 24) -> Any:
            env = self._build_environment(width=width, height=height)
            env["FENGSHENG_CONFIG"] = str(self.folder / "keys.toml")
            if self.lang is not None:  # the guest's own language, as a locale (his Settings still win)
                env.pop("LC_ALL", None)
                env["LC_MESSAGES"] = "zh_CN.UTF-8" if self.lang == "zh" else "C.UTF-8"
            self._process = process = await asyncio.create_subprocess_exec(
                *self.argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE, env=env, start_new_session=True, cwd=self.folder,
            )
            self._stdin = process.stdin
            return process

        async def relay(self, socket: Any) -> None:
            """Keys and size from the browser to the client; only the messages textual-serve knows."""
            from aiohttp import WSMsgType

            async for message in socket:
                if message.type != WSMsgType.TEXT:
                    continue
                try:
                    envelope = message.json()
                except (ValueError, RecursionError):  # not JSON, or nested past the parser's depth
                    continue
                if not isinstance(envelope, list) or not envelope:
                    continue
                kind, data = envelope[0], envelope[1] if len(envelope) > 1 else None
                if kind == "stdin" and isinstance(data, str):
                    await self.send_bytes(data.encode("utf-8", "replace"))  # a lone surrogate: "?"
                elif kind == "resize" and isinstance(data, dict):
                    await self.set_terminal_size(_clamp(str(data.get("width")), 80, 20, 400),
                                                 _clamp(str(data.get("height")), 24, 10, 200))
                elif kind == "ping":
                    await socket.send_json(["pong", str(data)[:64]])
                elif kind == "focus":
                    await self.focus()
                elif kind == "blur":
                    await self.blur()

        async def end(self) -> None:
            """Ask the client to quit; after QUIT_GRACE seconds kill its whole process group."""
            process = self._process
            if process is None:
                return
            if process.returncode is None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(self.send_meta({"type": "quit"}), 1)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(process.wait(), QUIT_GRACE)
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)
            with contextlib.suppress(Exception):
                await process.wait()
            task, self._task = self._task, None
            if task is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(task, 1)

    return Guest


_guest_class: type | None = None


def _Guest(argv: list[str], socket: Any, folder: Path, lang: str | None = None) -> Any:  # noqa: N802 - a class made on first use (lazy imports)
    global _guest_class
    if _guest_class is None:
        _guest_class = _make_guest_class()
    return _guest_class(argv, socket, folder, lang)


async def open_door(port: int, game_port: int, *, table: Any, interface: str | None = None,
                    lang: str | None = None, out: Any = None) -> WebDoor:
    """Start the browser door of `table` (served on `game_port`) and print the URLs to open.

    Raises OSError when the port cannot be listened on. `out` is where the URLs go (stdout)."""
    game_host = interface if interface and interface != "0.0.0.0" else "127.0.0.1"
    door = WebDoor(game_host, game_port, table=table.name, ask_password=bool(table.password),
                   listen=interface or "0.0.0.0", port=port, lang=lang)
    await door.start()
    print("guests with a browser open:", *door.urls(), file=out or sys.stdout, flush=True)
    return door
