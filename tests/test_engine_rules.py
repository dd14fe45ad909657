"""Rules no scenario can reach without characters, checked by changing the state directly."""

from __future__ import annotations

from engine import Game
from engine.scenario import build_game
from engine.state import WINDOW

BASE = {
    "identities": ["潜伏战线", "军情处", "潜伏战线", "军情处"],
    "pile": ["截获/red", "截获/blue"],
    "hands": [["破译/red"], ["识破/red"], ["识破/blue"], ["识破/black"]],
}


def pass_window(game: Game) -> None:
    for prompt in list(game.prompts.values()):
        if game.prompts.get(prompt.seat) is prompt:
            game.choose(prompt.seat, prompt.id, "pass")


def sending_game() -> Game:
    """Seat 0 has sent a 密电 and the transmit window toward seat 1 is open."""
    game = build_game(BASE)
    game.choose(0, game.prompts[0].id, "end")
    send = next(o for o in game.prompts[0].options if o.verb == "send")
    game.choose(0, game.prompts[0].id, send.id)
    assert game.state.node == WINDOW and game.state.message is not None
    return game


def test_sender_dying_mid_transmission_discards_the_message() -> None:
    """RULES.md §5.2: nobody received it yet, so it goes to the discard pile, forced on nobody."""
    game = sending_game()
    assert game.state.message is not None
    card = game.state.message.card
    game.state.seats[0].alive = False  # what a character's skill could do in the transmit window
    pass_window(game)
    assert game.state.message is None
    assert card in game.state.discard
    assert all(card not in seat.messages for seat in game.state.seats)
    assert any(e.kind == "message_discarded" and e.data["seat"] == 0 for e in game.events)
    assert not any(e.kind in ("arrived", "received") for e in game.events)
    assert game.state.current == 1 and 1 in game.prompts


def test_sender_dying_while_the_message_is_at_a_holder() -> None:
    """Also in the arrive window: the holder gets no receive decision."""
    game = sending_game()
    pass_window(game)
    assert game.state.message is not None and game.state.message.position == 1
    game.state.seats[0].alive = False
    pass_window(game)
    assert game.state.message is None
    assert not any(e.kind == "received" for e in game.events)
    assert game.prompts[1].kind == "play"


def test_message_still_travels_while_the_sender_lives() -> None:
    """The control case: the same passes bring the message to seat 1's receive decision."""
    game = sending_game()
    pass_window(game)
    pass_window(game)
    assert game.prompts[1].kind == "receive"
