"""The table: every seat, the message in transit, the stack, our hand, the log and the prompt."""

from __future__ import annotations

import random
import time

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.widget import Widget
from textual.widgets import Input, Static

from ..choice import PASS_VERBS, Chooser
from ..keys import TABLE_KEYS
from ..widgets.footer import GameFooter
from ..widgets.hand import HandPanel
from ..widgets.log import EventLog
from ..widgets.prompt import ROWS, PromptPanel, is_decoy
from ..widgets.ring import Ring
from ..widgets.status import Banner, StatusBar
from .base import FsScreen

PROMPT_LINES = ROWS
#: The smallest terminal the table is laid out for; below it a notice says so.
MIN_SIZE = (80, 24)
#: The log keeps at least this many rows: the message panel gives up lines first.
LOG_MIN = 3
#: Seconds before an automatic pass, drawn from a generator of our own (never the game's), so
#: the table cannot tell "nothing to play" from "thought about it".
AUTO_PASS_DELAY = (0.6, 1.8)
#: The same at turn start and turn end (RULES.md §4), where a window holds nothing to follow and
#: comes twice a turn: a shorter pause keeps the pace, drawn the same way whatever the hand.
TURN_AUTO_PASS_DELAY = (0.3, 0.9)
TURN_PHASES = ("turn_start", "turn_end")
#: Seconds after a new prompt appears during which Enter and Space do nothing, when the prompt
#: before it closed without our key (the automatic pass fired first, or it timed out): a Space aimed
#: at that one must not end a play phase or decline a message the player has not seen. Long enough
#: for a player who saw the pass coming to notice the new prompt; other keys work at once.
KEY_GUARD = 1.5
#: Prompts about hand cards: the digit keys belong to them even when no card is usable now.
CARD_KINDS = ("play", "send", "response", "probe_discard")
#: Columns from which the stack stands beside the message's route instead of under it.
WIDE = 110
#: Each widget's own style sheet, beside its module.
WIDGET_CSS = ("status", "ring", "seat", "message_path", "stack", "hand", "log", "prompt")
#: Seconds between checks of the countdowns (a redraw happens only when a shown second changes).
TICK = 0.25


