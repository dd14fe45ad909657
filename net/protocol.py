"""The wire schema shared by the server, the Textual client and the bots.

Everything that crosses a socket is defined here and nowhere else: the framing, the
hard caps, the strict msgpack decoder, the message schemas and the error codes.
docs/protocol.md is the human-readable copy of this module; tests/test_protocol.py
pins the exact bytes of every message type, so any change here that alters the wire
must bump ``PROTOCOL_VERSION``.

A frame is a 4-byte big-endian unsigned length followed by that many bytes holding
exactly one msgpack map. The length is checked against ``MAX_FRAME`` before a single
body byte is read (see ``net.connection``), and the body is decoded with every
msgpack limit derived from its own size, plus a container budget and a nesting
limit, so a hostile peer can cost at most a few MiB and a few milliseconds per frame.
"""

from __future__ import annotations

import math
import os
import re
import struct
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NoReturn

import msgpack

# The version lives in net.version so discovery can advertise it without importing
# the codec; it is re-exported here as part of the schema.
from net.version import PROTOCOL_VERSION as PROTOCOL_VERSION

#: Hard cap on the body of one frame, in bytes, in both directions.
MAX_FRAME = 256 * 1024
#: Deepest container nesting accepted; the top-level map is depth 1.
MAX_DEPTH = 32
#: Most containers (arrays + maps) one frame may hold. An honest frame uses a few
#: hundred; a frame of 256 KiB of empty arrays would otherwise cost ~16 MiB of RAM.
MAX_CONTAINERS = 16_384

HEADER = struct.Struct(">I")
HEADER_SIZE = HEADER.size

#: Debug/test switch: also walk every frame the server builds before sending it
#: (``FENGSHENG_CHECK_FRAMES=1``). Inbound frames are always checked.
CHECK_OUTBOUND = os.environ.get("FENGSHENG_CHECK_FRAMES", "") not in ("", "0")

_pack = msgpack.Packer(use_bin_type=True, autoreset=True).pack

# Error codes: the ``code`` field of an ``error`` message.
BAD_FRAME = "bad_frame"  # the body is not valid strict msgpack, or a frame stalled
TOO_LARGE = "too_large"  # the declared length exceeds the cap; the connection is closed
BAD_MESSAGE = "bad_message"  # decodes, but breaks the schema (missing/unknown/wrong-typed field)
UNKNOWN_TYPE = "unknown_type"  # ``type`` names no message of this direction
VERSION = "version"  # hello.version differs from PROTOCOL_VERSION
AUTH = "auth"  # bad seat token or table password
NOT_YOUR_SEAT = "not_your_seat"  # the prompt belongs to another seat
STALE_PROMPT = "stale_prompt"  # the prompt_id is closed or was never issued
ILLEGAL_OPTION = "illegal_option"  # the option is not one the prompt offered
RATE_LIMITED = "rate_limited"  # too many frames; the frame was dropped unread
FULL = "full"  # no free seat
NOT_HOST = "not_host"  # an ``op`` from a connection without the host token
BAD_STATE = "bad_state"  # the message is valid but not now (e.g. ``start`` mid-game)
TIMED_OUT = "timed_out"  # not a fault: the prompt ``ref`` ran out of time and its default was taken
NAME_TAKEN = "name_taken"  # another seat or spectator at the table has this name (after folding)
BAD_NAME = "bad_name"  # the name is reserved (the table's bots, "System", the host) or shows nothing
SEAT_TAKEN = "seat_taken"  # the token's seat has a live connection: join afresh or spectate
PAUSED = "paused"  # the host paused the table: a choice waits (its prompt stays open) until resume

ERROR_CODES = frozenset(
    {
        BAD_FRAME,
        TOO_LARGE,
        BAD_MESSAGE,
        UNKNOWN_TYPE,
        VERSION,
        AUTH,
        NOT_YOUR_SEAT,
        STALE_PROMPT,
        ILLEGAL_OPTION,
        RATE_LIMITED,
        FULL,
        NOT_HOST,
        BAD_STATE,
        TIMED_OUT,
        NAME_TAKEN,
        BAD_NAME,
        SEAT_TAKEN,
        PAUSED,
    }
)

#: Seconds the host may give a decision's timer (`set_timers`, `fengsheng host --timer`) and the
#: bots' delay (`set_bot_delay`), inclusive: the server refuses anything else, and the lobby's
#: timers screen steps within them.
TIMER_RANGE = (1.0, 3600.0)
BOT_DELAY_RANGE = (0.0, 10.0)

#: Host operator commands carried by ``op``; their ``args`` are checked by the server.
OP_COMMANDS = frozenset(
    {
        "set_players",
        "set_identities",
        "set_deck",
        "set_characters",
        "set_character_choices",
        "set_timers",
        "set_password",
        "add_bot",
        "remove_bot",
        "kick",
        "mute",
        "start",
        "end",
        "pause",
        "resume",
        "set_bot_delay",
    }
)


class ProtocolError(Exception):
    """A peer broke the protocol; ``code`` is one of ``ERROR_CODES``.

    ``fatal`` means the byte stream can no longer be trusted (the connection layer
    has already started closing it); otherwise the offending frame was simply
    dropped and the caller may answer with ``exc.to_message()`` and carry on.
    """

    def __init__(self, code: str, message: str, *, ref: int | None = None, fatal: bool = False) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.ref = ref
        self.fatal = fatal

    def to_message(self) -> dict[str, Any]:
        """The ``error`` message that tells the peer what went wrong."""
        return error(self.code, self.message, self.ref)


