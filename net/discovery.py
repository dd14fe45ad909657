"""LAN discovery of game tables over mDNS/DNS-SD (zeroconf).

Discovery is a convenience on top of "join HOST:PORT", never the only way in: multicast is often
blocked (Docker bridges, some Wi-Fi). Hence every failure here surfaces as `DiscoveryError` for the
caller to report and carry on without it.

Interfaces are always an explicit list of IPv4 addresses. zeroconf's `InterfaceChoice.All` also
joins loopback and every virtual bridge, and `InterfaceChoice.Default` fails with ENODEV when no
route covers 224.0.0.0/4, so by default we use the host's real LAN addresses; loopback is used only
when a caller (tests, a single-machine game) passes `["127.0.0.1"]` explicitly.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import functools
import ipaddress
import secrets
import socket
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Self

import ifaddr
from zeroconf import (
    BadTypeInNameException,
    DNSQuestionType,
    IPVersion,
    NonUniqueNameException,
    ServiceStateChange,
    Zeroconf,
)
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from net.text import shown
from net.version import PROTOCOL_VERSION

__all__ = [
    "SERVICE_TYPE",
    "Advertiser",
    "BrowseEvent",
    "Browser",
    "Change",
    "DiscoveryError",
    "GameFound",
    "browse_once",
    "default_interfaces",
    "lan_ipv4_addresses",
    "make_txt",
]

SERVICE_TYPE = "_fengsheng._tcp.local."

# A crashed host sends no goodbye, so its table lingers in browsers until the records expire. The
# default 75 minutes for PTR/TXT is far too long for a game lobby; two minutes bounds it for most
# mDNS stacks (python-zeroconf browsers still clamp PTR records to at least 1125 s).
_TTL = 120
# DNS-SD instance labels are at most 63 bytes; keep room for the "-NN" zeroconf appends on a clash.
_MAX_LABEL_BYTES = 59
# Each TXT string is at most 255 bytes including "key=".
_MAX_TXT_VALUE_BYTES = 200
# Responders may hold a reply up to 1 s when they multicast the record within the last second
# (RFC 6762 §14); listening this long before zeroconf's ~1.2 s of probing covers that delay.
_CLASH_GUARD_LEAD = 0.5
_IFF_UP = 0x1
_IFF_LOOPBACK = 0x8
_EVENT_QUEUE_SIZE = 256
#: Tables listed from one advertised host, and in all: a machine flooding the LAN with adverts
#: must not push out anyone else's table (nor grow the browser without bound). Adverts past
#: either limit are not listed.
MAX_TABLES_PER_HOST = 8
MAX_TABLES = 128
#: Adverts resolved at once; the others wait their turn, at most `MAX_WAITING_ADVERTS` of them.
MAX_RESOLVING = 16
MAX_WAITING_ADVERTS = 1024


class DiscoveryError(RuntimeError):
    """Discovery cannot run here (no usable interface, socket refused, bad name)."""


class Change(enum.StrEnum):
    ADDED = "added"
    UPDATED = "updated"
    REMOVED = "removed"


@dataclass(frozen=True, slots=True)
class GameFound:
    """One advertised table, as a browser resolved it.

    `name` is the mDNS instance label (unique on the LAN, possibly renamed "X-2" on a clash);
    `table` is the human table name from TXT. `host` is the advertised IPv4 address most likely
    reachable from here; `addresses` lists them all for clients that want to try each.
    """

    name: str
    host: str
    port: int
    version: int
    table: str
    seats_taken: int
    seats_total: int
    phase: str
    password: bool
    addresses: tuple[str, ...] = field(default=())

    @property
    def compatible(self) -> bool:
        """Speaks our protocol: a listing of another version is shown as such, never joined."""
        return self.version == PROTOCOL_VERSION


@dataclass(frozen=True, slots=True)
class BrowseEvent:
    change: Change
    game: GameFound


def make_txt(table: str, seats_taken: int, seats_total: int, phase: str, password: bool) -> dict[str, str]:
    """The TXT keys a table advertises (`v` is added by `Advertiser`), so callers never hand-format them."""
    return {
        "name": table,
        "seats": f"{seats_taken}/{seats_total}",
        "phase": phase,
        "pw": "1" if password else "0",
    }


def _interface_flags(name: str) -> int | None:
    """Linux interface flags from sysfs, or None where sysfs does not exist (non-Linux)."""
    try:
        return int(Path(f"/sys/class/net/{name}/flags").read_text().strip(), 16)
    except (OSError, ValueError):
        return None


def _default_route_interfaces() -> set[str]:
    """Interfaces holding an IPv4 default route, read from /proc rather than by sending anything."""
    try:
        lines = Path("/proc/net/route").read_text().splitlines()[1:]
    except OSError:
        return set()
    return {cols[0] for cols in (line.split() for line in lines) if len(cols) > 1 and cols[1] == "00000000"}


def lan_ipv4_addresses() -> list[str]:
    """The host's non-loopback IPv4 addresses on interfaces that are up, default-route interface first.

    /32 addresses are skipped as zeroconf itself does: they are point-to-point tunnels where
    multicast does not reach other players.
    """
    preferred = _default_route_interfaces()
    found: list[tuple[bool, str]] = []
    for adapter in ifaddr.get_adapters():
        flags = _interface_flags(adapter.name)
        if flags is not None and (not flags & _IFF_UP or flags & _IFF_LOOPBACK):
            continue
        for ip in adapter.ips:
            if not ip.is_IPv4 or ip.network_prefix == 32:
                continue
            address = str(ip.ip)
            if ipaddress.IPv4Address(address).is_loopback:
                continue
            found.append((adapter.name not in preferred, address))
    seen: set[str] = set()
    ordered: list[str] = []
    for _, address in sorted(found, key=lambda item: item[0]):
        if address not in seen:
            seen.add(address)
            ordered.append(address)
    return ordered


def default_interfaces() -> list[str]:
    """Where a browser listens when not told: the LAN, else loopback so a lone machine still works."""
    return lan_ipv4_addresses() or ["127.0.0.1"]


def _local_networks() -> list[ipaddress.IPv4Network]:
    networks = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if ip.is_IPv4:
                networks.append(ipaddress.IPv4Network(f"{ip.ip}/{ip.network_prefix}", strict=False))
    return networks


def _pick_host(addresses: Sequence[str], networks: Sequence[ipaddress.IPv4Network]) -> str:
    """Prefer an address on one of our own subnets: a multi-homed host's other addresses may be unreachable."""
    for address in addresses:
        parsed = ipaddress.IPv4Address(address)
        if any(parsed in network for network in networks):
            return address
    return addresses[0]


