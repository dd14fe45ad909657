"""Bots decide from a seat's view only, never pick an illegal option, and the levels are ordered."""

from __future__ import annotations

import ast
import copy
import random
from pathlib import Path

import pytest

from bots import LEVELS, make_bot
from bots.beliefs import Beliefs
from engine import Game, GameConfig, IllegalOption, events_for, view
from engine.characters import roster

BOTS = Path(__file__).resolve().parent.parent / "bots"
FORBIDDEN_MODULES = ("engine.game", "engine.state", "engine.functions", "engine.view", "engine.selfplay")
FORBIDDEN_NAMES = {"game", "state", "functions", "view", "selfplay", "Game", "Setup", "events_for"}


def imports_of(path: Path) -> list[str]:
    """Every module (and `module.name` for from-imports) a source file imports."""
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.extend(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append(node.module)
            found.extend(f"{node.module}.{a.name}" for a in node.names)
    return found


def test_bot_modules_cannot_reach_the_game_state() -> None:
    modules = sorted(BOTS.glob("*.py"))
    assert {p.stem for p in modules} >= {"__init__", "beliefs", "basic", "normal", "random_bot"}
    for path in modules:
        for name in imports_of(path):
            assert not name.startswith(FORBIDDEN_MODULES), f"{path.name} imports {name}"
            head, _, last = name.rpartition(".")
            assert not (head == "engine" and last in FORBIDDEN_NAMES), f"{path.name} imports {name}"


def test_the_import_check_catches_a_forbidden_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("from engine import Game\nimport engine.state\n", encoding="utf-8")
    assert imports_of(bad) == ["engine", "engine.Game", "engine.state"]


def test_levels_are_registered() -> None:
    assert list(LEVELS) == ["random", "basic", "normal", "hard"]
    for level in LEVELS:
        assert make_bot(level, 2, 7).level == level
    with pytest.raises(ValueError):
        make_bot("cheater", 0, 0)


# ---------------------------------------------------------------------- driving games


def drive(config: GameConfig, seed: int, levels: list[str], on_decision=None, on_choice=None, make=None) -> Game:
    """Play one game; each seat's bot sees its projected events and its view, nothing else.

    The engine raises IllegalOption (and the test fails) if a bot ever picks an option it was not offered.
    A prompt with a single option is answered without asking (no bot can get it wrong, and skipping the
    view halves the cost); the bot still receives those events before its next decision.
    """
    game = Game.new(config, seed)
    bots = [make(s, seed * 16 + s) if make is not None and levels[s] == "hard" else make_bot(levels[s], s, seed * 16 + s)
            for s in range(config.players)]
    seen = [0] * config.players
    order = random.Random(seed)
    while not game.over:
        prompts = sorted(game.pending(), key=lambda p: p.seat)
        prompt = prompts[order.randrange(len(prompts))]
        seat = prompt.seat
        if len(prompt.options) == 1:
            game.choose(seat, prompt.id, prompt.options[0].id)
            continue
        bots[seat].observe(events_for(game, seat, seen[seat]))
        seen[seat] = len(game.events)
        seat_view = view(game, seat)
        if on_decision is not None:
            on_decision(game, bots[seat], seat_view)
        choice = bots[seat].decide(seat_view)
        if on_choice is not None:
            on_choice(seat_view, choice)
        game.choose(seat, prompt.id, choice)
        assert game.state.decisions < 5000, f"seed {seed}: the game does not end"
    return game


MIXES = [["normal", "basic", "random"], ["basic", "random"], ["normal", "normal", "basic"], ["normal", "random"]]
LEGALITY_GAMES = {(4, "novice"): 400, (6, "3v3"): 200}  # without characters; the 2,000 below have them
CHUNKS = 4
# With characters: every identity configuration of 3–9 players, small tables weighted up (they are
# cheaper and give the pick and the death/task triggers as much exercise per second).
CHARACTER_TABLES = [(3, "default", 6), (4, "default", 4), (4, "novice", 2), (5, "default", 4), (6, "default", 1),
                    (6, "3v3", 1), (7, "default", 1), (7, "alt", 1), (8, "default", 1), (9, "default", 1)]
CHARACTER_GAMES = 2000
CHARACTER_CHUNKS = 8


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize(("players", "identities"), list(LEGALITY_GAMES))
def test_bots_never_pick_an_illegal_option(players: int, identities: str, chunk: int) -> None:
    """Every level, mixed at one table, in 4 novice and 6 3v3 games."""
    config = GameConfig(players=players, identities=identities)
    per_chunk = LEGALITY_GAMES[(players, identities)] // CHUNKS
    for seed in range(chunk * per_chunk, (chunk + 1) * per_chunk):
        mix = MIXES[seed % len(MIXES)]
        game = drive(config, 10_000 + seed, [mix[(s + seed) % len(mix)] for s in range(players)])
        assert game.over and game.state.winners


def test_the_count_of_legality_games_is_at_least_two_thousand() -> None:
    arena = 200
    assert sum(n // CHUNKS * CHUNKS for n in LEGALITY_GAMES.values()) + arena >= 800
    assert CHARACTER_GAMES // CHARACTER_CHUNKS * CHARACTER_CHUNKS >= 2000
    tables = {(p, i) for p, i, _ in CHARACTER_TABLES}
    from engine import playable_configs

    assert tables == set(playable_configs(True))


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHARACTER_CHUNKS))
def test_bots_never_pick_an_illegal_option_with_characters(chunk: int) -> None:
    """Every level, mixed at one table, with characters, over every configuration of 3–9 players;
    the bots meet the pick, skill prompts, active skills and play-as options, and use them."""
    schedule = [(p, i) for p, i, weight in CHARACTER_TABLES for _ in range(weight)]
    kinds: dict[str, int] = {}
    used: dict[str, int] = {}

    def tally(seat_view: dict, choice: str) -> None:
        prompt = seat_view["prompt"]
        kinds[prompt["kind"]] = kinds.get(prompt["kind"], 0) + 1
        option = next(o for o in prompt["options"] if o["id"] == choice)
        used[option["verb"]] = used.get(option["verb"], 0) + 1
        if option["verb"] == "play" and option.get("name"):
            used["play as"] = used.get("play as", 0) + 1

    per_chunk = CHARACTER_GAMES // CHARACTER_CHUNKS
    for k in range(chunk * per_chunk, (chunk + 1) * per_chunk):
        players, identities = schedule[k % len(schedule)]
        mix = MIXES[k % len(MIXES)]
        config = GameConfig(players=players, identities=identities, characters=True)
        game = drive(config, 30_000 + k, [mix[(s + k) % len(mix)] for s in range(players)], on_choice=tally)
        assert game.over
    assert kinds.get("character_pick", 0) >= 2 * per_chunk and kinds.get("skill", 0) > 50, kinds
    assert min(used.get(verb, 0) for verb in ("pick", "use", "skill", "place", "play as")) > 0, used