# --------------------------------------------------------------------------- encoding


def encode(msg: Mapping[str, Any], *, check: bool = True) -> bytes:
    """Pack one message into a frame body.

    With ``check`` the same tree check as ``decode`` runs first, so whatever we send the
    peer can read; a failure here is a bug on our side, reported as ``ProtocolError``.
    The server passes ``check=False`` for frames it built itself from the projection (the
    walk cost more than the packing); ``CHECK_OUTBOUND`` turns the check back on.
    """
    if check:
        if not isinstance(msg, Mapping):
            raise ProtocolError(BAD_MESSAGE, f"a message is a map, not {type(msg).__name__}")
        _check_tree(msg, BAD_MESSAGE)
    try:
        body = _pack(msg)
    except (TypeError, ValueError, OverflowError) as exc:
        raise ProtocolError(BAD_MESSAGE, f"cannot encode: {exc}") from None
    if len(body) > MAX_FRAME:
        raise ProtocolError(TOO_LARGE, f"message is {len(body)} bytes, the cap is {MAX_FRAME}")
    return body


def encode_frame(msg: Mapping[str, Any], *, check: bool = True) -> bytes:
    """Length prefix + body: the exact bytes to write to the socket."""
    body = encode(msg, check=check)
    return HEADER.pack(len(body)) + body


def frame_length(header: bytes, max_frame: int = MAX_FRAME) -> int:
    """Parse a 4-byte header and enforce the cap before any body byte is read."""
    (length,) = HEADER.unpack(header)
    if length > max_frame:
        raise ProtocolError(TOO_LARGE, f"frame of {length} bytes exceeds the cap of {max_frame}", fatal=True)
    return int(length)


def _reject_ext(code: int, data: bytes) -> NoReturn:
    raise ProtocolError(BAD_FRAME, f"msgpack ext type {code} is not allowed")


def decode(body: bytes) -> dict[str, Any]:
    """Strictly unpack one frame body into a message map.

    Rejected as ``bad_frame``: invalid msgpack, trailing bytes, ext types (including
    timestamps), bin values, non-str map keys, bad UTF-8, non-finite floats, nesting
    deeper than ``MAX_DEPTH``, more than ``MAX_CONTAINERS`` containers. A top level
    other than a map is ``bad_message``. Nothing but ``ProtocolError`` escapes.
    """
    size = len(body)
    if size > MAX_FRAME:
        raise ProtocolError(TOO_LARGE, f"frame of {size} bytes exceeds the cap of {MAX_FRAME}")
    # A body of n bytes holds at most n containers, so a frame no larger than the container
    # budget cannot break it: only bigger frames pay for the per-container callback.
    hooks: dict[str, Any] = {}
    if size > MAX_CONTAINERS:
        containers = 0

        def count(container: Any) -> Any:
            # Called by msgpack for each finished array/map, so a bomb of empty
            # containers is stopped after MAX_CONTAINERS small allocations.
            nonlocal containers
            containers += 1
            if containers > MAX_CONTAINERS:
                raise ProtocolError(BAD_FRAME, f"more than {MAX_CONTAINERS} arrays/maps in one frame")
            return container

        hooks = {"list_hook": count, "object_hook": count}
    try:
        msg = msgpack.unpackb(
            body,
            raw=False,
            strict_map_key=True,
            use_list=True,
            ext_hook=_reject_ext,
            max_str_len=size,
            max_bin_len=size,
            max_array_len=size,
            max_map_len=size,
            max_ext_len=0,
            **hooks,
        )
    except ProtocolError:
        raise
    except msgpack.ExtraData:
        raise ProtocolError(BAD_FRAME, "trailing bytes after the message") from None
    except msgpack.StackError:
        raise ProtocolError(BAD_FRAME, f"nesting deeper than {MAX_DEPTH}") from None
    except UnicodeDecodeError:
        raise ProtocolError(BAD_FRAME, "string is not valid UTF-8") from None
    except Exception as exc:  # untrusted input: any decoder failure is the peer's fault
        raise ProtocolError(BAD_FRAME, f"invalid msgpack: {str(exc) or type(exc).__name__}") from None
    if not isinstance(msg, dict):
        raise ProtocolError(BAD_MESSAGE, f"a message is a map, not {_kind(msg)}")
    if _plain(body):
        _check_depth(msg, 1)  # no bin, no non-finite float: only the nesting is left to check
    else:
        _check_tree(msg, BAD_FRAME)
    return msg


_ODD_FLOAT32 = re.compile(rb"\xca[\x7f\xff][\x80-\xff]")
_ODD_FLOAT64 = re.compile(rb"\xcb[\x7f\xff][\xf0-\xff]")


def _plain(body: bytes) -> bool:
    """True when the bytes rule out what the full walk looks for beyond nesting: a bin value needs
    a bin type byte, a NaN or infinity a float type byte followed by an all-ones exponent. Most
    bodies hold neither (Chinese UTF-8 never holds these bytes); a hit is only a suspicion, which
    the full walk settles."""
    return (
        b"\xc4" not in body and b"\xc5" not in body and b"\xc6" not in body
        and (b"\xca" not in body or _ODD_FLOAT32.search(body) is None)
        and (b"\xcb" not in body or _ODD_FLOAT64.search(body) is None)
    )


