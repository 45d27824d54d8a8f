"""The table protocol: JSON messages over a WebSocket, one object per message, each with a ``type``.

The server is authoritative. A client says ``hello`` first (with its seat token, or none to watch, and the last
version it saw), then ``act`` with an action in the game's notation and the version it acted on, ``hint`` (the
heuristic bot's suggestion, where the table gives hints), ``chat`` (a line of the table's chat) and ``ping``.
The server sends ``welcome``, ``state`` (everything the receiver may see now), ``update`` (what one accepted
action changed: the public events and the receiver's new view), ``catchup`` (the public events missed while away),
``presence``, ``hint``, ``chat``, ``error`` and ``pong``. Every message carries the protocol version; states and
updates carry the table's version, a number that grows by one with every accepted change. ``docs/protocol.md``
describes each message, and :mod:`~clubsuite.server.table.schemas` gives a JSON Schema for each.

The client's messages are declared once, as the pydantic models :class:`Hello`, :class:`Act`, :class:`Ping`,
:class:`Hint` and :class:`Chat`: :func:`parse_client_message` reads every message with them, and their JSON Schemas
and the docs' table of them are written from them, so the three cannot drift apart.

Only public facts travel in events (every engine event is public: who played what to the table, who passed, the
scores); what a seat alone may know travels only in that seat's own view.
"""

from __future__ import annotations

import json
import unicodedata
from typing import Annotated, Any, Literal, get_args

import orjson
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_validator
from pydantic_core import PydanticCustomError

from clubsuite.errors import ClubsError
from clubsuite.events import Event
from clubsuite.jsonform import JsonObject, JsonValue
from clubsuite.present import wire_form
from clubsuite.records.files import parse_record
from clubsuite.server.decency import unwelcome
from clubsuite.server.limits import MAX_MESSAGE_BYTES
from clubsuite.tabletalk import PROTOCOL as PROTOCOL  # the version, said where the messages are declared

RATE = 20.0
"""Messages per second a connection may send on average ..."""
BURST = 40.0
"""... and at once; more are refused (with an error) until the bucket refills."""
MAX_CHAT_CHARS = 200
"""The longest chat message, in characters once normalised: a line of table talk, not a letter."""
CHAT_REFUSED = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
"""The Unicode categories a chat message may not hold: control characters (line breaks and tabs among them),
invisible format characters (such as the right-to-left override U+202E, which turns the text after it around, and
zero-width spaces), lone surrogates, and the line and paragraph separators. Each either shows nothing or changes how
the text around it shows, so a message holding one could pass for something it is not."""
CHAT_TEXT_RULE = (
    f"text only (never markup): 1 to {MAX_CHAT_CHARS} characters once composed (NFC) and stripped of surrounding "
    "blanks, not blank, with no control or invisible formatting character (Unicode categories "
    f"{', '.join(sorted(CHAT_REFUSED))})"
)
"""A chat line's rules in words, as the schemas and the docs give them (:func:`chat_text` applies them)."""


class ProtocolError(Exception):
    """A client message that cannot be used; the message names what is wrong (and the connection stays open)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


BLANK_LOOKING = frozenset("\u2800\u3164\uffa0")
"""Letters that draw nothing (the blank Braille pattern, the Hangul fillers): a line of them alone is blank."""


def chat_text(text: str) -> str:
    """A chat message as the table keeps it: composed (NFC, so that one letter is one character, however it was
    typed) and stripped of surrounding blanks; :class:`ProtocolError` ``bad_chat`` naming the rule when it is blank,
    longer than :data:`MAX_CHAT_CHARS`, holds a character of :data:`CHAT_REFUSED` or a word the site does not accept
    (:mod:`clubsuite.server.decency`).

    A refused character is refused, never silently removed: the sender learns that the line was not sent as typed.
    NFC rather than NFKC: a chat keeps what was typed (NFKC would turn "½" into "1⁄2"); the text is only ever
    shown as text, so no folding is needed for safety."""
    tidy = unicodedata.normalize("NFC", text).strip()
    for ch in tidy:
        if unicodedata.category(ch) in CHAT_REFUSED:
            raise ProtocolError(
                "bad_chat",
                f"a chat message may not contain control or invisible formatting characters (this one has {ch!a})",
            )
    if not tidy or all(ch.isspace() or ch in BLANK_LOOKING or "FILLER" in unicodedata.name(ch, "") for ch in tidy):
        raise ProtocolError("bad_chat", "a chat message cannot be blank")
    if len(tidy) > MAX_CHAT_CHARS:
        raise ProtocolError(
            "bad_chat", f"a chat message has at most {MAX_CHAT_CHARS} characters (this one has {len(tidy)})"
        )
    if unwelcome(tidy):
        raise ProtocolError("bad_chat", "a chat message may not hold words this site does not accept: it was not sent")
    return tidy


class _ClientMessage(BaseModel):
    """What every client message shares: read strictly (a value of the wrong type is refused, never coerced), no
    field that does not belong, finite numbers, frozen once read; ``type`` names the message and picks its model."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True, allow_inf_nan=False)

    protocol: Literal[1] = Field(
        1,
        description=f"the version of this protocol the client speaks, {PROTOCOL} (any other is refused with the "
        "error code protocol)",
    )
    """The protocol version (:data:`PROTOCOL`; a type cannot name a constant); the parser tells a client that
    speaks another one so before its message is read."""


