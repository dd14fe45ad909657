"""A small table for the character unit tests of set B: deal named cards, answer prompts by content."""

from __future__ import annotations

from collections.abc import Sequence

from engine import prompts as P
from engine.cards import build_deck
from engine.config import identity_options
from engine.game import Game, GameConfig, Setup
from engine.scenario import pass_turn_windows

DECK = build_deck()
WORDS = {"military": "military", "latent": "latent", "neutral": "neutral"}


class Cards:
    """Hands out distinct card ids by (function, colour, method); each id once per table."""

    def __init__(self) -> None:
        self.used: set[int] = set()

    def __call__(self, function: str | None = None, colour: str | None = None, method: str | None = None) -> int:
        for c in DECK:
            if c.id in self.used or (function and c.function != function) or (colour and c.colour != colour) \
                    or (method and c.method != method):
                continue
            self.used.add(c.id)
            return c.id
        raise LookupError((function, colour, method))


def deal(characters: Sequence[str], identities: Sequence[str], hands: Sequence[Sequence[int]],
         messages: Sequence[Sequence[int]] = (), pile: Sequence[int] = (), first: int = 0,
         face_up: Sequence[bool] = (), seed: int = 0) -> Game:
    counts = tuple(sum(1 for i in identities if i == x) for x in ("military", "latent", "neutral"))
    config_name = next(k for k, v in identity_options(len(identities)).items() if v == counts)
    config = GameConfig(players=len(identities), identities=config_name, characters=True)
    setup = Setup(list(identities), [list(h) for h in hands], list(pile), first,
                  [list(m) for m in messages], characters=list(characters), face_up=list(face_up))
    game = Game.new(config, seed, setup)
    pass_turn_windows(game)  # as in the scenarios: turn windows pass unless a test answers them
    return game


def options(game: Game, seat: int, verb: str | None = None, **fields: object) -> list[P.Option]:
    prompt = game.prompts.get(seat)
    if prompt is None:
        return []
    return [o for o in prompt.options if (verb is None or o.verb == verb)
            and all(getattr(o, k) == v for k, v in fields.items())]


def choose(game: Game, seat: int, verb: str, **fields: object) -> None:
    """Choose the one option of `seat`'s prompt with this verb and fields (the first if several)."""
    found = options(game, seat, verb, **fields)
    assert found, f"seat {seat} has no {verb} {fields}: {game.prompts.get(seat)}"
    window = game.state.window if game.prompts[seat].kind == P.RESPONSE and verb != "pass" else None
    game.choose(seat, game.prompts[seat].id, found[0].id)
    pass_rest(game, window)
    pass_turn_windows(game)


def pass_rest(game: Game, window: object) -> None:
    """The seats of `window` that have not answered pass: an answer given alone is then applied as by
    one-at-a-time polling in 顺位 (the engine settles a window once every asked seat has answered)."""
    if window is None or game.state.window is not window or game.state.asking is not None:
        return
    for prompt in sorted(game.prompts.values(), key=lambda p: game.priority_key(p.seat)):
        if prompt.kind == P.RESPONSE:
            game.choose(prompt.seat, prompt.id, P.PASS.id)


def pass_windows(game: Game) -> None:
    """Every open response window is passed by everyone until something else is asked."""
    while True:
        open_now = sorted((p for p in game.prompts.values() if p.kind == P.RESPONSE),
                          key=lambda p: game.priority_key(p.seat))
        if not open_now:
            return
        for prompt in open_now:
            if game.prompts.get(prompt.seat) is prompt:
                game.choose(prompt.seat, prompt.id, P.PASS.id)
        pass_turn_windows(game)


def kinds(game: Game, since: int = 0) -> list[str]:
    return [e.kind for e in game.events[since:]]


def events(game: Game, kind: str) -> list[dict[str, object]]:
    return [{**e.data, **e.secret} for e in game.events if e.kind == kind]