def _check_depth(node: dict[str, Any] | list[Any], depth: int) -> None:
    """Nesting only: what a decoded body still needs once its bytes rule out bin and odd floats
    (keys are strings already: ``strict_map_key``, and bin keys are bin values)."""
    if depth > MAX_DEPTH:
        raise ProtocolError(BAD_FRAME, f"nesting deeper than {MAX_DEPTH}")
    for value in node.values() if type(node) is dict else node:
        if type(value) is dict or type(value) is list:
            _check_depth(value, depth + 1)


def _kind(value: Any) -> str:
    return {dict: "map", list: "array", str: "string", bytes: "binary", type(None): "nil"}.get(
        type(value), type(value).__name__
    )


def _check_tree(root: Any, code: str) -> None:
    """Walk a message: depth, key types and scalar types.

    Recursion is bounded by ``MAX_DEPTH``; plain dicts and lists (all that ``decode``
    produces) take the fast path, other mappings and tuples (what callers may hand to
    ``encode``) the general one.
    """
    if type(root) is dict:
        _check_map(root, 1, code)
    else:
        _check_node(root, 1, code)


def _check_map(node: dict[Any, Any], depth: int, code: str) -> None:
    if depth > MAX_DEPTH:
        raise ProtocolError(code, f"nesting deeper than {MAX_DEPTH}")
    for key, value in node.items():
        if type(key) is not str:
            raise ProtocolError(code, f"map keys must be strings, not {_kind(key)}")
        kind = type(value)
        if kind is str or kind is int or kind is bool or value is None:
            continue
        if kind is dict:
            _check_map(value, depth + 1, code)
        elif kind is list:
            _check_list(value, depth + 1, code)
        else:
            _check_value(value, depth, code)


def _check_list(node: list[Any], depth: int, code: str) -> None:
    if depth > MAX_DEPTH:
        raise ProtocolError(code, f"nesting deeper than {MAX_DEPTH}")
    for value in node:
        kind = type(value)
        if kind is str or kind is int or kind is bool or value is None:
            continue
        if kind is dict:
            _check_map(value, depth + 1, code)
        elif kind is list:
            _check_list(value, depth + 1, code)
        else:
            _check_value(value, depth, code)


def _check_node(node: Any, depth: int, code: str) -> None:
    """A container of any mapping or sequence type (only from ``encode``)."""
    if depth > MAX_DEPTH:
        raise ProtocolError(code, f"nesting deeper than {MAX_DEPTH}")
    if isinstance(node, Mapping):
        for key, value in node.items():
            if type(key) is not str:
                raise ProtocolError(code, f"map keys must be strings, not {_kind(key)}")
            _check_value(value, depth, code)
    else:
        for value in node:
            _check_value(value, depth, code)


def _check_value(value: Any, depth: int, code: str) -> None:
    """One value inside a container at ``depth``: a scalar, or a container one level down."""
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return
    if kind is float:
        if not math.isfinite(value):
            raise ProtocolError(code, "floats must be finite")
        return
    if kind is dict:
        _check_map(value, depth + 1, code)
    elif kind is list:
        _check_list(value, depth + 1, code)
    elif isinstance(value, Mapping | list | tuple):
        _check_node(value, depth + 1, code)
    else:
        raise ProtocolError(code, f"{_kind(value)} values are not allowed")


# --------------------------------------------------------------------------- schemas


@dataclass(frozen=True)
class Str:
    """A string of ``min_len..max_len`` code points without control characters."""

    max_len: int
    min_len: int = 0
    nullable: bool = False

    def check(self, value: Any) -> str | None:
        if value is None and self.nullable:
            return None
        if type(value) is not str:
            return f"must be a string{' or nil' if self.nullable else ''}, not {_kind(value)}"
        if not self.min_len <= len(value) <= self.max_len:
            return f"must be {self.min_len}..{self.max_len} characters, got {len(value)}"
        if self.min_len and not value.strip():
            return "must not be blank"
        # Control and format characters (ESC, CR, bidi overrides) would reach other
        # players' terminals verbatim; no honest message needs them.
        if any(unicodedata.category(ch) in ("Cc", "Cf") for ch in value):
            return "must not contain control characters"
        return None

    def describe(self) -> str:
        return f"str<={self.max_len}" + ("|nil" if self.nullable else "")


@dataclass(frozen=True)
class Int:
    """An integer (never a bool) in ``lo..hi``."""

    lo: int = 0
    hi: int = 2**53
    nullable: bool = False

    def check(self, value: Any) -> str | None:
        if value is None and self.nullable:
            return None
        if type(value) is not int:
            return f"must be an integer{' or nil' if self.nullable else ''}, not {_kind(value)}"
        if not self.lo <= value <= self.hi:
            return f"must be in {self.lo}..{self.hi}, got {value}"
        return None

    def describe(self) -> str:
        return "int" + ("|nil" if self.nullable else "")


@dataclass(frozen=True)
class Bool:
    def check(self, value: Any) -> str | None:
        return None if type(value) is bool else f"must be true or false, not {_kind(value)}"

    def describe(self) -> str:
        return "bool"


