"""LAN discovery over real zeroconf.

Loopback mDNS is shared by every process on the machine, so each test uses its own instance name
and never counts services. Only `["127.0.0.1"]` or addresses inside our own network namespaces are
used: the default interfaces would multicast out of the machine's real network.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import secrets
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from zeroconf.asyncio import AsyncServiceInfo

from net.discovery import (
    SERVICE_TYPE,
    Advertiser,
    Browser,
    Change,
    DiscoveryError,
    GameFound,
    _game_from_info,
    _instance_label,
    _pick_host,
    lan_ipv4_addresses,
    make_txt,
)
from net.version import PROTOCOL_VERSION

LOOPBACK = ["127.0.0.1"]
REPO = Path(__file__).resolve().parents[1]


def unique(prefix: str) -> str:
    return f"{prefix}-{os.getpid()}-{secrets.token_hex(3)}"


async def next_event(browser: Browser, name: str, change: Change, timeout: float = 8.0) -> GameFound:
    async with asyncio.timeout(timeout):
        async for event in browser:
            if event.game.name == name and event.change is change:
                return event.game
    raise AssertionError(f"browser stopped before {change} of {name}")


def browse_command(*args: str) -> list[str]:
    """`fengsheng browse` through the real dispatcher once every subcommand module exists.

    The dispatcher imports all subcommands, so while sibling commands are still being written the
    module's own entry point (same add_arguments/run) is used instead.
    """
    from fengsheng_tui.cli import SUBCOMMANDS

    if all(importlib.util.find_spec(f"fengsheng_tui.commands.{name}") for name in SUBCOMMANDS):
        return [sys.executable, "-m", "fengsheng_tui.cli", "browse", *args]
    return [sys.executable, "-m", "fengsheng_tui.commands.browse", *args]


def child_env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO)}


# --- pure helpers -------------------------------------------------------------------------------


def test_make_txt() -> None:
    assert make_txt("桌", 2, 5, "lobby", True) == {"name": "桌", "seats": "2/5", "phase": "lobby", "pw": "1"}


def test_instance_label_is_valid_dns_sd() -> None:
    assert _instance_label("a.b.c") == "a-b-c"
    long_cjk = _instance_label("风声" * 40)
    assert len(long_cjk.encode()) <= 59 and long_cjk.startswith("风声")
    assert _instance_label("\x00\x07") == "fengsheng"


def test_game_from_info_tolerates_foreign_txt() -> None:
    info = AsyncServiceInfo(
        SERVICE_TYPE,
        f"odd.{SERVICE_TYPE}",
        port=7000,
        properties={"v": "x", "seats": "garbage"},
        parsed_addresses=["10.1.2.3"],
    )
    game = _game_from_info(info, [])
    assert game == GameFound("odd", "10.1.2.3", 7000, 0, "odd", 0, 0, "unknown", False, ("10.1.2.3",))


def test_pick_host_prefers_own_subnet() -> None:
    import ipaddress

    nets = [ipaddress.IPv4Network("192.168.7.0/24")]
    assert _pick_host(["10.0.0.9", "192.168.7.4"], nets) == "192.168.7.4"
    assert _pick_host(["10.0.0.9"], nets) == "10.0.0.9"


def test_lan_addresses_never_loopback() -> None:
    assert not [a for a in lan_ipv4_addresses() if a.startswith("127.")]


async def test_unusable_interfaces_are_discovery_errors() -> None:
    with pytest.raises(DiscoveryError):
        await Advertiser().start("x", 1, {}, interfaces=[])
    # Validated before any socket is opened: nothing is sent anywhere.
    with pytest.raises(DiscoveryError, match="not an address of this machine"):
        await Browser(["203.0.113.77"]).start()
    with pytest.raises(DiscoveryError, match="not an IPv4 address"):
        await Advertiser().start("x", 1, {}, interfaces=["eth0"])


# --- loopback, real zeroconf --------------------------------------------------------------------


async def test_advertise_update_remove_same_process() -> None:
    label = unique("same")
    async with Browser(LOOPBACK) as browser:
        advertiser = Advertiser()
        try:
            await advertiser.start(label, 40001, make_txt("老王的桌子", 1, 5, "lobby", False), LOOPBACK)
            assert advertiser.instance_name == label
            game = await next_event(browser, label, Change.ADDED)
            assert (game.host, game.port, game.version) == ("127.0.0.1", 40001, PROTOCOL_VERSION)
            assert (game.table, game.seats_taken, game.seats_total) == ("老王的桌子", 1, 5)
            assert (game.phase, game.password) == ("lobby", False)

            await advertiser.update({"seats": "2/5", "phase": "playing"})
            game = await next_event(browser, label, Change.UPDATED)
            assert (game.seats_taken, game.phase, game.table) == (2, "playing", "老王的桌子")

            # Back to an earlier TXT within the cache's one-second grace: must still be seen.
            await advertiser.update({"seats": "1/5"})
            game = await next_event(browser, label, Change.UPDATED)
            assert game.seats_taken == 1
        finally:
            await advertiser.stop()
        game = await next_event(browser, label, Change.REMOVED)
        assert game.name == label
        assert label not in browser.games


async def test_browse_cli_from_separate_process_and_name_clash() -> None:
    label = unique("cli")
    async with Advertiser() as first, Advertiser() as second:
        await first.start(label, 40002, make_txt("风声 桌", 3, 6, "lobby", True), LOOPBACK)
        await second.start(label, 40003, make_txt("风声 桌", 0, 5, "lobby", False), LOOPBACK)
        assert first.instance_name == label
        renamed = second.instance_name
        assert renamed is not None and renamed.startswith(f"{label}-")

        async def browse(*extra: str) -> str:
            proc = await asyncio.create_subprocess_exec(
                *browse_command("--timeout", "1.5", "--interface", "127.0.0.1", *extra),
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                env=child_env(),
                cwd=REPO,
            )
            out, err = await asyncio.wait_for(proc.communicate(), 20)
            assert proc.returncode == 0, err.decode()
            return out.decode()

        json_out, text_out = await asyncio.gather(browse("--json"), browse())

    games = {g["name"]: g for g in json.loads(json_out) if g["name"] in (label, renamed)}
    assert games[label] == {
        "name": label,
        "host": "127.0.0.1",
        "port": 40002,
        "version": PROTOCOL_VERSION,
        "table": "风声 桌",
        "seats_taken": 3,
        "seats_total": 6,
        "phase": "lobby",
        "password": True,
        "addresses": ["127.0.0.1"],
        "compatible": True,
    }
    clash = games[renamed]
    assert (clash["port"], clash["seats_taken"], clash["password"]) == (40003, 0, False)
    assert f"风声 桌  127.0.0.1:40002  seats 3/6  lobby  password yes  v{PROTOCOL_VERSION}" in text_out
    assert f"风声 桌  127.0.0.1:40003  seats 0/5  lobby  password no  v{PROTOCOL_VERSION}" in text_out


# --- two hosts: network namespaces joined by a veth pair ----------------------------------------

HOST_SCRIPT = textwrap.dedent(
    """
    import asyncio, sys
    from net.discovery import Advertiser, make_txt

    async def main(label, address):
        async def greet(reader, writer):
            writer.write(b"fengsheng-netns-ok\\n")
            await writer.drain()
            writer.close()

        server = await asyncio.start_server(greet, address, 0)
        port = server.sockets[0].getsockname()[1]
        async with Advertiser() as advertiser:
            await advertiser.start(label, port, make_txt("ns table", 2, 7, "lobby", False), [address])
            print("READY", port, flush=True)
            await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
        server.close()

    asyncio.run(main(sys.argv[1], sys.argv[2]))
    """
)

GUEST_SCRIPT = textwrap.dedent(
    """
    import asyncio, dataclasses, json, sys, time
    from net.discovery import Browser, Change

    async def main(label, address):
        start = time.monotonic()
        async with Browser([address]) as browser, asyncio.timeout(10):
            async for event in browser:
                if event.game.name == label and event.change is Change.ADDED:
                    game = event.game
                    break
        seen = time.monotonic() - start
        reader, writer = await asyncio.wait_for(asyncio.open_connection(game.host, game.port), 5)
        greeting = (await asyncio.wait_for(reader.readline(), 5)).decode().strip()
        writer.close()
        print(json.dumps({"game": dataclasses.asdict(game), "greeting": greeting, "seen": seen}))

    asyncio.run(main(sys.argv[1], sys.argv[2]))
    """
)


def _ip(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["ip", *args], capture_output=True, text=True, timeout=10)


@pytest.mark.netns
async def test_two_hosts_across_network_namespaces() -> None:
    if os.geteuid() != 0:
        pytest.skip("network namespaces need root")
    if shutil.which("ip") is None:
        pytest.skip("iproute2 `ip` is not installed")
    suffix = secrets.token_hex(3)
    ns_a, ns_b = f"fsA{suffix}", f"fsB{suffix}"
    veth_a, veth_b = f"fsa{suffix}", f"fsb{suffix}"
    addr_a, addr_b = "10.200.0.1", "10.200.0.2"
    created: list[str] = []
    host = None
    try:
        probe = _ip("netns", "add", ns_a)
        if probe.returncode != 0:
            pytest.skip(f"`ip netns add` unavailable here: {probe.stderr.strip()}")
        created.append(ns_a)
        setup = [
            ("netns", "add", ns_b),
            ("link", "add", veth_a, "type", "veth", "peer", "name", veth_b),
            ("link", "set", veth_a, "netns", ns_a),
            ("link", "set", veth_b, "netns", ns_b),
            ("-n", ns_a, "addr", "add", f"{addr_a}/24", "dev", veth_a),
            ("-n", ns_b, "addr", "add", f"{addr_b}/24", "dev", veth_b),
            ("-n", ns_a, "link", "set", veth_a, "up"),
            ("-n", ns_b, "link", "set", veth_b, "up"),
            ("-n", ns_a, "link", "set", "lo", "up"),
            ("-n", ns_b, "link", "set", "lo", "up"),
        ]
        for step in setup:
            result = _ip(*step)
            assert result.returncode == 0, f"ip {' '.join(step)}: {result.stderr}"
            if step[:2] == ("netns", "add"):
                created.append(step[2])

        label = unique("netns")
        host = await asyncio.create_subprocess_exec(
            "ip", "netns", "exec", ns_a, sys.executable, "-c", HOST_SCRIPT, label, addr_a,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            env=child_env(),
            cwd=REPO,
        )  # fmt: skip
        assert host.stdout is not None and host.stdin is not None
        ready = (await asyncio.wait_for(host.stdout.readline(), 15)).decode().split()
        assert ready[:1] == ["READY"], ready
        port = int(ready[1])

        guest = await asyncio.create_subprocess_exec(
            "ip", "netns", "exec", ns_b, sys.executable, "-c", GUEST_SCRIPT, label, addr_b,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=child_env(),
            cwd=REPO,
        )  # fmt: skip
        out, err = await asyncio.wait_for(guest.communicate(), 20)
        assert guest.returncode == 0, err.decode()
        report = json.loads(out)
        game = report["game"]
        assert (game["host"], game["port"], game["addresses"]) == (addr_a, port, [addr_a])
        assert (game["table"], game["seats_taken"], game["seats_total"]) == ("ns table", 2, 7)
        assert report["greeting"] == "fengsheng-netns-ok"

        host.stdin.close()
        assert await asyncio.wait_for(host.wait(), 10) == 0
    finally:
        if host is not None and host.returncode is None:
            host.kill()
            await host.wait()
        for ns in created:
            _ip("netns", "del", ns)
        _ip("link", "del", veth_a)
