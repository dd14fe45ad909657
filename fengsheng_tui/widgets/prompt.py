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
from ..keys import TARGET_LETTERS
from .render import card_text, measure_console


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
        face = hand_face(state, option.get("card")) or find_face(state, option.get("card"))
        text.append_text(card_text(face, words, mono) if face else Text(words("face_down"), style="italic"))
        if seat is not None or card is not None:
            text.append(" ")
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


def prompt_head(prompt: dict[str, Any], words: Words) -> str:
    kind = str(prompt.get("kind"))
    if kind == "skill":
        names = [o.get("name") for o in prompt.get("options", []) if o.get("name")]
        return words("k_skill", skill=words.skill(names[0])) if names else words("k_skill_plain")
    return words(f"k_{kind}")


def waiting_names(seats: list[object], state: ClientState, words: Words) -> str:
    """`Bot 1, Bot 2 …`: the first four seats waited for, and an ellipsis when there are more."""
    names = ", ".join(words.seat_name(state.seats, s, state.seat) for s in seats[:4])
    return names + (" …" if len(seats) > 4 else "") if seats else "…"


class PromptPanel(Static):
    #: Lines the last `show` drew (after wrapping): the table fixes the panel's height from it.
    lines = 1

    def show(self, state: ClientState, chooser: Chooser, words: Words, mono: bool = False,
             layout: bool = True) -> None:
        view = state.view or {}
        prompt = chooser.prompt
        lines: list[Text] = []
        if prompt is None or chooser.sent_for == prompt.get("id"):
            waiting = [w.get("seat") for w in view.get("waiting") or [] if isinstance(w, dict)]
            if view.get("over"):
                lines.append(Text(words("game_over"), style="bold"))
            elif state.seat in waiting and prompt is None:
                # Passes stay secret until the window closes: the server still lists us as waited for.
                others = [s for s in waiting if s != state.seat]
                lines.append(Text(words("you_passed_waiting", who=waiting_names(others, state, words)), style="dim"))
            elif waiting:
                lines.append(Text(words("waiting_for", who=waiting_names(waiting, state, words)), style="dim"))
            else:
                lines.append(Text(words("nothing_to_do"), style="dim"))
        else:
            head = Text(prompt_head(prompt, words), style="bold")
            left = state.seconds_left(prompt)
            if left is not None:
                head.append("  ⏳" + words("countdown", s=left))
            lines.append(head)
            options = chooser.card_options()
            if options:
                row = Text()
                for i, option in enumerate(options):
                    style = "reverse" if i == chooser.target else ""
                    key = TARGET_LETTERS[i] if i < len(TARGET_LETTERS) else "·"
                    row.append(f" {key} ", style="bold " + style)
                    label = option_label(option, state, words, mono)
                    if style:
                        label.stylize(style)
                    row.append_text(label)
                if len(options) > 1:
                    lines.append(Text(words("k_targets", letters="/".join(TARGET_LETTERS[: len(options)])),
                                      style="dim"))
                else:
                    lines.append(Text(words("k_confirm"), style="dim"))
                lines.append(row)
            elif chooser.skills():
                skills = " ".join(words.skill(name) for name in chooser.skills())
                lines.append(Text(words("k_skills_hint", skills=skills), style="dim"))
        if chooser.note:
            lines.append(Text(chooser.note, style="italic"))
        if state.error:
            lines.append(Text(words.error(state.error_code, state.error), style="italic"))
        width = max(10, self.size.width) if self.size.width else 78
        self.lines = sum(len(line.wrap(measure_console(), width)) for line in lines)
        self.update(Group(*lines), layout=layout)