def _truncate_utf8(text: str, limit: int) -> str:
    return text.encode("utf-8")[:limit].decode("utf-8", errors="ignore")


def _instance_label(name: str) -> str:
    """A valid DNS-SD instance label for a table name.

    Dots are replaced because zeroconf splits names on them into extra DNS labels, which other
    mDNS stacks then display differently; control characters are forbidden by RFC 6763.
    """
    cleaned = "".join("-" if ch == "." else ch for ch in name if ch.isprintable()).strip()
    return _truncate_utf8(cleaned, _MAX_LABEL_BYTES).strip() or "fengsheng"


def _host_label() -> str:
    """A per-advertiser SRV target: two hosts on one machine must not claim the same A records."""
    base = "".join(ch if ch.isascii() and (ch.isalnum() or ch == "-") else "-" for ch in socket.gethostname())
    base = base.split(".")[0].strip("-")[:40] or "host"
    return f"{base}-fs{secrets.token_hex(3)}.local."


#: What a TXT record may say, checked like the protocol's own fields: anything else on the LAN
#: (another program, another version, a hostile advert) is read as "unknown", never trusted.
TXT_PHASES = frozenset({"lobby", "playing"})
#: Longest table name kept from TXT (the protocol's table names are at most 64 characters).
MAX_TXT_TEXT = 64
#: Most seats a listing may claim (the protocol numbers seats 0..63).
MAX_TXT_SEATS = 64
#: Digits a version number may have.
_MAX_VERSION_DIGITS = 6
#: Characters a TXT text never keeps: controls (ESC, C1), format (bidi, zero-width), separators,
#: surrogates, private use.


def _parse_int(value: str | None, default: int = 0, hi: int = 10**_MAX_VERSION_DIGITS - 1) -> int:
    """A plain decimal number in 0..hi (no sign, no spaces, ASCII digits only), else `default`."""
    if value is None or not value.isascii() or not value.isdigit() or len(value) > _MAX_VERSION_DIGITS:
        return default
    number = int(value)
    return number if number <= hi else default


def _txt_text(value: str | None, limit: int = MAX_TXT_TEXT) -> str:
    """A TXT value as text that may be shown: unprintable characters removed, at most `limit` long."""
    if not value:
        return ""
    return shown(value)[:limit].strip()


