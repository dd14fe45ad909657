"""The wire schema: golden bytes, strict decoding of hostile frames, schema validation."""

from __future__ import annotations

import json
import math
import re
import struct
import time
import tracemalloc
from pathlib import Path
from typing import Any

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from net import protocol as p
from net.protocol import ProtocolError

# One example of every message type and the exact bytes it must encode to. Changing
# any of these is a wire change: bump PROTOCOL_VERSION and update docs/protocol.md.
CLIENT_GOLDEN: list[tuple[dict[str, Any], str]] = [
    (
        p.hello("老王", token=None, table="t1", password=None, spectate=False),
        "88a474797065a568656c6c6fa776657273696f6e05a46e616d65a6e88081e78e8ba5746f6b656ec0"
        "a57461626c65a27431a870617373776f7264c0a87370656374617465c2a3626f74c2",
    ),
    (p.choose(7, "pass"), "83a474797065a663686f6f7365a970726f6d70745f696407a66f7074696f6ea470617373"),
    (p.say("你好"), "82a474797065a463686174a474657874a6e4bda0e5a5bd"),
    (
        p.op("add_bot", {"level": "easy"}),
        "83a474797065a26f70a7636f6d6d616e64a76164645f626f74a46172677381a56c6576656ca465617379",
    ),
    (p.ping(3), "82a474797065a470696e67a16e03"),
    (p.ready(True), "82a474797065a57265616479a57265616479c3"),
    (p.auto(True), "82a474797065a46175746fa26f6ec3"),
    (p.fast_forward(True), "82a474797065ac666173745f666f7277617264a26f6ec3"),
]
SERVER_GOLDEN: list[tuple[dict[str, Any], str]] = [
    (
        p.welcome(2, "Zq3vX9", "t1", False),
        "86a474797065a777656c636f6d65a776657273696f6e05a47365617402a5746f6b656ea65a7133765839"
        "a57461626c65a27431a4686f7374c2",
    ),
    (
        p.error(p.STALE_PROMPT, "prompt 7 is closed", 7),
        "84a474797065a56572726f72a4636f6465ac7374616c655f70726f6d7074a76d657373616765b2"
        "70726f6d7074203720697320636c6f736564a372656607",
    ),
    (
        p.lobby({"name": "t1", "seats": [None, "老王"]}),
        "82a474797065a56c6f626279a57461626c6582a46e616d65a27431a5736561747392c0a6e88081e78e8b",
    ),
    (
        p.update({"phase": "draw", "pile": 3}, [{"kind": "draw", "seat": 0, "count": 2}]),
        "83a474797065a6757064617465a47669657782a57068617365a464726177a470696c6503a66576656e7473"
        "9183a46b696e64a464726177a47365617400a5636f756e7402",
    ),
    (
        p.patch([[["pile"], 41], [["seats", 2, "hand_count"], 3]], [{"kind": "draw", "seat": 2, "count": 1}]),
        "83a474797065a57061746368a76368616e676573929291a470696c65299293a5736561747302aa68616e645f636f756e7403"
        "a66576656e74739183a46b696e64a464726177a47365617402a5636f756e7401",
    ),
    (
        p.chat(0, "老王", "你好"),
        "84a474797065a463686174a47365617400a46e616d65a6e88081e78e8ba474657874a6e4bda0e5a5bd",
    ),
    (p.pong(3), "82a474797065a4706f6e67a16e03"),
    (p.bye("game over"), "82a474797065a3627965a6726561736f6ea967616d65206f766572"),
]
GOLDEN = CLIENT_GOLDEN + SERVER_GOLDEN
DOCS = Path(__file__).resolve().parent.parent / "docs" / "protocol.md"


def _ids(cases: list[tuple[dict[str, Any], str]]) -> list[str]:
    return [msg["type"] for msg, _ in cases]


def _code(body: bytes) -> str:
    with pytest.raises(ProtocolError) as info:
        p.decode(body)
    return info.value.code


# ----------------------------------------------------------------------------- golden