class Hello(_ClientMessage):
    """The first message of a connection: a seat token (null to watch), the last version seen (null: none) and, to
    watch a private table, its invite code."""

    type: Literal["hello"]
    token: str | None = Field(
        None,
        min_length=1,
        max_length=200,
        description="the seat token from joining (text, 1 to 200 characters), or null to watch",
    )
    last_version: int | None = Field(
        None,
        ge=0,
        description="the last table version seen (a whole number from 0 up), to be told what was missed since; "
        "or null for none",
    )
    invite: str | None = Field(
        None,
        min_length=1,
        max_length=64,
        description="a private table's invite code (text, 1 to 64 characters), to watch it; or null",
    )


class Act(_ClientMessage):
    """An action of the speaker's seat in the game's notation, on the version it was chosen on."""

    type: Literal["act"]
    action: str = Field(
        min_length=1,
        max_length=200,
        description='the action in the game\'s notation, such as "QH" or "pass" (text, 1 to 200 characters)',
    )
    version: int = Field(ge=0, description="the table version the action was chosen on (a whole number from 0 up)")


class Ping(_ClientMessage):
    """Keep-alive: answered with pong."""

    type: Literal["ping"]


class Hint(_ClientMessage):
    """Ask for a hint on the version seen (the seat to act only, where the table gives hints): the heuristic bot's
    choice from the seat's own view."""

    type: Literal["hint"]
    version: int = Field(ge=0, description="the table version the hint is wanted for (a whole number from 0 up)")


class Chat(_ClientMessage):
    """A line of the table's chat: a seat's is read by everyone at the table, a spectator's by the spectators only.
    Refused with bad_chat (the rule in words) when blank, too long, or holding a control or invisible formatting
    character."""

    type: Literal["chat"]
    text: str = Field(
        description=CHAT_TEXT_RULE,
        json_schema_extra={"minLength": 1, "maxLength": MAX_CHAT_CHARS},
    )

    @field_validator("text")
    @classmethod
    def _tidy(cls, text: str) -> str:
        """The line as the table keeps it (:func:`chat_text`); a rule it breaks is a ``bad_chat`` error, reported
        by the parser with that code and the rule's words."""
        try:
            return chat_text(text)
        except ProtocolError as exc:
            raise PydanticCustomError("bad_chat", "{rule}", {"rule": str(exc)}) from None


CLIENT_MESSAGES: tuple[type[Hello | Act | Ping | Hint | Chat], ...] = (Hello, Act, Ping, Hint, Chat)
"""Every message a client may send, in the order the docs show them; ``type`` tells them apart."""
ClientMessage = Hello | Act | Ping | Hint | Chat
CLIENT_READER: TypeAdapter[ClientMessage] = TypeAdapter(Annotated[ClientMessage, Field(discriminator="type")])
"""Reads a client message (parsed JSON) into its model: built once, as every socket message goes through it."""
KINDS: dict[str, type[ClientMessage]] = {get_args(m.model_fields["type"].annotation)[0]: m for m in CLIENT_MESSAGES}
"""Each client message's model by its ``type``."""
_EXPECTED = f"{', '.join(list(KINDS)[:-1])} or {list(KINDS)[-1]}"


def parse_client_message(text: str | bytes, max_bytes: int = MAX_MESSAGE_BYTES) -> ClientMessage:
    """Read one client message of at most ``max_bytes``; raises :class:`ProtocolError` naming the problem (size,
    JSON, protocol version, type, field and its rule, a chat line's rule).

    The size is checked before anything is parsed; the JSON is read as every stranger's JSON is (standard JSON
    only, nested within reason), then its shape by the message's model."""
    size = len(text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text)
    if size > max_bytes:
        raise ProtocolError("too_large", f"a message may have at most {max_bytes} bytes (this one had {size})")
    try:
        data = parse_record(text, "the message")  # standard JSON only, and nested within reason
    except ClubsError as exc:
        raise ProtocolError("bad_json", f"a message must be one JSON object: {exc}") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_json", "a message must be one JSON object")
    if "protocol" in data and data["protocol"] != PROTOCOL:
        raise ProtocolError("protocol", f"this server speaks protocol {PROTOCOL}, not {data['protocol']!r}")
    try:
        return CLIENT_READER.validate_python(data)
    except ValidationError as exc:
        raise _refusal(exc, data) from None