def _seats(value: str | None) -> tuple[int, int]:
    """`taken/total` with 0 <= taken <= total <= MAX_TXT_SEATS, else (0, 0)."""
    taken_text, slash, total_text = (value or "").partition("/")
    taken, total = _parse_int(taken_text, -1, MAX_TXT_SEATS), _parse_int(total_text, -1, MAX_TXT_SEATS)
    return (taken, total) if slash and 0 <= taken <= total else (0, 0)


def _game_from_info(info: AsyncServiceInfo, networks: Sequence[ipaddress.IPv4Network]) -> GameFound | None:
    """Turn a resolved record set into a GameFound, tolerating TXT from other versions or other software.

    Every TXT value is validated: the version and seats are small decimal numbers (0 when not),
    the phase one of TXT_PHASES ("unknown" when not), the table name and the instance label
    printable text of bounded length (a table with no printable name shows its label)."""
    addresses = tuple(info.parsed_addresses(IPVersion.V4Only))
    if not addresses or info.port is None:
        return None
    props = info.decoded_properties
    label = _txt_text(info.get_name()) or "?"
    taken, total = _seats(props.get("seats"))
    phase = props.get("phase")
    return GameFound(
        name=label,
        host=_pick_host(addresses, networks),
        port=info.port,
        version=_parse_int(props.get("v")),
        table=_txt_text(props.get("name")) or label,
        seats_taken=taken,
        seats_total=total,
        phase=phase if phase in TXT_PHASES else "unknown",
        password=props.get("pw") == "1",
        addresses=addresses,
    )


def _ignore_state_change(
    zeroconf: Zeroconf, service_type: str, name: str, state_change: ServiceStateChange
) -> None:
    """AsyncServiceBrowser requires a handler; the clash guard only wants the cache filled."""


def _check_interfaces(interfaces: list[str]) -> None:
    """Refuse addresses this machine does not have.

    zeroconf silently skips an address it cannot bind, which would leave a browser listening on
    nothing and reporting an empty LAN instead of the typo.
    """
    own = {str(ip.ip) for adapter in ifaddr.get_adapters() for ip in adapter.ips if ip.is_IPv4}
    for address in interfaces:
        try:
            ipaddress.IPv4Address(address)
        except ValueError:
            raise DiscoveryError(f"{address!r} is not an IPv4 address") from None
        if address not in own:
            raise DiscoveryError(f"{address} is not an address of this machine")


def _open_zeroconf(interfaces: list[str]) -> AsyncZeroconf:
    _check_interfaces(interfaces)
    try:
        return AsyncZeroconf(interfaces=interfaces, ip_version=IPVersion.V4Only)
    except OSError as exc:
        raise DiscoveryError(f"cannot open mDNS sockets on {', '.join(interfaces)}: {exc}") from exc


