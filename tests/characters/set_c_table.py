"""A small table for the character unit tests of set C: deal named cards, answer prompts by content."""

from __future__ import annotations

from collections.abc import Sequence

from set_b_table import pass_rest

from engine import prompts as P
from engine.cards import build_deck
from engine.config import identity_options
from engine.game import Game, GameConfig, Setup
from engine.scenario import pass_turn_windows

DECK = build_deck()


def card(function: str, colour: str, used: set[int]) -> int:
    """A card id of this function and colour not yet dealt on this table."""
    for c in DECK:
        if c.id not in used and c.function == function and c.colour == colour:
            used.add(c.id)
            return c.id
    raise LookupError((function, colour))


def deal(characters: Sequence[str], identities: Sequence[str], hands: Sequence[Sequence[int]],
         messages: Sequence[Sequence[int]] = (), pile: Sequence[int] = (), first: int = 0) -> Game:
    counts = tuple(sum(1 for i in identities if i == x) for x in ("military", "latent", "neutral"))
    name = next(k for k, v in identity_options(len(identities)).items() if v == counts)
    config = GameConfig(players=len(identities), identities=name, characters=True)
    setup = Setup(list(identities), [list(h) for h in hands], list(pile), first,
                  [list(m) for m in messages], characters=list(characters))
    game = Game.new(config, 0, setup)
    pass_turn_windows(game)  # as in the scenarios: turn windows pass unless a test answers them
    return game


def choose(game: Game, seat: int, verb: str, **fields: object) -> None:
    """Choose the first option of `seat`'s prompt with this verb and these fields."""
    prompt = game.prompts[seat]
    found = [o for o in prompt.options if o.verb == verb and all(getattr(o, k) == v for k, v in fields.items())]
    assert found, f"seat {seat} has no {verb} {fields}: {prompt}"
    window = game.state.window if prompt.kind == P.RESPONSE and verb != "pass" else None
    game.choose(seat, prompt.id, found[0].id)
    pass_rest(game, window)
    pass_turn_windows(game)