@dataclass(frozen=True)
class Choice:
    """A string from a fixed set (operator commands, error codes)."""

    values: frozenset[str]

    def check(self, value: Any) -> str | None:
        if type(value) is not str or value not in self.values:
            return f"must be one of {', '.join(sorted(self.values))}"
        return None

    def describe(self) -> str:
        return "one of " + "|".join(sorted(self.values))


@dataclass(frozen=True)
class Map:
    """A free-form map whose contents another layer checks (op args, views)."""

    def check(self, value: Any) -> str | None:
        return None if isinstance(value, dict) else f"must be a map, not {_kind(value)}"

    def describe(self) -> str:
        return "map"


@dataclass(frozen=True)
class Array:
    def check(self, value: Any) -> str | None:
        return None if isinstance(value, list) else f"must be an array, not {_kind(value)}"

    def describe(self) -> str:
        return "array"


Validator = Str | Int | Bool | Choice | Map | Array
Schema = Mapping[str, Validator]

NAME = Str(24, min_len=1)
TEXT = Str(200, min_len=1)
SEAT = Int(0, 63, nullable=True)


# --------------------------------------------------------------------------- contents (server → client)
#
# The maps inside ``lobby`` and ``update`` (and a patched view) are checked by the client too: a
# hostile or broken server must not crash a client or reach its terminal through them. Known
# fields are checked where present; fields a newer server adds are allowed (the tree check has
# already bounded them), so the client stays forward compatible.


class Content:
    """A validator for a value inside a server's map; ``check`` returns a problem or None."""

    def check(self, value: Any) -> str | None:
        raise NotImplementedError


def _at(where: str, problem: str) -> str:
    """`problem` of the member at `where`: `.seats[2].name must be a string`."""
    return where + (problem if problem[0] in ".[" else " " + problem)


@dataclass(frozen=True)
class Num(Content):
    """A finite number (int or float, never a bool) in ``lo..hi``."""

    lo: float = 0
    hi: float = 2**53
    nullable: bool = False

    def check(self, value: Any) -> str | None:
        if value is None and self.nullable:
            return None
        if type(value) is not int and type(value) is not float:
            return f"must be a number, not {_kind(value)}"
        if not self.lo <= value <= self.hi:
            return f"must be in {self.lo:g}..{self.hi:g}"
        return None


@dataclass(frozen=True)
class ListOf(Content):
    """An array of at most ``max_len`` items, each checked by ``item``."""

    item: Validator | Content
    max_len: int
    nullable: bool = False

    def check(self, value: Any) -> str | None:
        if value is None and self.nullable:
            return None
        if type(value) is not list:
            return f"must be an array, not {_kind(value)}"
        if len(value) > self.max_len:
            return f"must have at most {self.max_len} items, got {len(value)}"
        for i, item in enumerate(value):
            problem = self.item.check(item)
            if problem:
                return _at(f"[{i}]", problem)
        return None


@dataclass(frozen=True, eq=False)
class Record(Content):
    """A map whose known ``fields`` are checked where present (``required`` ones must be)."""

    fields: Mapping[str, Validator | Content]
    nullable: bool = False
    required: frozenset[str] = frozenset()

    def check(self, value: Any) -> str | None:
        if value is None and self.nullable:
            return None
        if type(value) is not dict:
            return f"must be a map, not {_kind(value)}"
        for name in self.required:
            if name not in value:
                return f".{name} is missing"
        for name, validator in self.fields.items():
            if name in value:
                problem = validator.check(value[name])
                if problem:
                    return _at(f".{name}", problem)
        return None


@dataclass(frozen=True)
class Either(Content):
    """The first of ``options`` that accepts the value."""

    options: tuple[Validator | Content, ...]

    def check(self, value: Any) -> str | None:
        problems = [option.check(value) for option in self.options]
        return None if None in problems else " or ".join(p for p in problems if p)


@dataclass(frozen=True, eq=False)
class Values(Content):
    """A map of string keys (at most ``max_len``) whose every value ``value`` accepts."""

    value: Validator | Content
    max_len: int = 64

    def check(self, value: Any) -> str | None:
        if type(value) is not dict:
            return f"must be a map, not {_kind(value)}"
        if len(value) > self.max_len:
            return f"must have at most {self.max_len} entries"
        for key, item in value.items():
            problem = _WORD.check(key) or self.value.check(item)
            if problem:
                return _at(f"[{key[:40]!r}]", problem)
        return None


_WORD = Str(64)
_WORD_OR_NIL = Str(64, nullable=True)
_TEXT = Str(500)
_TEXT_OR_NIL = Str(500, nullable=True)
_COUNT = Int(0, 100_000)
_SEAT_OR_NIL = SEAT
_SEAT_NUMBER = Int(0, 63)
_CARD_ID = Int(-1, 100_000, nullable=True)
#: A card face (or a face-down card: its function only, or a skill placed like a card).
CARD = Record({
    "id": _CARD_ID, "function": _WORD_OR_NIL, "colour": _WORD, "method": _WORD, "skill": _WORD_OR_NIL,
    "probe": Record({"identity": _WORD_OR_NIL, "on_yes": _WORD_OR_NIL, "on_no_say": _TEXT_OR_NIL}, nullable=True),
})
_CARD_OR_NIL = Record(CARD.fields, nullable=True)
_CARDS = ListOf(CARD, 500)
CHARACTER = Record({"id": _WORD, "name": _WORD, "name_en": _WORD, "face_up": Bool(), "gender": _WORD_OR_NIL,
                    "skills": ListOf(_WORD, 32)}, nullable=True)