def test_every_message_type_has_a_golden_example() -> None:
    assert sorted(m["type"] for m, _ in CLIENT_GOLDEN) == sorted(p.CLIENT_MESSAGES)
    assert sorted(m["type"] for m, _ in SERVER_GOLDEN) == sorted(p.SERVER_MESSAGES)


@pytest.mark.parametrize(("msg", "golden"), CLIENT_GOLDEN, ids=_ids(CLIENT_GOLDEN))
def test_client_golden_bytes(msg: dict[str, Any], golden: str) -> None:
    assert p.encode(msg).hex() == golden
    decoded = p.decode(bytes.fromhex(golden))
    assert decoded == msg
    assert p.validate_client_message(decoded) == msg


@pytest.mark.parametrize(("msg", "golden"), SERVER_GOLDEN, ids=_ids(SERVER_GOLDEN))
def test_server_golden_bytes(msg: dict[str, Any], golden: str) -> None:
    assert p.encode(msg).hex() == golden
    decoded = p.decode(bytes.fromhex(golden))
    assert decoded == msg
    assert p.validate_server_message(decoded) == msg


def test_frame_is_big_endian_length_then_body() -> None:
    assert p.encode_frame(p.ping(3)).hex() == "0000000e" + "82a474797065a470696e67a16e03"
    assert p.frame_length(b"\x00\x04\x00\x00") == p.MAX_FRAME
    with pytest.raises(ProtocolError) as info:
        p.frame_length(b"\x00\x04\x00\x01")
    assert info.value.code == p.TOO_LARGE and info.value.fatal


def test_docs_show_every_golden_example() -> None:
    """docs/protocol.md is checked against the code, so it cannot drift."""
    text = DOCS.read_text(encoding="utf-8")
    blocks = [json.loads(b) for b in re.findall(r"```json\n(.*?)```", text, re.S)]
    for block in blocks:
        if block.get("type") in p.CLIENT_MESSAGES:
            try:
                p.validate_client_message(block)
                continue
            except ProtocolError:
                pass
        p.validate_server_message(block)
    for msg, golden in GOLDEN:
        assert msg in blocks, f"docs/protocol.md lacks the {msg['type']} example"
        assert golden in text.replace("\n", ""), f"docs/protocol.md lacks the {msg['type']} bytes"
    for code in p.ERROR_CODES:
        assert f"`{code}`" in text
    for command in p.OP_COMMANDS:
        assert f"`{command}`" in text


# ----------------------------------------------------------------------------- strict decoding

NESTED_10K = b"\x81\xa4type" + b"\x91" * 10_000 + b"\xc0"


@pytest.mark.parametrize(
    "body",
    [
        pytest.param(b"", id="empty"),
        pytest.param(b"\xc1", id="never-used-byte"),
        pytest.param(b"\xff\xfe\xfd\x00garbage", id="garbage"),
        pytest.param(b"\x82\xa4type\xa4ping", id="truncated-map"),
        pytest.param(msgpack.packb({"type": msgpack.ExtType(5, b"x")}), id="ext"),
        pytest.param(b"\x81\xa4type\xc7\x00\x05", id="ext-zero-length"),
        pytest.param(msgpack.packb({"type": msgpack.Timestamp(1, 0)}), id="timestamp-ext"),
        pytest.param(msgpack.packb({1: "ping"}), id="int-key"),
        pytest.param(msgpack.packb({b"type": "ping"}, use_bin_type=True), id="bin-key"),
        pytest.param(msgpack.packb({"type": b"ping"}, use_bin_type=True), id="bin-value"),
        pytest.param(b"\x81\xa4type\xa2\xff\xfe", id="bad-utf8-value"),
        pytest.param(b"\x81\xa2\xc3\x28\x01", id="bad-utf8-key"),
        pytest.param(b"\x81\xa4type\xa3\xed\xa0\x80", id="utf8-surrogate"),
        pytest.param(NESTED_10K, id="nested-10000"),
        pytest.param(b"\x91" * 10_000 + b"\xc0", id="nested-10000-top"),
        pytest.param(p.encode(p.ping(1)) + b"\x00", id="trailing-bytes"),
        pytest.param(p.encode(p.ping(1)) * 2, id="two-messages"),
        pytest.param(b"\x81\xa4type\xdd\xff\xff\xff\xff", id="array-header-4G"),
        pytest.param(b"\x81\xa4type\xdb\x7f\xff\xff\xff", id="str-header-2G"),
        pytest.param(b"\x81\xa4type\xdf\xff\xff\xff\xff", id="map-header-4G"),
        pytest.param(msgpack.packb({"x": math.nan}), id="nan"),
        pytest.param(msgpack.packb({"x": -math.inf}), id="inf"),
        pytest.param(b"\x81\xa1x\xca\x7f\xc0\x00\x00", id="nan-float32"),
        pytest.param(b"\x81\xa1x\xca\xff\x80\x00\x00", id="inf-float32"),
        pytest.param(msgpack.packb({"x": [1.5, "Āb", {"y": math.nan}]}), id="nan-beside-suspect-text"),
    ],
)
def test_decode_rejects_bad_frames(body: bytes) -> None:
    assert _code(body) == p.BAD_FRAME


