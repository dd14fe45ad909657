"""The current decision: what is asked, which keys do it, and the targets of the chosen card."""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.text import Text
from textual.widgets import Static

from engine.cards import SEE_THROUGH

from ..choice import Chooser
from ..client_state import ClientState
from ..i18n import Words
from ..keys import TARGET_LETTERS, target_letters
from .cjk_text import CjkText
from .cjk_text import rows as cjk_rows
from .render import card_text

#: Verbs that move a card to a player: the label reads `card → player`.
MOVE_VERBS = ("place", "give")


def find_face(state: ClientState, card_id: object) -> dict[str, Any] | None:
    """A face-up card anywhere on the table (messages in front, the stack, the message)."""
    view = state.view or {}
    for seat in state.seats:
        for face in seat.get("messages", []):
            if face.get("id") == card_id:
                return dict(face)
    for item in view.get("stack") or []:
        if isinstance(item.get("card"), dict) and item["card"].get("id") == card_id:
            return dict(item["card"])
    m = view.get("message")
    if isinstance(m, dict) and isinstance(m.get("card"), dict) and m["card"].get("id") == card_id:
        return dict(m["card"])
    return None


def seen_face(state: ClientState, card_id: object) -> dict[str, Any] | None:
    """A card this seat was shown in an event (another's hand looked at, a card taken or given):
    the log keeps the faces the server let us see."""
    for entry in reversed(state.log):
        ev = entry.event or {}
        cards = ev.get("cards")
        for face in (*(cards if isinstance(cards, list) else ()), ev.get("card"), ev.get("old")):
            if isinstance(face, dict) and face.get("id") == card_id and "colour" in face:
                return dict(face)
    return None


def hand_face(state: ClientState, card_id: object) -> dict[str, Any] | None:
    return next((dict(c) for c in state.hand if c.get("id") == card_id), None)


def option_label(option: dict[str, Any], state: ClientState, words: Words, mono: bool) -> Text:
    """What choosing this option does, as short as the row allows: target, card, skill or character."""
    text = Text()
    verb = str(option.get("verb", "play"))
    name = option.get("name")
    seat = option.get("target_seat")
    card = option.get("target_card")
    if verb == "pick" and name is not None:
        return Text(words.character_name(name), style="bold")
    played = (hand_face(state, option.get("card")) or {}).get("function")
    stack = (state.view or {}).get("stack") or []
    if verb == "play" and SEE_THROUGH in (name, played) and stack and seat is not None:
        # What a 识破 cancels is the stack's top item: its user alone says too little.
        if name is not None and played != name:
            text.append(words("as_function", function=words.function(name)) + " ")
        text.append(words("cancel_item", seat=words.seat_name(state.seats, seat, state.seat),
                          function=words.function(stack[-1].get("function"))))
        return text
    if verb == "play" and name is not None:
        face = hand_face(state, option.get("card"))
        if face is None or face.get("function") != name:
            text.append(words("as_function", function=words.function(name)) + " ")
    elif verb not in ("play", "send", "skill") and (seat is not None or card is not None or "card" in option):
        text.append(words(verb).replace("_", " ") + " ")
    if verb not in ("play", "send") and option.get("card") is not None:
        card_id = option.get("card")
        face = hand_face(state, card_id) or find_face(state, card_id) or seen_face(state, card_id)
        text.append_text(card_text(face, words, mono) if face else Text(words("face_down"), style="italic"))
        if seat is not None or card is not None:
            text.append(" → " if verb in MOVE_VERBS else " ")
    if seat is not None:
        text.append(words.seat_name(state.seats, seat, state.seat))
    if card is not None:
        if seat is not None:
            text.append(" · ")
        face = find_face(state, card)
        text.append_text(card_text(face, words, mono) if face else Text(words("message_card")))
    if not text.plain.strip():
        text = Text(words(verb).replace("_", " ") if verb != "skill" else words.skill(name))
    return text


def paginate(lengths: list[int], width: int, rows: int) -> list[tuple[int, int]]:
    """(first, end) of each page of options: as many as fit `rows` rows of `width` cells without
    splitting one, and never more than there are letter keys. The highlighted option's page is
    shown; its letters pick on that page and the arrows move on through every page."""
    pages: list[tuple[int, int]] = []
    first = 0
    while first < len(lengths):
        end, used, row = first, 1, 0
        while end < len(lengths) and end - first < len(TARGET_LETTERS):
            cells = lengths[end] + 3  # " a " before the label
            if row and row + cells > width:
                used, row = used + 1, 0
            taken = used + (row + cells - 1) // width  # a label wider than the row wraps
            if taken > rows and end > first:
                break
            used, row = taken, (row + cells - 1) % width + 1
            end += 1
        pages.append((first, end))
        first = end
    return pages


def is_decoy(prompt: dict[str, Any]) -> bool:
    """A decoy offer (`engine.characters.DECOY`): a face-down seat asked as a 就计 or 弃卒保帅
    owner would be, so that the table cannot tell; its one option is a nameless decline."""
    options = prompt.get("options") or []
    return (prompt.get("kind") == "skill" and len(options) == 1 and options[0].get("verb") == "decline"
            and not options[0].get("name"))


