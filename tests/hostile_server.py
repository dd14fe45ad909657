"""A hostile game server for client tests: speaks the framing, then sends fuzzed frames.

`cases(seed)` builds, from honest frames of a real engine game (welcome, lobby, update, patch),
a seeded list of what a broken or malicious server might send instead: subtrees replaced by
values of the wrong type or size, keys removed, strings full of markup and terminal controls,
bytes that are not msgpack, oversized and truncated frames, patches before any view or naming
nothing. `HostileServer` accepts any number of connections on 127.0.0.1, reads the hello and
answers each with one case's frames, then keeps the connection open (so a client is never told
"closed" when it should have refused the frames itself).

Run as `python tests/hostile_server.py PORT CASE` it serves case CASE (a seed, or a name of
`named_case`) until killed: the tmux test's server runs in its own process like a real one.
"""

from __future__ import annotations

import asyncio
import copy
import random
import struct
import sys
from collections.abc import Iterator
from typing import Any

import msgpack

from bots import make_bot
from engine import Game, GameConfig, events_for, view
from net import protocol as P

#: Strings a hostile server puts where text goes: markup, OSC title and clipboard, C1 CSI, bidi.
HOSTILE_TEXT = (
    "[/]", "[bold red on white]X", "[@click=app.quit()]x", "\x1b]0;pwned\x07", "\x1b]52;c;cHduZWQ=\x07",
    "\x9b2J", "\u202eevil", "a\u200bb", "\x1b[2J\x1b[H", "x" * 600, "", " ", "{kind}", "{0}", "%s",
)
#: Values of every wrong type and size.
HOSTILE_VALUES: tuple[Any, ...] = (
    None, True, False, -1, 0, 63, 64, 2**40, -(2**40), 1.5, -0.0, [], {}, [[[[]]]], {"a": {"b": [1, "x"]}},
    list(range(200)), [None] * 5, [{}] * 5, *HOSTILE_TEXT,
)
NAMES = ("老王", "[/]", "Alice", "\x1b]0;pwned\x07Bob")


def frame(msg: Any) -> bytes:
    """A length-prefixed frame of any msgpack value (no schema check: this server breaks it)."""
    body = msgpack.packb(msg, use_bin_type=True)
    return struct.pack(">I", len(body)) + body


def honest_game(seed: int) -> Game:
    game = Game.new(GameConfig(players=4, identities="novice", names=("老王", "Alice", "小李", "Bob")), seed)
    bots = {s: make_bot("random", s, seed + s) for s in range(4)}
    for _ in range(40 + seed % 60):
        if game.over:
            break
        prompt = min(game.pending(), key=lambda p: game.priority_key(p.seat))
        game.choose(prompt.seat, prompt.id, bots[prompt.seat].decide(view(game, prompt.seat)))
    return game


def honest_frames(seed: int) -> dict[str, dict[str, Any]]:
    """welcome, lobby, update (with the table's annotations) and a patch, as a real server sends."""
    game = honest_game(seed)
    v = view(game, 0)
    v.update(table="t", timers={"play": 30}, clock=12.5)
    for entry in v["waiting"]:  # type: ignore[attr-defined]
        entry["deadline"] = 40.0
    if v["prompt"] is not None:
        v["prompt"]["deadline"] = 40.0  # type: ignore[index]
    for entry in v["seats"]:  # type: ignore[attr-defined]
        entry.update(online=True, bot=False)
    seats = [{"index": i, "name": name, "bot": None, "online": True, "ready": False, "host": i == 0,
              "muted": False} for i, name in enumerate(("老王", "Alice"))]
    lobby = {"name": "t", "phase": "lobby", "players": 4, "identities": "novice", "identity_options": ["novice"],
             "deck": "resolved", "decks": ["resolved"], "characters": False, "character_choices": 2,
             "password": False, "timers": {"play": 30}, "spectators_muted": False, "you": 0, "host": True,
             "seats": seats}
    return {
        "welcome": {"type": "welcome", "version": P.PROTOCOL_VERSION, "seat": 0, "token": "tok", "table": "t",
                    "host": True},
        "lobby": {"type": "lobby", "table": lobby},
        "update": {"type": "update", "view": v, "events": events_for(game, 0, 0)[-30:]},
        "patch": {"type": "patch", "changes": [[["pile"], 7]], "events": []},
        "chat": {"type": "chat", "seat": 1, "name": "Alice", "text": "hi"},
    }


