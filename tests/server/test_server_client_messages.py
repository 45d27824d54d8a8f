"""The client's messages are declared once, as the models that read them: the parser, the published JSON Schemas and
the protocol page's table of them all come from those models, and these tests hold the three together.

The schema and the parser agree in both directions: every message a client schema allows is read (save a chat line
that breaks a chat rule the schema can state in words only: composed, stripped, not blank, no control or invisible
character), and every message the parser reads is one its schema allows once read (a chat line tidied, the protocol
version as the server took it). One difference is JSON Schema's own and is left out on purpose: it counts ``17.0``
as an integer, while the server, as Python's JSON reader does, reads a number written with a fraction as a fraction
and refuses it where a whole number is wanted; the schemas are checked here with ``integer`` meaning a number written
without one.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator, validators
from pydantic import ValidationError

from clubsuite.records.format import MAX_DIGITS
from clubsuite.server.limits import MAX_MESSAGE_BYTES
from clubsuite.server.table.protocol import (
    ERROR_CODES,
    KINDS,
    MAX_CHAT_CHARS,
    PROTOCOL,
    Act,
    Chat,
    Hello,
    Hint,
    Ping,
    ProtocolError,
    chat_text,
    parse_client_message,
)
from clubsuite.server.table.schemas import CLIENT, MESSAGES_BEGIN, MESSAGES_END, messages_block, write_docs

PAGE = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
ROOMY = 1 << 20
"""A size bound no generated message reaches: the bound is the socket's rule, not the schema's."""

WholeNumbers = validators.extend(
    Draft202012Validator,
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine(
        "integer", lambda _, value: isinstance(value, int) and not isinstance(value, bool)
    ),
)
CHECKS = {kind: WholeNumbers(schema) for kind, schema in CLIENT.items()}
FIELDS = sorted({name for model in KINDS.values() for name in model.model_fields})

texts = st.one_of(
    st.text(max_size=4),
    st.text(min_size=60, max_size=70),
    st.text(min_size=MAX_CHAT_CHARS - 5, max_size=MAX_CHAT_CHARS + 5),
    st.sampled_from(["QH", "pass", "7C 7H", " hi ", "\u202e", "\u2800", "A\u030a", "\u0958", "\t", ""]),
)
numbers = st.one_of(
    st.integers(-3, 30),
    st.integers(min_value=-(10 ** (MAX_DIGITS - 1)), max_value=10 ** (MAX_DIGITS - 1)),
    st.floats(allow_nan=False, allow_infinity=False),
    st.just(17.0),
)
values = st.one_of(
    texts,
    numbers,
    st.none(),
    st.booleans(),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)


whole = st.one_of(st.integers(0, 30), st.integers(min_value=0, max_value=10 ** (MAX_DIGITS - 1)))
FITTING = {
    "token": st.one_of(texts, st.none()),
    "invite": st.one_of(texts, st.none()),
    "last_version": st.one_of(whole, st.none()),
    "action": texts,
    "version": whole,
    "text": texts,
}
"""Values of the kind each field takes (most of them right, some just outside its bounds)."""


def chance(draw: st.DrawFn, one_in: int) -> bool:
    """True once in ``one_in`` draws (as Hypothesis shrinks, towards False)."""
    return draw(st.integers(0, one_in - 1)) == one_in - 1


@st.composite
def messages(draw: st.DrawFn) -> dict[str, Any]:
    """A client message near the shape of one: mostly a known type with most of its fields, each of the field's
    kind more often than not; sometimes another type or none, the protocol version right or wrong, a value of any
    JSON kind, or a field that does not belong."""
    kind = draw(st.one_of(st.sampled_from(["dance", "Act", ""]), values)) if chance(draw, 8) else None
    kind = kind if kind is not None else draw(st.sampled_from(list(KINDS)))
    msg: dict[str, Any] = {} if chance(draw, 20) else {"type": kind}
    if chance(draw, 4):
        msg["protocol"] = draw(values) if chance(draw, 4) else PROTOCOL
    known = isinstance(kind, str) and kind in KINDS
    for name in FITTING:
        own = not known or name in KINDS[kind].model_fields
        if (own and not chance(draw, 10)) or (not own and chance(draw, 12)):
            msg[name] = draw(values) if chance(draw, 4) else draw(FITTING[name])
    if chance(draw, 8):
        msg[draw(st.sampled_from(["to", "extra", "Type"]))] = draw(values)
    return msg


def allowed(msg: dict[str, Any]) -> bool:
    """Whether some client schema allows ``msg``."""
    return any(check.is_valid(msg) for check in CHECKS.values())


def read(msg: dict[str, Any]) -> Any:
    """``msg`` sent as a socket's text and read by the parser."""
    return parse_client_message(json.dumps(msg), ROOMY)