@pytest.mark.parametrize(
    "msg",
    [
        {"x": "ĀĂą ņ"},  # UTF-8 holding bin type bytes (0xc4, 0xc5): the full walk clears it
        {"x": [0.5, -2.25, 1e300], "y": {"z": 3.5}},
        {"x": 0xC4C5C6CB, "y": -0x3400},  # integers whose bytes look like bin and float types
        {"x": "试探 截获", "y": [[1], [2]]},
    ],
)
def test_decode_accepts_bodies_that_only_look_suspect(msg: dict[str, Any]) -> None:
    assert p.decode(msgpack.packb(msg, use_bin_type=True)) == msg


@pytest.mark.parametrize("value", [[1, 2], 5, "ping", None, True])
def test_decode_rejects_non_map_top_level(value: Any) -> None:
    assert _code(msgpack.packb(value)) == p.BAD_MESSAGE


def _nested(depth: int) -> bytes:
    """A map whose value is nested so that the innermost array sits at ``depth``."""
    return b"\x81\xa1x" + b"\x91" * (depth - 2) + b"\x90"


def test_nesting_limit_is_exactly_max_depth() -> None:
    assert p.decode(_nested(p.MAX_DEPTH))["x"]
    assert _code(_nested(p.MAX_DEPTH + 1)) == p.BAD_FRAME


def test_decode_rejects_over_the_cap() -> None:
    assert _code(b"\x80" + b"\x00" * p.MAX_FRAME) == p.TOO_LARGE


def _at_cap(item: bytes) -> bytes:
    """A frame as close to MAX_FRAME bytes as ``item`` allows: {"type": [item, item, ...]}."""
    prefix = b"\x81\xa4type\xdd"
    count = (p.MAX_FRAME - len(prefix) - 4) // len(item)
    return prefix + struct.pack(">I", count) + item * count


@pytest.mark.parametrize(
    "item",
    [
        pytest.param(b"\x90", id="empty-arrays"),
        pytest.param(b"\x80", id="empty-maps"),
        pytest.param(b"\x91\x90", id="arrays-of-empty-arrays"),
        pytest.param(b"\x81\xa0\x80", id="maps-of-empty-maps"),
    ],
)
def test_empty_container_bomb_at_the_cap_is_rejected_cheaply(item: bytes) -> None:
    body = _at_cap(item)
    assert p.MAX_FRAME - 4 < len(body) <= p.MAX_FRAME
    tracemalloc.start()
    started = time.perf_counter()
    try:
        assert _code(body) == p.BAD_FRAME
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 4 * 2**20, f"peak {peak / 2**20:.1f} MiB"
    assert time.perf_counter() - started < 2.0


@pytest.mark.parametrize(
    "item",
    [
        pytest.param(b"\x00", id="ints"),
        pytest.param(b"\xa2ab", id="short-strings"),
        pytest.param(b"\xc0", id="nils"),
    ],
)
def test_scalar_flood_at_the_cap_decodes_in_bounded_memory(item: bytes) -> None:
    body = _at_cap(item)
    tracemalloc.start()
    try:
        msg = p.decode(body)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(msg["type"]) > 80_000
    assert peak < 24 * 2**20, f"peak {peak / 2**20:.1f} MiB"
    with pytest.raises(ProtocolError):
        p.validate_client_message(msg)


