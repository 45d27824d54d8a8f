"""Plain words for a game's options and variants, as a person choosing a table reads them: each option's label,
what it does, its values in a few words, and each named variant's name and what it changes.

Each game gives its own words (its ``words`` part, ``games/<name>/words.py``), so a game stays one folder; the
lobby's words (``server/naming``) read them, and a test checks that every option and every choice of every game has
its words. The types are plain data, free of any layer.

Beside them, how words are counted and listed in a language, from the catalogs' ``Plural-Forms`` and Babel's CLDR
data rather than guessed from a rule's text: which of a message's forms a number takes, which form each CLDR plural
category stands for (the page chooses a category with ``Intl.PluralRules`` and reads its form from this), and a list
of names joined as the language joins them ("Ann, Bob und Cleo").
"""

from __future__ import annotations

import gettext
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache


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


PLURAL_SAMPLES = (*range(1000), 10_000, 100_000, 1_000_000, 2_000_000, 10_000_000)
"""The whole numbers a language's plural categories are matched to a catalog's forms on: every number below a
thousand meets every rule of CLDR's integer categories (they look at the last two or three digits), the millions
meet French's and Spanish's ``many``."""


@cache
def _plural_rule(expression: str) -> Callable[[int], int]:
    """A ``Plural-Forms`` expression (``(n != 1)``) as a function, compiled by gettext as a compiled catalog's is."""
    return gettext.c2py(expression)


def plural_index(expression: str, forms: int, n: int) -> int:
    """Which of a message's ``forms`` forms ``n`` takes under a catalog's plural ``expression`` (gettext's index:
    ``(n > 1)`` gives French's singular to 0 and 1), kept within the forms the catalog has."""
    return min(max(int(_plural_rule(expression)(abs(n))), 0), forms - 1)


@cache
def plural_categories(lang: str, expression: str, forms: int) -> Mapping[str, int]:
    """The form of a message each of ``lang``'s CLDR plural categories (``one``, ``few``, ``many``, ``other``)
    stands for in a catalog whose ``Plural-Forms`` are ``forms`` and ``expression``: found by wording every sample
    number both ways, Babel's CLDR rule against the catalog's. A category no whole number falls in (Russian's
    ``other`` holds only fractions) takes the last form. Raises ValueError where the catalog's rule splits a
    category across two forms: its header then disagrees with the language, and the page would choose wrongly."""
    from babel import Locale

    rule = Locale.parse(lang).plural_form
    found: dict[str, int] = {}
    for n in PLURAL_SAMPLES:
        category, index = rule(n), plural_index(expression, forms, n)
        if found.setdefault(category, index) != index:
            raise ValueError(
                f"{lang}: the plural rule {expression!r} gives {n} form {index}, but other numbers of CLDR's "
                f"{category!r} form {found[category]}"
            )
    for category in (*sorted(rule.tags), "other"):
        found.setdefault(category, forms - 1)
    return dict(sorted(found.items()))


def list_words(items: Sequence[str], lang: str) -> str:
    """Names as ``lang`` lists them (CLDR's patterns, through Babel): "Ann, Bob und Cleo", "Ann et Bob"; one name
    alone, none as nothing. The same patterns as the page's ``Intl.ListFormat``."""
    from babel.lists import format_list

    return format_list(list(items), locale=lang) if items else ""
