"""Plain words for a game's options and variants, as a person choosing a table reads them: each option's label,
what it does, its values in a few words, and each named variant's name and what it changes.

Each game gives its own words (its ``words`` part, ``games/<name>/words.py``), so a game stays one folder; the
lobby's words (``server/naming``) read them, and a test checks that every option and every choice of every game has
its words. The types are plain data, free of any layer.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class OptionWords:
    """One option in words."""

    label: str
    """Its name as the form labels it: ``Wild 15s``."""
    help: str
    """One plain sentence on what it does (the "why?" shows it beside the ruling)."""
    short: Mapping[str, str] | str
    """Its value when it differs from the default, in the few words a table's name uses: for a flag or a choice,
    one phrase per value (keyed by the spec text: ``true``, ``2x2``); for a number, a phrase with ``{}`` where the
    number goes."""
    choices: Mapping[str, str] = field(default_factory=dict)
    """For a choice: each value's label in the form (keyed by the spec text)."""
    sets: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    """For a choice that needs other options at certain values (team play needs its number of players): what
    choosing it sets, so that the form never offers rules that do not go together."""
    one: str = ""
    """For a number whose words count something: :attr:`short` when the number is one (``to {} point``; ``short``
    is then the plural, ``to {} points``), the catalogs' message with a plural (each language chooses its form by
    the number, French counting 0 as one)."""


@dataclass(frozen=True)
class VariantWords:
    """A named variant in words."""

    label: str
    """Its name: ``Wild 15s``."""
    description: str
    """What it changes, in a few words."""


@dataclass(frozen=True)
class GameWords:
    """One game in words."""

    title: str
    """The name a table is called by: ``CLUBS``."""
    options: Mapping[str, OptionWords]
    variants: Mapping[str, VariantWords] = field(default_factory=dict)


def flag(label: str, help_text: str, on: str, off: str) -> OptionWords:
    """An on/off option: its label, what it does, and its few words when on and when off."""
    return OptionWords(label, help_text, {"true": on, "false": off})
