"""The record JSON Schema, built from one source: the shape every record shares (here) and each registered game's
:class:`~clubsuite.schema.parts.GameSchema` (its registry part ``schema``).

``python -m clubsuite.schema`` writes the result to ``clubsuite/schema/record.schema.json`` (the file shipped with
the package, which :func:`clubsuite.records.record_schema` returns) and the generated tables of
``docs/records.md``; ``--check`` says whether either differs from what the source gives.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from clubsuite.engine import SomeGame, games
from clubsuite.jsonform import JsonObject
from clubsuite.schema.parts import GameSchema, options_schema

SCHEMA_ID = "urn:clubsuite:schema:record:1"


@runtime_checkable
class HasSchema(Protocol):
    """A game's parts that give its part of the record schema."""

    def schema(self) -> GameSchema:
        """What the game's records hold beyond what every record shares."""
        ...


def game_schemas() -> list[tuple[SomeGame, GameSchema]]:
    """Every registered game that declares its record schema, in registry order."""
    return [(info, info.parts.schema()) for info in games() if isinstance(info.parts, HasSchema)]


def build_schema(found: Sequence[tuple[SomeGame, GameSchema]] | None = None) -> JsonObject:
    """The record schema (JSON Schema draft 2020-12) with a block for every game in ``found`` (default: every
    registered game with a schema part)."""
    found = game_schemas() if found is None else found
    names = ", ".join(info.name for info, _ in found)
    first = found[0][0] if found else None
    specs = [first.name, *first.variants, *first.examples][:3] if first is not None else []
    schema = _envelope(names, first.name if first is not None else "", ", ".join(specs))
    defs: JsonObject = schema["$defs"]
    for info, part in found:
        defs[f"{info.name}_deal"] = {"description": part.deal_text, **part.deal}
        defs[f"{info.name}_action"] = {"description": part.action_text, **part.action}
        schema["allOf"].append(_game_block(info, part))
    return schema


def _game_block(info: SomeGame, part: GameSchema) -> JsonObject:
    """The conditions a record of ``info``'s game meets: its variants, options, seats, deals and actions."""
    name = info.name
    spec_names = "|".join(re.escape(n) for n in (name, *info.variants))
    seats = info.seats
    then: JsonObject = {
        "properties": {
            "variant": {"pattern": f"^\\s*(?:{spec_names})\\s*(?:\\(|$)"},
            "options": options_schema(info.options_class, part.option_ranges),
            "seats": {"minItems": min(seats), "maxItems": max(seats)},
            "first_dealer": {"maximum": max(seats) - 1},
            "hands": {
                "items": {
                    "properties": {
                        "deal": {"anyOf": [{"$ref": "#/$defs/seed_deal"}, {"$ref": f"#/$defs/{name}_deal"}]},
                        "actions": {"items": {"$ref": f"#/$defs/{name}_action"}},
                    }
                }
            },
        }
    }
    if part.rules:
        then["allOf"] = list(part.rules)
    return {
        "description": f"{info.title} (game {name}): its variants, options, seats, explicit deals and actions.",
        "if": {"required": ["game"], "properties": {"game": {"const": name}}},
        "then": then,
    }


