"""The JSON shapes of records, summaries and views: the one place where clubsuite types values dynamically.

A JSON document's values are whatever the text holds (strings, numbers, flags, lists, objects), so the code that
reads one checks each value where it uses it; these aliases name that, instead of a bare ``Any`` at every use.
"""

from __future__ import annotations

from typing import Any

JsonValue = Any
"""A value read from or written to JSON: checked where it is used."""

JsonObject = dict[str, JsonValue]
"""A JSON object: records, summaries, a view's ``to_dict()``."""


def objects_in(value: JsonValue) -> list[JsonObject]:
    """The objects of a JSON list, as a view lists its plays, bids or tricks: none for a missing value (None) or
    anything but a list, and only the items that are objects."""
    if not isinstance(value, list):
        return []
    return [item for item in value if isinstance(item, dict)]
