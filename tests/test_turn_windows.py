"""Turn-start and turn-end response windows (RULES.md §4 turn table; issue 11 item 2).

Who is asked is decided by public facts only: with nothing on the stack, a hand counts only when a
card without printed timing (烧毁) has a target, a face-up character only with a skill of that
moment, a face-down one always (it might hide one). On the server these windows have their own,
shorter timer (`turn_window`).
"""

from __future__ import annotations

import asyncio

from engine import Game, GameConfig
from engine import prompts as P
from engine.cards import build_deck
from engine.game import Setup
from engine.scenario import CardSpec
from engine.view import view
from net import protocol as P_net
from net.client import Client
from net.server import GameServer
from net.table import EXTRA_TIMERS, TURN_WINDOW, Table

CONFIG = GameConfig(players=4, identities="novice")


def _cards(*names: str) -> list[int]:
    deck, taken, found = build_deck(CONFIG.deck), set(), []
    for name in names:
        spec = CardSpec.parse(name)
        card = next(c.id for c in deck if c.id not in taken and spec.matches(c))
        taken.add(card)
        found.append(card)
    return found


def _game(messages: list[list[int]], hands: list[list[int]]) -> Game:
    setup = Setup(["military", "latent", "military", "latent"], hands, messages=messages)
    return Game.new(CONFIG, 0, setup)


def test_no_turn_window_when_nothing_could_be_used_then() -> None:
    burn, red = _cards("烧毁/red", "破译/red")
    game = _game([[], [], [], []], [[red], [burn], [], []])
    assert set(game.prompts) == {0} and game.prompts[0].kind == P.PLAY_PHASE
    assert [e.kind for e in game.events[-3:]][-2:] == ["turn_start", "drew"]


def test_turn_start_asks_every_seat_holding_cards_once_a_black_message_lies_on_the_table() -> None:
    burn, red, blue, black = _cards("烧毁/red", "破译/red", "破译/blue", "截获/black")
    game = _game([[], [], [black], []], [[red], [burn], [blue], []])
    w = game.state.window
    assert w is not None and w.step == "turn_start"
    assert w.eligible == [0, 1, 2]  # 顺位 from the current player; seat 3 holds nothing
    assert game.state.seats[0].hand == [red]  # the draw comes after the window
    for seat in (0, 1, 2):
        v = view(game, seat)
        assert v["phase"] == "turn_start" and [x["seat"] for x in v["waiting"]] == [0, 1, 2]
    burns = [o for o in game.prompts[1].options if o.verb == "play"]
    assert [(o.card, o.target_seat, o.target_card) for o in burns] == [(burn, 2, black)]
    assert [o.id for o in game.prompts[0].options] == [P.PASS.id]  # a hand without 烧毁: pass only
    for seat in (2, 0):  # a pass is told to no one: the others still see every seat waited for
        game.choose(seat, game.prompts[seat].id, P.PASS.id)
        assert [x["seat"] for x in view(game, 3)["waiting"]] == [0, 1, 2]
    game.choose(1, game.prompts[1].id, P.PASS.id)
    assert set(game.prompts) == {0} and game.prompts[0].kind == P.PLAY_PHASE
    assert len(game.state.seats[0].hand) == 3


def test_turn_end_window_opens_after_the_message_is_received_and_before_the_next_turn() -> None:
    burn, red, blue, black = _cards("烧毁/red", "破译/red", "破译/blue", "截获/black")
    game = _game([[], [], [black], []], [[red], [burn], [blue], []])
    while game.state.window is not None and game.state.window.step == "turn_start":
        for prompt in list(game.prompts.values()):
            game.choose(prompt.seat, prompt.id, P.PASS.id)
    game.choose(0, game.prompts[0].id, P.END_PLAY.id)
    game.choose(0, game.prompts[0].id, P.option("send", red).id)
    while 1 not in game.prompts or game.prompts[1].kind != P.RECEIVE_DECISION:
        for prompt in list(game.prompts.values()):
            game.choose(prompt.seat, prompt.id, prompt.default)
    game.choose(1, game.prompts[1].id, P.ACCEPT.id)
    w = game.state.window
    assert w is not None and w.step == "turn_end" and game.state.current == 0
    assert w.eligible[0] == 0 or 0 not in w.eligible  # 顺位 starts with the current player
    assert game.events[-1].kind != "turn_start"


def test_a_face_down_character_is_asked_at_turn_start_a_face_up_one_without_such_a_skill_is_not() -> None:
    config = GameConfig(players=4, identities="default", characters=True)
    setup = Setup(["neutral", "latent", "military", "neutral"], [[], [], [], []], first=0,
                  characters=["xiaomage", "laogui", "xiaomage", "xiaomage"], face_up=[True, False, True, True])
    game = Game.new(config, 0, setup)
    w = game.state.window
    assert w is not None and w.step == "turn_start" and w.eligible == [1]


async def test_turn_window_prompts_get_the_shorter_turn_window_timer() -> None:
    """Over loopback: a seat asked at turn start or turn end sees the turn-window timer (5 s), not
    the response timer, on its prompt's deadline."""
    table = Table("t", players=4, characters=True, bot_delay=0.0, auto_start=True, seed=5,
                  timers={"response": 30.0})
    for _ in range(3):
        table.add_bot()
    server = GameServer("127.0.0.1", 0)
    server.add_table(table)
    await server.start()
    client = Client()
    try:
        await client.connect("127.0.0.1", server.port, "human")
        seen: set[str] = set()
        async with asyncio.timeout(30):
            while len(seen) < 2:
                msg = await client.recv()
                assert msg is not None
                if msg["type"] != "update":
                    continue
                assert not msg["view"]["over"], "the game ended before both turn windows asked this seat"
                v = msg["view"]
                prompt = v["prompt"]
                if prompt is None:
                    continue
                left = P_net.time_left(v, prompt)
                if prompt["kind"] == "response" and v["phase"] in ("turn_start", "turn_end"):
                    assert EXTRA_TIMERS[TURN_WINDOW] - 1 < left <= EXTRA_TIMERS[TURN_WINDOW]
                    seen.add(v["phase"])
                elif prompt["kind"] == "response":
                    assert left > 20
                await client.choose(prompt["id"], prompt["default"])
    finally:
        await client.close()
        await server.close()
