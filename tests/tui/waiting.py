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
