"""Stand-in bots: who decides for a seat no human plays now, and whether the table may hurry.

A seat is played by a bot (`SeatSlot.bot`) when it is a bot's seat (host-added), when its human
dropped and the grace ran out (a stand-in until he returns), or when its human handed it over
(托管, `SeatSlot.auto`: until he takes it back, a reconnect included). Every bot decides from
`view(game, seat)` and `events_for(game, seat, since)` only: what the seat's own player would see,
nothing more; its choice goes the way a human's does (the seat's own frames, the public log).

`StandIns` is owned by the `Table` and called one way: it sets bots on seats and says what a bot
chooses; the table applies the choice. Fast-forward lives here too, because its rule is about who
plays: the table skips the bots' delay only while no living seat is a human deciding for himself.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from operator import attrgetter
from typing import Any

from bots import Bot, make_bot
from engine import Game, Prompt, events_for, view
from net.seats import SeatSlot, Session

#: Whether a connection asked to fast-forward.
_ASKED = attrgetter("fast_forward")

log = logging.getLogger("fengsheng.table")

#: The bot that takes a dropped seat (or a kicked player's) to the end of the game.
STANDIN_LEVEL = "random"
#: The bot a player hands his seat to (托管): it should play his cards sensibly.
AUTO_LEVEL = "normal"


def bot_played(slot: SeatSlot) -> bool:
    """A program decides for this seat now: its own bot, a stand-in, 托管, or a remote bot."""
    return slot.bot is not None or slot.remote_bot


class StandIns:
    def __init__(self, table: str) -> None:
        self.table = table

    def new_bot(self, game: Game | None, level: str, seat: int) -> Bot:
        base = game.state.seed if game is not None else 0
        return make_bot(level, seat, base * 31 + seat)

    def deal(self, game: Game, slots: Iterable[SeatSlot]) -> None:
        """A new game: bots' seats get their bot, every human plays his own seat."""
        for slot in slots:
            slot.bot = self.new_bot(game, slot.bot_level, slot.index) if slot.bot_level is not None else None
            slot.bot_since = 0
            slot.auto = False

    def stand_in(self, game: Game, slot: SeatSlot, level: str = STANDIN_LEVEL) -> None:
        """A bot plays the seat from now on; it reads the seat's events from the first (what the
        seat's own player was shown), so it knows what he knew."""
        if slot.bot is None:
            slot.bot = self.new_bot(game, level, slot.index)
            slot.bot_since = 0

    def hand_over(self, game: Game, slot: SeatSlot, on: bool) -> bool:
        """托管 on or off, asked by the seat's own connection; True if anything changed.

        On: a bot answers every prompt of the seat, the one open now included. Off: the human
        decides again, the open prompt with the time it has left (its deadline never moved).
        """
        if slot.bot_level is not None or slot.auto == on:
            return False
        slot.auto = on
        if on:
            self.stand_in(game, slot, AUTO_LEVEL)
            log.info("%s: seat %d (%s) handed to a bot (托管)", self.table, slot.index, slot.name)
        else:
            if slot.session is not None:  # offline, the stand-in stays until he is back
                slot.bot = None
            log.info("%s: seat %d (%s) taken back from the bot", self.table, slot.index, slot.name)
        return True

    def seat_view(self, game: Game, slot: SeatSlot) -> dict[str, Any]:
        """What the seat's bot decides from: it is told the seat's events since it last looked
        (`events_for`, the seat's own projection), and given `view(game, seat)`; nothing else."""
        bot = slot.bot
        assert bot is not None
        bot.observe(events_for(game, slot.index, slot.bot_since))
        slot.bot_since = len(game.events)
        return view(game, slot.index)

    def answer(self, slot: SeatSlot, prompt: Prompt, seat_view: dict[str, Any]) -> str:
        """The bot's choice from `seat_view` (the default if the bot fails)."""
        bot = slot.bot
        assert bot is not None
        try:
            return bot.decide(seat_view)
        except Exception:
            log.exception("%s: bot of seat %d failed; taking the default", self.table, slot.index)
            return prompt.default

    @staticmethod
    def checked(prompt: Prompt, option: str) -> str:
        """A bot's option if the prompt offers it, else the prompt's default."""
        return option if prompt.find(option) is not None else prompt.default

    def decide(self, game: Game, slot: SeatSlot, prompt: Prompt) -> str:
        """The seat's bot's answer to its open prompt, from the seat's view only."""
        return self.checked(prompt, self.answer(slot, prompt, self.seat_view(game, slot)))

    # ------------------------------------------------------------------ fast-forward

    @staticmethod
    def may_ask_hurry(game: Game, session: Session) -> bool:
        """Who may ask to fast-forward: a spectator, or a player whose seat is out of the game."""
        return session.seat is None or not game.state.seats[session.seat].in_game

    def hurry(self, game: Game, slots: list[SeatSlot], sessions: Iterable[Session]) -> bool:
        """The table skips the bots' delay: someone who may ask did ask (a spectator, a dead
        player), and no seat still in the game is a human deciding for himself (each is a bot,
        a stand-in, 托管 or a remote program), so hurrying takes nobody's time to think."""
        # Asked by nobody, as a rule: found in C before anyone's right to ask is looked at.
        if game.over or not any(map(_ASKED, sessions)) \
                or not any(s.fast_forward and self.may_ask_hurry(game, s) for s in sessions):
            return False
        seats = game.state.seats
        return all(bot_played(slot) for slot in slots if seats[slot.index].in_game)