SEAT_ENTRY = Record({
    "index": _SEAT_NUMBER, "name": Str(64), "alive": Bool(), "lost": Bool(), "hand_count": _COUNT,
    "messages": _CARDS, "counts": Values(_COUNT, 8), "identity": _WORD_OR_NIL, "locked": Bool(),
    "skipped": Bool(), "character": CHARACTER, "online": Bool(), "bot": Either((Bool(), _WORD_OR_NIL)),
    "auto": Bool(),
}, required=frozenset({"index"}))
OPTION = Record({"id": Str(64, min_len=1), "verb": _WORD, "name": _WORD_OR_NIL, "card": _CARD_ID,
                 "target_seat": _SEAT_OR_NIL, "target_card": _CARD_ID}, required=frozenset({"id"}))
PROMPT = Record({"id": Int(), "seat": _SEAT_NUMBER, "kind": _WORD, "options": ListOf(OPTION, 1024),
                 "default": Str(64), "deadline": Num(-(2**53), nullable=True)},
                nullable=True, required=frozenset({"id", "options"}))
#: What the game over reveals (``engine.view._ending``): how each seat left, and winners' tasks.
ENDING = Record({
    "left": ListOf(Record({"seat": _SEAT_NUMBER, "died": Bool(), "turn": Int(0, 100_000, nullable=True),
                           "messages": _CARDS, "by": _SEAT_OR_NIL}, required=frozenset({"seat"})), 64),
    "tasks": ListOf(Record({"seat": _SEAT_NUMBER, "character": _WORD, "zh": _TEXT_OR_NIL, "en": _TEXT_OR_NIL},
                           required=frozenset({"seat"})), 64),
}, nullable=True)
#: The recipient's projected view (``engine.view`` plus the table's annotations).
VIEW = Record({
    "v": Int(), "seat": _SEAT_OR_NIL, "table": Str(64),
    "config": Record({"players": _COUNT, "identities": _WORD, "deck": _WORD, "probe_draw": _COUNT,
                      "characters": Bool()}),
    "turn": _COUNT, "current": _SEAT_OR_NIL, "phase": _WORD, "seats": ListOf(SEAT_ENTRY, 64),
    "hand": _CARDS, "identity": _WORD_OR_NIL, "character_choices": ListOf(_WORD, 16),
    "task": Record({"zh": _TEXT_OR_NIL, "en": _TEXT_OR_NIL}, nullable=True),
    "message": Record({"sender": _SEAT_OR_NIL, "method": _WORD, "face_up": Bool(), "origin": _SEAT_OR_NIL,
                       "position": _SEAT_OR_NIL, "direction": Int(-1, 1), "target": _SEAT_OR_NIL,
                       "returning": Bool(), "intercepted_by": _SEAT_OR_NIL, "card": _CARD_OR_NIL}, nullable=True),
    "stack": ListOf(Record({"user": _SEAT_OR_NIL, "function": _WORD_OR_NIL, "card": _CARD_OR_NIL,
                            "target_seat": _SEAT_OR_NIL, "target_card": _CARD_OR_NIL}), 64),
    "window": Record({"step": _WORD, "eligible": ListOf(_SEAT_NUMBER, 64)}, nullable=True),
    "pile": _COUNT, "discard": Either((_COUNT, _CARDS)), "removed": _COUNT,
    "waiting": ListOf(Record({"seat": _SEAT_NUMBER, "kind": _WORD, "prompt_id": Int(),
                              "deadline": Num(-(2**53), nullable=True)}, required=frozenset({"seat"})), 64),
    "prompt": PROMPT, "over": Bool(), "winners": ListOf(_SEAT_NUMBER, 64), "declarer": _SEAT_OR_NIL,
    "win_reason": _WORD_OR_NIL, "ending": ENDING, "log_length": _COUNT, "timers": Values(Num(0, 86_400)), "clock": Num(-(2**53)),
    "replay": Str(4096, nullable=True), "paused": _WORD_OR_NIL, "fast_forward": Bool(),
})
#: One projected event: its fields vary by kind; those the client reads are checked.
EVENT = Record({
    "seq": Int(), "kind": Str(64, min_len=1), "seat": _SEAT_OR_NIL, "target": _SEAT_OR_NIL, "by": _SEAT_OR_NIL,
    "user": _SEAT_OR_NIL, "to": _SEAT_OR_NIL, "source": _SEAT_OR_NIL, "origin": _SEAT_OR_NIL,
    "declarer": _SEAT_OR_NIL, "turn": _COUNT, "count": _COUNT, "direction": Int(-1, 1), "face_up": Bool(),
    "card": _CARD_OR_NIL, "cards": _CARDS, "old": _CARD_OR_NIL, "target_card": _CARD_OR_NIL,
    "identity": _WORD_OR_NIL, "identities": ListOf(_WORD_OR_NIL, 64), "winners": ListOf(_SEAT_NUMBER, 64),
    "character": _WORD_OR_NIL, "characters": ListOf(_WORD, 16), "skill": _WORD_OR_NIL, "function": _WORD_OR_NIL,
    "method": _WORD_OR_NIL, "reason": _WORD_OR_NIL, "answer": _WORD_OR_NIL, "line": _TEXT_OR_NIL,
}, required=frozenset({"kind"}))
EVENTS = ListOf(EVENT, 1000)
LOBBY_SEAT = Either((Str(64, nullable=True), Record({
    "index": _SEAT_NUMBER, "name": Str(64), "bot": Either((Bool(), _WORD_OR_NIL)), "online": Bool(),
    "ready": Bool(), "host": Bool(), "muted": Bool()})))
