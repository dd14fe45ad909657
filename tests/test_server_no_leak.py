"""Proof of no leak on the wire: whole games between TCP bot clients, every frame checked against
the true hidden state at the moment it was built."""

from __future__ import annotations

import asyncio
from collections import defaultdict
from typing import Any

import pytest

from bots import make_bot
from engine import Game, GameConfig
from engine.characters import roster
from net.client import Client, play_as_bot
from net.fanout import FanOut
from net.server import GameServer
from net.table import Session, Table

LONG = {"play": 60.0, "send": 60.0, "response": 60.0, "receive": 60.0, "probe_discard": 60.0,
        "character_pick": 60.0, "skill": 60.0}
CHARACTER_IDS = frozenset(roster())
TASKS = frozenset(t for c in roster().values() for t in (c.task_zh, c.task_en) if t)


def visible_now(game: Game, seat: int | None) -> set[int]:
    """Card ids `seat` may see in the true state right now: its own hand, every message area,
    the message in transit if face-up or seen by it, stack cards except a 试探 it is not party to."""
    s = game.state
    cards = {c for p in s.seats for c in p.messages}
    if seat is not None:
        cards |= set(s.seats[seat].hand)
    m = s.message
    if m is not None and (m.face_up or (seat is not None and seat in m.seen_by)):
        cards.add(m.card)
    for item in s.stack:
        if item.function != "试探" or (seat is not None and seat in (item.user, item.target_seat)):
            cards.add(item.card)
    return cards


def unrevealed(game: Game, seat: int | None) -> set[int]:
    return {p.index for p in game.state.seats if p.index != seat and not p.revealed}


def characters_known_now(game: Game, seat: int | None) -> set[str]:
    """Character ids `seat` may know from the true state now: the ones it was dealt to pick from,
    its own, and every character lying face-up (or revealed) on the table."""
    known = {p.character for p in game.state.seats if p.character and (p.face_up or p.revealed)}
    if seat is not None:
        me = game.state.seats[seat]
        known |= set(me.character_choices) | ({me.character} if me.character else set())
    return known


def own_task(game: Game, seat: int | None) -> set[str]:
    """The secret task texts `seat` may be shown: its own character's, and once the game is over
    those of the winners who won by completing theirs (the end shows how each winner won)."""
    cast = roster()
    shown = [cast.get(game.state.seats[seat].character or "")] if seat is not None else []
    if game.over:
        completed = {e.data.get("seat") for e in game.events if e.kind == "task_completed"}
        shown += [cast.get(game.state.seats[w].character or "") for w in game.state.winners if w in completed]
    return {t for c in shown if c is not None for t in (c.task_zh, c.task_en) if t}


def strings_in(node: Any, pool: frozenset[str], out: set[str]) -> set[str]:
    """Every string of `pool` found anywhere in a frame, as a value (map keys are field names)."""
    if isinstance(node, str):
        if node in pool:
            out.add(node)
    elif isinstance(node, dict):
        for value in node.values():
            strings_in(value, pool, out)
    elif isinstance(node, list):
        for value in node:
            strings_in(value, pool, out)
    return out


class WitnessTable(Table):
    """A real table that also tracks, from the true state after every choice and the public event
    log, which cards each seat has legitimately seen so far, and notes that set for every frame."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seen: dict[int | None, set[int]] = defaultdict(set)
        self.characters_seen: dict[int | None, set[str]] = defaultdict(set)
        self._events_since = 0
        self.truth: dict[int | None, list[dict[str, Any]]] = defaultdict(list)
        self.fanout = WitnessFanOut(self)

    def _witness(self) -> None:
        # From the engine's own event records: public parts are everyone's; a secret part (a
        # deal, a draw, a probe discard) belongs only to the seats the rules let see it.
        game = self.game
        assert game is not None
        new = game.events[self._events_since :]
        self._events_since = len(game.events)
        public = card_ids([e.data for e in new], set())
        public_characters = strings_in([e.data for e in new], CHARACTER_IDS, set())
        for seat in [*range(self.players), None]:
            secrets = [e.secret for e in new if seat is not None and seat in e.seen_by]
            secret = card_ids(secrets, set())
            self.seen[seat] |= visible_now(game, seat) | public | secret
            self.characters_seen[seat] |= (
                characters_known_now(game, seat) | public_characters | strings_in(secrets, CHARACTER_IDS, set())
            )

    def _start_game(self) -> None:
        super()._start_game()
        self._witness()

    def _apply(self, seat: int, prompt_id: int, option: str, how: str) -> None:
        super()._apply(seat, prompt_id, option, how)
        self._witness()

    def note(self, session: Session, frames: list[bytes]) -> None:
        """What `session`'s seat may have seen when these game frames were built for it."""
        assert self.game is not None
        seat = session.seat
        secret = {
            "seen": set(self.seen[seat]), "unrevealed": unrevealed(self.game, seat),
            "characters": set(self.characters_seen[seat]), "task": own_task(self.game, seat),
        }
        self.truth[session.seat] += [secret] * len(frames)


class WitnessFanOut(FanOut):
    """The table's real fan-out, which has its witness note every game frame it builds."""

    def __init__(self, table: WitnessTable) -> None:
        super().__init__(table.name, table.seats, table.timing, table.standins)
        self.witness = table

    def frames_for(self, session: Session, game: Game, timers: dict[str, float]) -> list[bytes]:
        frames = super().frames_for(session, game, timers)
        self.witness.note(session, frames)
        return frames


