"""`Words`: one language's words, and the engine's vocabulary (cards, colours, identities) in it."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from string import Formatter
from typing import Any

from .catalogs import (
    COLOUR,
    COLOUR_WORD,
    DECK,
    ERRORS,
    EVENTS,
    FUNCTION_EN,
    IDENTITY,
    IDENTITY_SHORT,
    KEY_NAMES,
    LANGS,
    LINEUP,
    METHOD_EN,
    PHASE,
    PROBE_LINE_EN,
    TIMER_KIND,
    UI,
)
from .characters import GENDER, GENDER_SHORT, character_info, skill_title
from .events import sentence

#: The name the table gives its bots (`net.seats`): reserved, so no player has it, and each
#: language writes it its own way (`机器人3` at a Chinese table).
BOT_NAME = re.compile(r"Bot (\d{1,3})")


def key_fields(text: str) -> list[str]:
    """The binding ids a text names its keys by (`{key_confirm}` -> `confirm`)."""
    return [name[4:] for _, name, _, _ in Formatter().parse(text) if name and name.startswith("key_")]


class Words:
    """The strings of one language, with helpers for the engine's vocabulary."""

    def __init__(self, lang: str = "zh", keymap: Mapping[str, str] | None = None) -> None:
        """`keymap`: the player's remapping (binding id -> keys): a `{key_<binding id>}` in a
        text names the key really bound, in this language."""
        if lang not in LANGS:
            raise ValueError(f"unknown language {lang!r}; choose one of {', '.join(LANGS)}")
        self.lang = lang
        self.ui = UI[lang]
        self.keymap = dict(keymap or {})

    def __call__(self, key: str, **kw: object) -> str:
        text = self.ui.get(key, key)
        if "{key_" in text:
            kw = {**{f"key_{b}": self.key(b) for b in key_fields(text)}, **kw}
        return text.format(**kw) if kw else text

    def key(self, binding: str) -> str:
        """The key a binding is on, as hints name it: `Enter`, `空格`, or the remapped keys."""
        from ..keys import key_label  # keys builds on Words: imported when first needed

        return key_label(binding, self, self.keymap)

    def paused(self, by: str) -> str:
        """Who paused the table, as every line that says it is paused names him: `by` is
        `ClientState.paused_by` ("you", the host's name, or "" when no single host is known)."""
        if by == "you":
            return self("paused_you")
        return self("paused_by_named", name=by) if by else self("paused_by_host")

    def error(self, code: object, message: object, paused_by: str | None = None) -> str:
        """A server error in this language: its code in words (English keeps the server's detail).
        A choice refused as `paused` names who paused the table while it still is (`paused_by`)."""
        if str(code) == "paused" and paused_by is not None:
            return self("error", message=self("paused_refused", who=self.paused(paused_by)))
        text = ERRORS[self.lang].get(str(code))
        if text is None or (self.lang == "en" and message and code in ("bad_state", "bad_message")):
            text = str(message or code)
        return self("error", message=text)

    def refusal(self, code: object, message: object) -> str:
        """Why the server would not seat us; English adds the server's own (English) detail.

        A game in progress is said in player terms: the server's detail speaks of a token the
        player never sees."""
        if str(code) == "full" and "game has started" in str(message):
            return self("join_refused_playing")
        reason = ERRORS[self.lang].get(str(code)) or str(message or code)
        if self.lang == "en" and message and str(code) in ERRORS["en"]:
            reason += f" ({str(message).removeprefix(f'{code}: ')})"
        return self("join_refused", reason=reason)

    def lineup(self, name: object, counts: Sequence[int] | None) -> str:
        label = LINEUP[self.lang].get(str(name), str(name))
        if not counts:
            return label
        return self("identities_counts", name=label, m=counts[0], l=counts[1], n=counts[2])

    def key_name(self, key: str) -> str:
        """`Space` is `空格` in Chinese, as the prompt lines say it; other keys keep their names."""
        return KEY_NAMES[self.lang].get(key.lower(), key)

    def deck(self, name: object) -> str:
        return DECK[self.lang].get(str(name), str(name))

    def timers(self, timers: Mapping[str, Any]) -> str:
        """`出牌30秒 传出20秒 ...`."""
        gap = " " if self.lang == "en" else ""
        return " ".join(f"{TIMER_KIND[self.lang].get(k, k)}{gap}{self('seconds', s=f'{v:g}')}"
                        for k, v in timers.items() if isinstance(v, int | float))

    def function(self, name: object) -> str:
        text = str(name)
        return FUNCTION_EN.get(text, text) if self.lang == "en" else text

    def method(self, name: object) -> str:
        text = str(name)
        return METHOD_EN.get(text, text) if self.lang == "en" else text

    def colour(self, colour: object) -> str:
        """The short form (`R`, `Bk`; Chinese `红`): for counts on a narrow seat box."""
        return COLOUR[self.lang].get(str(colour), "?")

    def colour_word(self, colour: object) -> str:
        return COLOUR_WORD[self.lang].get(str(colour), "?")

    def identity(self, identity: object, short: bool = False) -> str:
        key = str(identity) if identity in ("military", "latent", "neutral") else "none"
        if short and key != "none":
            return IDENTITY_SHORT[self.lang][key]
        return IDENTITY[self.lang][key]

    def phase(self, phase: object) -> str:
        return PHASE[self.lang].get(str(phase), str(phase))

    def probe_line(self, line: object) -> str:
        text = str(line)
        return PROBE_LINE_EN.get(text, text) if self.lang == "en" else text

    def character_name(self, cid: object) -> str:
        """A character id in this language (the id itself if the data does not know it)."""
        info = character_info(cid)
        return info.name(self.lang) if info is not None else str(cid)

    def character(self, ch: Mapping[str, Any] | None) -> str:
        """A seat's character as the view gives it: its name, or the face-down marker."""
        if not ch:
            return ""
        if "id" not in ch:
            return self("face_down_marker")
        name = str(ch.get("name_en") or ch["id"]) if self.lang == "en" else str(ch.get("name") or ch["id"])
        return name if ch.get("face_up", True) else self("face_down_named", name=name)

    def cards(self, n: object) -> str:
        """A hand's size: `3 cards`, `1 card` (`3张`)."""
        return self("cards_one") if n == 1 else self("cards", n=n)

    def gender(self, gender: object, short: bool = False) -> str:
        return (GENDER_SHORT if short else GENDER)[self.lang].get(str(gender), "") if gender else ""

    def gender_suffix(self, gender: object, short: bool = False) -> str:
        """What follows a character's name to give its gender, the one way every screen writes
        it: `·女` (`浮萍·女`), `Blade · male`, short `Blade·M`; empty without a gender."""
        word = self.gender(gender, short)
        return self("gender_sep_short" if short else "gender_sep") + word if word else ""

    def gendered(self, name: str, gender: object, short: bool = False) -> str:
        """A character's name with its gender: `浮萍·女`, `Blade · male` (short: `Blade·M`)."""
        return name + self.gender_suffix(gender, short)

    def marked(self, name: str, mark: str) -> str:
        """A name with what marks it, the one way every screen writes it: `小红(你)`, `Ann (you)`,
        `Bob (spectating)`. `name` is untrusted: the caller shows the result as plain text."""
        return self("name_mark", name=name, mark=mark)

    @property
    def colon(self) -> str:
        """What stands between a label and its value: `Stack: ` (English), `结算区：` (full width,
        no space: Chinese)."""
        return self("colon")

    def label(self, key: str, **kw: object) -> str:
        """The catalog's text `key` as a label, its colon after it: `Identity: `, `身份：`."""
        return self(key, **kw) + self.colon

    def listing(self, items: Sequence[str]) -> str:
        """Items in a row: `Bob, Ann` (English), `机器人1、小红` (Chinese, the enumeration comma)."""
        return self("list_sep").join(items)

    def name(self, name: str) -> str:
        """A player's name as sent, for the screen: the table's own `Bot 3` in this language."""
        bot = BOT_NAME.fullmatch(name)
        return self("bot_name", n=bot.group(1)) if bot else name

    def you(self, name: str) -> str:
        """Our own name, as every screen marks it: `小红(你)`, `Ann (you)`."""
        return self.marked(name, self("you"))

    def skill(self, name: object) -> str:
        return skill_title(name, self.lang)

    def card(self, face: Mapping[str, Any] | None) -> str:
        """A card as `function[colour·method]` (English with a space before each bracket, the colour
        as a word: `Lock [red·Direct]`); a face-down card (no colour) as just its function.

        A 试探 whose face we see carries its question: `试探[红·密电](潜伏?摸)`."""
        if not face:
            return self("face_down")
        name = self.function(face.get("function", "?"))
        if face.get("skill") and face.get("function") in (face["skill"], None):
            return self.skill(face["skill"])  # a skill on the stack (先机): its own name, translated
        if "colour" not in face:
            return name
        colour = self.colour_word(face["colour"])
        tag = self.probe_tag(face)
        gap = self("bracket_gap")
        return f"{name}{gap}[{colour}·{self.method(face.get('method', '?'))}]{gap if tag else ''}{tag}"

    def probe_tag(self, face: Mapping[str, Any] | None) -> str:
        """`(潜伏?摸)`: the identity a 试探 asks about and what a yes does; empty for other cards."""
        probe = face.get("probe") if face else None
        if not isinstance(probe, Mapping):
            return ""
        identity = IDENTITY_SHORT[self.lang].get(str(probe.get("identity")), "?")
        yes = self("probe_tag_draw" if probe.get("on_yes") == "draw" else "probe_tag_discard")
        return f"({self('probe_tag', identity=identity, yes=yes)})"

    def probe_text(self, face: Mapping[str, Any] | None) -> str:
        """The whole question of a 试探: whom it asks about, what yes does, what no says."""
        probe = face.get("probe") if face else None
        if not isinstance(probe, Mapping):
            return ""
        yes = self("probe_yes_draw" if probe.get("on_yes") == "draw" else "probe_yes_discard")
        return self("probe_says", identity=self.identity(probe.get("identity")), yes=yes,
                    line=self.probe_line(probe.get("on_no_say", "")))

    def seat_name(self, seats: Sequence[Mapping[str, Any]], seat: object, me: int | None) -> str:
        if not isinstance(seat, int) or not 0 <= seat < len(seats):
            return "?"
        name = self.name(str(seats[seat].get("name", f"P{seat + 1}")))
        return self.you(name) if seat == me else name

    def event_template(self, kind: str) -> str | None:
        """The sentence template of an event kind (`events` fills it in), None if it has none."""
        return EVENTS[self.lang].get(kind)

    def event(self, ev: Mapping[str, Any], seats: Sequence[Mapping[str, Any]], me: int | None) -> str | None:
        """One event as a sentence (see `events`); None for events that carry nothing worth a line."""
        return sentence(self, ev, seats, me)