class Advertiser:
    """Publishes one table as `<name>._fengsheng._tcp.local.` until stopped.

    TXT carries `v` (protocol version), `name`, `seats` ("taken/total"), `phase` (lobby|playing) and
    `pw` ("1"/"0"), plus `u`, an update serial: mDNS caches keep a superseded TXT for a second, so
    switching back to an earlier TXT (a player joins then leaves) would otherwise look unchanged
    to browsers and leave them showing the intermediate state.
    """

    def __init__(self) -> None:
        self._azc: AsyncZeroconf | None = None
        self._info: AsyncServiceInfo | None = None
        self._txt: dict[str, str] = {}
        self._serial = 0
        self._instance_name: str | None = None

    @property
    def instance_name(self) -> str | None:
        """The label actually registered (zeroconf appends "-2", "-3"… on a clash); kept after stop."""
        return self._instance_name

    @property
    def running(self) -> bool:
        return self._info is not None

    async def start(
        self, name: str, port: int, txt: dict[str, str], interfaces: list[str] | None = None
    ) -> None:
        """Register the service and return once its announcement has gone out.

        `interfaces` defaults to the LAN addresses (`lan_ipv4_addresses`); those addresses are what
        the A records advertise, so loopback is advertised only when explicitly asked for.
        """
        if self._azc is not None:
            raise RuntimeError("Advertiser already started")
        addresses = list(interfaces) if interfaces is not None else lan_ipv4_addresses()
        if not addresses:
            raise DiscoveryError("no LAN IPv4 address to advertise on")
        _check_interfaces(addresses)
        self._txt = {"name": name, **txt, "v": str(PROTOCOL_VERSION)}
        label = _instance_label(name)
        info = AsyncServiceInfo(
            SERVICE_TYPE,
            f"{label}.{SERVICE_TYPE}",
            port=port,
            properties=self._properties(),
            server=_host_label(),
            host_ttl=_TTL,
            other_ttl=_TTL,
            parsed_addresses=addresses,
        )
        azc = _open_zeroconf(addresses)
        # zeroconf detects a clash only from PTR records already in its cache, and its probes ask
        # for unicast replies, which another responder on the same machine may never receive (the
        # kernel hands them to one of the sockets sharing port 5353). A short multicast browse
        # during the ~1.2 s of probing fills the cache so the clash is seen.
        guard = AsyncServiceBrowser(
            azc.zeroconf, [SERVICE_TYPE], handlers=[_ignore_state_change], question_type=DNSQuestionType.QM
        )
        try:
            try:
                await asyncio.sleep(_CLASH_GUARD_LEAD)
                # allow_name_change turns a clash (NonUniqueNameException) into "<label>-2"; the first
                # await probes and registers, the second waits until the announcements are sent.
                await (await azc.async_register_service(info, allow_name_change=True))
            finally:
                await guard.async_cancel()
        except (OSError, BadTypeInNameException, NonUniqueNameException) as exc:
            await azc.async_close()
            raise DiscoveryError(f"cannot advertise {name!r}: {exc}") from exc
        except BaseException:
            await azc.async_close()
            raise
        self._azc, self._info = azc, info
        self._instance_name = info.get_name()

    async def update(self, txt: dict[str, str]) -> None:
        """Merge `txt` into the advertised TXT and re-announce it (seats taken, phase…)."""
        if self._azc is None or self._info is None:
            raise RuntimeError("Advertiser not started")
        self._txt = {**self._txt, **txt, "v": str(PROTOCOL_VERSION)}
        self._info = self._with_current_txt(self._info)
        await (await self._azc.async_update_service(self._info))

    async def stop(self) -> None:
        """Send goodbyes (so browsers drop the table within a second) and close; idempotent."""
        azc, info = self._azc, self._info
        self._azc = self._info = None
        if azc is None:
            return
        try:
            if info is not None:
                with contextlib.suppress(OSError):
                    await (await azc.async_unregister_service(info))
        finally:
            await azc.async_close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.stop()

    def _properties(self) -> dict[str, str]:
        self._serial += 1
        props = {key: _truncate_utf8(value, _MAX_TXT_VALUE_BYTES) for key, value in self._txt.items()}
        props["u"] = str(self._serial)
        return props

    def _with_current_txt(self, info: AsyncServiceInfo) -> AsyncServiceInfo:
        """A fresh copy of `info` with the current TXT: ServiceInfo caches its encoded records."""
        return AsyncServiceInfo(
            SERVICE_TYPE,
            info.name,
            port=info.port,
            properties=self._properties(),
            server=info.server,
            host_ttl=_TTL,
            other_ttl=_TTL,
            parsed_addresses=info.parsed_addresses(IPVersion.V4Only),
        )


