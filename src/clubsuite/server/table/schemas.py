"""A JSON Schema (draft 2020-12) for every message of the table protocol, by direction and type.

``docs/protocol.md`` shows them between its ``<!-- protocol-schemas -->`` markers, and a table of the client's messages
between its ``<!-- protocol-client-messages -->`` markers, both written by ``python -m clubsuite.server.table.schemas
--write`` (tests check that the page and this module agree), and the tests validate every message their clients send
and receive against them.

The client's schemas and that table are written from the pydantic models that read the client's messages
(:data:`~clubsuite.server.table.protocol.KINDS`), so that what the server accepts, what it publishes and what the page
says are one declaration; the server's messages are described here by hand.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import get_args

from clubsuite.docblock import main, write_block
from clubsuite.jsonform import JsonObject
from clubsuite.server.limits import MAX_MESSAGE_BYTES
from clubsuite.server.table.chat import CHAT_BURST, CHAT_RATE, HISTORY
from clubsuite.server.table.protocol import (
    CHAT_TEXT_RULE,
    CLIENT_MESSAGES,
    ERROR_CODES,
    KINDS,
    MAX_CHAT_CHARS,
    PROTOCOL,
    ClientMessage,
)

_VERSION: JsonObject = {"type": "integer", "minimum": 0, "description": "the table's version"}
_SEAT: JsonObject = {"type": ["integer", "null"], "minimum": 0, "description": "a seat number, or null"}
_PROTOCOL: JsonObject = {"const": PROTOCOL}


def _message(kind: str, description: str, props: JsonObject, required: list[str]) -> JsonObject:
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": kind,
        "description": description,
        "type": "object",
        "properties": {"type": {"const": kind}, "protocol": _PROTOCOL, **props},
        "required": ["type", *required],
        "additionalProperties": False,
    }


_SEATS: JsonObject = {
    "type": "array",
    "items": {
        "type": "object",
        "properties": {
            "seat": {"type": "integer", "minimum": 0},
            "kind": {"enum": ["person", "bot"]},
            "name": {"type": ["string", "null"]},
            "taken": {"type": "boolean"},
            "connected": {"type": "boolean"},
            "bot_playing": {"type": "boolean"},
            "bot": {"type": "string", "description": "a bot seat's bot (its level or spec)"},
            "level": {"type": "string", "description": "a bot seat's level in words, shown beside its name"},
        },
        "required": ["seat", "kind", "name", "taken", "connected", "bot_playing"],
        "additionalProperties": False,
    },
}
_CLOCK: JsonObject = {
    "type": ["object", "null"],
    "properties": {"seat": {"type": "integer"}, "seconds_left": {"type": "number", "minimum": 0}},
    "required": ["seat", "seconds_left"],
    "additionalProperties": False,
}
_LEGAL: JsonObject = {
    "type": ["array", "null"],
    "items": {"type": "string"},
    "description": "the legal actions in notation, to the seat to act only (null otherwise)",
}
_TABLE: JsonObject = {
    "type": "object",
    "description": "the table as the lobby shows it",
    "properties": {
        "id": {"type": "string"},
        "game": {"type": "string", "description": "the table's rules spec: a game or variant, and its options"},
        "base": {"type": "string", "description": "the name of the game the spec plays (its variants' too)"},
        "title": {"type": "string"},
        "name": {"type": "string", "description": "the table's name in words: Ann's CLUBS, 4 players, wild 15s"},
        "host": {
            "type": ["string", "null"],
            "description": "the person in the lowest-numbered person's seat taken now, or null before anyone is",
        },
        "rules": {
            "type": "array",
            "items": {"type": "string"},
            "description": "the options that differ from the game's defaults, in short words",
        },
        "name_words": {
            "type": "object",
            "description": "what the name is made of, for a page to word it in its reader's language: the host (or "
            "null), the game's title, the number of players (null where the game's seat count is fixed) and each rule "
            "that differs from the defaults as its option, its words (English, looked up in the catalogs' 'words' "
            "context) and the value that fills their {} (or null)",
            "properties": {
                "host": {"type": ["string", "null"]},
                "title": {"type": "string"},
                "players": {"type": ["integer", "null"]},
                "rules": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {
                            "option": {"type": "string"},
                            "words": {"type": "string"},
                            "value": {"type": ["string", "null"]},
                            "one": {"type": "string"},
                        },
                        "required": ["option", "words", "value"],
                        "additionalProperties": False,
                    },
                },
            },
            "required": ["host", "title", "players", "rules"],
            "additionalProperties": False,
        },
        "seats": _SEATS,
        "free_seats": {"type": "array", "items": {"type": "integer"}},
        "pool": {
            "type": "string",
            "description": "the rating pool of the table's game: the game, with its seat count where it has several",
        },
        "abandoned": {
            "type": "boolean",
            "description": "everyone left once play had begun: no person's seat is held (the bots play on)",
        },
        "spectators": {"type": "integer", "minimum": 0, "description": "spectators connected now"},
        "settings": {"type": "object"},
        "match_no": {"type": "integer", "minimum": 0},
        "version": _VERSION,
        "over": {"type": "boolean"},
        "waiting": {"type": "boolean"},
    },
    "required": [
        "id",
        "game",
        "title",
        "name",
        "host",
        "rules",
        "name_words",
        "seats",
        "free_seats",
        "pool",
        "abandoned",
        "spectators",
        "settings",
        "match_no",
        "version",
        "over",
        "waiting",
    ],
    "additionalProperties": False,
}
_REASON: JsonObject = {
    "type": "object",
    "description": "why the rules refused, as data (docs/protocol.md): the reason's stable code, the ruling it applies "
    "and its parameters (a card's notation, several cards as a list, a seat number, a suit's key, a count, a nested "
    "reason), from which a page words the refusal in its reader's language; the message is its English sentence",
    "properties": {
        "code": {"type": "string"},
        "rule": {"type": ["string", "null"]},
        "params": {"type": "object"},
    },
    "required": ["code", "rule", "params"],
}
_WAITING: JsonObject = {
    "type": "boolean",
    "description": "whether the table still waits for people to take their seats before play starts",
}
_RESULT: JsonObject = {
    "type": ["object", "null"],
    "description": "once the match is over: the winning seats (empty on a draw), whether it was a draw, the totals",
    "properties": {
        "winners": {"type": "array", "items": {"type": "integer"}},
        "draw": {"type": "boolean"},
        "totals": {"type": "array", "items": {"type": "integer"}},
    },
    "required": ["winners", "draw", "totals"],
    "additionalProperties": False,
}
_CHAT_TEXT: JsonObject = {"type": "string", "minLength": 1, "maxLength": MAX_CHAT_CHARS, "description": CHAT_TEXT_RULE}
_CHAT_LINE: JsonObject = {
    "id": {"type": "integer", "minimum": 1, "description": "grows by one with every line said at the table"},
    "channel": {
        "enum": ["players", "spectators"],
        "description": "players: said by a seat, read by everyone; spectators: said by a spectator, read by "
        "spectators only",
    },
    "seat": {**_SEAT, "description": "the speaker's seat, or null for a spectator"},
    "name": {"type": "string", "description": "the seat's display name, or a spectator's label (Spectator 3)"},
    "text": _CHAT_TEXT,
    "at": {"type": "number", "description": "when it was said, in seconds since 1970 (UTC)"},
}
_CHAT_HISTORY: JsonObject = {
    "type": "array",
    "maxItems": HISTORY,
    "description": "the table's last chat lines the receiver may read, oldest first (a seat: the players' channel; "
    "a spectator: both); kept in the server's memory only, never in a record",
    "items": {
        "type": "object",
        "properties": _CHAT_LINE,
        "required": list(_CHAT_LINE),
        "additionalProperties": False,
    },
}
_WORDS: JsonObject = {
    "type": "object",
    "description": "words, as a reason the page words from its catalog: its stable code and its parameters (none "
    "where it has none; a nested reason so too), as a refusal's reason without its ruling",
    "properties": {"code": {"type": "string"}, "params": {"type": "object"}},
    "required": ["code"],
    "additionalProperties": False,
}
_SAID: JsonObject = {
    "type": ["object", "null"],
    "description": "the event as the table tells it (clubsuite.present.Said): its sentences as anyone watching reads "
    "them, the same told to each seat it is about (mine, by seat), and what it does to the table in the words every "
    "game shares; null for an event nobody tells",
    "properties": {
        "words": {"type": "array", "items": _WORDS},
        "mine": {"type": "object", "additionalProperties": {"type": "array", "items": _WORDS}},
        "kind": {
            "enum": ["", "deal", "put", "trick", "scored"],
            "description": "deal: a hand dealt; put: seat put cards on the table; trick: seat took the trick (won "
            "with cards, where the game's tricks are plays); scored: the hand was scored",
        },
        "seat": _SEAT,
        "cards": {"type": "string", "description": "the cards put down or won, in notation"},
    },
    "required": ["words", "mine", "kind", "seat", "cards"],
}
_HAND: JsonObject = {
    "type": "object",
    "description": "the account of one complete hand of the match (the game's hand summary: its scores and what "
    "the table saw), for the score sheet",
    "properties": {
        "dealer": {"type": "integer"},
        "scores": {"type": "array"},
        "complete": {"const": True},
        "said": {
            **_SAID,
            "description": "the hand in words, as its game gives it: phrases for the score sheet's details",
        },
    },
    "required": ["dealer", "scores", "complete"],
}
_EVENT: JsonObject = {
    "type": "object",
    "description": "an engine event: its type (the name its game declares for it on the wire) and its fields (cards "
    "in notation), and how the table tells it (said); "
    "all events are public. A page reads said only: the types and fields are each game's own",
    "properties": {"type": {"type": "string"}, "said": _SAID},
    "required": ["type", "said"],
}
_SHOWN: JsonObject = {
    "type": ["object", "null"],
    "description": "what the view shows beside the cards, as its game declares it (clubsuite.present.Shown); every "
    "word a reason the page words from its catalog, every seat a number; null where the game declares nothing",
    "properties": {
        "badges": {
            "type": "array",
            "description": "per seat, the game's marks beside its name",
            "items": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "words": _WORDS,
                        "look": {"type": "string", "description": "team-N (the N-th team, from 0), contract, or empty"},
                    },
                    "required": ["words", "look"],
                },
            },
        },
        "stats": {
            "type": "array",
            "description": "per seat, what it holds or has won that its game counts",
            "items": {"type": "array", "items": _WORDS},
        },
        "front": {
            "type": "array",
            "description": "what lies in front of each seat now (its card of the trick, its last bid or play)",
            "items": {
                "type": "object",
                "properties": {
                    "seat": _SEAT,
                    "cards": {"type": "string", "description": "cards in notation (empty: only the note)"},
                    "note": {"oneOf": [_WORDS, {"type": "null"}]},
                    "to_beat": {"type": "boolean", "description": "the play the others must beat"},
                },
                "required": ["seat", "cards", "note", "to_beat"],
            },
        },
        "known": {
            "type": "array",
            "description": "cards beside the hand that the seat knows, under a title",
            "items": {
                "type": "object",
                "properties": {
                    "title": _WORDS,
                    "cards": {"type": "string"},
                    "playable": {"type": "boolean", "description": "cards of the seat's it may play from there"},
                    "folded": {"type": "boolean", "description": "shown folded: they are in the hand already"},
                },
                "required": ["title", "cards", "playable", "folded"],
            },
        },
        "teams": {
            "type": "array",
            "description": "the seats of each team, in the order of the view's team_totals (empty: no teams)",
            "items": {"type": "array", "items": _SEAT},
        },
        "facts": {
            "type": "array",
            "description": "the facts of the hand, a label and its phrases each",
            "items": {
                "type": "object",
                "properties": {
                    "label": _WORDS,
                    "words": {"type": "array", "items": _WORDS},
                    "joined": {"type": "string"},
                },
                "required": ["label", "words", "joined"],
            },
        },
        "says": {"oneOf": [_WORDS, {"type": "null"}], "description": "what the table says while nothing lies on it"},
        "sort": {"enum": ["suit", "rank"], "description": "how a hand is sorted unless its player chose otherwise"},
        "ace_low": {"type": "boolean", "description": "whether the ace ranks below the two"},
        "select": {"type": "boolean", "description": "whether a play is always made by selecting its cards"},
        "wild": {"type": ["string", "null"], "description": "the rank whose cards are wild at this table"},
        "beat": {"type": "boolean", "description": "whether each play of a trick must beat the one before"},
    },
    "required": [
        "badges",
        "stats",
        "front",
        "known",
        "teams",
        "facts",
        "says",
        "sort",
        "ace_low",
        "select",
        "wild",
        "beat",
    ],
}
_VIEW: JsonObject = {
    "type": "object",
    "description": "the receiver's view: view(seat).to_dict() without its legal list, or the spectator view, with "
    "what it shows beside the cards (shown)",
    "properties": {"game": {"type": "string"}, "seat": _SEAT, "shown": _SHOWN},
    "required": ["game", "seat", "shown"],
}
_NOTES: JsonObject = {
    "type": "object",
    "description": "to the seat to act, where its game has something to add: what a legal action does, by its notation "
    "(a wild 15's readings of the same cards: which takes the trick at once), as a reason (code, ruling, parameters) "
    "the page words from its catalog; the legal list then offers the strongest reading of those cards first",
    "additionalProperties": {
        **_REASON,
        "description": "what the action does, as data: a stable code (GAME.offer_WHAT), the ruling "
        "behind it and its parameters (a nested reason among them), which a page words from its catalog",
    },
}
_LESSON: JsonObject = {
    "type": "object",
    "description": "to a person's seat to act at a coached table (the guided first hand), at each of its first "
    "decisions of the first hand: the scripted hand's step, the choice it points at and why, in one line",
    "properties": {
        "step": {
            "type": ["integer", "null"],
            "minimum": 1,
            "description": "which step, counted from 1; null past the last step (the rest of the first hand is the "
            "player's own: no other field then)",
        },
        "steps": {"type": "integer", "minimum": 1, "description": "how many steps a lesson has at most"},
        "idea": {"type": "string", "description": "what the step shows (lead, follow, trump, ...), a stable word"},
        "told": {
            "type": "array",
            "items": {"type": "string"},
            "description": "the ideas whose rule the step says, the first time in the hand (chest, ruby, ...)",
        },
        "action": {"type": "string", "description": "the choice pointed at, one of the legal actions"},
        "cards": {"type": "array", "items": {"type": "string"}, "description": "the cards it names, to mark"},
        "say": {**_REASON, "description": "why, in one line, as a reason the page words from its catalog"},
    },
    "required": ["step", "steps"],
    "additionalProperties": False,
}
_RULING_WORDS: JsonObject = {
    "type": "object",
    "description": "a ruling in plain words: a short title and what it says, as reasons the page words",
    "properties": {"title": _WORDS, "text": _WORDS},
    "required": ["title", "text"],
    "additionalProperties": False,
}
_ASKED: JsonObject = {
    "type": "object",
    "description": "to the seat to act: what it is asked, in sentences, and the rule behind it (a ruling's id, whose "
    "words are in rulings; or, for a basic rule every text states alike, why)",
    "properties": {
        "words": {"type": "array", "items": _WORDS},
        "rule": {"type": ["string", "null"]},
        "why": {"oneOf": [_RULING_WORDS, {"type": "null"}]},
    },
    "required": ["words", "rule", "why"],
    "additionalProperties": False,
}
_LABELS: JsonObject = {
    "type": "object",
    "description": "to the seat to act: each legal action, by its notation, as its button says it",
    "additionalProperties": _WORDS,
}
_RULINGS: JsonObject = {
    "type": "object",
    "description": "the game's rulings in plain words, by id (for a prompt's or a refusal's why?)",
    "additionalProperties": _RULING_WORDS,
}
_TURN: JsonObject = {
    "type": ["object", "null"],
    "description": "a turn-based table's clock (docs/server.md, Turn-based tables); null at a live table",
    "properties": {
        "pace": {"type": "number", "description": "seconds of a player's clock for one move"},
        "on_timeout": {"enum": ["bot", "adjourn", "lose"], "description": "what a clock running out does"},
        "seat": {**_SEAT, "description": "the seat whose clock runs, or null (a bot's turn, adjourned, the end)"},
        "deadline": {"type": ["number", "null"], "description": "when that clock runs out (seconds since 1970)"},
        "seconds_left": {"type": ["number", "null"], "description": "seconds until then, as the server sent it"},
        "paused": {"enum": ["night", "vacation", None], "description": "why that clock is stopped now, if it is"},
        "adjourned": {"type": "boolean", "description": "a clock ran out: no clock runs until a player goes on"},
        "ended": {
            "type": ["object", "null"],
            "properties": {"lost": _SEAT},
            "required": ["lost"],
            "additionalProperties": False,
            "description": "the match ended because that seat's clock ran out (it lost)",
        },
        "autoplay": {"type": "boolean", "description": "the receiver's own: its forced moves are played at once"},
    },
    "required": ["pace", "on_timeout", "seat", "deadline", "seconds_left", "paused", "adjourned", "ended"],
    "additionalProperties": False,
}
_PLAY: JsonObject = {
    "version": _VERSION,
    "turn": _TURN,
    "result": _RESULT,
    "to_act": _SEAT,
    "over": {"type": "boolean"},
    "clock": _CLOCK,
    "view": _VIEW,
    "legal": _LEGAL,
    "notes": _NOTES,
    "lesson": _LESSON,
    "asked": _ASKED,
    "labels": _LABELS,
}


_UPDATES: JsonObject = {
    "type": "array",
    "items": {
        "type": "object",
        "properties": {"version": _VERSION, "events": {"type": "array", "items": _EVENT}},
        "required": ["version", "events"],
        "additionalProperties": False,
    },
}


def _client_schema(model: type[ClientMessage]) -> JsonObject:
    """A client message's schema, from the model that reads it: the model's own, with the page's ``$schema``, the
    message's name as its title, its description on one line (and, for chat, the speaker's rate, which the chat
    room keeps), ``type`` first and no per-field titles (each field has a description instead)."""
    own = model.model_json_schema()
    kind = get_args(model.model_fields["type"].annotation)[0]
    properties = {name: {k: v for k, v in field.items() if k != "title"} for name, field in own["properties"].items()}
    description = " ".join(str(own["description"]).split())
    if kind == "chat":
        description += (
            f" One speaker (a seat, with all its connections; a spectator's address, with all its connections) may "
            f"say {CHAT_BURST:g} lines at once and {CHAT_RATE:g} a second after that; more are refused with "
            "rate_limited."
        )
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": kind,
        "description": description,
        "type": own["type"],
        "properties": {"type": properties.pop("type"), **properties},
        "required": own["required"],
        "additionalProperties": own["additionalProperties"],
    }


CLIENT: dict[str, JsonObject] = {kind: _client_schema(model) for kind, model in KINDS.items()}
"""What a client may send (each message at most :data:`~clubsuite.server.limits.MAX_MESSAGE_BYTES` bytes), as the
models of :mod:`~clubsuite.server.table.protocol` that read it describe it."""

SERVER: dict[str, JsonObject] = {
    "welcome": _message(
        "welcome",
        "The answer to hello: the table, the receiver's seat (null: watching) and role.",
        {"table": {"type": "string"}, "seat": _SEAT, "role": {"enum": ["seat", "spectator"]}},
        ["protocol", "table", "seat", "role"],
    ),
    "state": _message(
        "state",
        "Everything the receiver may see now (after hello, after a rematch); resync: the missed events were no "
        "longer kept, so this state replaces them.",
        {
            **_PLAY,
            "seat": _SEAT,
            "resync": {"type": "boolean"},
            "table": _TABLE,
            "hands": {"type": "array", "items": _HAND},
            "chat": _CHAT_HISTORY,
            "rulings": _RULINGS,
            "away": {
                "type": "object",
                "description": "to a seat at a turn-based table: the public events of the moves made since its player "
                'last had the table open, oldest first (shown as "while you were away")',
                "properties": {"since": _VERSION, "updates": _UPDATES},
                "required": ["since", "updates"],
                "additionalProperties": False,
            },
        },
        [
            "protocol",
            "version",
            "seat",
            "resync",
            "table",
            "to_act",
            "over",
            "result",
            "clock",
            "hands",
            "chat",
            "rulings",
            "view",
            "legal",
        ],
    ),
    "update": _message(
        "update",
        "One accepted action: the public events it caused (a new hand dealt included), who acted and how (seat, "
        "bot, a bot for an absent player, the clock, a turn-based clock run out, or a forced move played for the "
        "seat), and the receiver's new view.",
        {
            **_PLAY,
            "events": {"type": "array", "items": _EVENT},
            "by": {
                "type": "object",
                "properties": {
                    "seat": {"type": "integer"},
                    "source": {"enum": ["seat", "bot", "takeover", "clock", "timeout", "auto"]},
                },
                "required": ["seat", "source"],
                "additionalProperties": False,
            },
            "seats": _SEATS,
            "waiting": _WAITING,
            "scored": _HAND,
        },
        [
            "protocol",
            "version",
            "events",
            "by",
            "to_act",
            "over",
            "result",
            "clock",
            "seats",
            "waiting",
            "view",
            "legal",
        ],
    ),
    "catchup": _message(
        "catchup",
        "After a hello with last_version: the public events of each version missed, oldest first (a state follows).",
        {
            "since": _VERSION,
            "updates": _UPDATES,
        },
        ["protocol", "since", "updates"],
    ),
    "presence": _message(
        "presence",
        "Who is at the table: sent when someone connects, takes a seat, leaves, or a bot takes over an absent "
        "player's seat; and whether the table still waits for people (the last seat taken ends the wait).",
        {"version": _VERSION, "seats": _SEATS, "waiting": _WAITING},
        ["protocol", "version", "seats", "waiting"],
    ),
    "error": _message(
        "error",
        "A refused message or action, with the rule in words; nothing changed, the connection stays open.",
        {"code": {"enum": list(ERROR_CODES)}, "message": {"type": "string"}, "version": _VERSION, "reason": _REASON},
        ["protocol", "code", "message"],
    ),
    "pong": _message("pong", "The answer to ping.", {"version": _VERSION}, ["protocol", "version"]),
    "hint": _message(
        "hint",
        "The answer to hint: the action the game's heuristic bot would choose from the seat's own view.",
        {"version": _VERSION, "action": {"type": "string"}},
        ["protocol", "version", "action"],
    ),
    "chat": _message(
        "chat",
        "A line of the table's chat, to those who may read it: a seat's line to every connection of the table, a "
        "spectator's to the spectators only. The speaker's own copy has mine: true. Never part of a record.",
        {**_CHAT_LINE, "mine": {"const": True, "description": "in the speaker's own copy only"}},
        ["protocol", *_CHAT_LINE],
    ),
    "bye": _message(
        "bye",
        "The server closes this connection (it is stopping, the seat was given up, or a tournament's table is closed "
        "after its tournament ended); reconnect to go on, unless the reason says the table was closed.",
        {"reason": {"type": "string"}},
        ["protocol", "reason"],
    ),
}
"""What the server sends."""

BEGIN, END = "<!-- protocol-schemas:begin -->", "<!-- protocol-schemas:end -->"
MESSAGES_BEGIN, MESSAGES_END = "<!-- protocol-client-messages:begin -->", "<!-- protocol-client-messages:end -->"


def docs_block() -> str:
    """The schemas as the protocol page shows them."""
    parts = [BEGIN, "", f"Client messages are at most {MAX_MESSAGE_BYTES} bytes.", ""]
    for direction, table in (("client to server", CLIENT), ("server to client", SERVER)):
        for kind, schema in table.items():
            parts += [f"#### `{kind}` ({direction})", "", "```json", json.dumps(schema, indent=2), "```", ""]
    parts.append(END)
    return "\n".join(parts)


def _cell(text: object) -> str:
    """Text as one cell of a Markdown table: on one line, its bars escaped."""
    return " ".join(str(text).split()).replace("|", "\\|")


def messages_block() -> str:
    """The client's messages as the protocol page's table shows them, from the models that read them: each
    message with its meaning, then each of its fields (whether it may be left out) with its rule."""
    shared = CLIENT_MESSAGES[0].model_fields["protocol"]
    parts = [
        MESSAGES_BEGIN,
        "",
        f"Every message has `type`, its name, and may have `protocol`: {_cell(shared.description)}.",
        "",
        "| Message | Field | Meaning |",
        "| --- | --- | --- |",
    ]
    for kind, model in KINDS.items():
        parts.append(f"| `{kind}` | | {_cell(CLIENT[kind]['description'])} |")
        for name, info in model.model_fields.items():
            if name not in ("type", "protocol"):
                need = "required" if info.is_required() else "optional"
                parts.append(f"| | `{name}` ({need}) | {_cell(info.description)} |")
    parts += ["", MESSAGES_END]
    return "\n".join(parts)


def write_docs(path: Path) -> bool:
    """Put :func:`messages_block` and :func:`docs_block` into the page, each between its markers; whether the page
    changed."""
    table = write_block(path, messages_block(), MESSAGES_BEGIN, MESSAGES_END)
    return write_block(path, docs_block(), BEGIN, END) or table


if __name__ == "__main__":
    main(sys.argv[1:], "clubsuite.server.table.schemas", "docs/protocol.md", write_docs)
