"""An advert flood on the LAN, registered for real on loopback mDNS: one machine advertising dozens
of tables gets only `MAX_TABLES_PER_HOST` of them listed, so the table of an honest host still
shows (and the browser's memory and resolving stay bounded). Only 127.0.0.1 carries the mDNS
traffic; the flood's adverts name 127.0.0.2 as their host."""

from __future__ import annotations

import asyncio
import os
import secrets
import socket

from zeroconf import IPVersion
from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf

from net.discovery import MAX_TABLES_PER_HOST, SERVICE_TYPE, Browser
from net.version import PROTOCOL_VERSION

LOOPBACK = ["127.0.0.1"]
FLOOD = 3 * MAX_TABLES_PER_HOST


def advert(label: str, address: str, port: int) -> AsyncServiceInfo:
    txt = {b"v": str(PROTOCOL_VERSION).encode(), b"name": label.encode(), b"seats": b"1/4", b"phase": b"lobby"}
    return AsyncServiceInfo(SERVICE_TYPE, f"{label}.{SERVICE_TYPE}", port=port, properties=txt,
                            parsed_addresses=[address], server=f"{label}.local.")


async def test_one_host_advertising_many_tables_cannot_push_out_another() -> None:
    tag = f"{os.getpid()}-{secrets.token_hex(3)}"
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    listener.close()
    azc = AsyncZeroconf(interfaces=LOOPBACK, ip_version=IPVersion.V4Only)
    flood = [advert(f"flood{i}-{tag}", "127.0.0.2", port) for i in range(FLOOD)]
    honest = advert(f"honest-{tag}", "127.0.0.1", port)
    try:
        for task in await asyncio.gather(*(azc.async_register_service(info) for info in [*flood, honest])):
            await task
        async with Browser(LOOPBACK) as browser:
            async with asyncio.timeout(15):
                while not any(g.name == f"honest-{tag}" for g in browser.games.values()) or \
                        sum(g.name.endswith(tag) for g in browser.games.values()) < MAX_TABLES_PER_HOST + 1:
                    await asyncio.sleep(0.1)
            await asyncio.sleep(1.5)  # every advert has had its time to resolve
            ours = [g for g in browser.games.values() if g.name.endswith(tag)]
        flooded = [g for g in ours if g.host == "127.0.0.2"]
        assert len(flooded) == MAX_TABLES_PER_HOST, len(flooded)
        assert [g.name for g in ours if g.host == "127.0.0.1"] == [f"honest-{tag}"]
    finally:
        for task in await asyncio.gather(*(azc.async_unregister_service(info) for info in [*flood, honest])):
            await task
        await azc.async_close()
