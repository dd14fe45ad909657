"""Characters through the server over real TCP: the host's lobby options, a whole 5-player game with a
real client that picks its character and answers skill prompts, and `fengsheng host`'s options."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import Callable
from typing import Any

from test_server import until

from bots import make_bot
from net import protocol as P
from net.client import Client
from net.server import GameServer
from net.table import Table

LONG = {"play": 60.0, "send": 60.0, "response": 60.0, "receive": 60.0, "probe_discard": 60.0,
        "character_pick": 60.0, "skill": 60.0}


async def started(table: Table) -> GameServer:
    server = GameServer("127.0.0.1", 0, rate=5000.0, burst=5000)
    server.add_table(table)
    await server.start()
    return server


def lobby_where(**fields: Any) -> Callable[[dict[str, Any]], bool]:
    return lambda m: m["type"] == "lobby" and all(m["table"][k] == v for k, v in fields.items())


def is_error(msg: dict[str, Any]) -> bool:
    return msg["type"] == "error"


async def test_host_turns_characters_on_and_off_and_picks_any_line_up() -> None:
    table = Table("t", players=4, timers=LONG, bot_delay=0)
    server = await started(table)
    try:
        host = Client()
        await host.connect("127.0.0.1", server.port, "host", token=table.host_token)
        await until(host, lobby_where(characters=False, identities="novice", identity_options=["novice"],
                                      character_choices=3))

        # Without characters a neutral cannot win: such line-ups and player counts are refused, and say why.
        await host.op("set_identities", identities="default")
        err = await until(host, is_error)
        assert err["code"] == P.BAD_STATE and "neutral" in err["message"] and "characters on" in err["message"]
        await host.op("set_players", players=5)
        err = await until(host, is_error)
        assert err["code"] == P.BAD_STATE and "turn characters on" in err["message"]

        await host.op("set_characters", on=True)
        await until(host, lobby_where(characters=True, identities="novice", identity_options=["default", "novice"]))
        await host.op("set_identities", identities="default")
        await until(host, lobby_where(identities="default"))
        await host.op("set_identities", identities="3v3")
        err = await until(host, is_error)
        assert err["code"] == P.BAD_STATE and "3v3" in err["message"]

        await host.op("set_character_choices", choices=2)
        await until(host, lobby_where(character_choices=2))
        await host.op("set_character_choices", choices=4)
        err = await until(host, is_error)
        assert err["code"] == P.BAD_STATE and "2 or 3" in err["message"]
        await host.op("set_character_choices", choices="3")
        assert (await until(host, is_error))["code"] == P.BAD_MESSAGE

        # Off again: the line-up falls back to the one without neutrals.
        await host.op("set_characters", characters=False)
        await until(host, lobby_where(characters=False, identities="novice", identity_options=["novice"]))

        # Five players have no line-up without a neutral: characters cannot be switched off there.
        await host.op("set_characters", on=True)
        await host.op("set_players", players=5)
        await until(host, lobby_where(players=5, identities="default", characters=True))
        await host.op("set_characters", on=False)
        err = await until(host, is_error)
        assert err["code"] == P.BAD_STATE and "5-player" in err["message"]
        assert table.characters is True and table.identities == "default"

        # The options reach the game: 2 characters to pick from, identities 2/2/1.
        await host.op("start")
        first = await until(host, lambda m: m["type"] == "update")
        view = first["view"]
        assert view["config"]["characters"] is True and view["config"]["identities"] == "default"
        assert view["phase"] == "character_pick" and len(view["character_choices"]) == 2
        assert view["prompt"]["kind"] == "character_pick"
        assert table.game is not None and table.game.state.config.character_choices == 2
        await host.op("set_characters", on=False)
        assert (await until(host, is_error))["code"] == P.BAD_STATE  # not during a game
        await host.close()
    finally:
        await server.close()


async def test_five_players_with_characters_play_to_the_end_with_one_real_client() -> None:
    """Four table bots (deciding from their seat's view) and one client over TCP that picks the
    last character it is offered (never the default) and takes every skill it is asked about."""
    table = Table("t", players=5, characters=True, timers=LONG, bot_delay=0, auto_start=True, seed=2)
    for _ in range(4):
        table.add_bot("random")
    server = await started(table)
    try:
        me = Client()
        await me.connect("127.0.0.1", server.port, "me")
        assert me.seat == 4
        bot = make_bot("random", 4, 9)
        picked: str | None = None
        skills_answered = 0
        answered: set[int] = set()
        final: dict[str, Any] | None = None
        async with asyncio.timeout(60):
            async for msg in me:
                if msg["type"] == "error":
                    raise AssertionError(f"refused: {msg}")
                if msg["type"] != "update":
                    continue
                view = msg["view"]
                bot.observe(msg["events"])
                if view["over"]:
                    final = view
                    break
                prompt = view["prompt"]
                if prompt is None or prompt["id"] in answered:
                    continue
                answered.add(prompt["id"])
                if prompt["kind"] == "character_pick":
                    choices = view["character_choices"]
                    assert len(choices) == 3 and [o["id"] for o in prompt["options"]] == [f"pick:{c}" for c in choices]
                    picked = choices[-1]
                    option = f"pick:{picked}"
                elif prompt["kind"] == "skill":
                    skills_answered += 1
                    others = [o["id"] for o in prompt["options"] if o["id"] != prompt["default"]]
                    option = others[0] if others else prompt["default"]
                else:
                    option = bot.decide(view)
                await me.choose(prompt["id"], option)
        assert final is not None, "the game did not end"
        game = table.game
        assert game is not None and game.over
        assert picked is not None and game.state.seats[4].character == picked
        assert final["seats"][4]["character"]["id"] == picked
        assert skills_answered >= 1, "the real client was never asked about a skill"
        assert all(seat.character for seat in game.state.seats), "every bot picked a character"
        assert final["winners"] == list(game.state.winners)
        assert table.timeouts == 0, "nobody waited for a deadline: the bots answered every prompt kind"
        await me.close()
    finally:
        await server.close()


async def _host_process(*args: str) -> tuple[asyncio.subprocess.Process, int | None, str]:
    """Run `fengsheng host ARGS`; (process, port once listening or None if it exited, output so far)."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "fengsheng_tui.cli", "host", "--port", "0", "--no-advertise", *args,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert proc.stdout is not None
    output = ""
    async with asyncio.timeout(20):
        while line := (await proc.stdout.readline()).decode():
            output += line
            if " on port " in line:
                return proc, int(line.split(" on port ")[1].split(":")[0]), output
    await proc.wait()
    return proc, None, output


async def test_host_command_options_for_characters(tmp_path: Any) -> None:
    proc, port, output = await _host_process("--players", "5", "--character-choices", "2", "--data-dir",
                                             str(tmp_path))
    try:
        assert port is not None, output
        assert "5 players, identities default (2/2/1), characters (2 to pick from)" in output
        client = Client()
        await client.connect("127.0.0.1", port, "p")
        await until(client, lobby_where(players=5, characters=True, character_choices=2, identities="default"))
        await client.close()
    finally:
        proc.terminate()
        await proc.wait()

    proc, port, output = await _host_process("--identities", "default", "--characters", "--data-dir",
                                             str(tmp_path))
    try:
        assert port is not None and "4 players, identities default (1/1/2), characters (3 to pick from)" in output
    finally:
        proc.terminate()
        await proc.wait()

    proc, port, output = await _host_process("--players", "5", "--no-characters")
    assert port is None and proc.returncode == 2  # a table the rules do not allow is a bad flag
    assert "neutral" in output and "Traceback" not in output