def test_an_illegal_choice_would_be_caught() -> None:
    game = Game.new(GameConfig(players=4, identities="novice"), 1)
    prompt = game.pending()[0]
    with pytest.raises(IllegalOption):
        game.choose(prompt.seat, prompt.id, "send:999")


# ---------------------------------------------------------------------- hidden information


def hide_differently(game: Game, seat: int, rng: random.Random) -> Game:
    """A copy of the game that differs only in what `seat` cannot see.

    Other seats' hands and the pile are dealt again from the same cards (sizes kept), unrevealed
    identities of other seats are permuted, a face-down message the seat has not seen is
    exchanged for another card, and other seats' face-down characters are dealt again from those
    and the characters not in play.
    """
    other = copy.deepcopy(game)
    s = other.state
    hidden_hands = [p for p in s.seats if p.index != seat]
    pool = [c for p in hidden_hands for c in p.hand] + s.pile
    m = s.message
    swap_message = m is not None and not m.face_up and seat not in m.seen_by
    if swap_message:
        assert m is not None
        pool.append(m.card)
    rng.shuffle(pool)
    for p in hidden_hands:
        p.hand = [pool.pop() for _ in p.hand]
    if swap_message:
        assert m is not None
        m.card = pool.pop()
    s.pile = pool
    secret = [p for p in s.seats if p.index != seat and not p.revealed]
    identities = [p.identity for p in secret]
    rng.shuffle(identities)
    for p, identity in zip(secret, identities, strict=True):
        p.identity = identity
    face_down = [p for p in s.seats if p.index != seat and p.character is not None and not (p.face_up or p.revealed)]
    me = s.seats[seat]
    shown = {p.character for p in s.seats if p not in face_down} | set(me.character_choices)
    spare = [c for c in sorted(roster()) if c not in shown]
    rng.shuffle(spare)
    for p in face_down:
        p.character = spare.pop()
    return other