def _envelope(names: str, game: str, specs: str) -> JsonObject:
    """The shape every record shares, whatever its game (``game`` and ``specs`` are examples for the descriptions)."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "clubsuite match record, format version 1",
        "description": (
            "A match of one of the Clubs card games: the game and its rules options, the seats, every deal and "
            f"every action in notation. Each game's own parts are checked in allOf (games: {names}); this file is "
            "generated (python -m clubsuite.schema). Fields whose names start with x- are extensions and are ignored."
        ),
        "type": "object",
        "required": ["format", "version", "game", "variant", "seats", "hands"],
        "properties": {
            "format": {"description": "Marks the file as a clubsuite record.", "const": "clubsuite-record"},
            "version": {"description": "The format version.", "type": "integer", "const": 1},
            "game": {
                "description": f"The registered game name, in lower case, e.g. {game}.",
                "type": "string",
                "minLength": 1,
                "pattern": "^[a-z][a-z0-9_-]*$",
            },
            "variant": {
                "description": (
                    f"The rules options spec, e.g. {specs}; the game or variant name is lower case. The writer puts "
                    "the canonical spec."
                ),
                "type": "string",
                "minLength": 1,
                "pattern": "^\\s*[a-z][a-z0-9_-]*\\s*(\\(|$)",
            },
            "options": {
                "description": (
                    "Every option value the variant gives (optional on input; each value given must agree with the "
                    "variant): a string, a whole number, a flag, or a table of whole numbers as an array."
                ),
                "type": "object",
                "additionalProperties": {"$ref": "#/$defs/option_value"},
            },
            "seats": {
                "description": "One entry per seat, seat 0 first.",
                "type": "array",
                "minItems": 1,
                "items": {"$ref": "#/$defs/seat"},
            },
            "first_dealer": {"description": "The dealer of hand 0 (default 0).", "type": "integer", "minimum": 0},
            "seed": {
                "description": (
                    "The match seed, a whole number from 0 up: a hand without a deal is dealt from "
                    "hand_seed(seed, hand index)."
                ),
                "type": "integer",
                "minimum": 0,
            },
            "hands": {
                "description": "Every hand in order; all but the last must be complete.",
                "type": "array",
                "items": {"$ref": "#/$defs/hand"},
            },
            "result": {"$ref": "#/$defs/result"},
        },
        "patternProperties": {"^x-": True},
        "additionalProperties": False,
        "allOf": [
            {
                "description": "A hand without a deal is dealt from the match seed, which must then be given.",
                "if": {
                    "required": ["hands"],
                    "properties": {"hands": {"contains": {"type": "object", "not": {"required": ["deal"]}}}},
                },
                "then": {"required": ["seed"]},
            }
        ],
        "$defs": {
            "option_value": {
                "description": (
                    "One option value: an enum option by its value, a number, a flag, or a table of numbers "
                    "(e.g. club_points)."
                ),
                "anyOf": [{"type": ["string", "integer", "boolean"]}, {"type": "array", "items": {"type": "integer"}}],
            },
            "seat": {
                "type": "object",
                "required": ["name"],
                "properties": {
                    "name": {"description": "Who sat there.", "type": "string", "minLength": 1, "pattern": "\\S"},
                    "kind": {"description": "Whether a person or a bot played the seat.", "enum": ["human", "bot"]},
                    "bot": {
                        "description": (
                            "The bot that played a bot's seat (its name with its options, as the bot registry takes "
                            "it), where name is what the seat was called at the table; only with kind bot."
                        ),
                        "type": "string",
                        "minLength": 1,
                        "maxLength": 200,
                        "pattern": "\\S",
                    },
                },
                "patternProperties": {"^x-": True},
                "additionalProperties": False,
            },
            "hand": {
                "type": "object",
                "required": ["actions"],
                "properties": {
                    "deal": {
                        "description": (
                            'An explicit deal in the game\'s form, or {"seed": n}; without it the hand is dealt '
                            "from the match seed."
                        ),
                        "anyOf": [
                            {"$ref": "#/$defs/seed_deal"},
                            {"not": {"type": "object", "required": ["seed"]}},
                        ],
                    },
                    "actions": {
                        "description": "Every action of the hand in order, in the game's notation.",
                        "type": "array",
                        "items": {"type": "string", "minLength": 1, "pattern": "\\S"},
                    },
                },
                "patternProperties": {"^x-": True},
                "additionalProperties": False,
            },
            "seed_deal": {
                "description": "The deal the game's deal_from_seed(seed, dealer) gives.",
                "type": "object",
                "required": ["seed"],
                "properties": {"seed": {"description": "A whole number from 0 up.", "type": "integer", "minimum": 0}},
                "additionalProperties": False,
            },
            "result": {
                "description": (
                    "What the replay gives (clubs replay --json); optional and informational, but every field "
                    "stated must match the replay."
                ),
                "type": "object",
                "properties": {
                    "game": {"type": "string"},
                    "variant": {"type": "string"},
                    "options": {"type": "object"},
                    "seats": {"type": "array"},
                    "hands": {"type": "array", "items": {"type": "object"}},
                    "totals": {"type": "array", "items": {"type": "integer"}},
                    "winners": {"type": "array", "items": {"type": "integer", "minimum": 0}},
                    "draw": {"type": "boolean"},
                    "over": {"type": "boolean"},
                    "to_act": {"type": ["integer", "null"]},
                    "legal": {"type": "array", "items": {"type": "string"}},
                    "awaiting": {"const": "deal"},
                },
            },
        },
    }