def paths(node: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every path to a member of a decoded message (map keys and array indices)."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield (*prefix, key)
            yield from paths(value, (*prefix, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield (*prefix, i)
            yield from paths(value, (*prefix, i))


def mutate(msg: dict[str, Any], rng: random.Random, most: int = 4) -> dict[str, Any]:
    """`msg` with one to `most` members replaced, removed or filled with hostile text."""
    out = copy.deepcopy(msg)
    for _ in range(rng.randint(1, most)):
        every = [p for p in paths(out) if p[0] != "type"]
        if not every:
            break
        path = rng.choice(every)
        parent: Any = out
        for step in path[:-1]:
            parent = parent[step]
        last = path[-1]
        roll = rng.random()
        if roll < 0.15 and isinstance(parent, dict):
            del parent[last]
        elif roll < 0.45 and isinstance(parent[last], str):
            parent[last] = rng.choice(HOSTILE_TEXT) + parent[last]
        else:
            parent[last] = copy.deepcopy(rng.choice(HOSTILE_VALUES))
    return out


def deep(levels: int) -> Any:
    node: Any = 1
    for _ in range(levels):
        node = [node]
    return node


def raw_cases(frames: dict[str, dict[str, Any]]) -> list[list[bytes]]:
    """Byte-level breakage: not msgpack, not a map, too large, truncated, too deep, out of order."""
    welcome, update = frame(frames["welcome"]), frame(frames["update"])
    return [
        [welcome, struct.pack(">I", 9) + b"\xc1" * 9],  # never-used msgpack byte
        [welcome, frame([1, 2, 3])],  # not a map
        [welcome, struct.pack(">I", P.MAX_FRAME + 1)],  # a length over the cap
        [welcome, update[: len(update) // 2]],  # a frame cut short
        [welcome, frame({"type": "update", "view": {"a": deep(40)}, "events": []})],  # nesting over the cap
        [welcome, frame(frames["patch"])],  # a patch before any view
        [welcome, update, frame({"type": "patch", "changes": [[["nothing", 3], 1]], "events": []})],
        [welcome, update, frame({"type": "patch", "changes": [[["seats", 0, "name"], "\x1b]0;pwned\x07"]],
                                 "events": []})],
        [welcome, update, frame({"type": "patch", "changes": [[["seats"], {"0": 1}]], "events": []})],
        [frame({"type": "welcome", "version": P.PROTOCOL_VERSION, "seat": "0", "token": "t", "table": "t",
                "host": True})],  # a welcome that breaks the schema
        [welcome, frame({"type": "error", "code": "bad_message", "message": "\x1b]0;pwned\x07[/]", "ref": None})],
        [welcome, frame({"type": "chat", "seat": 1, "name": "[/]", "text": "\x1b]52;c;cHduZWQ=\x07[@click=app.quit()]"})],
        [welcome, frame({"type": "bye", "reason": "[/]" * 60})],
        [welcome, frame({"type": "newer_kind", "x": 1}), update],  # a newer server's message
    ]


def cases(seed: int) -> list[bytes]:
    """Case `seed`: the first ones are the byte-level cases, then seeded schema-level mutations of
    a lobby and an update (a welcome first, which may itself be mutated)."""
    frames = honest_frames(seed)
    raw = raw_cases(frames)
    if seed < len(raw):
        return raw[seed]
    rng = random.Random(seed)
    welcome = mutate(frames["welcome"], rng) if rng.random() < 0.1 else frames["welcome"]
    sequence = [frame(welcome)]
    for kind in rng.sample(["lobby", "update", "chat", "update"], k=rng.randint(1, 3)):
        sequence.append(frame(mutate(frames[kind], rng) if rng.random() < 0.8 else frames[kind]))
    if rng.random() < 0.3:
        sequence.append(frame(mutate(frames["patch"], rng)))
    return sequence


def named_case(name: str) -> list[bytes]:
    """`osc`: seat names and chat holding OSC 0 (title), OSC 52 (clipboard) and CSI sequences;
    `markup`: seat names and chat of printable markup only (within the schema)."""
    frames = honest_frames(5)
    update = copy.deepcopy(frames["update"])
    seats = update["view"]["seats"]
    if name == "osc":
        seats[1]["name"] = "\x1b]0;pwned\x07Mallory"
        seats[2]["name"] = "\x1b]52;c;cHduZWQ=\x07\x9b2J"
        chat = {"type": "chat", "seat": 1, "name": "\x1b]0;pwned\x07", "text": "\x1b]52;c;cHduZWQ=\x07hi"}
    else:
        seats[1]["name"] = "[/]"
        seats[2]["name"] = "[red on white]X"
        chat = {"type": "chat", "seat": 1, "name": "[/]", "text": "[@click=app.quit()]click[/]"}
    return [frame(frames["welcome"]), frame(update), frame(chat)]


class HostileServer:
    """Serves `case` to every connection on 127.0.0.1: reads the hello, sends the case's frames."""

    def __init__(self, case: list[bytes], hang_up: bool = False) -> None:
        self.case = case
        #: Close each connection once its frames are sent (a client must then end by itself).
        self.hang_up = hang_up
        self.server: asyncio.Server | None = None
        self.hellos = 0

    @property
    def port(self) -> int:
        assert self.server is not None
        port: int = self.server.sockets[0].getsockname()[1]
        return port

    async def start(self, port: int = 0) -> HostileServer:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", port)
        return self

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            (length,) = struct.unpack(">I", await reader.readexactly(4))
            await reader.readexactly(min(length, P.MAX_FRAME))
            self.hellos += 1
            for data in self.case:
                writer.write(data)
            await writer.drain()
            while not self.hang_up and await reader.read(4096):  # pings: unanswered, the client must not care
                pass
        except (OSError, asyncio.IncompleteReadError):
            pass
        finally:
            writer.close()


async def _main(port: int, case: str) -> None:
    server = await HostileServer(cases(int(case)) if case.isdigit() else named_case(case)).start(port)
    print("READY", server.port, flush=True)
    await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(_main(int(sys.argv[1]), sys.argv[2]))