def test_a_bot_decides_the_same_whatever_is_hidden() -> None:
    """Change everything the seat cannot see: its view stays byte-identical and so does every decision."""
    rng = random.Random(5)
    checked = {"basic": 0, "normal": 0}
    changed = [0]
    calls = [0]

    def compare(game: Game, bot, seat_view: dict) -> None:
        calls[0] += 1
        if bot.level not in checked or calls[0] % 4:
            return
        seat = bot.seat
        other = hide_differently(game, seat, rng)
        changed[0] += other.state_hash() != game.state_hash()
        assert view(other, seat) == seat_view
        first, second = copy.deepcopy(bot), copy.deepcopy(bot)
        assert first.decide(seat_view) == second.decide(view(other, seat))
        checked[bot.level] += 1

    for seed in range(8):
        players, identities = ((6, "3v3"), (4, "novice"))[seed % 2]
        drive(GameConfig(players=players, identities=identities), 500 + seed,
              [("normal", "basic")[s % 2] for s in range(players)], compare)
    assert min(checked.values()) > 100
    assert changed[0] > 0.9 * sum(checked.values())


def test_the_hard_bot_decides_the_same_whatever_is_hidden() -> None:
    """The hard bot searches worlds sampled from its view and log only: with a fixed number of
    rollouts (no clock) its decisions are identical when everything it cannot see is changed."""
    from bots.hard import HardBot

    rng = random.Random(9)
    checked = [0]
    searched = [0]
    overruled = [0]
    calls = [0]

    def compare(game: Game, bot, seat_view: dict) -> None:
        calls[0] += 1
        if bot.level != "hard" or calls[0] % 4:
            return
        other = hide_differently(game, bot.seat, rng)
        assert view(other, bot.seat) == seat_view
        first, second = copy.deepcopy(bot), copy.deepcopy(bot)
        assert first.decide(seat_view) == second.decide(view(other, bot.seat))
        searched[0] += first.searched - bot.searched
        overruled[0] += first.overruled - bot.overruled
        checked[0] += 1

    def hard(seat: int, seed: int) -> HardBot:
        return HardBot(seat, seed, budget=None, rollouts=8, candidates=2)  # 4 worlds: it may overrule normal

    for seed, (players, identities, characters) in enumerate([(6, "3v3", False), (5, "default", True)]):
        drive(GameConfig(players=players, identities=identities, characters=characters), 900 + seed,
              ["hard", "normal"] * 3, compare, make=hard)
    assert checked[0] > 20 and searched[0] > 10 and overruled[0] > 0, (checked, searched, overruled)


def test_a_bot_decides_the_same_whatever_is_hidden_with_characters() -> None:
    """As above with characters on: face-down characters of others are dealt again as well."""
    rng = random.Random(6)
    checked = {"basic": 0, "normal": 0}
    scrambled = [0]
    calls = [0]

    def compare(game: Game, bot, seat_view: dict) -> None:
        calls[0] += 1
        if bot.level not in checked or calls[0] % 5:
            return
        seat = bot.seat
        other = hide_differently(game, seat, rng)
        scrambled[0] += [p.character for p in other.state.seats] != [p.character for p in game.state.seats]
        assert view(other, seat) == seat_view
        first, second = copy.deepcopy(bot), copy.deepcopy(bot)
        assert first.decide(seat_view) == second.decide(view(other, seat))
        checked[bot.level] += 1

    for seed in range(6):
        players, identities = ((5, "default"), (6, "3v3"), (7, "alt"))[seed % 3]
        drive(GameConfig(players=players, identities=identities, characters=True), 700 + seed,
              [("normal", "basic")[s % 2] for s in range(players)], compare)
    assert min(checked.values()) > 100, checked
    assert scrambled[0] > 0.5 * sum(checked.values())