#: The table before a game (``Table.lobby_frame``).
LOBBY = Record({
    "name": Str(64), "phase": _WORD, "players": _COUNT, "identities": _WORD, "identity_options": ListOf(_WORD, 64),
    "deck": _WORD, "decks": ListOf(_WORD, 64), "characters": Bool(), "character_choices": _COUNT,
    "password": Bool(), "timers": Values(Num(0, 86_400)), "spectators_muted": Bool(), "you": _SEAT_OR_NIL,
    "host": Bool(), "seats": ListOf(LOBBY_SEAT, 64), "bot_delay": Num(0, 86_400),
})
#: What ``validate_server_message`` checks inside each message type, beyond its top-level schema.
SERVER_CONTENTS: Mapping[str, Mapping[str, Content]] = {
    "lobby": {"table": LOBBY},
    "update": {"view": VIEW, "events": EVENTS},
    "patch": {"events": EVENTS},
}

#: Client → server messages: ``type -> {field: validator}``; every field is required.
CLIENT_MESSAGES: Mapping[str, Schema] = {
    "hello": {
        "version": Int(0, 2**31),
        "name": NAME,
        "token": Str(64, nullable=True),
        "table": Str(64, nullable=True),
        "password": Str(64, nullable=True),
        "spectate": Bool(),
        "bot": Bool(),
    },
    "choose": {"prompt_id": Int(), "option": Str(64, min_len=1)},
    "chat": {"text": TEXT},
    "op": {"command": Choice(OP_COMMANDS), "args": Map()},
    "ping": {"n": Int()},
    "ready": {"ready": Bool()},
    "auto": {"on": Bool()},
    "fast_forward": {"on": Bool()},
}

#: Server → client messages, same form; built only through the functions below.
SERVER_MESSAGES: Mapping[str, Schema] = {
    "welcome": {
        "version": Int(0, 2**31),
        "seat": SEAT,
        "token": Str(64, min_len=1),
        "table": Str(64, min_len=1),
        "host": Bool(),
    },
    "error": {"code": Choice(ERROR_CODES), "message": Str(500), "ref": Int(nullable=True)},
    "lobby": {"table": Map()},
    "update": {"view": Map(), "events": Array()},
    "patch": {"changes": Array(), "events": Array()},
    "chat": {"seat": SEAT, "name": NAME, "text": TEXT},
    "pong": {"n": Int()},
    "bye": {"reason": Str(200)},
}


def version_mismatch(client_version: int) -> ProtocolError:
    """The error for a hello from another protocol version; names both versions."""
    return ProtocolError(
        VERSION, f"server speaks protocol {PROTOCOL_VERSION}, client speaks {client_version}"
    )


def _validate(msg: Any, schemas: Mapping[str, Schema], direction: str) -> dict[str, Any]:
    if not isinstance(msg, dict):
        raise ProtocolError(BAD_MESSAGE, f"a message is a map, not {_kind(msg)}")
    kind = msg.get("type")
    if type(kind) is not str:
        raise ProtocolError(BAD_MESSAGE, "field 'type' must be a string")
    schema = schemas.get(kind)
    if schema is None:
        raise ProtocolError(UNKNOWN_TYPE, f"unknown {direction} message type {kind[:40]!r}")
    for name in msg:
        if name != "type" and name not in schema:
            raise ProtocolError(BAD_MESSAGE, f"unknown field {str(name)[:40]!r} in {kind}")
    for name, validator in schema.items():
        if name not in msg:
            raise ProtocolError(BAD_MESSAGE, f"missing field {name!r} in {kind}")
        problem = validator.check(msg[name])
        if problem:
            raise ProtocolError(BAD_MESSAGE, f"{kind}.{name} {problem}")
    return msg


def validate_client_message(msg: Any) -> dict[str, Any]:
    """Check a decoded client message against ``CLIENT_MESSAGES`` and return it.

    A hello's version is checked before its other fields, so a client of another
    version gets a ``version`` error rather than a confusing schema error.
    """
    if isinstance(msg, dict) and msg.get("type") == "hello":
        version = msg.get("version")
        if type(version) is int and version != PROTOCOL_VERSION:
            raise version_mismatch(version)
    return _validate(msg, CLIENT_MESSAGES, "client")


def validate_server_message(msg: Any) -> dict[str, Any]:
    """Check a decoded server message against ``SERVER_MESSAGES`` and the maps inside it against
    ``SERVER_CONTENTS`` (client and bot side). A patch's view is checked once applied
    (``check_patched``, or ``check_view`` whole)."""
    msg = _validate(msg, SERVER_MESSAGES, "server")
    for name, content in SERVER_CONTENTS.get(msg["type"], {}).items():
        problem = content.check(msg[name])
        if problem:
            raise ProtocolError(BAD_MESSAGE, _at(f"{msg['type']}.{name}", problem))
    return msg


