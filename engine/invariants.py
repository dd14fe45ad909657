"""Properties every reachable state must have; random play checks them after every step.

Pure: reads the game, changes nothing. Each violation is a sentence naming what is wrong, so a
failing fuzz run says which rule of the engine broke, not just that something did.
"""

from __future__ import annotations

from collections import Counter
from functools import cache

from . import prompts as P
from .cards import BLACK
from .config import FACTION_COLOUR
from .game import Game
from .prompts import Prompt
from .state import CHARACTER_PICK, GAME_OVER, PLAY, RECEIVE, SEND, WINDOW


def check(game: Game) -> list[str]:
    """Every violated invariant of the game's current state (empty when all hold)."""
    return [*_conservation(game), *_out_holds_nothing(game), *_progress(game), *_winners(game)]


def _out_holds_nothing(game: Game) -> list[str]:
    """RULES.md §8.1/§8.2: a seat that died or lost discarded every game card and gets none again."""
    return [f"seat {p.index}, out of the game, holds {len(p.hand)} hand card(s) and {len(p.messages)} message(s)"
            for p in game.state.seats if not p.in_game and (p.hand or p.messages)]


def card_locations(game: Game) -> list[int]:
    """Every card id somewhere in the game: pile, discard, hands, messages, in transit, stack, resolving,
    removed."""
    s = game.state
    cards = [*s.pile, *s.discard, *s.removed, *(c for pile in s.table.values() for c in pile)]
    for p in s.seats:
        cards.extend(p.hand)
        cards.extend(p.messages)
    if s.message is not None:
        cards.append(s.message.card)
    cards.extend(item.card for item in s.stack if item.card >= 0)  # a skill on the stack has no card
    cards.extend(item.card for item in s.resolving if item.card >= 0)  # on the table while it resolves
    return cards


def _conservation(game: Game) -> list[str]:
    cards = card_locations(game)
    if game.state.node == CHARACTER_PICK:  # the deck is shuffled and dealt once every seat has picked
        return [] if not cards else [f"cards {sorted(cards)} are dealt before the character pick ends"]
    deck = range(len(game.deck))
    if len(cards) == len(deck) and set(cards) == _all_cards(len(deck)):  # each card exactly once
        return []
    counts = Counter(cards)
    problems = [f"card {c} is in {n} places" for c, n in sorted(counts.items()) if n > 1]
    missing = [c for c in deck if c not in counts]
    if missing:
        problems.append(f"cards missing from the game: {missing}")
    strangers = sorted(c for c in counts if c not in deck)
    if strangers:
        problems.append(f"unknown card ids: {strangers}")
    return problems


@cache
def _all_cards(n: int) -> frozenset[int]:
    return frozenset(range(n))


# Prompts already found well-formed, for the game checked last: a prompt never changes, and a
# window's prompts stay open for many steps, so each is checked once (the memo is not part of the
# game; checking another game starts a new one). Not a weak dictionary of games: a game compiled by
# mypyc (bench/compiled.py) takes no weak reference.
_sound_prompts: tuple[Game | None, dict[int, Prompt]] = (None, {})


def _progress(game: Game) -> list[str]:
    """No soft-lock: the game is over, or the node waits on exactly the prompts it should."""
    s = game.state
    prompts = game.prompts
    problems = []
    global _sound_prompts
    if _sound_prompts[0] is not game:
        _sound_prompts = (game, {})
    sound = _sound_prompts[1]
    for seat, prompt in prompts.items():
        if prompt.seat != seat:
            problems.append(f"prompt {prompt.id} is filed under seat {seat} but asks seat {prompt.seat}")
        if not s.seats[seat].in_game:
            problems.append(f"seat {seat} is out of the game but prompted")
        if sound.get(prompt.id) is prompt:
            continue
        options = prompt.options
        ids = {o.id for o in options}
        if not options:
            problems.append(f"prompt {prompt.id} of seat {prompt.seat} has no options")
        if prompt.default not in ids:
            problems.append(f"prompt {prompt.id} of seat {prompt.seat}: default {prompt.default!r} is not an option")
        if len(ids) != len(options):
            problems.append(f"prompt {prompt.id} of seat {prompt.seat} repeats an option id")
        if options and len(ids) == len(options) and prompt.default in ids:
            sound[prompt.id] = prompt
    if s.node == GAME_OVER:
        if prompts:
            problems.append(f"the game is over but seats {sorted(prompts)} are prompted")
        return problems
    if not prompts:
        problems.append(f"stuck: node {s.node!r} with no open prompt")
        return problems
    expected = _expected_prompts(game)
    if expected is not None:
        kind, seats = expected
        if set(prompts) != seats:
            problems.append(f"node {s.node!r} should prompt seats {sorted(seats)}, prompts {sorted(prompts)}")
        wrong = sorted(seat for seat, p in prompts.items() if p.kind != kind)
        if wrong:
            problems.append(f"node {s.node!r} should ask {kind!r}; seats {wrong} are asked something else")
    return problems