class Browser:
    """Live view of the tables on the LAN.

    Consume it either through `on_event` (called in the event loop, must not block), by async
    iteration (`async for event in browser`), or by reading `games`. The iteration queue is bounded:
    if nobody iterates, the oldest events are dropped, and `games` stays authoritative.
    A table is reported only once resolved (address, port, TXT); a change that leaves the resolved
    data equal is not reported.
    """

    def __init__(
        self,
        interfaces: list[str] | None = None,
        on_event: Callable[[BrowseEvent], None] | None = None,
        resolve_timeout: float = 3.0,
    ) -> None:
        self._interfaces = list(interfaces) if interfaces is not None else None
        self._on_event = on_event
        self._resolve_timeout_ms = int(resolve_timeout * 1000)
        self._games: dict[str, GameFound] = {}
        self._resolving: dict[str, asyncio.Task[None]] = {}
        self._waiting: OrderedDict[str, tuple[Zeroconf, str, str]] = OrderedDict()
        self._queue: asyncio.Queue[BrowseEvent | None] = asyncio.Queue(_EVENT_QUEUE_SIZE)
        self._azc: AsyncZeroconf | None = None
        self._browser: AsyncServiceBrowser | None = None
        self._networks: list[ipaddress.IPv4Network] = []
        self._closed = False

    @property
    def games(self) -> dict[str, GameFound]:
        """Currently known tables by instance label (a copy)."""
        return {game.name: game for game in self._games.values()}

    async def start(self) -> None:
        if self._azc is not None or self._closed:
            raise RuntimeError("Browser already started")
        interfaces = self._interfaces if self._interfaces is not None else default_interfaces()
        self._networks = _local_networks()
        self._azc = _open_zeroconf(interfaces)
        # zeroconf's first query defaults to QU (unicast reply); a responder on the same machine
        # then answers to port 5353, which the kernel may hand to another process's socket, and the
        # table shows up only on the next query a second later. QM replies reach everyone at once.
        self._browser = AsyncServiceBrowser(
            self._azc.zeroconf,
            [SERVICE_TYPE],
            handlers=[self._on_service_state_change],
            question_type=DNSQuestionType.QM,
        )

    async def stop(self) -> None:
        """Stop browsing, cancel pending resolutions and end any async iteration; idempotent."""
        if self._closed:
            return
        self._closed = True
        tasks = list(self._resolving.values())
        self._resolving.clear()
        self._waiting.clear()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        try:
            if self._browser is not None:
                await self._browser.async_cancel()
        finally:
            if self._azc is not None:
                await self._azc.async_close()
            self._put(None)

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.stop()

    def __aiter__(self) -> AsyncIterator[BrowseEvent]:
        return self

    async def __anext__(self) -> BrowseEvent:
        if self._closed and self._queue.empty():
            raise StopAsyncIteration
        event = await self._queue.get()
        if event is None:
            raise StopAsyncIteration
        return event

    def _on_service_state_change(
        self, zeroconf: Zeroconf, service_type: str, name: str, state_change: ServiceStateChange
    ) -> None:
        """zeroconf calls handlers with exactly these keyword arguments, in the event loop."""
        if self._closed:
            return
        key = name.lower()
        pending = self._resolving.pop(key, None)
        if pending is not None:
            pending.cancel()
        self._waiting.pop(key, None)
        if state_change is ServiceStateChange.Removed:
            game = self._games.pop(key, None)
            if game is not None:
                self._emit(Change.REMOVED, game)
            return
        self._waiting[key] = (zeroconf, service_type, name)
        if len(self._waiting) > MAX_WAITING_ADVERTS:
            self._waiting.popitem(last=False)
        self._resolve_next()

    def _resolve_next(self) -> None:
        while self._waiting and len(self._resolving) < MAX_RESOLVING and not self._closed:
            key, (zeroconf, service_type, name) = self._waiting.popitem(last=False)
            task = asyncio.get_running_loop().create_task(self._resolve(zeroconf, service_type, name, key))
            self._resolving[key] = task
            task.add_done_callback(functools.partial(self._forget, key))

    def _forget(self, key: str, task: asyncio.Task[None]) -> None:
        if self._resolving.get(key) is task:
            del self._resolving[key]
        self._resolve_next()

    def _room_for(self, game: GameFound) -> bool:
        """A new listing fits under `MAX_TABLES` and its host's `MAX_TABLES_PER_HOST`."""
        listed = self._games.values()
        return len(self._games) < MAX_TABLES and sum(g.host == game.host for g in listed) < MAX_TABLES_PER_HOST

    async def _resolve(self, zeroconf: Zeroconf, service_type: str, name: str, key: str) -> None:
        info = AsyncServiceInfo(service_type, name)
        try:
            if not await info.async_request(zeroconf, self._resolve_timeout_ms):
                return
        except (OSError, BadTypeInNameException):
            return
        game = _game_from_info(info, self._networks)
        if game is None or self._closed:
            return
        previous = self._games.get(key)
        if previous == game or (previous is None and not self._room_for(game)):
            return
        self._games[key] = game
        self._emit(Change.ADDED if previous is None else Change.UPDATED, game)

    def _emit(self, change: Change, game: GameFound) -> None:
        event = BrowseEvent(change, game)
        self._put(event)
        if self._on_event is not None:
            self._on_event(event)

    def _put(self, event: BrowseEvent | None) -> None:
        if self._queue.full():
            self._queue.get_nowait()
        self._queue.put_nowait(event)


async def browse_once(timeout: float, interfaces: list[str] | None = None) -> list[GameFound]:
    """Browse for `timeout` seconds and return the tables seen, sorted by table name (for scripts)."""
    async with Browser(interfaces) as browser:
        await asyncio.sleep(timeout)
        games = list(browser.games.values())
    return sorted(games, key=lambda game: (game.table, game.name))