@pytest.mark.long
@settings(max_examples=400)
@given(messages())
@example({"type": "hello"})
@example({"type": "hello", "token": "t" * 200, "last_version": 0, "invite": "i" * 64, "protocol": 1})
@example({"type": "act", "action": "x" * 200, "version": 10**40})
@example({"type": "chat", "text": "\u0958" * MAX_CHAT_CHARS})  # composes to twice as many characters
@example({"type": "chat", "text": "\u202e"})
def test_every_message_a_client_schema_allows_is_read_save_a_chat_line_a_worded_rule_refuses(
    msg: dict[str, Any],
) -> None:
    if not allowed(msg):
        return
    try:
        parsed = read(msg)
    except ProtocolError as exc:
        assert msg["type"] == "chat" and exc.code == "bad_chat", (msg, exc.code, str(exc))
        with pytest.raises(ProtocolError):
            chat_text(msg["text"])
        return
    assert parsed.type == msg["type"]


@settings(max_examples=400)
@given(messages())
@example({"type": "ping", "protocol": True})  # True == 1 in JSON's reader: the version the server speaks
@example({"type": "chat", "text": "  A\u030a  "})
@example({"type": "chat", "text": "A\u030a" * MAX_CHAT_CHARS})  # 400 characters sent, 200 once composed
def test_every_message_the_parser_reads_is_one_its_schema_allows_once_read(msg: dict[str, Any]) -> None:
    try:
        parsed = read(msg)
    except ProtocolError:
        return
    kept = parsed.model_dump()
    assert CHECKS[msg["type"]].is_valid(kept), (msg, kept)
    for name, value in msg.items():
        if name == "text":
            assert kept[name] == chat_text(value)
        elif name != "protocol":
            assert kept[name] == value and type(kept[name]) is type(value)
    as_kept = "text" not in msg or chat_text(msg["text"]) == msg["text"]
    as_spoken = "protocol" not in msg or type(msg["protocol"]) is int
    if as_kept and as_spoken:
        assert allowed(msg), msg


@settings(max_examples=400)
@given(messages())
def test_a_refused_message_gets_a_documented_code_and_names_the_field_or_the_type(msg: dict[str, Any]) -> None:
    try:
        read(msg)
    except ProtocolError as exc:
        assert exc.code in ERROR_CODES
        assert not allowed(msg) or exc.code == "bad_chat"
        if exc.code == "bad_message":
            said = str(exc)
            assert any(
                f"{name} must be" in said or f"needs {name}:" in said or f"no field {name!r}" in said
                for name in [*msg, *FIELDS]
            ), said
        elif exc.code == "unknown_type":
            assert "expected hello, act, ping, hint or chat" in str(exc)
    else:
        assert isinstance(msg.get("type"), str)


@pytest.mark.parametrize(
    ("msg", "code", "words"),
    [
        ({"type": "dance"}, "unknown_type", "unknown message type 'dance'"),
        ({"action": "QH", "version": 1}, "unknown_type", "unknown message type None"),
        ({"type": ["act"]}, "unknown_type", "unknown message type ['act']"),
        (
            {"type": "act", "action": "QH", "version": 0, "extra": 1},
            "bad_message",
            "an act message has no field 'extra'",
        ),
        ({"type": "chat", "text": "\x1b", "to": 1}, "bad_message", "a chat message has no field 'to'"),
        ({"type": "act", "action": "QH"}, "bad_message", "act needs version: the table version"),
        ({"type": "act", "action": "QH", "version": None}, "bad_message", "version must be"),
        ({"type": "act", "action": "QH", "version": -1}, "bad_message", "a whole number from 0 up"),
        ({"type": "act", "action": "QH", "version": True}, "bad_message", "a whole number from 0 up"),
        ({"type": "act", "action": "QH", "version": 3.0}, "bad_message", "a whole number from 0 up"),
        (
            {"type": "act", "action": "", "version": 3},
            "bad_message",
            "action must be the action in the game's notation",
        ),
        ({"type": "hint"}, "bad_message", "hint needs version: the table version the hint is wanted for"),
        ({"type": "hello", "token": ""}, "bad_message", "token must be the seat token from joining"),
        ({"type": "hello", "token": 5}, "bad_message", "or null to watch"),
        ({"type": "hello", "invite": "x" * 65}, "bad_message", "invite must be a private table's invite code"),
        ({"type": "hello", "last_version": "3"}, "bad_message", "last_version must be"),
        ({"type": "chat", "text": 5}, "bad_message", "text must be text only"),
        ({"type": "chat"}, "bad_message", "chat needs text"),
        ({"type": "chat", "text": " \u3164 "}, "bad_chat", "cannot be blank"),
        ({"type": "chat", "text": "a\u200bb"}, "bad_chat", "\\u200b"),
        ({"type": "chat", "text": "x" * (MAX_CHAT_CHARS + 1)}, "bad_chat", f"at most {MAX_CHAT_CHARS} characters"),
        ({"type": "dance", "protocol": 2}, "protocol", "this server speaks protocol 1, not 2"),
        ({"type": "ping", "protocol": None}, "protocol", "not None"),
    ],
)
def test_a_refusal_names_the_field_and_the_rule_in_plain_words(msg: dict[str, Any], code: str, words: str) -> None:
    with pytest.raises(ProtocolError) as refused:
        read(msg)
    assert refused.value.code == code and words in str(refused.value), str(refused.value)