def check_view(view: Any) -> None:
    """A whole view (a patched one) against ``VIEW``; ``bad_message`` when it breaks it."""
    problem = VIEW.check(view)
    if problem:
        raise ProtocolError(BAD_MESSAGE, _at("view", problem))


def check_patched(view: dict[str, Any], changes: list[Any]) -> None:
    """A view patched from one that passed ``check_view``, checked as ``check_view`` would: only the
    values the patch put in, each against the part of ``VIEW`` at its path. The schema is made of
    parts that check their members one by one (records, arrays, maps of values) and a patch adds or
    removes no member, so the rest of the view is as valid as it was; where the path leads into an
    ``Either`` (or anything else that judges its value whole), that value is checked whole."""
    for change in changes:
        path = change[0]
        schema: Any = VIEW
        node: Any = view
        where = "view"
        for step in path:
            if type(schema) is Record:
                inner = schema.fields.get(step)
                if inner is None:
                    schema = None  # a field the schema does not know is not checked
                    break
            elif type(schema) is ListOf:
                inner = schema.item
            elif type(schema) is Values:
                inner = schema.value
            else:
                break
            schema, node = inner, node[step]
            where += f".{step}" if type(step) is str else f"[{step}]"
        if schema is None:
            continue
        problem = schema.check(node)
        if problem:
            raise ProtocolError(BAD_MESSAGE, _at(where, problem))


def _build(schemas: Mapping[str, Schema], kind: str, **fields: Any) -> dict[str, Any]:
    # Field order follows the schema so the encoding is deterministic (golden tests).
    msg = {"type": kind, **{name: fields[name] for name in schemas[kind]}}
    return _validate(msg, schemas, "server" if schemas is SERVER_MESSAGES else "client")


# --------------------------------------------------------------------------- server → client


def welcome(seat: int | None, token: str, table: str, host: bool) -> dict[str, Any]:
    """Accepted hello: ``seat`` is None for spectators; ``token`` reclaims the seat later."""
    return _build(
        SERVER_MESSAGES, "welcome", version=PROTOCOL_VERSION, seat=seat, token=token, table=table, host=host
    )


def _clean(text: str, limit: int) -> str:
    # Error texts may quote exception messages; never let them fail validation.
    return "".join("?" if unicodedata.category(ch) in ("Cc", "Cf") else ch for ch in text[:limit])


def error(code: str, message: str, ref: int | None = None) -> dict[str, Any]:
    """``ref`` echoes the prompt_id or ping n of the request being refused, if any."""
    return _build(SERVER_MESSAGES, "error", code=code, message=_clean(message, 500), ref=ref)


def lobby(table: dict[str, Any]) -> dict[str, Any]:
    return _build(SERVER_MESSAGES, "lobby", table=table)


def update(view: dict[str, Any], events: list[Any]) -> dict[str, Any]:
    """A seat's projected view plus the events that led to it, already projected."""
    return _build(SERVER_MESSAGES, "update", view=view, events=events)


def patch(changes: list[list[Any]], events: list[Any]) -> dict[str, Any]:
    """The change from the last view this connection was sent to the current one, plus new events."""
    return _build(SERVER_MESSAGES, "patch", changes=changes, events=events)


def chat(seat: int | None, name: str, text: str) -> dict[str, Any]:
    return _build(SERVER_MESSAGES, "chat", seat=seat, name=name, text=text)


def pong(n: int) -> dict[str, Any]:
    return _build(SERVER_MESSAGES, "pong", n=n)


def bye(reason: str) -> dict[str, Any]:
    """Sent just before the server closes the connection on purpose."""
    return _build(SERVER_MESSAGES, "bye", reason=_clean(reason, 200))


# --------------------------------------------------------------------------- client → server


def hello(
    name: str,
    token: str | None = None,
    table: str | None = None,
    password: str | None = None,
    spectate: bool = False,
    bot: bool = False,
) -> dict[str, Any]:
    """First message of every connection; a ``token`` reclaims a seat after a reconnect; ``bot``
    says a program plays the seat (never handed the host rights)."""
    return _build(
        CLIENT_MESSAGES,
        "hello",
        version=PROTOCOL_VERSION,
        name=name,
        token=token,
        table=table,
        password=password,
        spectate=spectate,
        bot=bot,
    )


def choose(prompt_id: int, option: str) -> dict[str, Any]:
    return _build(CLIENT_MESSAGES, "choose", prompt_id=prompt_id, option=option)


def say(text: str) -> dict[str, Any]:
    """A client ``chat`` message (the server's ``chat`` carries the sender too)."""
    return _build(CLIENT_MESSAGES, "chat", text=text)


def op(command: str, args: dict[str, Any] | None = None) -> dict[str, Any]:
    return _build(CLIENT_MESSAGES, "op", command=command, args={} if args is None else args)


def ping(n: int) -> dict[str, Any]:
    return _build(CLIENT_MESSAGES, "ping", n=n)


def ready(is_ready: bool) -> dict[str, Any]:
    return _build(CLIENT_MESSAGES, "ready", ready=is_ready)


def auto(on: bool) -> dict[str, Any]:
    """托管: hand our seat to a stand-in bot (True) or take it back (False)."""
    return _build(CLIENT_MESSAGES, "auto", on=on)