def _expected_prompts(game: Game) -> tuple[str, set[int]] | None:
    s = game.state
    if s.asking is not None:
        return s.asking.data["prompt_kind"], {s.asking.seat} if s.asking.seat is not None else set()
    if s.node == PLAY:
        return P.PLAY_PHASE, {s.current}
    if s.node == SEND:
        return P.SEND_MESSAGE, {s.current}
    if s.node == RECEIVE:
        return P.RECEIVE_DECISION, set() if s.message is None else {s.message.position}
    if s.node == WINDOW:
        w = s.window
        return P.RESPONSE, set() if w is None else {x for x in w.eligible if x not in w.passed and x not in w.answers}
    return None  # another waiting node (a character pick, a skill's offer): any open prompt will do


_SETTLING = frozenset({"check_end", "death", "finish"})  # steps that settle deaths and victory


def _winners(game: Game) -> list[str]:
    s = game.state
    if s.node != GAME_OVER:
        problems = []
        if s.winners or s.declarer is not None or s.win_reason is not None:
            problems.append("winners are set while the game goes on")
        settling = s.declaring is not None or any(st.kind in _SETTLING for st in s.agenda)
        if settling:
            return problems
        for p in s.seats:
            if len(p.messages) < 3 or not p.in_game:
                continue
            if game.colour_count(p.index, BLACK) >= 3:
                problems.append(f"seat {p.index} holds 3 black messages and is still in the game")
            colour = FACTION_COLOUR.get(p.identity)
            if colour is not None and game.colour_count(p.index, colour) >= 3:
                problems.append(f"seat {p.index} holds 3 {colour} messages but has not declared victory")
        if len(game.in_game()) <= 1:
            problems.append(f"only seats {game.in_game()} are in the game but it goes on")
        return problems
    in_game = game.in_game()
    extra = _announced_co_winners(game)
    if s.win_reason == "faction":
        d = s.declarer
        if d is None:
            return ["a faction win without a declarer"]
        declarer = s.seats[d]
        colour = FACTION_COLOUR.get(declarer.identity)
        problems = []
        if not declarer.in_game:
            problems.append(f"declarer {d} is out of the game")
        if colour is None or game.colour_count(d, colour) < 3:
            problems.append(f"declarer {d} ({declarer.identity}) does not hold 3 messages of his faction's colour")
        faction = {p.index for p in s.seats if p.identity == declarer.identity
                   and (p.in_game or s.config.dead_share_win)}
        if not faction <= set(s.winners) <= faction | extra:
            problems.append(f"winners {s.winners} are not the {declarer.identity} faction {sorted(faction)}"
                            + (f" and announced co-winners {sorted(extra)}" if extra else ""))
        return problems
    if s.win_reason == "last_standing":
        if len(in_game) != 1 or s.declarer != in_game[0] or not set(in_game) <= set(s.winners) <= {*in_game, *extra}:
            return [f"last standing win with seats {in_game} in the game, winners {s.winners}"]
        return []
    if s.win_reason == "secret_task":
        d = s.declarer
        if d is None or s.seats[d].identity != "neutral" or d not in s.winners:
            return [f"a secret-task win by {d}, who is not a winning neutral (winners {s.winners})"]
        if not set(s.winners) <= {d, *extra}:
            return [f"secret-task win by {d}: winners {s.winners} include seats nobody announced"]
        if not any(e.kind == "task_completed" and e.data.get("seat") == d for e in game.events):
            return [f"secret-task win by {d} with no task_completed event"]
        return []
    if s.win_reason == "nobody_left":
        if in_game or s.winners:
            return [f"nobody-left ending with seats {in_game} in the game, winners {s.winners}"]
        return []
    return [f"the game is over for an unknown reason {s.win_reason!r}"]


def _announced_co_winners(game: Game) -> set[int]:
    """Seats that win beside the declarer's side: only a skill (柒佰 风度) or a secret task judged at
    the declaration (大美女, 礼服蒙面人) makes one, and each is announced in the log."""
    if not game.state.config.characters:
        return set()
    return {int(e.data["seat"]) for e in game.events  # type: ignore[call-overload]
            if e.kind in ("co_winner", "task_completed")}
