"""The record JSON Schema and the generated tables of ``docs/records.md``, both written from one source: the shape
every record shares (:mod:`clubsuite.schema.build`) and each game's :class:`~clubsuite.schema.parts.GameSchema`
(its registry part ``schema``). ``python -m clubsuite.schema`` rewrites them; ``--check`` reports drift."""

from __future__ import annotations

from clubsuite.schema.build import build_schema, game_schemas
from clubsuite.schema.parts import GameSchema, OptionRange

__all__ = ["GameSchema", "OptionRange", "build_schema", "game_schemas"]