def test_a_bot_is_deterministic_given_its_seed_and_inputs() -> None:
    config = GameConfig(players=6, identities="3v3")
    levels = ["normal", "basic", "random"] * 2
    first = drive(config, 77, levels)
    second = drive(config, 77, levels)
    assert first.choices == second.choices


# ---------------------------------------------------------------------- beliefs


def test_beliefs_follow_a_face_up_acceptance_and_a_probe() -> None:
    b = Beliefs(0, 6, {"military": 3, "latent": 3, "neutral": 0}, "latent")
    assert b.ally(3) == pytest.approx(0.4)
    b.observe([
        {"kind": "turn_start", "seat": 2},
        {"kind": "sent", "seat": 2, "method": "文本", "target": None, "card": {"colour": "red"}},
        {"kind": "received", "seat": 3, "card": {"colour": "red"}, "by": 2},
    ])
    assert b.ally(3) > 0.6
    b.observe([
        {"kind": "turn_start", "seat": 0},
        {"kind": "played", "seat": 0, "target": 4, "card": {"function": "试探", "probe": {"identity": "military"}}},
        {"kind": "resolved", "seat": 0, "target": 4, "card": {"function": "试探"}},
        {"kind": "probe_answer", "seat": 4, "answer": "draw"},
    ])
    assert b.enemy(4) > 0.99
    b.observe([{"kind": "died", "seat": 5, "identity": "latent"}])
    assert b.ally(5) == 1.0
    assert sum(b.ally(s) for s in range(1, 6)) == pytest.approx(2.0)


def test_beliefs_ignore_another_seats_probe() -> None:
    """Only the seat that played a 试探 knows what it asked; a bystander learns nothing from the answer."""
    b = Beliefs(1, 4, {"military": 2, "latent": 2, "neutral": 0}, "military")
    before = b.ally(3)
    b.observe([
        {"kind": "played", "seat": 0, "target": 3, "card": {"function": "试探"}},
        {"kind": "resolved", "seat": 0, "target": 3, "card": {"function": "试探"}},
        {"kind": "probe_answer", "seat": 3, "answer": "say", "line": "我是一个好人"},
    ])
    assert b.ally(3) == pytest.approx(before)


# ---------------------------------------------------------------------- strength


def identities_dealt(config: GameConfig, seed: int) -> list[str]:
    """Who is who in game `seed`; with characters identities come after the pick, which does not
    change them, so the pick is answered with its defaults on a throwaway game."""
    game = Game.new(config, seed)
    while any(p.identity == "" for p in game.state.seats):
        for prompt in game.pending():
            game.choose(prompt.seat, prompt.id, prompt.default)
    return [p.identity for p in game.state.seats]


def faction_games(config: GameConfig, first: str, second: str, games: int, seed0: int) -> dict[str, int]:
    """Each faction gets each level in alternate games; returns wins per level."""
    wins = dict.fromkeys((first, second, "none"), 0)
    for k in range(games):
        seed = seed0 + k
        identities = identities_dealt(config, seed)
        latent, military = (first, second) if k % 2 == 0 else (second, first)
        levels = [latent if i == "latent" else military for i in identities]
        game = drive(config, seed, levels)
        winners = game.state.winners
        wins[levels[winners[0]] if winners else "none"] += 1
    return wins


def test_normal_beats_random_in_3v3() -> None:
    wins = faction_games(GameConfig(players=6, identities="3v3"), "normal", "random", 200, 20_000)
    assert wins["normal"] >= 160, wins  # measured about 97%; 80% leaves room for chance


def test_normal_beats_random_in_3v3_with_characters() -> None:
    wins = faction_games(GameConfig(players=6, identities="3v3", characters=True), "normal", "random", 120, 40_000)
    assert wins["normal"] >= 96, wins  # bench: 95.4% of 1,000 games; 80% leaves room for chance