def prompt_head(prompt: dict[str, Any], words: Words) -> str:
    kind = str(prompt.get("kind"))
    if is_decoy(prompt):
        return words("k_decoy")
    if kind == "skill":
        names = [o.get("name") for o in prompt.get("options", []) if o.get("name")]
        return words("k_skill", skill=words.skill(names[0])) if names else words("k_skill_plain")
    return words(f"k_{kind}")


def waiting_names(seats: list[object], state: ClientState, words: Words) -> str:
    """`Bot 1, Bot 2 …`: the first four seats waited for, and an ellipsis when there are more."""
    names = words.listing([words.seat_name(state.seats, s, state.seat) for s in seats[:4]])
    return names + (" …" if len(seats) > 4 else "") if seats else "…"


#: The most lines the prompt panel takes: the rest of the screen belongs to the table and the log.
ROWS = 5


def wrapped_rows(lines: list[Text], width: int) -> int:
    """Screen rows these lines take at `width` (wrapped by 禁则, as the panel draws them)."""
    return sum(len(cjk_rows(line, width)) for line in lines)


class PromptPanel(Static):
    #: Lines the last `show` drew (after wrapping): the table fixes the panel's height from it.
    lines = 1
    #: The first option of the page shown: a letter key picks `page_first + its index`.
    page_first = 0

    def show(self, state: ClientState, chooser: Chooser, words: Words, mono: bool = False,
             layout: bool = True, auto_passing: bool = False, hint: str | None = None,
             paused: str | None = None) -> None:
        """`auto_passing`: nothing of ours is playable and the pass is on its way, so the line says
        that instead of inviting a Space that could land on the next prompt. `hint`: what we can do
        when there is no prompt of ours to answer (托管 is on, or we are out of the game).
        `paused`: the table is paused (by whom, and that nobody plays), above the prompt it holds."""
        view = state.view or {}
        prompt = chooser.prompt
        lines: list[Text] = [Text(paused, style="bold reverse")] if paused else []
        if prompt is None or chooser.sent_for == prompt.get("id"):
            waiting = [w.get("seat") for w in view.get("waiting") or [] if isinstance(w, dict)]
            if view.get("over"):
                lines.append(Text(words("game_over"), style="bold"))
            elif hint is not None:
                lines.append(Text(hint, style="bold"))
            elif state.seat in waiting:
                # Passes stay secret until the window closes: the server still lists us as waited
                # for (and still holds our prompt open), though we have answered.
                others = [s for s in waiting if s != state.seat]
                said = "you_passed_waiting" if prompt is None or chooser.sent_pass else "you_answered_waiting"
                lines.append(Text(words(said, who=waiting_names(others, state, words)), style="dim"))
            elif waiting:
                lines.append(Text(words("waiting_for", who=waiting_names(waiting, state, words)), style="dim"))
            else:
                lines.append(Text(words("nothing_to_do"), style="dim"))
        else:
            head = Text(words("auto_passing") if auto_passing else prompt_head(prompt, words),
                        style="dim" if auto_passing else "bold")
            left = state.seconds_left(prompt)
            if left is not None:
                head.append("  ⏳" + words("countdown", s=left))
            lines.append(head)
            options = chooser.card_options()
            if options:
                width = max(10, self.size.width) if self.size.width else 78
                # Rows, not lines: a long head or note wraps (the panel is never cut: see `lines`).
                after = [Text(t) for t in (chooser.note, state.error and state.error_text(words)) if t]
                room = max(1, ROWS - wrapped_rows([*lines, *after], width) - 1)
                labels = [option_label(option, state, words, mono) for option in options]
                pages = paginate([label.cell_len for label in labels], width, room)
                first, last = next(p for p in pages if p[0] <= chooser.target < p[1])
                self.page_first = first
                # The letters that pick here, as remapped: the hint and each option name the key bound.
                keys = target_letters(words.keymap)
                letters = "/".join(keys[: last - first])
                if len(pages) > 1:
                    lines.append(Text(words("k_targets_page", letters=letters, first=first + 1, last=last,
                                            n=len(options)), style="dim"))
                elif len(options) > 1:
                    lines.append(Text(words("k_targets", letters=letters), style="dim"))
                else:
                    lines.append(Text(words("k_confirm"), style="dim"))
                row = Text()
                for i in range(first, last):
                    segment = Text(f" {keys[i - first]} ", style="bold")
                    segment.append_text(labels[i])
                    if i == chooser.target:
                        segment.stylize("reverse")
                    if row.cell_len and row.cell_len + segment.cell_len > width:
                        lines.append(row)
                        row = Text()
                    row.append_text(segment)
                lines.append(row)
            elif chooser.skills():
                skills = " ".join(words.skill(name) for name in chooser.skills())
                lines.append(Text(words("k_skills_hint", skills=skills), style="dim"))
        if chooser.note:
            lines.append(Text(chooser.note, style="italic"))
        if state.error:
            lines.append(Text(state.error_text(words), style="italic"))
        width = max(10, self.size.width) if self.size.width else 78
        self.lines = wrapped_rows(lines, width)
        self.update(Group(*(CjkText(line) for line in lines)), layout=layout)