class TableScreen(FsScreen):
    CSS_PATH = ["table.tcss", *(f"../widgets/{name}.tcss" for name in WIDGET_CSS)]

    KEYS = TABLE_KEYS

    def __init__(self) -> None:
        super().__init__()
        self.chooser = Chooser()
        self.heights: dict[str | None, int] = {}
        self.auto_pass_rng = random.Random()
        self.footer_for: tuple[bool, ...] | None = None
        #: The countdowns the screen shows now: `tick` redraws only when one of them changes.
        self.shown_countdowns: dict[int, int | None] = {}
        #: The response prompt an automatic pass is scheduled for.
        self.auto_pass_for: int | None = None
        #: (when, seconds): the last automatic pass scheduled, for tests and nothing else.
        self.auto_pass_due: tuple[float, float] | None = None
        #: (prompt id, when it appeared if Enter and Space must wait KEY_GUARD seconds for it).
        self.prompt_seen: tuple[object, float | None] = (None, None)
        #: The last prompt answered with a key (not by the automatic pass).
        self.keyed_for: object = None
        #: A prompt left without our key: the next one to appear is guarded.
        self.missed = False
        #: ((turn, terminal size), rows the ring had then) and the most it could take: see fit_ring.
        self.ring_room: tuple[object, int] = (None, 0)
        self.ring_most = 0
        #: (prompt id, rows) the prompt panel had for the open prompt: it keeps them till answered.
        self.prompt_rows: tuple[object, int] = (None, 0)
        #: The prompt the terminal bell last rang for (Settings `b`).
        self.belled_for: object = None
        #: The note a key held by the pause left (it goes once the table runs again).
        self.held_note: str | None = None
        #: We asked the server to fast-forward this game (a dead player's or a spectator's `v`).
        self.hurry_asked = False

    def compose(self) -> ComposeResult:
        yield StatusBar(id="status")
        yield Banner(id="banner")
        yield Ring()
        yield HandPanel(id="hand")
        yield EventLog(id="log")
        yield PromptPanel(id="prompt")
        yield Input(id="chat", placeholder=self.fs_app.words("chat_placeholder"), max_length=200, disabled=True)
        yield Static(id="too-small")
        yield GameFooter(show_command_palette=False)

    def on_mount(self) -> None:
        self.shown = True
        self.set_interval(TICK, self.tick)
        self.refresh_view()

    def on_resize(self) -> None:
        self.refresh_view()

    def relabel(self) -> None:
        super().relabel()
        self.query_one("#chat", Input).placeholder = self.fs_app.words("chat_placeholder")

    def tick(self) -> None:
        """Redraw when a shown countdown's whole second changes: checked four times a second, so
        the seconds turn on time, yet the screen is sent at most once a second (SSH bandwidth)."""
        countdowns = self.fs_app.state.countdowns()
        if countdowns and countdowns != self.shown_countdowns:
            self.refresh_view(log=False)

    def refresh_view(self, log: bool = True) -> None:
        """Every panel has a height fixed from its line count, so an update re-lays out the screen
        only when some panel grows or shrinks (auto heights would measure every panel every time)."""
        if not self.shown:
            return
        app = self.fs_app
        state, words = app.state, app.words
        self.shown_countdowns = state.countdowns()
        over = bool((state.view or {}).get("over"))
        if over:
            self.hurry_asked = False
        # While 托管 is on the bot answers our prompts: no key of ours, no automatic pass, no bell.
        prompt = None if state.auto else state.prompt
        self.chooser.reset(prompt, state.hand)
        if state.refused is not None and state.refused == self.chooser.sent_for:
            self.chooser.sent_for = None  # the server refused it (paused …): the prompt is ours again
            self.auto_pass_for = None  # and an automatic pass is scheduled again (once it runs)
            state.refused = None
        if self.chooser.note == self.held_note and not state.paused_by:
            self.chooser.note = None
        self.guard_new_prompt((prompt or {}).get("id"))
        width, height = self.app.size
        small = width < MIN_SIZE[0] or height < MIN_SIZE[1]
        self.set_class(small, "-too-small")
        if small:
            self.query_one("#too-small", Static).update(Text(words("too_small", w=width, h=height)))
        self.query_one(Banner).show(state, words, app.connection_lost)
        self.ring_bell()
        self.schedule_auto_pass()
        self.refresh_choice()
        if log:
            self.query_one(EventLog).show(state, words, layout=False)

    def refresh_choice(self) -> None:
        app = self.fs_app
        open_ = self.chooser.sent_for is None
        usable = self.chooser.usable() if open_ else set()
        skills = self.chooser.skills() if open_ else []
        # Ours to decide (an automatic pass on its way is not a move to make).
        your_move = open_ and self.chooser.prompt is not None and not self.auto_passing() \
            and app.state.paused_by is None  # nobody moves while the table is paused
        self.set_class(your_move, "-your-move")
        self.query_one(StatusBar).show(app.state, app.words, layout=False, your_move=your_move)
        hand, prompt = self.query_one(HandPanel), self.query_one(PromptPanel)
        hand.show(app.state, app.words, self.chooser.selected, usable, app.mono,
                  skills=skills, chosen_skill=self.chooser.skill, layout=False)
        prompt.show(app.state, self.chooser, app.words, app.mono, layout=False, auto_passing=self.auto_passing(),
                    hint=self.hint(), paused=self.pause_line())
        self.fix_height(hand, hand.lines + 2)
        # While one prompt is open its panel only grows: choosing a card (its targets appear) and
        # backing out then re-lays out the screen once, not at every key. Its options are paged to
        # PROMPT_LINES rows; what must be said besides (a pause, a note, an error) is never cut.
        rows = prompt.lines
        prompt_id = (app.state.prompt or {}).get("id") if open_ else None
        if prompt_id is not None and self.prompt_rows[0] == prompt_id:
            rows = max(rows, self.prompt_rows[1])
        self.prompt_rows = (prompt_id, rows)
        self.fix_height(prompt, rows)
        self.fit_ring()
        moment = self.moment()
        if moment != self.footer_for:
            self.footer_for = moment
            self.refresh_bindings()

    def moment(self) -> tuple[bool, bool, bool, bool, bool, bool]:
        """(a prompt is open, it can be passed, a skill is on offer, the game is over, a hand card
        is usable, there are targets to move among): what the footer offers depends on nothing else."""
        chooser = self.chooser
        open_ = chooser.prompt is not None and chooser.sent_for is None
        passable = open_ and any(o.get("verb") in PASS_VERBS for o in chooser.options)
        skill = open_ and bool(chooser.skills())
        # Where cards are played a digit on an unusable card says why; a decision without cards has no digits.
        cards = open_ and (bool(chooser.usable()) or (chooser.prompt or {}).get("kind") in CARD_KINDS)
        targets = cards or skill or open_ and chooser.is_list()
        return open_, passable, skill, bool((self.fs_app.state.view or {}).get("over")), cards, targets

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Keys that can do nothing now leave the footer (and do nothing): no `Space 放弃` in a
        forced discard, nothing to choose once the game is over, `u 技能` only with a skill, no
        `1-9 选牌 ←→ 目标` when the message is in front of us (Enter or Space only)."""
        open_, passable, skill, over, cards, targets = self.moment()
        if action == "card":
            return cards and not over
        if action in ("target", "pick"):
            return targets and not over
        if action in ("confirm", "back"):
            return open_ and not over or (action == "back" and self.query_one("#chat", Input).display)
        if action == "pass":
            return passable
        if action == "skill":
            return skill
        if action == "result":
            return over
        return True

    def on_key(self, event: events.Key) -> None:
        """A printable key bound to nothing here gets a short hint instead of silence."""
        if not event.is_printable or not event.character or self.query_one("#chat", Input).display:
            return
        bound = {key.strip() for binding in self._bindings.key_to_bindings for key in binding.split(",")}
        if event.key not in bound and event.character not in bound:
            self.chooser.note = self.fs_app.words("wrong_key")
            self.refresh_choice()

    def guard_new_prompt(self, prompt_id: object) -> None:
        """Stamp a new prompt that follows one we did not answer ourselves (see KEY_GUARD)."""
        previous = self.prompt_seen[0]
        if prompt_id == previous:
            return
        if previous is not None and previous != self.keyed_for:
            self.missed = True
        guarded = prompt_id is not None and self.missed
        if guarded:
            self.missed = False
        self.prompt_seen = (prompt_id, time.monotonic() if guarded else None)

    def schedule_auto_pass(self) -> None:
        """A response window where nothing of ours is playable passes by itself, after a random
        pause (Settings `a` turns this off); so does a decoy offer, which holds nothing to use."""
        prompt = self.chooser.prompt
        if not self.fs_app.auto_pass or prompt is None or (prompt.get("kind") != "response" and not is_decoy(prompt)):
            return
        if self.fs_app.state.paused_by is not None:
            return  # nothing is sent while paused: scheduled once the table runs again
        prompt_id = prompt.get("id")
        if prompt_id == self.auto_pass_for or self.chooser.sent_for == prompt_id:
            return
        if any(o.get("verb") not in PASS_VERBS for o in self.chooser.options):
            return
        self.auto_pass_for = prompt_id if isinstance(prompt_id, int) else None
        phase = (self.fs_app.state.view or {}).get("phase")
        delay = self.auto_pass_rng.uniform(*(TURN_AUTO_PASS_DELAY if phase in TURN_PHASES else AUTO_PASS_DELAY))
        self.auto_pass_due = (time.monotonic(), delay)
        self.set_timer(delay, lambda: self.auto_pass_now(prompt_id))

    def auto_passing(self) -> bool:
        """An automatic pass is pending for the open prompt: the prompt line must not invite Space."""
        prompt = self.chooser.prompt
        return (self.fs_app.auto_pass and prompt is not None and self.auto_pass_for is not None
                and prompt.get("id") == self.auto_pass_for and self.chooser.sent_for != self.auto_pass_for)

    def auto_pass_now(self, prompt_id: object) -> None:
        prompt = self.chooser.prompt
        if self.fs_app.state.paused_by is not None:
            self.auto_pass_for = None  # paused meanwhile: the pass is scheduled again after it
            return
        if self.fs_app.auto_pass and prompt is not None and prompt.get("id") == prompt_id:
            self._submit(self.chooser.pass_(), keyed=False)

    def ring_bell(self) -> None:
        """The terminal bell for a new prompt of ours, when the player asked for it in Settings."""
        prompt = self.chooser.prompt
        if prompt is None or prompt.get("id") == self.belled_for:
            return
        self.belled_for = prompt.get("id")
        if self.fs_app.bell_on_move:
            self.app.bell()

    def fit_ring(self) -> None:
        """The ring gets what the hand, the prompt, the footer and a minimal log leave, so the
        prompt line never drops off the screen: frames and gaps go first, then stack entries.

        So that the ring does not change its shape from one update to the next (rule decided):
        within one turn its rows only shrink (a prompt or the hand that takes a row more); they
        grow back at the next turn, or when the terminal is resized."""
        app = self.fs_app
        fixed = 2 + self.heights.get("hand", 3) + self.heights.get("prompt", 1) + 1
        most = app.size.height - fixed - LOG_MIN
        # The log keeps three lines of its own; the last two go only to keep a seat whole.
        room = most - 2
        moment = ((app.state.view or {}).get("turn"), tuple(app.size))
        if self.ring_room[0] == moment:
            room = min(room, self.ring_room[1])
            most = max(room, min(most, self.ring_most))
        self.ring_room = (moment, room)
        self.ring_most = most
        ring = self.query_one(Ring)
        ring.show(app.state, app.words, app.mono, app.state.notes, room, app.size.width >= WIDE, most=most)
        hand = self.query_one(HandPanel)
        if ring.merged or hand.own_seat:
            hand.retitle(app.state, app.words, app.mono, ring.merged)

    def fix_height(self, widget: Widget, height: int) -> None:
        """Set a panel's height; the screen re-lays out only when it changed."""
        if self.heights.get(widget.id) != height:
            self.heights[widget.id] = height
            widget.styles.height = height

    # ------------------------------------------------------------------ actions (see keys.TABLE_KEYS)

    def _submit(self, option: str | None, keyed: bool = True) -> None:
        prompt = self.chooser.prompt
        if option is not None and prompt is not None:
            if keyed:
                self.keyed_for = prompt.get("id")
            self.fs_app.choose(int(prompt["id"]), option)
        self.refresh_choice()

    def action_log(self, step: int) -> None:
        self.query_one(EventLog).scroll_log(step)

    def action_card(self, n: int) -> None:
        self.chooser.pick_card(n, self.fs_app.words)
        self.refresh_choice()

    def action_skill(self) -> None:
        self.chooser.pick_skill(self.fs_app.words)
        self.refresh_choice()

    def action_target(self, step: int) -> None:
        self.chooser.move_target(step)
        self.refresh_choice()

    def action_pick(self, i: int) -> None:
        """A letter picks on the page of options shown (see widgets.prompt.paginate)."""
        self.chooser.pick_target(self.query_one(PromptPanel).page_first + i)
        self.refresh_choice()

    def too_soon(self) -> bool:
        """A key within KEY_GUARD seconds of a guarded prompt was meant for the one before it: it is
        dropped, and the prompt says keys resume shortly (the hint goes when they do)."""
        appeared = self.prompt_seen[1]
        left = KEY_GUARD - (time.monotonic() - appeared) if appeared is not None else 0.0
        if left <= 0:
            return False
        self.chooser.note = self.fs_app.words("keys_resume")
        self.refresh_choice()
        self.set_timer(left, self.guard_over)
        return True

    def guard_over(self) -> None:
        if self.chooser.note == self.fs_app.words("keys_resume"):
            self.chooser.note = None
            self.refresh_choice()

    def held_by_pause(self) -> bool:
        """A key that would send a choice while the table is paused says so and sends nothing:
        the server would refuse it, and the selection stays for after the resume."""
        if self.fs_app.state.paused_by is None or self.chooser.prompt is None:
            return False
        self.chooser.note = self.held_note = self.fs_app.paused_note()
        self.refresh_choice()
        return True

    def action_confirm(self) -> None:
        if not self.held_by_pause() and not self.too_soon():
            self._submit(self.chooser.confirm())

    def action_pass(self) -> None:
        if not self.held_by_pause() and not self.too_soon():
            self._submit(self.chooser.pass_())

    def action_back(self) -> None:
        chat = self.query_one("#chat", Input)
        if chat.display:
            self.close_chat(chat)
            return
        self.chooser.back()
        self.fs_app.state.error = None
        self.refresh_choice()

    def action_chat(self) -> None:
        chat = self.query_one("#chat", Input)
        chat.disabled = False
        chat.display = True
        chat.focus()

    def close_chat(self, chat: Input) -> None:
        """Hide the chat line; disabled, it can never steal the game keys from the table."""
        chat.value = ""
        chat.display = False
        chat.disabled = True
        self.set_focus(None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        self.close_chat(event.input)
        if text:
            self.fs_app.send(lambda s: s.chat(text))

    def action_notes(self) -> None:
        from .notes import NotesScreen

        self.app.push_screen(NotesScreen())

    def action_quick_chat(self) -> None:
        from .quick_chat import QuickChatScreen

        self.app.push_screen(QuickChatScreen())

    def action_help(self) -> None:
        self.fs_app.show_help()

    def action_pause(self) -> None:
        """The host stops or restarts the table clock (everyone sees it paused)."""
        app = self.fs_app
        if not app.state.host:
            app.notify(app.words("pause_host_only"), markup=False)
            return
        app.want_pause("key", "key" not in app.pause_reasons)

    def pause_line(self) -> str | None:
        """While the table is paused: who paused it, and that nobody plays until it resumes."""
        by, words = self.fs_app.state.paused_by, self.fs_app.words
        if by is None:
            return None
        return words("paused_line_you" if by == "you" else "paused_line_host", who=words.paused(by))

    def hint(self) -> str | None:
        """The prompt line's words when no prompt is ours: 托管 is on, or we are out (or watch)."""
        state, words = self.fs_app.state, self.fs_app.words
        view = state.view or {}
        if not view or view.get("over"):
            return None
        if state.auto:
            return words("auto_line")
        if state.out and not self.hurry_asked and view.get("fast_forward") is not True:
            return words("out_hint" if state.seat is not None else "watch_hint")
        return None

    def action_auto(self) -> None:
        """托管: hand our seat to a stand-in bot, or take it back (the open prompt with its time left)."""
        app = self.fs_app
        state = app.state
        if not state.view or state.view.get("over"):
            return
        if state.seat is None:
            app.notify(app.words("auto_spectator"), markup=False)
            return
        if state.out and not state.auto:
            app.notify(app.words("auto_out"), markup=False)
            return
        on = not state.auto
        app.send(lambda s: s.auto(on))

    def action_fast_forward(self) -> None:
        """A dead player or a spectator skips the bots' delay to the result (the server starts it
        once no living player plays by hand); the game-over screen comes when the game ends."""
        app = self.fs_app
        state = app.state
        if not state.view or state.view.get("over"):
            return
        if not state.out:
            app.notify(app.words("fast_forward_not_out"), markup=False)
            return
        self.hurry_asked = not self.hurry_asked
        on = self.hurry_asked
        app.send(lambda s: s.fast_forward(on))
        app.notify(app.words("fast_forward_asked" if on else "fast_forward_off"), markup=False)
        self.refresh_choice()

    def on_screen_suspend(self) -> None:
        """A screen over the table (help, settings, a question…) pauses a solo game."""
        self.fs_app.update_cover()

    def on_screen_resume(self) -> None:
        self.fs_app.update_cover()

    def action_result(self) -> None:
        """The game-over screen again, after Esc left it for the board."""
        from .game_over import GameOverScreen

        self.app.push_screen(GameOverScreen())

    def action_settings(self) -> None:
        from .settings import SettingsScreen

        self.app.push_screen(SettingsScreen())

    def action_quit(self) -> None:
        from .confirm import ConfirmQuit

        if (self.fs_app.state.view or {}).get("over"):
            self.app.run_worker(self.fs_app.action_quit())  # nothing left to lose: no question
            return

        def done(really: bool | None) -> None:
            if really:
                self.app.run_worker(self.fs_app.action_quit())

        self.app.push_screen(ConfirmQuit(), done)