# ---------------------------------------------------------------------- the arena of `fengsheng sim`


def test_wilson_interval_matches_known_values() -> None:
    from fengsheng_tui.commands.sim import wilson

    low, high = wilson(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    low, high = wilson(0, 10)
    assert low == 0.0 and round(high, 4) == 0.2775
    assert wilson(0, 0) == (0.0, 1.0)


def test_sim_arena_reports_levels_and_factions(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from fengsheng_tui.cli import main

    assert main(["sim", "--seats", "normal,random,normal,random", "--games", "12", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["games"] == summary["finished"] == 12
    levels, factions = summary["arena"]["levels"], summary["arena"]["factions"]
    assert levels["normal"]["of"] == levels["random"]["of"] == 24
    assert 12 <= levels["normal"]["wins"] + levels["random"]["wins"] <= 24  # 1 or 2 winners a game
    assert sum(f["wins"] for f in factions.values()) == 12
    for r in (*levels.values(), *factions.values()):
        low, high = r["ci95"]
        assert low <= r["rate"] <= high
    assert main(["sim", "--seats", "normal,cheater", "--games", "1"]) == 2


# ---------------------------------------------------------------------- 识破 on a cancelled card

def cancelled_lock(cancel_it: bool) -> tuple[Game, int]:
    """Seat 1 (latent) locks seat 0 (military, two blacks already, two 识破 in hand); with
    `cancel_it` seat 0's first 识破 cancels the lock. Returns the game with seat 0 asked again about
    the lock (or once it was cancelled, back at seat 1's play prompt), and seat 0's other 识破."""
    from engine import Setup
    from engine import prompts as P
    from engine.cards import build_deck
    from engine.scenario import CardSpec

    config = GameConfig(players=4, identities="novice")
    deck = build_deck(config.deck)
    taken: set[int] = set()

    def card(name: str) -> int:
        spec = CardSpec.parse(name)
        found = next(c.id for c in deck if c.id not in taken and spec.matches(c))
        taken.add(found)
        return found

    mine, lock, first = card("识破/red"), card("锁定/red"), card("识破/blue")
    blacks = [card("截获/black"), card("退回/black")]
    setup = Setup(["military", "latent", "military", "latent"], [[first, mine], [lock, card("破译/red")], [], []],
                  pile_top=[card("调虎离山/red"), card("调虎离山/blue")], first=1, messages=[blacks, [], [], []])
    game = Game.new(config, 0, setup)
    while 1 not in game.prompts or game.prompts[1].kind != P.PLAY_PHASE:
        for prompt in game.pending():
            game.choose(prompt.seat, prompt.id, prompt.default)
    game.choose(1, game.prompts[1].id, P.option("play", lock, 0).id)
    if cancel_it:
        game.choose(0, game.prompts[0].id, P.option("play", first, 1).id)
        game.choose(1, game.prompts[1].id, P.PASS.id)
        while game.state.stack:
            for prompt in game.pending():
                game.choose(prompt.seat, prompt.id, P.PASS.id)
        # RULES.md §6.3: the cancelled card went to the discard pile at once; nothing is left to answer.
        assert not game.state.stack and lock in game.state.discard
    else:
        assert game.state.stack[-1].function == "锁定"
    return game, mine


@pytest.mark.parametrize("level", ["basic", "normal"])
def test_a_bot_sees_through_a_lock_and_a_cancelled_lock_is_no_longer_there_to_answer(level: str) -> None:
    """A lock on a seat with two blacks is worth cancelling; once a 识破 has cancelled it, it left
    the stack (RULES.md §6.3), so no 识破 on it is offered and no bot spends one."""
    for cancel_it in (False, True):
        game, mine = cancelled_lock(cancel_it)
        bot = make_bot(level, 0, 1)
        bot.observe(events_for(game, 0))
        seat_view = view(game, 0)
        assert bool(seat_view["stack"]) != cancel_it
        options = [o for o in seat_view["prompt"]["options"] if o.get("card") == mine] if seat_view["prompt"] else []
        assert bool(options) != cancel_it
        if not cancel_it:
            assert bot.decide(seat_view).startswith("play:"), level
