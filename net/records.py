"""Game records on disk and on the wire: msgpack bytes of `Game.record()` (config, seed, choices).

The engine stays stdlib-only, so the encoding lives here. Decoding is strict and schema-checked
because a record file may come from anyone: a bad one raises RecordError, never anything else.
"""

from __future__ import annotations

from typing import Any, NoReturn

import msgpack

#: Largest record accepted: far above the longest game (a few thousand choices of ~20 bytes).
MAX_RECORD = 4 * 1024 * 1024
RECORD_KEYS = frozenset({"config", "seed", "choices"})


class RecordError(ValueError):
    """Bytes that are not a valid game record."""


def pack_record(record: dict[str, Any]) -> bytes:
    _check(record)
    data: bytes = msgpack.packb(record, use_bin_type=True)
    return data


def _reject_ext(code: int, data: bytes) -> NoReturn:
    raise RecordError(f"msgpack ext type {code} is not allowed in a record")


def unpack_record(data: bytes) -> dict[str, Any]:
    """Strictly decode a record: one msgpack map, str keys, no ext or bin, the record's schema."""
    size = len(data)
    if size > MAX_RECORD:
        raise RecordError(f"a record of {size} bytes exceeds the cap of {MAX_RECORD}")
    try:
        record = msgpack.unpackb(
            data, raw=False, strict_map_key=True, use_list=True, ext_hook=_reject_ext,
            max_str_len=size, max_bin_len=0, max_array_len=size, max_map_len=size, max_ext_len=0,
        )
    except RecordError:
        raise
    except Exception as exc:  # untrusted bytes: any decoder failure means "not a record"
        raise RecordError(f"not a msgpack record: {exc or type(exc).__name__}") from None
    _check(record)
    return record


def _check(record: Any) -> None:
    if not isinstance(record, dict):
        raise RecordError("a record is a map")
    if set(record) != RECORD_KEYS:
        raise RecordError(f"a record has exactly the keys {sorted(RECORD_KEYS)}, not {sorted(record)}")
    config = record["config"]
    if not isinstance(config, dict) or not all(isinstance(k, str) for k in config):
        raise RecordError("config must be a map with string keys")
    for value in config.values():
        if not isinstance(value, str | int | bool | list) or (
                isinstance(value, list) and not all(isinstance(v, str) for v in value)):
            raise RecordError("config values must be strings, integers, booleans or lists of strings")
    if not _is_int(record["seed"]):
        raise RecordError("seed must be an integer")
    choices = record["choices"]
    if not isinstance(choices, list):
        raise RecordError("choices must be a list")
    for choice in choices:
        if (not isinstance(choice, list | tuple) or len(choice) != 3 or not _is_int(choice[0])
                or not _is_int(choice[1]) or not isinstance(choice[2], str)):
            raise RecordError(f"a choice is [seat, prompt id, option id], not {choice!r}")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
