"""The pieces a game's record schema is made of: what a game declares (:class:`GameSchema`) and the helpers its
schema module uses to say it (card notation as patterns, case-insensitive words, options read from the options
dataclass).

A game's schema part (registry part ``schema``, e.g. ``games/<name>/schema.py``) gives a :class:`GameSchema`; the
builder (:mod:`clubsuite.schema.build`) puts every game's into the record schema, and the tables of
``docs/records.md`` are written from the same objects, so the two cannot drift apart.

Patterns are ECMAScript regular expressions (what JSON Schema uses): no inline flags, so case-insensitive words are
spelled with character classes.
"""

from __future__ import annotations

import dataclasses
import enum
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field

from clubsuite.jsonform import JsonObject

SUIT = "[CcDdHhSs\u2663\u2666\u2665\u2660\u2667\u2662\u2661\u2664]\ufe0f?"
"""A suit: its letter in either case, or a suit symbol (the emoji variation selector may follow)."""
RANK = "(?:10|[2-9TtJjQqKkAa])"
"""A rank of the standard pack (``T`` for ten)."""
STANDARD_CARD = f"{RANK}{SUIT}"
"""A card of the standard 52-card pack in notation (``10H``, ``th``, ``Q\u2663``), as one word of a list."""
STANDARD_CARD_ALONE = f"{RANK}\\s*{SUIT}"
"""A standard card written alone as a whole action: the reader also takes spaces between rank and suit (``10 H``)."""
JOKER = "[Jj][Kk][12]"
"""A joker: ``JK1`` or ``JK2``."""
SEPARATOR = "[\\s,]+"
"""What may stand between the cards of a list: spaces or commas."""


def words(*options: str) -> str:
    """A pattern matching any of ``options`` in any case (``words("keep", "k")`` -> ``(?:[Kk][Ee][Ee][Pp]|[Kk])``)."""
    spelled = ["".join(f"[{c.upper()}{c.lower()}]" if c.isalpha() else _escape(c) for c in w) for w in options]
    return "(?:" + "|".join(spelled) + ")"


def _escape(c: str) -> str:
    return "\\" + c if c in ".^$*+?()[]{}|\\/-" else c


def card_list(card: str, count: int) -> str:
    """A pattern for a string of exactly ``count`` cards (each matching ``card``) separated by spaces or commas."""
    return f"^[\\s,]*(?:{card}{SEPARATOR}){{{count - 1}}}{card}[\\s,]*$"


def whole(pattern: str) -> str:
    """``pattern`` as the whole string, spaces allowed around it."""
    return f"^\\s*(?:{pattern})\\s*$"


@dataclass(frozen=True)
class OptionRange:
    """The values a number option (or each number of a table option) may take, and a table's length."""

    minimum: int
    maximum: int
    length: int | None = None
    """For a table of numbers: how many it holds."""


@dataclass(frozen=True)
class GameSchema:
    """What a game's records look like beyond the shape every record shares: declared in the game's folder."""

    deal: JsonObject
    """The JSON Schema of an explicit deal (a seeded deal, ``{"seed": n}``, is allowed for every game)."""
    deal_text: str
    """The explicit deal in words, for the documentation."""
    action: JsonObject
    """The JSON Schema of one action string in the game's notation (what the game's reader accepts, in any case)."""
    action_text: str
    """The notation in words, for the documentation."""
    option_ranges: Mapping[str, OptionRange] = field(default_factory=dict)
    """The ranges of the number options (the rest is read from the options dataclass)."""
    rules: tuple[JsonObject, ...] = ()
    """More conditions on the record (``if``/``then`` clauses), e.g. seats that follow an option."""
    rules_text: tuple[str, ...] = ()
    """Those conditions in words, for the documentation."""


def options_schema(options_class: type, ranges: Mapping[str, OptionRange]) -> JsonObject:
    """The JSON Schema of the ``options`` object of a record, read from a game's options dataclass: each field's JSON
    type (a flag, a whole number in its range, one of an enumeration's values, a table of whole numbers), its default
    and its description with the ruling."""
    hints = typing.get_type_hints(options_class)
    properties: JsonObject = {}
    for f in dataclasses.fields(options_class):
        prop = option_schema(hints[f.name], ranges.get(f.name))
        doc, ruling = f.metadata.get("doc", ""), f.metadata.get("ruling", "")
        prop = {"description": f"{doc} ({ruling})" if ruling else doc, **prop}
        prop["default"] = _json_default(f.default)
        properties[f.name] = prop
    return {
        "type": "object",
        "properties": properties,
        "patternProperties": {"^x-": True},
        "additionalProperties": False,
    }


def option_schema(hint: object, bounds: OptionRange | None) -> JsonObject:
    """The JSON Schema of one option's value from its type."""
    if hint is bool:
        return {"type": "boolean"}
    if hint is int:
        out: JsonObject = {"type": "integer"}
        if bounds is not None:
            out |= {"minimum": bounds.minimum, "maximum": bounds.maximum}
        return out
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return {"enum": [member.value for member in hint]}
    if typing.get_origin(hint) is tuple and typing.get_args(hint)[0] is int:
        items: JsonObject = {"type": "integer"}
        out = {"type": "array", "items": items}
        if bounds is not None:
            items |= {"minimum": bounds.minimum, "maximum": bounds.maximum}
            if bounds.length is not None:
                out |= {"minItems": bounds.length, "maxItems": bounds.length}
        return out
    raise TypeError(f"an option of type {hint!r} has no JSON form: add one to clubsuite.schema.parts")


def _json_default(value: object) -> object:
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple):
        return list(value)
    return value