class RecordingClient(Client):
    def __init__(self) -> None:
        super().__init__()
        self.frames: list[dict[str, Any]] = []

    async def recv(self, timeout: float | None = None) -> dict[str, Any] | None:
        msg = await super().recv(timeout)
        if msg is not None and msg["type"] == "update":
            self.frames.append(msg)
        return msg


async def drain(client: Client) -> None:
    """Read what is still queued (frames after the bot stopped reading, the spectator's)."""
    try:
        while await client.recv(timeout=0.3) is not None:
            pass
    except TimeoutError:
        pass


def card_ids(node: Any, out: set[int]) -> set[int]:
    """Every card id anywhere in a frame: card faces, and card references in prompt options."""
    if isinstance(node, dict):
        if "function" in node and isinstance(node.get("id"), int):
            out.add(node["id"])
        for key in ("card", "target_card"):
            if isinstance(node.get(key), int):
                out.add(node[key])
        for value in node.values():
            card_ids(value, out)
    elif isinstance(node, list):
        for value in node:
            card_ids(value, out)
    return out


def identities_shown(node: Any, out: set[int]) -> set[int]:
    """Seats whose identity appears in a frame (any map carrying a seat number and an identity)."""
    if isinstance(node, dict):
        if node.get("identity") is not None:
            who = node.get("index", node.get("seat"))
            if isinstance(who, int):
                out.add(who)
        for value in node.values():
            identities_shown(value, out)
    elif isinstance(node, list):
        for value in node:
            identities_shown(value, out)
    return out


@pytest.mark.parametrize(
    ("players", "identities", "characters", "seed"),
    [(4, "novice", False, 31), (6, "3v3", False, 32), (5, "default", True, 33), (7, "alt", True, 34)],
)
async def test_no_frame_holds_anything_outside_its_seat_view(
    players: int, identities: str, characters: bool, seed: int
) -> None:
    table = WitnessTable("t", players=players, identities=identities, characters=characters, timers=LONG,
                         auto_start=True, seed=seed)
    server = GameServer("127.0.0.1", 0, rate=5000.0, burst=5000)
    server.add_table(table)
    await server.start()
    try:
        spectator = RecordingClient()
        await spectator.connect("127.0.0.1", server.port, "watcher", spectate=True)
        clients = []
        for i in range(players):
            client = RecordingClient()
            await client.connect("127.0.0.1", server.port, f"player{i}")
            clients.append(client)
        await asyncio.wait_for(asyncio.gather(*(
            play_as_bot(c, lambda s: make_bot("random", s, seed + s), until_over=True) for c in clients
        )), 60)
        assert table.game is not None and table.game.over
        for client in [*clients, spectator]:
            await drain(client)
        checked = picks = 0
        for client in [*clients, spectator]:
            seat = client.seat if client is not spectator else None
            truth = table.truth[seat]
            assert len(client.frames) == len(truth), "every frame built must arrive, in order"
            for frame, secret in zip(client.frames, truth, strict=True):
                leaked = card_ids(frame, set()) - secret["seen"]
                assert not leaked, f"seat {seat} was sent hidden cards {leaked}"
                exposed = identities_shown(frame, set()) & secret["unrevealed"]
                assert not exposed, f"seat {seat} was sent the identity of seats {exposed}"
                assert isinstance(frame["view"]["pile"], int), "the pile is only ever a count"
                hidden = strings_in(frame, CHARACTER_IDS, set()) - secret["characters"]
                assert not hidden, f"seat {seat} was sent face-down or undealt characters {hidden}"
                tasks = strings_in(frame, TASKS, set()) - secret["task"]
                assert not tasks, f"seat {seat} was sent another seat's secret task {tasks}"
                checked += 1
                picks += bool(frame["view"]["character_choices"])
        assert checked > 100
        # With characters, every seat saw its own choices and nobody else's; a game without shows none.
        assert (picks >= players) is characters
        for client in [*clients, spectator]:
            await client.close()
    finally:
        await server.close()


def test_the_witness_catches_a_leak() -> None:
    """The checks above are not vacuous: a frame holding another seat's hand is caught."""
    game = Game.new(GameConfig(players=4, identities="novice"), 5)
    other_card = game.face(game.state.seats[1].hand[0])
    assert card_ids({"view": {"hand": [other_card]}}, set()) - visible_now(game, 0) == {other_card["id"]}
    assert identities_shown({"seats": [{"index": 2, "identity": "latent"}]}, set()) & unrevealed(game, 0)


def test_the_witness_catches_another_seats_characters_and_task() -> None:
    """During the pick another seat's choices are unknown; so are a face-down character and its task."""
    game = Game.new(GameConfig(players=5, identities="default", characters=True), 33)
    theirs = game.state.seats[1].character_choices
    frame = {"view": {"character_choices": theirs}}
    assert strings_in(frame, CHARACTER_IDS, set()) - characters_known_now(game, 0) == set(theirs)
    c = roster()[theirs[0]]
    assert strings_in({"task": {"zh": c.task_zh}}, TASKS, set()) - own_task(game, 0)