# ----------------------------------------------------------------------------- schema validation


def _client_code(msg: Any) -> str:
    with pytest.raises(ProtocolError) as info:
        p.validate_client_message(msg)
    return info.value.code


def test_unknown_and_missing_type() -> None:
    assert _client_code({"type": "welcome"}) == p.UNKNOWN_TYPE  # a server type from a client
    assert _client_code({"type": "sudo"}) == p.UNKNOWN_TYPE
    assert _client_code({"n": 1}) == p.BAD_MESSAGE
    assert _client_code({"type": 7}) == p.BAD_MESSAGE
    assert _client_code(["ping"]) == p.BAD_MESSAGE


def test_unknown_and_missing_fields() -> None:
    with pytest.raises(ProtocolError, match="unknown field 'seat' in choose") as info:
        p.validate_client_message({"type": "choose", "prompt_id": 1, "option": "x", "seat": 3})
    assert info.value.code == p.BAD_MESSAGE
    with pytest.raises(ProtocolError, match="missing field 'option' in choose"):
        p.validate_client_message({"type": "choose", "prompt_id": 1})


def _with(msg: dict[str, Any], **changes: Any) -> dict[str, Any]:
    return {**msg, **changes}


HELLO = p.hello("阿福")


@pytest.mark.parametrize(
    "msg",
    [
        pytest.param(_with(p.choose(1, "a"), prompt_id="1"), id="prompt_id-str"),
        pytest.param(_with(p.choose(1, "a"), prompt_id=True), id="prompt_id-bool"),
        pytest.param(_with(p.choose(1, "a"), prompt_id=-1), id="prompt_id-negative"),
        pytest.param(_with(p.choose(1, "a"), prompt_id=1.0), id="prompt_id-float"),
        pytest.param(_with(p.choose(1, "a"), option=""), id="option-empty"),
        pytest.param(_with(p.choose(1, "a"), option="x" * 65), id="option-65"),
        pytest.param(_with(p.choose(1, "a"), option=None), id="option-nil"),
        pytest.param(_with(HELLO, name=""), id="name-empty"),
        pytest.param(_with(HELLO, name="   "), id="name-blank"),
        pytest.param(_with(HELLO, name="名" * 25), id="name-25"),
        pytest.param(_with(HELLO, name="\x1b[2J"), id="name-escape"),
        pytest.param(_with(HELLO, name="ab\u202ecd"), id="name-bidi"),
        pytest.param(_with(HELLO, token=5), id="token-int"),
        pytest.param(_with(HELLO, password="x" * 65), id="password-65"),
        pytest.param(_with(HELLO, spectate=1), id="spectate-int"),
        pytest.param(_with(HELLO, version="1"), id="version-str"),
        pytest.param(_with(p.say("hi"), text="x" * 201), id="chat-201"),
        pytest.param(_with(p.say("hi"), text="a\nb"), id="chat-newline"),
        pytest.param(_with(p.op("start"), command="rm -rf"), id="op-unknown-command"),
        pytest.param(_with(p.op("start"), args=[]), id="op-args-array"),
        pytest.param(_with(p.ping(1), n=None), id="ping-nil"),
        pytest.param(_with(p.ready(True), ready="yes"), id="ready-str"),
    ],
)
def test_wrong_field_types_are_rejected(msg: dict[str, Any]) -> None:
    assert _client_code(msg) == p.BAD_MESSAGE


def test_limits_are_inclusive() -> None:
    p.validate_client_message(_with(HELLO, name="名" * 24))
    p.validate_client_message(_with(p.say("hi"), text="字" * 200))
    p.validate_client_message(_with(p.choose(1, "a"), option="x" * 64))
    for command in p.OP_COMMANDS:
        p.validate_client_message(p.op(command, {"n": 5}))