def test_the_size_is_checked_before_the_message_is_read_and_bad_json_is_told_as_such() -> None:
    with pytest.raises(ProtocolError) as big:
        parse_client_message("{" * (MAX_MESSAGE_BYTES + 1))
    assert big.value.code == "too_large" and str(MAX_MESSAGE_BYTES) in str(big.value)
    with pytest.raises(ProtocolError) as bytes_too:
        parse_client_message(b" " * 11, 10)
    assert bytes_too.value.code == "too_large"
    for text in ("{not json", "[1]", '"act"', '{"type": "ping", "type": "ping"}', '{"type": "act", "version": NaN}'):
        with pytest.raises(ProtocolError) as bad:
            parse_client_message(text)
        assert bad.value.code == "bad_json", text


def test_a_message_read_is_its_frozen_model_with_the_fields_the_table_uses() -> None:
    hello = parse_client_message('{"type": "hello", "protocol": 1, "token": "abc", "last_version": 3}')
    assert isinstance(hello, Hello)
    assert (hello.token, hello.last_version, hello.invite) == ("abc", 3, None)
    act = parse_client_message(b'{"type": "act", "action": "QH", "version": 17}')
    assert isinstance(act, Act) and (act.action, act.version) == ("QH", 17)
    assert isinstance(parse_client_message('{"type": "ping"}'), Ping)
    hint = parse_client_message('{"type": "hint", "version": 4}')
    assert isinstance(hint, Hint) and hint.version == 4
    chat = parse_client_message('{"type": "chat", "text": "  A\\u030a gg  "}')
    assert isinstance(chat, Chat) and chat.text == "\u00c5 gg"
    with pytest.raises(ValidationError):
        act.version = 18


def test_the_client_schemas_are_the_models_with_a_description_for_each_message_and_field() -> None:
    assert list(CLIENT) == list(KINDS) == ["hello", "act", "ping", "hint", "chat"]
    for kind, schema in CLIENT.items():
        Draft202012Validator.check_schema(schema)
        assert schema["title"] == kind and schema["description"] and "\n" not in schema["description"]
        assert schema["additionalProperties"] is False and schema["required"][0] == "type"
        props = schema["properties"]
        assert list(props)[:2] == ["type", "protocol"] and props["type"]["const"] == kind
        assert props["protocol"]["const"] == PROTOCOL == KINDS[kind].model_fields["protocol"].default
        assert all(field.get("description") for name, field in props.items() if name != "type"), kind
        assert set(schema["required"]) == {n for n, f in KINDS[kind].model_fields.items() if f.is_required()}


def test_the_protocol_page_shows_the_table_of_the_client_messages_of_the_models() -> None:
    page = PAGE.read_text(encoding="utf-8")
    assert messages_block() in page, "run: python -m clubsuite.server.table.schemas --write docs/protocol.md"
    for kind, model in KINDS.items():
        assert f"| `{kind}` |" in messages_block()
        for name in model.model_fields:
            assert name in ("type", "protocol") or f"| `{name}` (" in messages_block()


def test_writing_the_docs_brings_a_page_whose_table_drifted_back_in_step(tmp_path: Path) -> None:
    page = tmp_path / "protocol.md"
    shutil.copy(PAGE, page)
    text = page.read_text(encoding="utf-8")
    start, stop = text.index(MESSAGES_BEGIN), text.index(MESSAGES_END)
    page.write_text(text[:start] + MESSAGES_BEGIN + "\n| `act` | | stale |\n" + text[stop:], encoding="utf-8")
    assert messages_block() not in page.read_text(encoding="utf-8")
    assert write_docs(page) is True
    assert page.read_text(encoding="utf-8") == text
    assert write_docs(page) is False
