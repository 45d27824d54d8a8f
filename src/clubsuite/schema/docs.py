"""The tables of ``docs/records.md`` that the record schema's source also writes: each game's seats, explicit deal,
notation and options, between the markers ``<!-- schema:begin games -->`` and ``<!-- schema:end games -->``."""

from __future__ import annotations

import json
from collections.abc import Sequence

from clubsuite.engine import SomeGame
from clubsuite.schema.parts import GameSchema, options_schema

BEGIN = "<!-- schema:begin games -->"
END = "<!-- schema:end games -->"


def games_section(found: Sequence[tuple[SomeGame, GameSchema]]) -> str:
    """The generated text between the markers (without them)."""
    out = [
        "",
        "Generated from the record schema's source (`python -m clubsuite.schema` rewrites this part and",
        "`clubsuite/schema/record.schema.json`; a test fails when either is out of date).",
        "",
    ]
    for info, part in found:
        seats = info.seats
        count = str(seats[0]) if len(seats) == 1 else f"{min(seats)} to {max(seats)} (the option `players`)"
        out += [
            f"#### {info.title} (`{info.name}`)",
            "",
            "| part | form |",
            "|---|---|",
            f"| variants | {', '.join(f'`{n}`' for n in (info.name, *info.variants))} |",
            f"| seats | {count} |",
            f"| explicit deal | {_cell(part.deal_text)} |",
            f"| actions | {_cell(part.action_text)} |",
        ]
        out += [f"| rule | {_cell(text)} |" for text in part.rules_text]
        for name, prop in options_schema(info.options_class, part.option_ranges)["properties"].items():
            default, about = _json(prop["default"]), _cell(prop["description"])
            out.append(f"| option `{name}` | {_value_form(prop)}, default `{default}`: {about} |")
        out.append("")
    return "\n".join(out)


def _value_form(prop: dict[str, object]) -> str:
    """An option's JSON form in words."""
    if "enum" in prop:
        values = prop["enum"]
        assert isinstance(values, list)
        return "one of " + ", ".join(f"`{v}`" for v in values)
    kind = prop["type"]
    if kind == "boolean":
        return "`true` or `false`"
    if kind == "integer":
        return f"a whole number {prop['minimum']}..{prop['maximum']}" if "minimum" in prop else "a whole number"
    items = prop["items"]
    assert isinstance(items, dict)
    size = f"{prop['minItems']} " if "minItems" in prop else ""
    return f"a list of {size}whole numbers {items['minimum']}..{items['maximum']}"


def _json(value: object) -> str:
    return json.dumps(value)


def _cell(text: object) -> str:
    return str(text).replace("|", "\\|")


def replace_section(document: str, section: str) -> str:
    """``document`` with the text between the markers replaced by ``section``; raises ValueError without markers."""
    start, end = document.find(BEGIN), document.find(END)
    if start < 0 or end < start:
        raise ValueError(f"the markers {BEGIN} and {END} are missing")
    return document[: start + len(BEGIN)] + "\n" + section + "\n" + document[end:]
