"""The real client against a hostile server on loopback: fuzzed and malformed frames end on the
error screen (or are shown as plain text when they keep to the schema), never in a traceback, a
crash or a terminal escape.

Every case is a seeded list of frames from tests/hostile_server.py sent over real TCP to the
Textual app (`FengshengApp` + `NetSession`, driven by Pilot). The schema-level fuzz feeds many
more mutated frames straight to the app: whatever the client's schema accepts, every screen
must show.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hostile_server import HOSTILE_TEXT, HostileServer, cases, honest_frames, mutate

from fengsheng_tui.app import FengshengApp
from fengsheng_tui.screens.game_over import GameOverScreen
from fengsheng_tui.screens.server_error import ServerErrorScreen
from fengsheng_tui.session import NetSession
from net import protocol as P

from .screen_text import screen_text
from .states import ScriptedSession
from .test_safe_text import assert_inert
from .waiting import wait_until

#: Seeds of the cases run over TCP: every byte-level case, then seeded mutations.
TCP_CASES = 40


#: The byte-level cases that break the protocol: each must end on the error screen.
MUST_FAIL = frozenset({0, 1, 2, 4, 5, 9})


async def run_case(seed: int) -> tuple[str, str]:
    """(where the client ended: "error" screen or "shown", the screen's text) for one case."""
    server = await HostileServer(cases(seed)).start()
    app = FengshengApp(NetSession("127.0.0.1", server.port, "victim"), lang="en", keymap={})
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            if seed in MUST_FAIL:  # however long a loaded machine takes to get there
                await wait_until(pilot, lambda: isinstance(app.screen, ServerErrorScreen), timeout=20)
            else:  # the others may be shown: what has arrived within 0.6 s of the hello is shown
                await wait_until(pilot, lambda: isinstance(app.screen, ServerErrorScreen) or server.hellos)
                for _ in range(30):
                    await pilot.pause(0.02)
                    if isinstance(app.screen, ServerErrorScreen):
                        break
            await pilot.pause()
            text = assert_inert(app)
            outcome = "error" if isinstance(app.screen, ServerErrorScreen) else "shown"
            if outcome == "error":
                await pilot.press("q")
                await wait_until(pilot, lambda: app.return_code is not None)
                assert app.return_code == 1
            return outcome, text
    finally:
        await server.close()


async def test_the_client_survives_every_hostile_case_over_tcp() -> None:
    outcomes: dict[str, list[int]] = {"error": [], "shown": []}
    for seed in range(TCP_CASES):
        outcome, text = await run_case(seed)
        outcomes[outcome].append(seed)
        assert "Traceback" not in text and "pwned" not in text.replace("]0;pwned", ""), (seed, text)
    # The byte-level cases that break the protocol all end on the error screen.
    assert MUST_FAIL <= set(outcomes["error"]), outcomes
    assert outcomes["shown"], outcomes  # a newer server's unknown message type is skipped


async def test_a_view_that_breaks_the_schema_shows_the_error_screen_and_says_why() -> None:
    frames = honest_frames(3)
    bad = {**frames["update"], "view": {**frames["update"]["view"], "seats": [{"index": 0, "name": 5}]}}
    server = await HostileServer([*[P.HEADER.pack(len(b)) + b for b in map(_pack, (frames["welcome"], bad))]]).start()
    app = FengshengApp(NetSession("127.0.0.1", server.port, "victim"), lang="en", keymap={})
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, ServerErrorScreen))
            text = assert_inert(app)
            assert isinstance(app.screen, ServerErrorScreen)
            flat = " ".join(text.split())
            assert "The server broke the protocol" in flat, flat
            assert "update.view.seats[0].name must be a string" in flat, flat
    finally:
        await server.close()


def _pack(msg: dict[str, Any]) -> bytes:
    import msgpack

    body: bytes = msgpack.packb(msg, use_bin_type=True)
    return body


@pytest.mark.parametrize("seed", range(3))
async def test_whatever_the_schema_accepts_every_screen_shows(seed: int) -> None:
    """Mutated lobby, update, chat and error frames: each one `validate_server_message` accepts is
    handed to the app, which must show it (no error screen, no crash); the others are refused."""
    rng = random.Random(seed)
    frames = honest_frames(seed)
    app = FengshengApp(ScriptedSession([frames["welcome"]]), lang=rng.choice(["en", "zh"]), keymap={})
    accepted = refused = 0
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        for i in range(120):
            kind = rng.choice(["lobby", "update", "update", "chat"])
            msg = mutate(frames[kind], rng, most=1)
            if rng.random() < 0.3:
                msg = _texts_replaced(msg, rng)
            try:
                msg = P.validate_server_message(P.decode(_pack(msg)))
            except P.ProtocolError:
                refused += 1
                continue
            accepted += 1
            app.handle_message(msg)
            await pilot.pause()
            assert not isinstance(app.screen, ServerErrorScreen), (i, msg)
            if isinstance(app.screen, GameOverScreen):
                app.pop_screen()
                app.game_over_shown = False
            if i % 10 == 0:
                assert_inert(app)
                screen_text(app)
    assert accepted > 20 and refused > 20, (accepted, refused)


def _texts_replaced(msg: Any, rng: random.Random) -> Any:
    """Every string value (not `type`) prefixed with hostile markup that keeps to the schema."""
    safe = [t for t in HOSTILE_TEXT if t.isprintable() and len(t) < 20]
    if isinstance(msg, dict):
        return {k: v if k in ("type", "kind", "verb", "id") else _texts_replaced(v, rng) for k, v in msg.items()}
    if isinstance(msg, list):
        return [_texts_replaced(v, rng) for v in msg]
    if isinstance(msg, str) and rng.random() < 0.5:
        return (rng.choice(safe) + msg)[:20]
    return msg
