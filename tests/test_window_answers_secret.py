"""Who has already passed in an open response window is each seat's own secret (the waiting list
keeps every asked seat until the window closes, engine.view). A seat that sends a choice for
another seat's prompt id must not learn it from the refusal: the answer is the same whether that
seat has answered yet or not (before, an answered prompt was `stale_prompt` and an open one
`not_your_seat ... belongs to seat N`). Real TCP, four human seats."""

from __future__ import annotations

import asyncio
from typing import Any

from net import protocol as P
from net.client import Client
from net.server import GameServer
from net.table import Table

LONG = {"play": 60.0, "send": 60.0, "response": 60.0, "receive": 60.0, "probe_discard": 60.0, "skill": 60.0}


async def refusal(client: Client, prompt_id: int) -> dict[str, Any]:
    await client.choose(prompt_id, "pass")
    async with asyncio.timeout(5):
        while (msg := await client.recv()) is not None:
            if msg["type"] == "error" and msg["ref"] == prompt_id:
                return msg
    raise AssertionError("no answer to the probe")


def drain(client: Client) -> None:
    while not client._queue.empty():
        client._queue.get_nowait()


async def settle() -> None:
    await asyncio.sleep(0.05)


async def test_a_probe_of_another_seats_prompt_does_not_tell_whether_it_has_answered() -> None:
    table = Table("t", players=4, timers=LONG, seed=3, auto_start=True)
    server = GameServer("127.0.0.1", 0)
    server.add_table(table)
    await server.start()
    clients = [Client() for _ in range(4)]
    try:
        for i, client in enumerate(clients):
            await client.connect("127.0.0.1", server.port, f"player{i}")
        probes = 0
        for _ in range(400):
            await settle()
            for client in clients:
                drain(client)
            view = clients[0].view
            assert view is not None
            if view["over"]:
                break
            waiting = view["waiting"]
            asked = [w for w in waiting if w["kind"] == "response"]
            if len(asked) >= 3 and len(asked) == len(waiting):
                # A window asks three seats or more: one (b) answers, then another (a) probes the
                # prompt ids of b (answered) and of c (still deciding).
                a, b, c = (clients[w["seat"]] for w in asked[:3])
                b_id, c_id = asked[1]["prompt_id"], asked[2]["prompt_id"]
                assert b.view is not None and b.view["prompt"]["id"] == b_id
                await b.choose(b_id, b.view["prompt"]["default"])
                await settle()
                answered, deciding = await refusal(a, b_id), await refusal(a, c_id)
                assert answered["code"] == deciding["code"] == P.NOT_YOUR_SEAT
                assert answered["message"].replace(str(b_id), "N").replace(f"seat {asked[1]['seat']}", "seat S") \
                    == deciding["message"].replace(str(c_id), "N").replace(f"seat {asked[2]['seat']}", "seat S")
                probes += 1
                if probes == 3:
                    break
            for client in clients:
                prompt = client.view["prompt"] if client.view is not None else None
                if prompt is not None:
                    await client.choose(prompt["id"], prompt["default"])
        assert probes > 0, "no window asked three seats in this game"
    finally:
        for client in clients:
            await client.close()
        await server.close()