def _refusal(exc: ValidationError, data: dict[str, Any]) -> ProtocolError:
    """The first problem of a message its model refused, in plain words: the field and its rule (the field's own
    description, as the schemas and the docs give it), never the field's value; an unknown type is named, to say what
    was not understood. A field that does not belong is named first, as it says most plainly that the client speaks
    another dialect; a chat line's rule keeps its own code, ``bad_chat``."""
    problems = exc.errors(include_url=False, include_context=False, include_input=False)
    first = problems[0]
    if first["type"] in ("union_tag_invalid", "union_tag_not_found"):
        return ProtocolError("unknown_type", f"unknown message type {data.get('type')!r}: expected {_EXPECTED}")
    kind = str(data["type"])
    extra = sorted(str(p["loc"][-1]) for p in problems if p["type"] == "extra_forbidden")
    if extra:
        article = "an" if kind[0] in "aeiou" else "a"
        return ProtocolError("bad_message", f"{article} {kind} message has no field {extra[0]!r}")
    if first["type"] == "bad_chat":
        return ProtocolError("bad_chat", first["msg"])
    field = ".".join(str(part) for part in first["loc"][1:])
    info = KINDS[kind].model_fields.get(field)
    rule = info.description if info is not None and info.description else first["msg"].lower()
    if first["type"] == "missing":
        return ProtocolError("bad_message", f"{kind} needs {field}: {rule}")
    return ProtocolError("bad_message", f"{field} must be {rule}")


class RateLimit:
    """A token bucket per connection: :data:`RATE` messages a second on average, :data:`BURST` at once."""

    def __init__(self, now: float, rate: float = RATE, burst: float = BURST) -> None:
        self.rate, self.burst = rate, burst
        self.level = burst
        self.at = now

    def allow(self, now: float) -> bool:
        """Take one message's worth from the bucket; False when it is empty."""
        self.level = min(self.burst, self.level + (now - self.at) * self.rate)
        self.at = now
        if self.level < 1:
            return False
        self.level -= 1
        return True


def event_json(event: Event) -> JsonObject:
    """An engine event as JSON: ``{"type": its declared name on the wire, field: value, ...}`` (cards and card sets
    in notation, enums by value, tuples as lists), the very form the terminal and a replay's account word it from:
    :func:`clubsuite.present.wire_form`, written there once."""
    return wire_form(event)


ORJSON_OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME
"""What orjson is asked to write as the standard library does: keys that are not strings written as strings, and
no dataclass or datetime written at all (the standard library refuses them: so does :func:`encode`)."""


def encode(msg: JsonValue) -> str:
    """A message as the text a WebSocket sends (compact, UTF-8 kept as it is): made once where several clients get
    the same message or the same part of one. Written by orjson (a tenth of the standard library's time: every
    update of every table is written once per seat watching it); a value orjson does not write as the standard
    library would (a named tuple, an integer past 64 bits, a string that is not valid Unicode) sends the message
    to the standard library, which writes it as it always did, or refuses it as it always did."""
    try:
        return orjson.dumps(msg, option=ORJSON_OPTIONS).decode()
    except orjson.JSONEncodeError:
        return json.dumps(msg, separators=(",", ":"), ensure_ascii=False)


def joined(head: str, part: str) -> str:
    """The encoded objects ``head`` and ``part`` (no key in both) as one encoded object: a message's part shared by
    every client with each receiver's own part, without encoding the shared part again for each."""
    return head if part == "{}" else f"{head[:-1]},{part[1:]}"


ERROR_CODES = (
    "bad_json",
    "bad_message",
    "too_large",
    "rate_limited",
    "unknown_type",
    "protocol",
    "not_seated",
    "bad_token",
    "no_spectators",
    "stale",
    "not_your_turn",
    "illegal",
    "over",
    "no_hints",
    "bad_chat",
    "no_table",
    "too_many_connections",
    "server",
)
"""Why a message was refused: the JSON, the message's shape, its size, the rate, its type, the protocol version, an
action from a spectator, a token that opens no seat of this table, watching where the table forbids it, an action
on an old version, out of turn, against the rules, after the end, a hint where the table gives none, a chat message
that is blank, too long or holds control or invisible characters (too frequent ones are ``rate_limited``), a table that
does not exist (or is private, and no invite or seat token came with the hello), a connection over the limits
(per seat token, per address, spectators per table), or a fault of the server (nothing changed)."""
