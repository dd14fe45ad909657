"""The host's commands (`op` messages): one handler per command of `protocol.OP_COMMANDS`.

Each handler checks its own arguments and the table's phase, then changes the table's settings,
seats or clock; a command that cannot be applied raises `OpError`, which becomes an `error` to the
host alone and changes nothing. Only `Table` calls in (`apply`), from its own task.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from bots import LEVELS
from engine import ConfigError, identity_options
from net import protocol as P
from net.clock import TIMER_NAMES
from net.seats import LOBBY, OVER, PLAYING, SeatSlot, Session
from net.standins import STANDIN_LEVEL

if TYPE_CHECKING:
    from net.table import Table

log = logging.getLogger("fengsheng.table")


class OpError(Exception):
    """A host command that cannot be applied; becomes an `error` for the host only."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def timer_seconds(value: Any, what: str) -> float:
    least, most = P.TIMER_RANGE
    if type(value) not in (int, float) or not least <= value <= most:
        raise OpError(P.BAD_MESSAGE, f"{what} must be a number of seconds in [{least:g}, {most:g}]")
    return float(value)


class HostOps:
    """The host's commands on one table, by name (`apply`)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self._handlers: dict[str, Callable[[dict[str, Any]], None]] = {
            command: getattr(self, command) for command in P.OP_COMMANDS
        }

    def apply(self, session: Session, command: str, args: dict[str, Any]) -> None:
        table = self.table
        if not session.is_host:
            session.send(P.error(P.NOT_HOST, "only the host may do that"))
            return
        try:
            self._handlers[command](args)
        except OpError as exc:
            session.send(P.error(exc.code, exc.message))
            return
        log.info("%s: host: %s %s", table.name, command, _loggable(args) or "")
        table._dirty = True

    def _lobby_only(self, what: str) -> None:
        table = self.table
        if table.phase == PLAYING:
            raise OpError(P.BAD_STATE, f"{what} only before the game starts (or after it ends)")

    def _arg(self, args: dict[str, Any], key: str, kind: type, default: Any = ...) -> Any:
        value = args.get(key, default)
        if value is ...:
            raise OpError(P.BAD_MESSAGE, f"missing argument {key!r}")
        if type(value) is not kind and not (value is None and default is None):
            raise OpError(P.BAD_MESSAGE, f"argument {key!r} must be {kind.__name__}")
        return value

    def _check_config(self, **changes: Any) -> None:
        table = self.table
        try:
            table._config(**changes).validate()
        except ConfigError as exc:
            raise OpError(P.BAD_STATE, str(exc)) from None

    def set_players(self, args: dict[str, Any]) -> None:
        table = self.table
        self._lobby_only("set_players")
        players = self._arg(args, "players", int)
        if players < len(table.slots):
            raise OpError(P.BAD_STATE, f"{len(table.slots)} seats are taken; remove bots or kick first")
        try:
            options = identity_options(players)
        except KeyError:
            raise OpError(P.BAD_STATE, f"no game for {players} players") from None
        identities = table.identities
        if identities not in options or (options[identities][2] and not table.characters):
            identities = first_identities(players, table.characters)
        if options[identities][2] and not table.characters:
            raise OpError(
                P.BAD_STATE,
                f"every {players}-player configuration has a neutral (打酱油的), who can only win through a "
                "character's secret task: turn characters on first",
            )
        self._check_config(players=players, identities=identities)
        table.players, table.identities = players, identities

    def set_identities(self, args: dict[str, Any]) -> None:
        table = self.table
        self._lobby_only("set_identities")
        identities = self._arg(args, "identities", str)
        counts = identity_options(table.players).get(identities)
        if counts is not None and counts[2] and not table.characters:
            raise OpError(
                P.BAD_STATE,
                f"{identities!r} has {counts[2]} neutral (打酱油的), who can only win through a character's "
                "secret task: turn characters on first",
            )
        self._check_config(identities=identities)
        table.identities = identities

    def set_deck(self, args: dict[str, Any]) -> None:
        table = self.table
        self._lobby_only("set_deck")
        deck = self._arg(args, "deck", str)
        self._check_config(deck=deck)
        table.deck = deck

    def set_characters(self, args: dict[str, Any]) -> None:
        """On or off (`on`, or `characters` as the lobby screen sends it). Off needs a neutral-free
        identity configuration: the current one if it is, else the first there is, else refused."""
        table = self.table
        self._lobby_only("set_characters")
        on = self._arg(args, "on" if "on" in args else "characters", bool)
        identities = table.identities
        options = identity_options(table.players)
        if not on and options[identities][2]:
            identities = first_identities(table.players, False)
            if options[identities][2]:
                raise OpError(
                    P.BAD_STATE,
                    f"every {table.players}-player configuration has a neutral (打酱油的), who needs characters: "
                    "change the number of players first",
                )
        self._check_config(characters=on, identities=identities)
        table.characters, table.identities = on, identities

    def set_character_choices(self, args: dict[str, Any]) -> None:
        """Characters dealt to each seat to pick from: 3 (the original rules) or 2 (a later edition)."""
        table = self.table
        self._lobby_only("set_character_choices")
        choices = self._arg(args, "choices", int)
        self._check_config(character_choices=choices)
        table.character_choices = choices

    def set_timers(self, args: dict[str, Any]) -> None:
        table = self.table
        timers = dict(table.timers)
        for kind, seconds in args.items():
            if kind not in TIMER_NAMES:
                raise OpError(P.BAD_MESSAGE, f"no timer {kind!r}; timers are {', '.join(TIMER_NAMES)}")
            timers[kind] = timer_seconds(seconds, kind)
        table.timers = timers

    def set_bot_delay(self, args: dict[str, Any]) -> None:
        """How long an in-process bot waits before it answers (0: at once), from the next prompt."""
        table = self.table
        seconds: Any = args.get("seconds")
        least, most = P.BOT_DELAY_RANGE
        if type(seconds) not in (int, float) or not least <= seconds <= most:
            raise OpError(P.BAD_MESSAGE, f"seconds must be a number in [{least:g}, {most:g}]")
        table.bot_delay = float(seconds)

    def set_password(self, args: dict[str, Any]) -> None:
        table = self.table
        password = self._arg(args, "password", str, None) or None
        problem = P.CLIENT_MESSAGES["hello"]["password"].check(password)
        if problem:  # no hello could carry it: the table would be closed to everyone
            raise OpError(P.BAD_MESSAGE, f"the password {problem}")
        table.password = password

    def add_bot(self, args: dict[str, Any]) -> None:
        table = self.table
        self._lobby_only("add_bot")
        level = self._arg(args, "level", str, STANDIN_LEVEL) or STANDIN_LEVEL
        if level not in LEVELS:
            raise OpError(P.BAD_MESSAGE, f"no bot level {level!r}; choose one of {', '.join(LEVELS)}")
        if len(table.slots) >= table.players:
            raise OpError(P.FULL, f"all {table.players} seats are taken")
        table.add_bot(level)

    def remove_bot(self, args: dict[str, Any]) -> None:
        table = self.table
        self._lobby_only("remove_bot")
        slot = self._seat_arg(args)
        if slot.bot_level is None:
            raise OpError(P.BAD_STATE, f"seat {slot.index} is not a bot")
        table.seats.remove(slot)

    def _seat_arg(self, args: dict[str, Any]) -> SeatSlot:
        table = self.table
        seat = self._arg(args, "seat", int)
        if not 0 <= seat < len(table.slots):
            raise OpError(P.BAD_MESSAGE, f"no seat {seat}")
        return table.slots[seat]

    def kick(self, args: dict[str, Any]) -> None:
        table = self.table
        slot = self._seat_arg(args)
        if slot.bot_level is not None:
            raise OpError(P.BAD_STATE, f"seat {slot.index} is a bot; use remove_bot")
        table.seats.kick(slot)
        if table.phase == LOBBY:
            table.seats.remove(slot)
        else:
            # The token is revoked and a bot plays the seat to the end of the game.
            slot.token = None
            slot.bot_level = STANDIN_LEVEL
            slot.offline_since = None
            slot.auto = False
            if table.game is not None:
                table.standins.stand_in(table.game, slot)
        log.info("%s: kicked %s from seat %d", table.name, slot.name, slot.index)

    def mute(self, args: dict[str, Any]) -> None:
        """Mute (`on`, default true) one seat's chat (`seat`) or every spectator's (`spectators`)."""
        table = self.table
        on = self._arg(args, "on", bool, True)
        if "spectators" in args:
            if self._arg(args, "spectators", bool):
                table.seats.spectators_muted = on
            return
        self._seat_arg(args).muted = on

    def start(self, args: dict[str, Any]) -> None:
        table = self.table
        if table.phase == OVER:  # a rematch with whoever is here
            table._to_lobby()
        self._lobby_only("start")
        table._start_game()

    def end(self, args: dict[str, Any]) -> None:
        table = self.table
        if table.phase != PLAYING:
            raise OpError(P.BAD_STATE, "no game in progress")
        if table.journal is not None:
            table.journal.append({"t": "end", "reason": "ended by the host"}, sync=True)
            table.journal.close()
            table.journal = None
        table._to_lobby()
        log.info("%s: game ended by the host", table.name)

    def pause(self, args: dict[str, Any]) -> None:
        """Stop the table clock: no deadline runs out, no bot moves, until `resume`."""
        table = self.table
        if table.phase != PLAYING:
            raise OpError(P.BAD_STATE, "no game in progress")
        if table.timing.pause("host"):
            log.info("%s: paused by the host", table.name)

    def resume(self, args: dict[str, Any]) -> None:
        """Run the clock again: every deadline, bot delay and stand-in grace shifts by the pause."""
        table = self.table
        shift = table.timing.resume()
        if shift is None:
            return
        for slot in table.slots:
            if slot.offline_since is not None:
                slot.offline_since += shift
        log.info("%s: resumed after a pause of %.1f s", table.name, shift)


def first_identities(players: int, characters: bool = False) -> str:
    """With characters, the rules' standard configuration; without, the first one with no neutral
    (or the standard one, which the config check then refuses with its reason)."""
    options = identity_options(players)
    if not characters:
        for name, counts in options.items():
            if counts[2] == 0:
                return name
    return next(iter(options))


#: Host-op arguments whose value the log never shows (the console may be read by other players).
SECRET_ARGS = frozenset({"password", "token", "host_token"})


def _loggable(args: dict[str, Any]) -> dict[str, Any]:
    """A host op's arguments as the log shows them: a secret only as set or cleared."""
    return {key: ("(set)" if value else "(cleared)") if key in SECRET_ARGS else value for key, value in args.items()}
