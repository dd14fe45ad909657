"""One table of the game server: lobby, the engine `Game`, bots, timers, journal.

Who sits where (seats, tokens, claims, host rights, the connections present) is `net.seats`;
which bot decides for a seat (its own, a stand-in for a dropped player, 托管) and when the table
may hurry is `net.standins`; the host's commands are `net.host_ops`: objects the table owns and
calls one way.

A table is driven by exactly one asyncio task (`run`). Connection handlers never touch the table:
they `post` items into its inbox, and the task applies them in batches, so there are no locks and
no interleavings to reason about. Timers are not tasks either: the loop sleeps until the earliest
deadline, bot move or stand-in is due.

Everything a seat is sent about the game is built by `net.fanout` (an object the table owns and
calls one way), from `engine.view` and `engine.view.events_for` only, plus public table facts.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from engine import ChoiceError, ConfigError, Game, GameConfig, Prompt, events_for, identity_options, view
from engine.cards import deck_variants
from engine.prompts import RESPONSE
from engine.state import TURN_STEPS
from engine.view import waiting
from net import protocol as P
from net.clock import DEFAULT_TIMERS, EXTRA_TIMERS, TIMER_NAMES, TURN_WINDOW, TableClock
from net.connection import FramedConnection
from net.fanout import FanOut
from net.host_ops import HostOps, OpError, first_identities
from net.journal import (
    JOURNAL_SUFFIX,
    REPLAY_SUFFIX,
    Journal,
    JournalDamaged,
    JournalError,
    ReplayError,
    keep_aside,
    read_journal,
    write_replay,
)
from net.private_files import write_private
from net.records import pack_record
from net.replays import FrameLog
from net.seats import LOBBY, OVER, PLAYING, TOGGLE_RATE, Seats, SeatSlot, Session
from net.standins import STANDIN_LEVEL, StandIns

log = logging.getLogger("fengsheng.table")

#: A bot answers a turn-start or turn-end window after this share of the bot delay: those windows
#: show nothing to follow unless something is played, and every bot waits the same whatever it
#: holds, so the shorter pause tells nothing.
TURN_WINDOW_BOT_SHARE = 0.25
#: A dropped seat's deadlines shrink to this, so the table does not wait on someone who is gone.
OFFLINE_TIMEOUT = 5.0
#: After this long offline, a bot plays the seat until its owner returns.
STANDIN_GRACE = 15.0
#: Pause before an in-process bot answers, so people can follow the table.
BOT_DELAY = 0.6
#: Decisions applied per loop step before yielding, so all-bot tables do not starve the others.
MOVES_PER_STEP = 64

_CHOICE_ERRORS = {
    "not_prompted": P.STALE_PROMPT,
    "stale_prompt": P.STALE_PROMPT,
    "illegal_option": P.ILLEGAL_OPTION,
    "game_over": P.BAD_STATE,
}


#: Seconds between two lobby frames to the connections of a table: a lobby change is a frame to
#: everyone, and one address joining and leaving in a loop made 500 of them a second. Changes
#: within the interval go out together at its end.
LOBBY_FRAME_EVERY = 0.1



def _bot_wait(bot: object, delay: float, seconds: float) -> float:
    """How long after a prompt opens its seat's bot answers: the table's delay, and for a bot that
    searches (`thinks`) at least its budget (within the prompt's time), so that the moment its
    answer comes shows nothing of what it had to choose from (`Table._think_ahead`)."""
    budget = getattr(bot, "budget", None) if getattr(bot, "thinks", False) else None
    if not isinstance(budget, (int, float)):
        return delay
    return max(delay, min(float(budget), 0.8 * seconds))


class Table:
    def __init__(
        self,
        name: str,
        *,
        players: int = 4,
        identities: str | None = None,
        deck: str = "resolved",
        characters: bool = False,
        character_choices: int = 3,
        password: str | None = None,
        timers: dict[str, float] | None = None,
        data_dir: Path | None = None,
        bot_delay: float = BOT_DELAY,
        offline_timeout: float = OFFLINE_TIMEOUT,
        standin_grace: float = STANDIN_GRACE,
        auto_start: bool = False,
        seed: int | None = None,
        host_token: str | None = None,
        open_host: bool = False,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.name = name
        self.players = players
        self.identities = identities or first_identities(players, characters)
        self.deck = deck
        self.characters = characters
        self.character_choices = character_choices
        self.password = password
        self.timers = {**DEFAULT_TIMERS, **(timers or {})}
        self.data_dir = data_dir
        self.bot_delay = bot_delay
        self.offline_timeout = offline_timeout
        self.standin_grace = standin_grace
        self.auto_start = auto_start
        self.seed = seed
        self.seats = Seats(name, host_token or secrets.token_urlsafe(18), open_host)
        self.standins = StandIns(name)
        self.clock = clock
        #: Deadlines, issue times and the host's pause (`net.clock`).
        self.timing = TableClock(clock)
        self._config().validate()
        # What every welcome and hello must carry: a table no client could join is refused here.
        problem = P.SERVER_MESSAGES["welcome"]["table"].check(name)
        if problem is None and password is not None:
            problem = P.CLIENT_MESSAGES["hello"]["password"].check(password)
            problem = problem and f"the password {problem}"
        elif problem is not None:
            problem = f"the table name {problem}"
        if problem is not None:
            raise ConfigError(problem)

        self.phase = LOBBY
        self.game: Game | None = None
        self.journal: Journal | None = None
        #: What each seat saw between events, for the replays written at the end (with a journal).
        self.replay_frames: FrameLog | None = None
        #: Every live prompt's deadline and when a bot may answer it; answered window prompts'
        #: deadlines stay shown until their window closes, so a pass stays secret (`engine.view`).
        self.deadlines = self.timing.deadlines
        self._bot_at = self.timing.bot_at
        self._answered = self.timing.answered
        self._inbox: deque[tuple[Any, ...]] = deque()
        self._wake = asyncio.Event()
        #: Bots that search (`thinks`, the hard level) decide in a worker thread: the seat whose
        #: bot is thinking, and the answers that came back, by prompt id (see `_think`).
        self._thinking: dict[int, asyncio.Future[str]] = {}
        self._thought: dict[int, str] = {}
        self._dirty = False
        #: When the last lobby frames went out, and when the held-back changes are due (None: none).
        self._lobby_sent = -LOBBY_FRAME_EVERY
        self._lobby_due: float | None = None
        #: The task is parked with an empty inbox (see `post`), until `_sleep_until` (None: no timer).
        self._idle = False
        self._sleep_until: float | None = None
        #: The journal's fsync of the last batch, in a thread (`Journal.sync_soon`): the next batch
        #: waits for it, so a power cut loses at most the batch in flight.
        self._syncing: Future[None] | None = None
        self._task: asyncio.Task[None] | None = None
        #: Figures for the benchmark: defaults applied on expiry, and the worst lateness.
        self.timeouts = 0
        self.max_lateness = 0.0
        self.games_finished = 0
        #: The host's commands (`net.host_ops`).
        self.host_ops = HostOps(self)
        #: The game's frames to every connection present (`net.fanout`).
        self.fanout = FanOut(name, self.seats, self.timing, self.standins)
        #: Write a finished game's files (the journal's fsync, the record, every seat's replay) in a
        #: worker thread, not on the event loop: measured 60-85 ms a game (13 fsyncs), which every
        #: other table's deadlines waited out. Only where nobody in the process looks for them as
        #: the game ends (`GameServer(background_files=True)`, a headless `fengsheng host`): the
        #: screen of `fengsheng play` shows its replay's path then.
        self.files_in_background = False
        self._writing: set[asyncio.Future[None]] = set()

    @property
    def frame_sizes(self) -> list[int] | None:
        """Body sizes of the frames sent, when a benchmark (or a test) sets this to a list."""
        return self.fanout.frame_sizes

    @frame_sizes.setter
    def frame_sizes(self, sizes: list[int] | None) -> None:
        self.fanout.frame_sizes = sizes

    @property
    def slots(self) -> list[SeatSlot]:
        return self.seats.slots

    @slots.setter
    def slots(self, slots: list[SeatSlot]) -> None:
        self.seats.slots = slots

    @property
    def sessions(self) -> set[Session]:
        return self.seats.sessions

    @property
    def host_token(self) -> str:
        return self.seats.host_token

    @property
    def open_host(self) -> bool:
        return self.seats.open_host

    # ------------------------------------------------------------------ life cycle

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self.run(), name=f"table {self.name}")

    async def stop(self, reason: str = "server stopping") -> None:
        self._idle = False  # nothing runs in a caller's callback any more
        for session in list(self.sessions):
            session.close(reason)
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
            self._task = None
        await self._synced()  # the fsync thread must be done with the file before it closes
        if self.journal is not None:
            self.journal.close()
        if self._writing:  # a finished game's files, still being written
            await asyncio.gather(*self._writing, return_exceptions=True)

    def post(self, item: tuple[Any, ...]) -> None:
        """The only way into the table from outside its task.

        While the task is parked with nothing to do and the last batch's fsync is done, the item
        is handled at once, in the caller's callback (`_run_now`): a choice reaches the players
        without two task switches. Otherwise it waits in the inbox for the task's next batch.
        """
        self._inbox.append(item)
        syncing = self._syncing
        if self._idle and (syncing is None or syncing.done()):
            self._run_now()
        else:
            self._wake.set()  # the task waits out the last batch's fsync first

    def _run_now(self) -> None:
        """One batch, step, frames and the fsync handed to its thread, on behalf of the parked
        task (which is the table's only other actor, so the single-writer rule holds), once the
        last batch's fsync is done. A timer now due earlier is left to the task, which is woken
        for it; until it parks again new items queue up as usual."""
        self._idle = False
        batch = list(self._inbox)
        self._inbox.clear()
        try:
            self._step(batch)
            self._flush()
        except Exception:
            log.exception("%s: internal error while handling %d items", self.name, len(batch))
        wake_at = self._wake_time()
        if self._inbox or (wake_at is not None and (self._sleep_until is None or wake_at < self._sleep_until)):
            self._wake.set()
        else:
            self._idle = True

    async def _synced(self) -> None:
        """Until the last batch's fsync is done (a failed one was logged by the journal)."""
        syncing = self._syncing
        if syncing is not None:
            if not syncing.done():
                await asyncio.wrap_future(syncing)
            self._syncing = None

    async def run(self) -> None:
        while True:
            if not self._inbox:
                self._wake.clear()
                wake_at = self._wake_time()
                self._sleep_until = wake_at
                self._idle = True
                try:
                    if wake_at is None:
                        await self._wake.wait()
                    else:
                        delay = wake_at - self.clock()
                        if delay > 0:
                            try:
                                async with asyncio.timeout(delay):
                                    await self._wake.wait()
                            except TimeoutError:
                                pass
                finally:
                    self._idle = False
            await self._synced()
            batch = list(self._inbox)
            self._inbox.clear()
            try:
                self._step(batch)
                self._flush()
            except Exception:
                log.exception("%s: internal error while handling %d items", self.name, len(batch))
            await asyncio.sleep(0)

    def summary(self) -> tuple[int, int, str, bool]:
        """(seats taken, seats total, lobby|playing, password?) for the zeroconf TXT record."""
        return len(self.slots), self.players, PLAYING if self.phase == PLAYING else LOBBY, bool(self.password)

    # ------------------------------------------------------------------ one step of the loop

    def _step(self, batch: list[tuple[Any, ...]]) -> None:
        chooses: list[tuple[Session, dict[str, Any]]] = []
        for item in batch:
            kind = item[0]
            if kind == "choose":
                chooses.append((item[1], item[2]))
            elif kind == "hello":
                self._hello(item[1], item[2], item[3])
            elif kind == "gone":
                self._gone(item[1])
            elif kind == "chat":
                self._chat(item[1], item[2]["text"])
            elif kind == "ready":
                self._ready(item[1], item[2]["ready"])
            elif kind == "op":
                self.host_ops.apply(item[1], item[2]["command"], item[2]["args"])
            elif kind == "auto":
                self._auto(item[1], item[2]["on"])
            elif kind == "fast_forward":
                self._fast_forward(item[1], item[2]["on"])
        # In arrival order: a response window applies its answers in 顺位 itself, once every asked
        # seat has answered (engine.game.Game._settle_window), so arrival order decides nothing.
        for session, msg in chooses:
            self._human_choice(session, msg)
        self._run_clock()

    def _toggle_allowed(self, session: Session, what: str) -> bool:
        """Within the connection's budget of `ready`/`auto`/`fast_forward` changes (`TOGGLE_RATE`)."""
        if session.toggle_limiter.allow():
            return True
        session.send(P.error(P.RATE_LIMITED, f"{what}: at most {TOGGLE_RATE:g} changes a second"))
        return False

    def _flush(self) -> None:
        """Hand the journal to the OS, tell every connection what changed, then fsync.

        Written before anyone is told, so a crash of the server process loses nothing a client
        has seen; the fsync (against a power cut) comes after the frames, in a thread, so neither
        the table's players nor the other tables wait on the disk. The next batch waits for it
        (`_synced`, or `post` leaves the batch to the task): messages arriving meanwhile wait in
        the inbox. A batch that journaled nothing (a seat gone or back, 托管) has nothing to fsync.
        """
        journal = self.journal
        if self._flush_now() and journal is not None and journal.unsynced:
            self._syncing = journal.sync_soon()

    def _flush_now(self) -> bool:
        """`_flush` up to the fsync: the journal to the OS, then the frames. True if an fsync is due."""
        if not self._dirty or self._lobby_held():
            return False
        self._dirty = False
        journal = self.journal
        if journal is not None:
            journal.flush()
        self._send_frames()
        return journal is not None

    def _lobby_held(self) -> bool:
        """In the lobby, whether changes wait for `LOBBY_FRAME_EVERY` after the last lobby frames
        (the task wakes for them at `_lobby_due`)."""
        if self.phase != LOBBY:
            self._lobby_due = None
            return False
        now = self.clock()
        if now < self._lobby_sent + LOBBY_FRAME_EVERY:
            self._lobby_due = self._lobby_sent + LOBBY_FRAME_EVERY
            return True
        self._lobby_sent, self._lobby_due = now, None
        return False

    def _send_frames(self) -> None:
        """Each connection's frames, in one write per connection: the lobby, or the game (`net.fanout`)."""
        game = self.game
        if game is not None and self.phase != LOBBY:
            if self.replay_frames is not None and not game.over:
                self.fanout.send(game, self.timers, self.replay_frames, [slot.index for slot in self.slots if slot.auto])
            else:
                self.fanout.send(game, self.timers)
            return
        for session in list(self.sessions):
            self.fanout.write(session, self.frames_for(session))

    def frames_for(self, session: Session) -> list[bytes]:
        """Every frame a connection is sent now about the table, encoded: the lobby, or the
        game's view and its unseen events (`net.fanout.FanOut.frames_for`)."""
        game = self.game
        if game is None or self.phase == LOBBY:
            session.base = None
            return [self.fanout.encode(session, self.lobby_frame(session))]
        return self.fanout.frames_for(session, game, self.timers)

    def snapshot(self, seat: int | None) -> dict[str, Any]:
        """The whole view `seat` would be sent now, annotated (what a patched client view must equal)."""
        assert self.game is not None
        return self.fanout.snapshot(self.game, self.timers, seat)

    def lobby_frame(self, session: Session) -> dict[str, Any]:
        return P.lobby(
            {
                "name": self.name,
                "phase": self.phase,
                "players": self.players,
                "identities": self.identities,
                "identity_options": [
                    k for k, c in identity_options(self.players).items() if self.characters or c[2] == 0
                ],
                "deck": self.deck,
                "decks": list(deck_variants()),
                "characters": self.characters,
                "character_choices": self.character_choices,
                "password": bool(self.password),
                "timers": self.all_timers(),
                "bot_delay": self.bot_delay,
                "spectators_muted": self.seats.spectators_muted,
                "you": session.seat,
                "host": session.is_host,
                "seats": self.seats.lobby_entries(),
            }
        )

    # ------------------------------------------------------------------ joining and leaving

    def _hello(self, conn: FramedConnection, msg: dict[str, Any], reply: asyncio.Future[Session | P.ProtocolError]) -> None:
        """Seat (or refuse) a hello; `reply` gets the session, or the refusal already sent."""
        seats = self.seats
        is_host = seats.is_host_token(msg["token"])
        refused = seats.refusal(msg, is_host, self.phase, self.players, self.password)
        if refused is not None:
            conn.send(refused.to_message())
            reply.set_result(refused)
            return
        if self.phase == OVER and not msg["spectate"] and msg["token"] is None:
            # Someone sits down after the end: the table gathers for the next game.
            self._to_lobby()
            log.info("%s: back to the lobby for the next game", self.name)
        session = seats.admit(conn, msg, is_host, self.phase)
        session.send(P.welcome(session.seat, seats.welcome_token(session), self.name, session.is_host))
        reply.set_result(session)
        if self.phase == LOBBY:
            self._dirty = True
            if self.auto_start and len(self.slots) == self.players:
                try:
                    self._start_game()
                except OpError as exc:
                    session.send(P.error(exc.code, exc.message))
        else:
            # Reconnect or spectator: the snapshot with the whole log and any open prompt.
            session.since = 0
            self.fanout.write(session, self.frames_for(session))
            self._dirty = self._dirty or session.seat is not None

    def _gone(self, session: Session) -> None:
        slot = self.seats.gone(session, self.phase)
        if session.is_host and self.timing.paused_by == "host" and not any(s.is_host for s in self.sessions):
            # Nobody left could resume: a pause must not freeze the others' game for good.
            self.host_ops.resume({})
            self._dirty = True
        if slot is None:
            return
        self._dirty = True
        if self.phase == LOBBY:
            return
        now = self.timing.table_now()
        slot.offline_since = now
        log.info("%s: seat %d (%s) went offline", self.name, slot.index, slot.name)
        prompt = self.game.prompts.get(slot.index) if self.game is not None else None
        if prompt is not None and prompt.id in self.deadlines:
            self.deadlines[prompt.id] = min(self.deadlines[prompt.id], now + self.offline_timeout)

    # ------------------------------------------------------------------ chat and readiness

    def _chat(self, session: Session, text: str) -> None:
        if self.seats.muted(session):
            session.send(P.error(P.BAD_STATE, "the host has muted you: your chat reaches nobody"))
            return
        if not self.seats.may_chat(session):
            session.send(P.error(P.RATE_LIMITED, "chat: at most one line a second (and two from one address)"))
            return
        line = P.chat(session.seat, self.seats.chat_name(session), text)
        if self._dirty and self._lobby_due is not None and self.phase == LOBBY:
            # Held-back lobby changes go first: a line never arrives before the seat of who said it
            # (chat has budgets of its own, so this cannot undo the lobby's).
            self._dirty, self._lobby_sent, self._lobby_due = False, self.clock(), None
            self._send_frames()
        for other in self.sessions:
            other.send(line)

    def _ready(self, session: Session, ready: bool) -> None:
        if not self._toggle_allowed(session, "ready"):
            return
        if self.phase != LOBBY or session.seat is None:
            session.send(P.error(P.BAD_STATE, "readiness only counts in the lobby"))
            return
        self.slots[session.seat].ready = ready
        self._dirty = True
        if ready and len(self.slots) == self.players and all(slot.ready for slot in self.slots):
            try:
                self._start_game()
            except OpError as exc:
                session.send(P.error(exc.code, exc.message))

    # ------------------------------------------------------------------ stand-ins asked for by a seat

    def _auto(self, session: Session, on: bool) -> None:
        """托管 on or off. Only the seat's own connection can ask (the seat is the connection's,
        never the message's), and only for a seat still in a game."""
        if not self._toggle_allowed(session, "托管"):
            return
        game = self.game
        if game is None or self.phase != PLAYING:
            session.send(P.error(P.BAD_STATE, "托管 is only for a game in progress"))
            return
        seat = session.seat
        if seat is None or self.slots[seat].session is not session:
            session.send(P.error(P.NOT_YOUR_SEAT, "only a seat's own player can hand it to a bot"))
            return
        if on and not game.state.seats[seat].in_game:
            session.send(P.error(P.BAD_STATE, "your seat is out of the game: nothing is left to play"))
            return
        if self.standins.hand_over(game, self.slots[seat], on):
            self._dirty = True

    def _fast_forward(self, session: Session, on: bool) -> None:
        """A spectator or a player out of the game asks to skip the bots' delay to the result; it
        works while no living seat is a human deciding for himself (`StandIns.hurry`)."""
        if not self._toggle_allowed(session, "fast-forward"):
            return
        game = self.game
        if game is None or self.phase != PLAYING:
            session.send(P.error(P.BAD_STATE, "no game in progress"))
            return
        if not self.standins.may_ask_hurry(game, session):
            session.send(P.error(P.BAD_STATE, "only a spectator or a player out of the game can fast-forward"))
            return
        session.fast_forward = on
        self._dirty = True

    def _hurry(self) -> bool:
        game = self.game
        return game is not None and self.phase == PLAYING and self.standins.hurry(game, self.slots, self.sessions)

    def _skips_wait(self) -> Callable[[SeatSlot], bool]:
        """Whether a seat's bot may answer before its wait (`_bot_wait`) is over: while the table
        hurries, but a searching bot still waits out its budget while a living seat's player has
        handed it to a bot (托管): he watches the table, and a search's length would tell him
        what the searching bot had to choose from (`_think_ahead`)."""
        if not self._hurry():
            return lambda slot: False
        game = self.game
        assert game is not None
        seats = game.state.seats
        watched = any(slot.auto and seats[slot.index].in_game for slot in self.slots)
        return lambda slot: not (watched and getattr(slot.bot, "thinks", False))

    # ------------------------------------------------------------------ host commands

    def _config(self, **changes: Any) -> GameConfig:
        """The game this table would start now, with an op's proposed `changes` applied."""
        settings: dict[str, Any] = {
            "players": self.players, "identities": self.identities, "deck": self.deck,
            "characters": self.characters, "character_choices": self.character_choices,
        }
        return GameConfig(**{**settings, **changes})

    def timer(self, kind: str) -> float:
        """The seconds a prompt of `kind` (or the turn windows, `turn_window`) gets now."""
        return self.timers.get(kind, EXTRA_TIMERS.get(kind, DEFAULT_TIMERS["play"]))

    def all_timers(self) -> dict[str, float]:
        """Every timer the table has, set by the host or not: what the lobby shows and `d` sets."""
        return {kind: self.timer(kind) for kind in TIMER_NAMES}

    def add_bot(self, level: str = STANDIN_LEVEL) -> None:
        """Seat a bot in the lobby (the host's `add_bot`, or `--bots K`)."""
        self._append_bot(level)
        if self.auto_start and len(self.slots) == self.players and self.phase == LOBBY:
            self._start_game()

    def _to_lobby(self) -> None:
        """Back to the lobby for another game: the seats of the players present and the bots stay,
        every seat must be ready again."""
        self.phase = LOBBY
        self.game = None
        self.timing.clear()
        self.seats.to_lobby()
        self._dirty = True

    # ------------------------------------------------------------------ the game

    def _start_game(self) -> None:
        """Start a game, or raise `OpError` with the table as it was (the bots that would have
        filled the empty seats are taken away again): nothing changes until the game and its
        journal both exist."""
        filled = [self._append_bot(STANDIN_LEVEL) for _ in range(self.players - len(self.slots))]
        try:
            self._begin_game()
        except OpError:
            for slot in filled:
                self.seats.remove(slot)
            raise

    def _begin_game(self) -> None:
        config = self._config(names=tuple(slot.name for slot in self.slots))
        try:
            config.validate()
        except ConfigError as exc:
            raise OpError(P.BAD_STATE, str(exc)) from None
        seed = self.seed if self.seed is not None else secrets.randbits(62)
        game = Game.new(config, seed)
        journal = None if self.data_dir is None else self._new_journal(config, seed)
        self.game = game
        self.phase = PLAYING
        self.timing.clear()
        self.standins.deal(self.game, self.slots)
        for slot in self.slots:
            slot.offline_since = None if slot.online else self.clock()
        for session in self.sessions:
            session.since = 0
            session.base = None
            session.fast_forward = False
        if journal is not None:
            self.journal = journal
            self.replay_frames = FrameLog(self.players)
        # The console may be read by a host who also plays: the seed (which fixes the deck and the
        # identities) and each choice (option ids name cards; passes are secret) only with --verbose.
        log.info("%s: game started: %d players (%s)", self.name, self.players, self.identities)
        log.debug("%s: seed %d", self.name, seed)
        self._dirty = True
        self._sync_prompts()

    def _new_journal(self, config: GameConfig, seed: int) -> Journal:
        """The new game's journal, under a name no other file has (a game started again in the
        same second with the same seed gets `-2`, `-3` …); `OpError` for the host when the data
        folder cannot be written."""
        stamp = time.strftime("%Y%m%d-%H%M%S")
        stem = f"{_file_name(self.name)}-{stamp}-{seed % 100000:05d}"
        for n in range(1, 100):
            path = Path(self.data_dir or ".") / f"{stem}{'' if n == 1 else f'-{n}'}{JOURNAL_SUFFIX}"
            try:
                return Journal.create(path, self._start_record(config, seed))
            except FileExistsError:
                continue
            except OSError as exc:
                log.error("%s: cannot start a game: its journal cannot be written in %s: %s",
                          self.name, self.data_dir, exc)
                raise OpError(P.BAD_STATE, f"cannot start: the game's journal cannot be written ({exc})") from None
        raise OpError(P.BAD_STATE, f"cannot start: 99 journals named {stem} already exist")

    def _append_bot(self, level: str) -> SeatSlot:
        self.seats.append_bot(level)
        return self.slots[-1]

    def _start_record(self, config: GameConfig, seed: int) -> dict[str, Any]:
        return {
            "table": self.name,
            "config": config.to_dict(),
            "seed": seed,
            "host_token": self.seats.host_token,
            "password": self.password,
            "timers": dict(self.timers),
            "seats": [{"name": s.name, "token": s.token, "bot": s.bot_level, "remote_bot": s.remote_bot}
                      for s in self.slots],
        }

    def _human_choice(self, session: Session, msg: dict[str, Any]) -> None:
        prompt_id, option = msg["prompt_id"], msg["option"]
        game = self.game
        if game is None or self.phase != PLAYING:
            session.send(P.error(P.BAD_STATE, "no game in progress", prompt_id))
            return
        seat = session.seat
        if seat is None:
            session.send(P.error(P.NOT_YOUR_SEAT, "spectators cannot act", prompt_id))
            return
        # Whose prompt it is by the public waiting list alone: an asked seat keeps its place there
        # until the window closes, so the refusal never tells whether that seat has answered.
        owner = next((w["seat"] for w in waiting(game) if w["prompt_id"] == prompt_id), None)
        if owner is not None and owner != seat:
            session.send(P.error(P.NOT_YOUR_SEAT, f"prompt {prompt_id} belongs to seat {owner}", prompt_id))
            return
        if self.timing.paused:
            # A pause freezes the game, not only its clock: the prompt stays open, with its time.
            session.send(P.error(P.PAUSED, "paused by the host: choose again once the table resumes", prompt_id))
            return
        try:
            self._apply(seat, prompt_id, option, "chose")
        except ChoiceError as exc:
            session.send(P.error(_CHOICE_ERRORS.get(exc.code, P.BAD_STATE), str(exc), prompt_id))

    def _apply(self, seat: int, prompt_id: int, option: str, how: str) -> None:
        game = self.game
        assert game is not None
        game.choose(seat, prompt_id, option)
        if self.journal is not None:
            self.journal.append({"t": "choice", "c": [seat, prompt_id, option]})
        self._dirty = True
        log.debug("%s: seat %d %s %s (prompt %d)", self.name, seat, how, option, prompt_id)
        if game.over:
            self._finish()
        else:
            self._sync_prompts()

    def _sync_prompts(self) -> None:
        """Give each new prompt its deadline; forget closed ones."""
        game = self.game
        assert game is not None
        live = set()
        w = game.state.window
        turn_window = w is not None and w.step in TURN_STEPS
        for prompt in game.prompts.values():
            live.add(prompt.id)
            if prompt.id not in self.deadlines:
                kind = TURN_WINDOW if turn_window and prompt.kind == RESPONSE else prompt.kind
                slot = self.slots[prompt.seat]
                offline = slot.offline_since is not None and slot.bot is None
                seconds = self.timer(kind)
                self.timing.issue(prompt.id, seconds, self.offline_timeout if offline else None,
                                  _bot_wait(slot.bot, self.bot_delay * (TURN_WINDOW_BOT_SHARE if turn_window else 1.0),
                                            seconds))
        asked = range(w.first_prompt, w.first_prompt + len(w.eligible)) if w is not None else range(0)
        for prompt_id in [p for p in self.deadlines if p not in live]:
            deadline = self.deadlines.pop(prompt_id)
            del self._bot_at[prompt_id]
            if prompt_id in asked:
                self._answered[prompt_id] = deadline
        for prompt_id in [p for p in self._answered if p not in asked]:
            del self._answered[prompt_id]
        for prompt_id in [p for p in self._thought if p not in live]:
            del self._thought[prompt_id]
        self._think_ahead()

    def _think_ahead(self) -> None:
        """A searching bot starts on each prompt of its seat as soon as it opens, and its answer
        is applied when its wait (`_bot_wait`: at least its budget) is over, whatever it found. Its
        search ran after the delay before, so how long a bot's seat stayed in `waiting` told every
        other seat whether it had one option (a decoy skill offer, a window with nothing to play:
        answered at once) or several worth a second of search: a hidden character or hand shown."""
        game = self.game
        if game is None or self.phase != PLAYING:
            return
        for prompt in list(game.prompts.values()):
            slot = self.slots[prompt.seat]
            if (getattr(slot.bot, "thinks", False) and prompt.seat not in self._thinking
                    and prompt.id not in self._thought):
                seat_view = self.standins.seat_view(game, slot)
                if not self._think(slot, prompt, seat_view):
                    return  # no loop runs here: the bot decides in place when due

    def _due(self, now: float) -> tuple[list[Prompt], list[Prompt], list[SeatSlot]]:
        """(expired prompts, bot prompts whose delay has passed, seats due a stand-in)."""
        game = self.game
        if game is None or self.phase != PLAYING or self.timing.paused:
            return [], [], []
        expired, bot_moves = [], []
        skips = self._skips_wait()
        for prompt in game.prompts.values():
            slot = self.slots[prompt.seat]
            if self.deadlines[prompt.id] <= now:
                expired.append(prompt)
            elif slot.bot is not None and (skips(slot) or self._bot_at[prompt.id] <= now) \
                    and prompt.seat not in self._thinking:
                bot_moves.append(prompt)
        standins = [
            slot for slot in self.slots
            if slot.offline_since is not None and slot.bot is None and slot.offline_since + self.standin_grace <= now
        ]
        return expired, bot_moves, standins

    def _wake_time(self) -> float | None:
        """`_next_wake`, for the loop: whatever a bug left behind, the table's task must not end
        (every player at the table would be stuck), so a failure is logged and retried in a second."""
        try:
            return self._next_wake()
        except Exception:
            log.exception("%s: internal error while reading the table clock", self.name)
            return self.clock() + 1.0

    def _next_wake(self) -> float | None:
        game = self.game
        if self.phase == LOBBY:
            return self._lobby_due if self._dirty else None
        if game is None or self.phase != PLAYING or self.timing.paused:
            return None
        times = list(self.deadlines.values())
        skips = self._skips_wait()
        for prompt in game.prompts.values():
            slot = self.slots[prompt.seat]
            if slot.bot is not None and prompt.seat not in self._thinking:
                times.append(self.clock() if skips(slot) else self._bot_at[prompt.id])
        times += [s.offline_since + self.standin_grace for s in self.slots if s.offline_since is not None and s.bot is None]
        return min(times, default=None)

    def _run_clock(self) -> None:
        """Apply whatever is due: defaults on expiry, bot moves, stand-ins for dropped seats."""
        for _ in range(MOVES_PER_STEP):
            game = self.game
            if game is None or self.phase != PLAYING:
                return
            now = self.clock()
            self._think_ahead()  # a thought came back: the seat's next prompt may start its own
            expired, bot_moves, standins = self._due(now)
            for slot in standins:
                self.standins.stand_in(game, slot)
                self._dirty = True
                log.info("%s: a bot plays seat %d (%s) until its owner returns", self.name, slot.index, slot.name)
            if not expired and not bot_moves:
                return
            if expired:
                prompt = min(expired, key=lambda p: game.priority_key(p.seat))
                self.timeouts += 1
                self.max_lateness = max(self.max_lateness, now - self.deadlines[prompt.id])
                log.info("%s: seat %d timed out on %s", self.name, prompt.seat, prompt.kind)
                self._apply(prompt.seat, prompt.id, prompt.default, "timed out: default")
                session = self.slots[prompt.seat].session
                if session is not None:  # the log shows what was done, this says it was not them
                    session.send(P.error(P.TIMED_OUT, "time ran out: the default was taken", prompt.id))
            else:
                prompt = min(bot_moves, key=lambda p: game.priority_key(p.seat))
                self._bot_move(self.slots[prompt.seat], prompt)
        # More is due: come straight back after letting other tasks run.
        self._wake.set()

    def _bot_move(self, slot: SeatSlot, prompt: Prompt) -> None:
        game = self.game
        assert game is not None and slot.bot is not None
        option = self._thought.pop(prompt.id, None)
        if option is None:
            seat_view = self.standins.seat_view(game, slot)
            if getattr(slot.bot, "thinks", False) and self._think(slot, prompt, seat_view):
                return
            option = self.standins.answer(slot, prompt, seat_view)
        self._apply(slot.index, prompt.id, self.standins.checked(prompt, option), "bot:")

    def _think(self, slot: SeatSlot, prompt: Prompt, seat_view: dict[str, Any]) -> bool:
        """Let a searching bot decide in a worker thread (its budget is up to a second or so), so
        that this loop goes on serving every table, clocks and frames, meanwhile. The view is the
        bot's own fresh dict. Until the answer is back the seat is not moved again (the bot is not
        thread-safe) but its deadline runs as usual: if the prompt closed meanwhile (timed out,
        default taken) the answer is dropped. False when no loop runs here (decide in place)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return False
        bot, game, seat = slot.bot, self.game, slot.index
        assert bot is not None
        future = loop.run_in_executor(None, bot.decide, seat_view)
        self._thinking[seat] = future

        def done(f: asyncio.Future[str]) -> None:
            if self._thinking.get(seat) is f:
                del self._thinking[seat]
            if f.cancelled() or self.game is not game or self.phase != PLAYING:
                return
            if f.exception() is not None:
                log.error("%s: bot of seat %d failed; taking the default", self.name, seat, exc_info=f.exception())
                option = prompt.default
            else:
                option = f.result()
            live = game.prompts.get(seat) if game is not None else None
            if live is not None and live.id == prompt.id:
                self._thought[prompt.id] = option
            self.post(("thought",))

        future.add_done_callback(done)
        return True

    def _finish(self) -> None:
        game = self.game
        assert game is not None
        self.phase = OVER
        self.timing.clear()
        self.games_finished += 1
        s = game.state
        log.info("%s: game over: winners %s (%s)", self.name, list(s.winners), s.win_reason)
        journal = self.journal
        if journal is None:
            return
        self.journal = None
        journal.append({"t": "end", "winners": list(s.winners), "reason": s.win_reason})
        journal.flush()  # to the OS before anyone is told, as every record (the fsync follows)
        frames, self.replay_frames = self.replay_frames, None
        seats = len(self.slots)
        if self.files_in_background:
            with contextlib.suppress(RuntimeError):  # no loop: written here and now
                writing = asyncio.get_running_loop().run_in_executor(
                    None, self._write_files, journal, game, frames, seats)
                self._writing.add(writing)
                writing.add_done_callback(self._written)
                return
        self._write_files(journal, game, frames, seats)

    def _written(self, writing: asyncio.Future[None]) -> None:
        self._writing.discard(writing)
        if not writing.cancelled() and writing.exception() is not None:
            log.error("%s: could not write a finished game's files", self.name, exc_info=writing.exception())

    def _write_files(self, journal: Journal, game: Game, frames: FrameLog | None, seats: int) -> None:
        """The journal closed (fsynced), the game's record and each seat's (and the public) replay.
        Reads only the finished game, which nothing changes any more: safe in a worker thread.
        A disk that cannot take them is logged (one line); the players have been told the end."""
        try:
            self._write_game_files(journal, game, frames, seats)
        except (OSError, ReplayError) as exc:
            log.error("%s: could not write the finished game's record and replays beside %s: %s",
                      self.name, journal.path, exc)

    def _write_game_files(self, journal: Journal, game: Game, frames: FrameLog | None, seats: int) -> None:
        journal.close()
        path = journal.path
        s = game.state
        write_private(path.with_suffix(".record"), pack_record(game.record()))
        public = {"players": s.config.players, "identities": s.config.identities, "deck": s.config.deck,
                  "characters": s.config.characters}
        for seat in [*range(seats), None]:
            label = "public" if seat is None else f"seat{seat}"
            write_replay(
                path.with_suffix(f".{label}{REPLAY_SUFFIX}"),
                {"table": self.name, "seat": seat, "config": public,
                 "events": events_for(game, seat, 0), "final": view(game, seat),
                 "frames": frames.frames.get(seat, []) if frames is not None else []},
            )

    # ------------------------------------------------------------------ resume after a crash

    @classmethod
    def resume(cls, path: Path, accept_loss: bool = False, **options: Any) -> Table:
        """Rebuild a table from its journal: same config, seed and choices, hence the same state.

        Seats keep their tokens, so players reconnect as before; until they do they count as
        offline (short deadlines, then a stand-in bot). A torn last record (a crash mid-write) is
        reported and dropped. Damage with whole records after it refuses the resume (JournalDamaged,
        the file untouched) unless `accept_loss`: then the whole file is first copied aside.
        """
        contents = read_journal(path)
        damage = contents.damage
        if damage is not None and not damage.torn:
            if not accept_loss:
                raise JournalDamaged(
                    f"{damage.describe(path)}. Nothing was changed; to resume from the "
                    f"{len(contents.choices)} choices before it, accept the loss (--accept-loss)", damage)
            log.warning("%s; the loss is accepted, the whole file is kept as %s", damage.describe(path),
                        keep_aside(path))
        elif damage is not None:
            log.warning("%s", damage.describe(path))
        start = contents.start
        config = GameConfig.from_dict(start["config"])
        table = cls(
            start["table"],
            players=config.players,
            identities=config.identities,
            deck=config.deck,
            characters=config.characters,
            character_choices=config.character_choices,
            password=start.get("password"),
            timers=start.get("timers"),
            host_token=start["host_token"],
            **options,
        )
        table.slots = [SeatSlot(name=s["name"], token=s["token"], bot_level=s["bot"],
                                remote_bot=bool(s.get("remote_bot"))) for s in start["seats"]]
        table.seats.reindex()
        game = Game.new(config, int(start["seed"]))
        for seat, prompt_id, option in contents.choices:
            try:
                game.choose(seat, prompt_id, option)
            except ChoiceError as exc:
                raise JournalError(f"{path}: choice {seat, prompt_id, option} does not replay: {exc}") from None
        table.game = game
        now = table.clock()
        table.standins.deal(game, table.slots)
        for slot in table.slots:
            slot.offline_since = None if slot.bot_level is not None else now
        if game.over or contents.end is not None:
            table.phase = OVER if game.over else LOBBY
            if table.phase == LOBBY:
                table.game = None
        else:
            table.phase = PLAYING
            table.journal = Journal.reopen(path, contents.valid_bytes)
            table.replay_frames = FrameLog(table.players)  # what was seen before the crash is not known
            table._sync_prompts()
        log.info(
            "%s: resumed from %s: %d choices, state hash %s", table.name, path.name, len(contents.choices),
            game.state_hash(),
        )
        return table


def _file_name(name: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in name)[:40] or "table"
