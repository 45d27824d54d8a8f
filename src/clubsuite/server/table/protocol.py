"""The table protocol: JSON messages over a WebSocket, one object per message, each with a ``type``.

The server is authoritative. A client says ``hello`` first (with its seat token, or none to watch, and the last
version it saw), then ``act`` with an action in the game's notation and the version it acted on, ``hint`` (the
heuristic bot's suggestion, where the table gives hints), ``chat`` (a line of the table's chat) and ``ping``.
The server sends ``welcome``, ``state`` (everything the receiver may see now), ``update`` (what one accepted
action changed: the public events and the receiver's new view), ``catchup`` (the public events missed while away),
``presence``, ``hint``, ``chat``, ``error`` and ``pong``. Every message carries the protocol version; states and
updates carry the table's version, a number that grows by one with every accepted change. ``docs/protocol.md``
describes each message, and :data:`SCHEMAS` gives a JSON Schema for each.

Only public facts travel in events (every engine event is public: who played what to the table, who passed, the
scores); what a seat alone may know travels only in that seat's own view.
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass
from enum import Enum
from typing import Any

from clubsuite.cards import Card, CardSet
from clubsuite.errors import ClubsError
from clubsuite.events import Event
from clubsuite.jsonform import JsonObject, JsonValue
from clubsuite.reasons import reason_of
from clubsuite.records.files import parse_record
from clubsuite.server.limits import MAX_MESSAGE_BYTES

PROTOCOL = 1
"""The protocol version; a client that speaks another is told so and the connection is closed."""
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


class ProtocolError(Exception):
    """A client message that cannot be used; the message names what is wrong (and the connection stays open)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Hello:
    """The first message of a connection: who is speaking (a seat token, or none to watch; a private table's
    invite code to watch it)."""

    token: str | None
    last_version: int | None
    invite: str | None = None


@dataclass(frozen=True)
class Act:
    """An action of the speaker's seat, in notation, on the version it saw."""

    action: str
    version: int


@dataclass(frozen=True)
class Ping:
    """Keep-alive; answered with ``pong``."""


@dataclass(frozen=True)
class Hint:
    """A request for the seat's hint on the version it sees: the heuristic bot's choice from the seat's own view
    (answered with ``hint`` where the table gives hints)."""

    version: int


@dataclass(frozen=True)
class Chat:
    """A line of the table's chat (already normalised by :func:`chat_text`): a seat's goes to everyone at the
    table, a spectator's to the spectators only."""

    text: str


ClientMessage = Hello | Act | Ping | Hint | Chat


BLANK_LOOKING = frozenset("\u2800\u3164\uffa0")
"""Letters that draw nothing (the blank Braille pattern, the Hangul fillers): a line of them alone is blank."""