def test_version_mismatch_names_both_versions() -> None:
    hello2 = {"type": "hello", "version": p.PROTOCOL_VERSION + 1, "name": "x", "future_field": True}
    with pytest.raises(ProtocolError) as info:
        p.validate_client_message(hello2)
    assert info.value.code == p.VERSION
    assert info.value.to_message() == {
        "type": "error",
        "code": "version",
        "message": f"server speaks protocol {p.PROTOCOL_VERSION}, client speaks {p.PROTOCOL_VERSION + 1}",
        "ref": None,
    }


def test_server_messages_are_validated_too() -> None:
    with pytest.raises(ProtocolError):
        p.welcome(-1, "tok", "t1", True)
    with pytest.raises(ProtocolError):
        p.error("no_such_code", "x")
    with pytest.raises(ProtocolError):
        p.chat(0, "x" * 25, "hi")
    with pytest.raises(ProtocolError):
        p.validate_server_message({"type": "pong", "n": 1, "extra": 1})
    with pytest.raises(ProtocolError) as info:
        p.validate_server_message(p.ping(1))
    assert info.value.code == p.UNKNOWN_TYPE
    assert p.welcome(None, "tok", "t1", False)["seat"] is None


def test_error_texts_are_sanitised_not_refused() -> None:
    msg = p.error(p.BAD_FRAME, "line\nbreak\x1b" + "x" * 600)
    assert msg["message"].startswith("line?break?") and len(msg["message"]) == 500
    assert p.bye("bye\r\n")["reason"] == "bye??"


@pytest.mark.parametrize(
    "msg",
    [
        pytest.param({"type": "x", "v": b"bytes"}, id="bytes"),
        pytest.param({"type": "x", "v": {1, 2}}, id="set"),
        pytest.param({"type": "x", "v": math.nan}, id="nan"),
        pytest.param({"type": "x", "v": 2**70}, id="bigint"),
        pytest.param({"type": "x", 3: "int-key"}, id="int-key"),
        pytest.param(["type"], id="array"),
    ],
)
def test_encode_refuses_what_decode_would_refuse(msg: Any) -> None:
    with pytest.raises(ProtocolError):
        p.encode(msg)


def test_encode_refuses_oversized_messages() -> None:
    with pytest.raises(ProtocolError) as info:
        p.encode({"type": "update", "view": {"blob": "x" * p.MAX_FRAME}, "events": []})
    assert info.value.code == p.TOO_LARGE


# ----------------------------------------------------------------------------- fuzzing

FUZZ = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _decode_and_validate(body: bytes) -> None:
    try:
        msg = p.decode(body)
    except ProtocolError:
        return
    assert isinstance(msg, dict)
    for validate in (p.validate_client_message, p.validate_server_message):
        try:
            validate(msg)
        except ProtocolError:
            pass


@settings(max_examples=1500, deadline=None)
@given(st.binary(max_size=512))
def test_fuzz_random_bytes_raise_only_protocol_error(body: bytes) -> None:
    _decode_and_validate(body)


@FUZZ
@given(
    st.sampled_from([bytes.fromhex(golden) for _, golden in GOLDEN]),
    st.lists(st.tuples(st.integers(0, 400), st.integers(0, 255)), min_size=1, max_size=6),
)
def test_fuzz_mutated_golden_frames_raise_only_protocol_error(
    body: bytes, edits: list[tuple[int, int]]
) -> None:
    data = bytearray(body)
    for pos, byte in edits:
        data[pos % len(data)] = byte
    _decode_and_validate(bytes(data))


_scalars = st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.text(max_size=20)
_floats = st.floats(allow_nan=False, allow_infinity=False)
_trees = st.recursive(
    _scalars | _floats,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


@FUZZ
@given(st.dictionaries(st.text(max_size=8), _trees, max_size=5))
def test_fuzz_what_encode_accepts_decode_returns(msg: dict[str, Any]) -> None:
    assert p.decode(p.encode(msg)) == msg


@FUZZ
@given(st.dictionaries(st.text(max_size=8), _trees | st.binary(max_size=4), max_size=5))
def test_fuzz_structured_frames_raise_only_protocol_error(msg: dict[str, Any]) -> None:
    _decode_and_validate(msgpack.packb(msg, use_bin_type=True))
