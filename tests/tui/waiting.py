"""Waiting in Pilot tests for what a test is about to assert, not for a fixed number of pauses:
one `pilot.pause()` lets the app run one round of its messages, which under load may be too few
(a view from a real server, a screen being pushed, a ring laid out again)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from textual.pilot import Pilot


async def wait_until(pilot: Pilot[Any], condition: Callable[[], object], timeout: float = 10.0,
                     what: str = "") -> None:
    """Pause until `condition()` is true (and the frame after it painted); fail after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            done = condition()
        except Exception:  # the widget it reads is not mounted yet
            done = False
        if done:
            await pilot.pause()
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what or condition}")
        await pilot.pause()
        await asyncio.sleep(0.01)


async def wait_exit(app: Any, timeout: float = 10.0) -> None:
    """Wait until the app has exited (its `return_code` is set): no Pilot round once it has gone."""
    deadline = time.monotonic() + timeout
    while app.return_code is None:
        if time.monotonic() > deadline:
            raise AssertionError(f"the app did not exit within {timeout} s")
        await asyncio.sleep(0.01)


async def settled(pilot: Pilot[Any], app: Any, timeout: float = 10.0) -> None:
    """Wait until whatever the app sent so far has reached the server and been handled: a chat line
    sent now over the same connection comes back (a table handles a connection's messages in
    order). What a test then finds unchanged on the server, a key really did not change."""
    import secrets

    mark = f"settled {secrets.token_hex(4)}"
    app.send(lambda s: s.chat(mark))
    await wait_until(pilot, lambda: any(e.chat is not None and e.chat[1] == mark for e in app.state.log),
                     timeout, what=f"the chat line {mark!r} to come back")


async def until_offline(table: Any, name: str, timeout: float = 10.0) -> None:
    """Wait (no app needed) until the server has seen `name`'s connection go: a reconnect before
    that would find the seat still held by a live connection."""
    deadline = time.monotonic() + timeout
    while any(slot.name == name and slot.session is not None for slot in table.slots) \
            or any(getattr(s, "name", None) == name for s in table.sessions):
        if time.monotonic() > deadline:
            raise AssertionError(f"the server still holds {name!r}'s connection after {timeout} s")
        await asyncio.sleep(0.01)