def chat_text(text: str) -> str:
    """A chat message as the table keeps it: composed (NFC, so that one letter is one character, however it was
    typed) and stripped of surrounding blanks; :class:`ProtocolError` ``bad_chat`` naming the rule when it is blank,
    longer than :data:`MAX_CHAT_CHARS` or holds a character of :data:`CHAT_REFUSED`.

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
    return tidy


def _int_or_none(data: dict[str, Any], key: str) -> int | None:
    value = data.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ProtocolError("bad_message", f"{key} must be a whole number from 0 up, or null")
    return value


def _only(data: dict[str, Any], kind: str, allowed: set[str]) -> None:
    extra = sorted(set(data) - allowed - {"type", "protocol"})
    if extra:
        raise ProtocolError("bad_message", f"a {kind} message has no field {extra[0]!r}")


def parse_client_message(text: str | bytes, max_bytes: int = MAX_MESSAGE_BYTES) -> ClientMessage:
    """Read one client message of at most ``max_bytes``; raises :class:`ProtocolError` naming the problem (size,
    JSON, type, field)."""
    size = len(text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text)
    if size > max_bytes:
        raise ProtocolError("too_large", f"a message may have at most {max_bytes} bytes (this one had {size})")
    try:
        data = parse_record(text, "the message")  # standard JSON only, and nested within reason
    except ClubsError as exc:
        raise ProtocolError("bad_json", f"a message must be one JSON object: {exc}") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_json", "a message must be one JSON object")
    kind = data.get("type")
    if "protocol" in data and data["protocol"] != PROTOCOL:
        raise ProtocolError("protocol", f"this server speaks protocol {PROTOCOL}, not {data['protocol']!r}")
    if kind == "hello":
        _only(data, kind, {"token", "last_version", "invite"})
        token = data.get("token")
        if token is not None and (not isinstance(token, str) or not 1 <= len(token) <= 200):
            raise ProtocolError("bad_message", "token must be the seat token (text) or null to watch")
        invite = data.get("invite")
        if invite is not None and (not isinstance(invite, str) or not 1 <= len(invite) <= 64):
            raise ProtocolError("bad_message", "invite must be a private table's invite code (text) or null")
        return Hello(token, _int_or_none(data, "last_version"), invite)
    if kind == "act":
        _only(data, kind, {"action", "version"})
        action = data.get("action")
        if not isinstance(action, str) or not 1 <= len(action) <= 200:
            raise ProtocolError("bad_message", 'action must be the action in notation, such as "QH" or "pass"')
        version = _int_or_none(data, "version")
        if version is None:
            raise ProtocolError("bad_message", "act needs the version the action was chosen on")
        return Act(action, version)
    if kind == "ping":
        _only(data, kind, set())
        return Ping()
    if kind == "hint":
        _only(data, kind, {"version"})
        version = _int_or_none(data, "version")
        if version is None:
            raise ProtocolError("bad_message", "hint needs the version the hint is wanted for")
        return Hint(version)
    if kind == "chat":
        _only(data, kind, {"text"})
        said = data.get("text")
        if not isinstance(said, str):
            raise ProtocolError("bad_message", "chat needs the text of the message")
        return Chat(chat_text(said))
    raise ProtocolError("unknown_type", f"unknown message type {kind!r}: expected hello, act, hint, chat or ping")


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


def to_json_value(value: object) -> JsonValue:
    """An event field as JSON: cards and card sets in notation, enums by value, tuples as lists."""
    if value is None or isinstance(value, bool | str | float):
        return value
    if isinstance(value, CardSet | Card):
        return str(value)
    if isinstance(value, Enum):
        return to_json_value(value.value)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, tuple) and type(value) is not tuple and hasattr(value, "_fields"):
        return str(value)  # a play of several cards (a named tuple): its notation
    if isinstance(value, tuple | list):
        return [to_json_value(v) for v in value]
    return str(value)


def event_json(event: Event) -> JsonObject:
    """An engine event as JSON: ``{"type": class name, field: value, ...}``."""
    out: JsonObject = {"type": type(event).__name__}
    for name, value in zip(event._fields, event, strict=True):
        out[name] = to_json_value(value)
    return out


def encode(msg: JsonValue) -> str:
    """A message as the text a WebSocket sends (compact, UTF-8 kept as it is): made once where several clients get
    the same message or the same part of one."""
    return json.dumps(msg, separators=(",", ":"), ensure_ascii=False)


def joined(head: str, part: str) -> str:
    """The encoded objects ``head`` and ``part`` (no key in both) as one encoded object: a message's part shared by
    every client with each receiver's own part, without encoding the shared part again for each."""
    return head if part == "{}" else f"{head[:-1]},{part[1:]}"


def message(kind: str, **fields: JsonValue) -> JsonObject:
    """A server message of ``kind`` with the protocol version."""
    return {"type": kind, "protocol": PROTOCOL, **fields}


def error(code: str, text: str, version: int | None = None) -> JsonObject:
    """An error message; ``code`` is one of :data:`ERROR_CODES`. Where the rules refused (``text`` is a
    :class:`~clubsuite.reasons.Reason`), the reason's code, ruling and parameters go with the English words, so
    that a page words it in its reader's language."""
    fields: dict[str, JsonValue] = {"code": code, "message": str(text)}
    reason = reason_of(text)
    if reason is not None:
        fields["reason"] = reason.to_json()
    if version is not None:
        fields["version"] = version
    return message("error", **fields)


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
