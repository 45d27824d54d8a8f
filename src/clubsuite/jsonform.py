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