def fast_forward(on: bool) -> dict[str, Any]:
    """Ask the table to skip the bots' delay (a spectator, or a player out of the game)."""
    return _build(CLIENT_MESSAGES, "fast_forward", on=on)


# --------------------------------------------------------------------------- view patches

#: Most changes a patch carries before a full ``update`` is the cheaper frame.
MAX_PATCH_CHANGES = 48
#: Longest path a change may name (a view is a few levels deep).
MAX_PATCH_PATH = 8


def diff_view(old: dict[str, Any], new: dict[str, Any], path: tuple[Any, ...] = (),
              likely_differ: bool = False) -> list[list[Any]] | None:
    """The ``patch`` changes that turn ``old`` into ``new``, or None when a full view is smaller.

    Maps with the same keys and arrays of the same length are compared member by member;
    anything else that differs is replaced whole at its path. ``path`` is where ``old`` and
    ``new`` sit in the view (a part of a view diffed on its own, such as one seat's entry).
    ``likely_differ``: skip the whole comparison first (one walk instead of two when they differ,
    as a view whose clock moved does from the last).
    """
    if not likely_differ and old == new:
        return []  # compared in C, far cheaper than walking
    if old.keys() != new.keys():
        return None
    changes: list[list[Any]] = []
    try:
        _compare(old, new, list(path), changes)
    except _TooManyChanges:
        return None
    return changes


def diff_value(old: Any, new: Any, path: list[Any], changes: list[list[Any]]) -> bool:
    """Append to ``changes`` those that turn ``old``, at ``path`` in a view, into ``new`` (as
    ``diff_view`` finds them, the same cap on their number counted over ``changes``); False when
    a full view is smaller."""
    if old is new or old == new:
        return True
    try:
        _compare(old, new, path, changes)
    except _TooManyChanges:
        return False
    return True


class _TooManyChanges(Exception):
    pass


def _compare(old: Any, new: Any, path: list[Any], changes: list[list[Any]]) -> None:
    """Append the changes from ``old`` to ``new``, which are known to differ, found at ``path``.

    An array most of whose members changed (who is waiting, once a new window asks) is replaced
    whole: one change is smaller to send and cheaper to apply than one per member."""
    if type(old) is dict and type(new) is dict and old.keys() == new.keys() and len(path) < MAX_PATCH_PATH:
        for key, value in new.items():
            before = old[key]
            if before is not value and before != value:
                _compare(before, value, [*path, key], changes)
    elif type(old) is list and type(new) is list and len(old) == len(new) and len(path) < MAX_PATCH_PATH:
        differ = [i for i, (before, value) in enumerate(zip(old, new, strict=True)) if before is not value and before != value]
        if 2 * len(differ) > len(new):
            _replace(new, path, changes)
        else:
            for index in differ:
                _compare(old[index], new[index], [*path, index], changes)
    else:
        _replace(new, path, changes)


def _replace(new: Any, path: list[Any], changes: list[list[Any]]) -> None:
    if len(changes) >= MAX_PATCH_CHANGES:
        raise _TooManyChanges
    changes.append([path, new])


def time_left(view: Mapping[str, Any], entry: Mapping[str, Any]) -> float | None:
    """Seconds a prompt had left when its view was sent: ``entry`` is the view's ``prompt`` or an
    entry of its ``waiting``, whose ``deadline`` is on the table clock, like the view's ``clock``.
    None when the prompt has no deadline."""
    deadline, clock = entry.get("deadline"), view.get("clock")
    if isinstance(deadline, bool) or isinstance(clock, bool) \
            or not isinstance(deadline, int | float) or not isinstance(clock, int | float):
        return None
    return max(0.0, deadline - clock)


def apply_patch(view: dict[str, Any], changes: list[Any]) -> dict[str, Any]:
    """The view after ``changes``; ``view`` itself is left untouched (copy on write).

    Every container on a changed path is copied, the rest is shared with ``view``, so a
    caller holding the previous view never sees it change. A change naming a path that
    does not exist is ``bad_message``: the receiver's view is then out of step.
    """
    root = dict(view)
    fresh = {id(root)}
    for change in changes:
        if type(change) is not list or len(change) != 2 or type(change[0]) is not list:
            raise ProtocolError(BAD_MESSAGE, "a patch change is [path, value]")
        path, value = change
        if not 1 <= len(path) <= MAX_PATCH_PATH:
            raise ProtocolError(BAD_MESSAGE, f"a patch path has 1..{MAX_PATCH_PATH} steps")
        node: Any = root
        for step in path[:-1]:
            child = _child(node, step)
            if type(child) is not dict and type(child) is not list:
                raise ProtocolError(BAD_MESSAGE, f"patch path step {str(step)[:40]!r} is not a container")
            if id(child) not in fresh:
                child = dict(child) if type(child) is dict else list(child)
                fresh.add(id(child))
                node[step] = child
            node = child
        last = path[-1]
        _child(node, last)  # the member must exist already: patches never add or remove
        node[last] = value
    return root


def _child(node: Any, step: Any) -> Any:
    if type(node) is dict and type(step) is str and step in node:
        return node[step]
    if type(node) is list and type(step) is int and 0 <= step < len(node):
        return node[step]
    raise ProtocolError(BAD_MESSAGE, f"patch path step {str(step)[:40]!r} names nothing in the view")
