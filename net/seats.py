"""Who sits where at a table: seats, tokens, claims, host rights, and the connections present.

`Seats` is owned by its `Table` and called one way: the table asks it whether a hello may join,
seats the connection, hands the host rights on and drops those who left; it never calls back.
What a seat change means for a game in progress (deadlines, stand-in bots) stays the table's.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bots import Bot
from net import names
from net import protocol as P
from net.connection import FramedConnection, RateLimiter

if TYPE_CHECKING:
    from net.fanout import Held

log = logging.getLogger("fengsheng.table")

LOBBY, PLAYING, OVER = "lobby", "playing", "over"
#: The `bot` of a seat (lobby and game views) whose client said it is a program (`fengsheng bot`'s
#: hello has `bot: true`). The table cannot check that claim, so it never shows it as it shows the
#: bots it runs itself (a level in the lobby, `true` in a game): a human sending `bot: true` is
#: shown as a self-declared bot, never as one of the table's.
REMOTE_BOT = "remote"
CHAT_RATE = 1.0
CHAT_BURST = 5
#: Chat lines from one address, whatever number of connections it opened (16 spectators each at
#: CHAT_RATE would drown the table): twice one connection's budget, for friends on one machine.
ADDRESS_CHAT_RATE = 2 * CHAT_RATE
ADDRESS_CHAT_BURST = 2 * CHAT_BURST
#: `ready`, `auto` (托管) and `fast_forward` changes per connection: each one is a frame to every
#: connection at the table, so toggling at the frame rate would repaint everyone's screen 50
#: times a second. A player pressing the key a few times stays well inside.
TOGGLE_RATE = 2.0
TOGGLE_BURST = 6
#: A seat's connection heard from within this many seconds is live: a token cannot take the seat
#: from it. Clients ping every 20 s when idle, so only a connection that died without a word
#: (a laptop whose network went away) is older, and then the returning owner may take it over.
LIVE_SILENCE = 45.0

_closing: set[asyncio.Task[None]] = set()


def same_secret(given: str, expected: str) -> bool:
    """A password or token compared in constant time, as UTF-8 bytes: `compare_digest` refuses
    two str holding anything but ASCII (a TypeError for a Chinese password, or a stranger's token)."""
    return secrets.compare_digest(given.encode("utf-8"), expected.encode("utf-8"))


class Session:
    """One accepted connection at a table: a seat's player, or a spectator (seat None)."""

    def __init__(self, conn: FramedConnection, name: str, is_host: bool) -> None:
        self.conn = conn
        self.name = name
        self.is_host = is_host
        self.seat: int | None = None
        #: Events of the current game already sent on this connection.
        self.since = 0
        #: The view this connection holds (`net.fanout.Held`), which the next `patch` is taken
        #: against; None until a full `update` (a new connection, a new game, the lobby in between).
        self.base: Held | None = None
        self.chat_limiter = RateLimiter(CHAT_RATE, CHAT_BURST)
        self.toggle_limiter = RateLimiter(TOGGLE_RATE, TOGGLE_BURST)
        peer = getattr(conn, "peer", None)
        #: The peer's host, which shares one chat budget with every connection from it.
        self.address = str(peer[0]) if isinstance(peer, tuple) and peer else str(peer)
        #: This connection asked to fast-forward the current game (`net.standins.StandIns.hurry`).
        self.fast_forward = False

    def send(self, msg: dict[str, Any]) -> None:
        self.conn.send(msg)

    def close(self, reason: str) -> None:
        """Say goodbye and close from the table's (synchronous) loop; the socket drains on its own."""
        self.conn.send(P.bye(reason))
        task = asyncio.create_task(self.conn.close(reason))
        _closing.add(task)
        task.add_done_callback(_closing.discard)


@dataclass
class SeatSlot:
    """A seat: a human (with a token) or a host-added bot (`bot_level`, no token)."""

    name: str
    token: str | None
    bot_level: str | None = None
    session: Session | None = None
    ready: bool = False
    offline_since: float | None = None
    #: The bot deciding for this seat now: the seat's own bot, or a stand-in for a dropped human.
    bot: Bot | None = None
    bot_since: int = 0
    index: int = field(default=0)
    #: Host rights given to this seat (an open table's first player): they come back with its token.
    host: bool = False
    #: A program plays this seat over the network (`fengsheng bot`): shown as a bot, never the host.
    remote_bot: bool = False
    #: The host muted this seat: its chat goes nowhere.
    muted: bool = False
    #: The seat's player handed it to a bot (托管) and has not taken it back (`net.standins`).
    auto: bool = False

    @property
    def online(self) -> bool:
        return self.bot_level is not None or self.session is not None


def seat_bot(slot: SeatSlot) -> bool | str:
    """A game view's `bot` for a seat: True while a bot of the table plays it (its own, a stand-in,
    托管), REMOTE_BOT for a client that says it is one, False for a human."""
    if slot.bot is not None:
        return True
    return REMOTE_BOT if slot.remote_bot else False


class Seats:
    """The seats of one table and every connection present (seated or spectating)."""

    def __init__(self, table: str, host_token: str, open_host: bool) -> None:
        self.table = table
        self.host_token = host_token
        #: While nobody holds the host rights, the next player to take a seat gets them: a
        #: headless server's table (`fengsheng host`) is set up by someone who then joins it.
        self.open_host = open_host
        self.slots: list[SeatSlot] = []
        self.sessions: set[Session] = set()
        #: The host muted every spectator (`mute` with `spectators`).
        self.spectators_muted = False
        self.live_silence = LIVE_SILENCE
        self._address_chat: dict[str, RateLimiter] = {}

    # ------------------------------------------------------------------ joining

    def is_host_token(self, token: str | None) -> bool:
        return token is not None and same_secret(token, self.host_token)

    def refusal(self, msg: dict[str, Any], is_host: bool, phase: str, players: int,
                password: str | None) -> P.ProtocolError | None:
        """Why this hello may not join now (None: it may).

        The password comes first, so a stranger learns nothing else; then the token (unknown, or
        its seat in use by a live connection); then, for everyone who does not take back a seat,
        the free seats and the name. After a game is over a fresh player joins the lobby that
        the table would gather for (the seats of those who left are free again).
        """
        token = msg["token"]
        if password and not is_host and not (
            msg["password"] is not None and same_secret(msg["password"], password)
        ):
            return P.ProtocolError(P.AUTH, "wrong or missing table password")
        claim = self.slot_for_token(token)
        if token is not None and not is_host and claim is None:
            return P.ProtocolError(P.AUTH, "unknown seat token")
        if claim is not None:
            if self.live(claim) and not msg["spectate"]:
                gather = "join without the token for a fresh seat, or " if phase != PLAYING else ""
                return P.ProtocolError(
                    P.SEAT_TAKEN, f"seat {claim.index + 1} is in use by another live connection: {gather}spectate"
                )
            return None
        gathering = phase == OVER and token is None
        if gathering:
            phase = LOBBY
            taken = sum(1 for slot in self.slots if slot.session is not None or slot.bot_level is not None)
        else:
            taken = len(self.slots)
        if not msg["spectate"]:
            if not is_host and phase != LOBBY:
                return P.ProtocolError(P.FULL, "the game has started: reconnect with your token or spectate")
            if phase == LOBBY and taken >= players:
                return P.ProtocolError(P.FULL, f"all {players} seats are taken")
        if msg["bot"] and not is_host and not msg["spectate"]:
            return None  # a bot client is named by the table (`bot_name`), like the host's own bots
        bad = names.problem(msg["name"]) if not is_host else None  # the host's own name is the table's
        if bad is not None:
            return P.ProtocolError(P.BAD_NAME, bad)
        if not is_host:
            # After the end, the seats of those who left go when the table gathers: their names too.
            holder = self.name_holder(msg["name"], present_only=gathering)
            if holder is not None:
                return P.ProtocolError(P.NAME_TAKEN, f"the name {msg['name']!r} is taken at this table ({holder}): "
                                                     "choose another")
        return None

    def live(self, slot: SeatSlot) -> bool:
        """The seat has a connection that is open and was heard from lately (`LIVE_SILENCE`)."""
        session = slot.session
        if session is None or session.conn.closing:
            return False
        return time.monotonic() - session.conn.last_received < self.live_silence

    def name_holder(self, name: str, present_only: bool = False) -> str | None:
        """Who at the table already has `name` after folding ("seat 2", "a spectator"), or None;
        `present_only`: only seats that are online (or bots)."""
        key = names.skeleton(name)
        for slot in self.slots:
            if present_only and not slot.online:
                continue
            if names.skeleton(slot.name) == key:
                return f"seat {slot.index + 1}"
        for session in self.sessions:
            if session.seat is None and names.skeleton(session.name) == key:
                return "a spectator"
        return None

    def admit(self, conn: FramedConnection, msg: dict[str, Any], is_host: bool, phase: str) -> Session:
        """Seat an accepted hello: its seat taken back, a new seat, or none for a spectator."""
        session = Session(conn, msg["name"], is_host)
        slot = self.slot_for_token(msg["token"])
        if slot is not None and self.live(slot):  # a look at a seat in use: `refusal` let only that through
            log.info("%s: %s holds the token of seat %d, in use: joins as a spectator", self.table, msg["name"],
                     slot.index)
            slot = None
        if slot is not None:
            session.name = slot.name
            self._reclaim(slot, session)
        elif msg["spectate"] or (is_host and phase != LOBBY):
            log.info("%s: %s joined as a spectator%s", self.table, msg["name"], " (host)" if is_host else "")
        else:
            remote_bot = msg["bot"] and not is_host
            if remote_bot:
                session.name = self.bot_name()
            slot = SeatSlot(name=session.name, token=self.host_token if is_host else secrets.token_urlsafe(18),
                            remote_bot=remote_bot)
            slot.session = session
            self.slots.append(slot)
            self.reindex()
            log.info("%s: %s took seat %d", self.table, slot.name, slot.index)
        session.seat = slot.index if slot is not None else None
        if slot is not None and slot.bot_level is None:
            self.grant_host(slot, session, phase)
        self.sessions.add(session)
        return session

    def welcome_token(self, session: Session) -> str:
        """The token a welcome carries: the seat's, the host's for a host spectator, else "-"."""
        slot = self.slots[session.seat] if session.seat is not None else None
        if slot is not None and slot.token:
            return slot.token
        return self.host_token if session.is_host else "-"

    def grant_host(self, slot: SeatSlot, session: Session, phase: str) -> None:
        """A seat given the host rights keeps them across reconnects; on an open table nobody
        holds yet (outside a game), the seat taken now gets them."""
        if slot.host:
            session.is_host = True
        elif self.open_host and phase != PLAYING and not session.is_host and not slot.remote_bot and not any(
            s.is_host for s in self.sessions if s is not session
        ):
            slot.host = True
            session.is_host = True
            log.info("%s: %s (seat %d) holds the host rights", self.table, slot.name, slot.index)

    def slot_for_token(self, token: str | None) -> SeatSlot | None:
        if token is None:
            return None
        for slot in self.slots:
            if slot.token is not None and same_secret(slot.token, token):
                return slot
        return None

    def _reclaim(self, slot: SeatSlot, session: Session) -> None:
        old = slot.session
        if old is not None:  # open but silent past LIVE_SILENCE: it died without a word
            old.close("replaced by a new connection with this seat's token (this one was silent)")
            self.sessions.discard(old)
        slot.session = session
        was_offline = slot.offline_since is not None
        slot.offline_since = None
        if slot.bot_level is None and slot.bot is not None and not slot.auto:  # 托管 stays until taken back
            slot.bot = None
            log.info("%s: seat %d's owner is back; the stand-in bot stops", self.table, slot.index)
        log.info("%s: %s %s seat %d", self.table, slot.name, "reconnected to" if was_offline else "took over",
                 slot.index)

    # ------------------------------------------------------------------ leaving

    def gone(self, session: Session, phase: str) -> SeatSlot | None:
        """A connection ended. Returns its seat if it had one (in the lobby the seat is gone too,
        and the host rights move on); None for a spectator or a connection already replaced."""
        if session not in self.sessions:
            return None
        self.sessions.discard(session)
        seat = session.seat
        if seat is None or seat >= len(self.slots) or self.slots[seat].session is not session:
            return None
        slot = self.slots[seat]
        slot.session = None
        if phase == LOBBY:
            self.slots.remove(slot)
            self.reindex()
            log.info("%s: %s left the lobby", self.table, slot.name)
            if session.is_host:
                self._pass_host_on(phase)
        return slot

    def _pass_host_on(self, phase: str) -> None:
        """The host left an open table's lobby: the player seated longest takes the rights over."""
        if not self.open_host or any(s.is_host for s in self.sessions):
            return
        for slot in self.slots:
            if slot.session is not None and slot.bot_level is None and not slot.remote_bot:
                self.grant_host(slot, slot.session, phase)  # the next lobby frame tells him
                return

    def kick(self, slot: SeatSlot) -> None:
        """Close the seat's connection; the table decides what becomes of the seat."""
        if slot.session is not None:
            slot.session.close("kicked by the host")
            self.sessions.discard(slot.session)
            slot.session = None

    def remove(self, slot: SeatSlot) -> None:
        self.slots.remove(slot)
        self.reindex()

    def reindex(self) -> None:
        for i, slot in enumerate(self.slots):
            slot.index = i
            if slot.session is not None:
                slot.session.seat = i

    # ------------------------------------------------------------------ bots, lobby, chat

    def append_bot(self, level: str) -> None:
        self.slots.append(SeatSlot(name=self.bot_name(), token=None, bot_level=level, ready=True))
        self.reindex()

    def bot_name(self) -> str:
        """`Bot N`, the lowest number no seat or spectator has: the one name style of every bot,
        the host's own and `fengsheng bot` clients alike ("Bot N" is reserved, so no human has it)."""
        taken = {names.skeleton(slot.name) for slot in self.slots}
        taken |= {names.skeleton(session.name) for session in self.sessions}
        number = next(n for n in range(1, 1000) if names.skeleton(f"Bot {n}") not in taken)
        return f"Bot {number}"

    def to_lobby(self) -> None:
        """Before another game: the players present and the bots stay, every human must be ready again."""
        for slot in list(self.slots):
            slot.bot = None
            slot.auto = False
            slot.ready = slot.bot_level is not None
            if slot.session is None and slot.bot_level is None:
                self.slots.remove(slot)
        self.reindex()

    def lobby_entries(self) -> list[dict[str, Any]]:
        return [
            {
                "index": i,
                "name": slot.name,
                "bot": REMOTE_BOT if slot.remote_bot else slot.bot_level,
                "online": slot.online,
                "ready": slot.ready,
                "host": slot.host or (slot.session is not None and slot.session.is_host),
                "muted": slot.muted,
            }
            for i, slot in enumerate(self.slots)
        ]

    def chat_name(self, session: Session) -> str:
        return self.slots[session.seat].name if session.seat is not None else session.name

    def may_chat(self, session: Session) -> bool:
        """Within the chat budget of its connection and of its address (`ADDRESS_CHAT_RATE`)."""
        limiters = self._address_chat
        shared = limiters.get(session.address)
        if shared is None:
            if len(limiters) >= 256:  # forget the addresses nobody is connected from any more
                present = {s.address for s in self.sessions}
                for address in [a for a in limiters if a not in present]:
                    del limiters[address]
            shared = limiters[session.address] = RateLimiter(ADDRESS_CHAT_RATE, ADDRESS_CHAT_BURST)
        return session.chat_limiter.allow() and shared.allow()

    def muted(self, session: Session) -> bool:
        if session.seat is None:
            return self.spectators_muted
        return self.slots[session.seat].muted
