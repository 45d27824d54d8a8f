"""The languages clubsuite speaks, and its message catalogs.

Four languages ship: English, German, French and Dutch. Each has one gettext catalog, ``i18n/<lang>.po``, read
with Babel: the words a player reads on a page (the page's own words, each refusal's words by its reason code, card
and suit names) and in a translated terminal. English has a catalog too: the engine's English sentences
(:mod:`clubsuite.reasons`) are the message ids and stay what the command line prints; the English catalog words
them for a player (no ruling ids, a seat by its player's name), as the other languages do.

A message is keyed by its English words and, where the same words could mean two things, a context: a refusal's
context is its reason code, a suit's or a rank's name its kind (``suit``, ``rank``...). :mod:`clubsuite.i18n.sources`
lists every message the catalogs must hold; ``python -m clubsuite.i18n`` brings the catalogs up to date with it
(new messages added untranslated, gone ones dropped), and a test fails while any message lacks a translation.
"""

from __future__ import annotations

import locale
import os
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from clubsuite.wording import plural_index

if TYPE_CHECKING:  # Babel is read only when a catalog is: the rules, the views and the page's core run without it
    from babel.messages.catalog import Catalog

LANGUAGES = ("en", "de", "fr", "nl")
"""The languages shipped, English first (the fallback)."""
LANGUAGE_NAMES: Mapping[str, str] = {"en": "English", "de": "Deutsch", "fr": "Français", "nl": "Nederlands"}
"""Each language's name in itself, as a language switch shows it."""
DEFAULT = "en"

CATALOG_DIR = Path(__file__).resolve().parent
"""Where the ``<lang>.po`` catalogs live (inside the package)."""


def catalog_path(lang: str) -> Path:
    """The catalog file of ``lang``."""
    return CATALOG_DIR / f"{lang}.po"


@cache
def catalog(lang: str) -> Catalog:
    """The catalog of ``lang``, read once."""
    if lang not in LANGUAGES:
        raise ValueError(f"language {lang!r} is not shipped: expected one of {', '.join(LANGUAGES)}")
    from babel.messages.pofile import read_po  # here: the rules, views and page core run without Babel

    with catalog_path(lang).open("rb") as f:
        return read_po(f, locale=lang)


def parse_language(text: str | None) -> str | None:
    """The shipped language a tag or a locale names (``de``, ``de-AT``, ``fr_BE.UTF-8``, ``NL``), or None."""
    if not text:
        return None
    head = text.strip().replace("_", "-").split("-")[0].split(".")[0].lower()
    return head if head in LANGUAGES else None


def best_match(accept_language: str | None) -> str:
    """The shipped language an HTTP ``Accept-Language`` header prefers most (weights honoured), else English."""
    best: tuple[float, int, str] | None = None
    for position, part in enumerate((accept_language or "").split(",")[:32]):
        tag, _, params = part.strip().partition(";")
        lang = parse_language(tag)
        if lang is None:
            continue
        weight = 1.0
        if params.strip().startswith("q="):
            try:
                weight = float(params.strip()[2:])
            except ValueError:
                continue
        if weight > 0 and (best is None or (weight, -position) > (best[0], best[1])):
            best = (weight, -position, lang)
    return best[2] if best else DEFAULT


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The terminal's language: ``CLUBS_LANG`` if set, else the locale (``LC_ALL``, ``LC_MESSAGES``, ``LANG``),
    else English. An unknown ``CLUBS_LANG`` is refused by the command line before this is asked."""
    env = os.environ if environ is None else environ
    for name in ("CLUBS_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        lang = parse_language(env.get(name))
        if lang is not None:
            return lang
    if environ is None:
        lang = parse_language(locale.getlocale()[0])
        if lang is not None:
            return lang
    return DEFAULT


@dataclass(frozen=True)
class Words:
    """One language's words: a message by its English words (and context), with plurals."""

    lang: str

    def get(self, msgid: str, context: str | None = None) -> str:
        """The translation of ``msgid`` (in ``context``), or the English where the catalog lacks it."""
        found = catalog(self.lang).get(msgid, context=context)
        if found is None or not found.string:
            return msgid
        text = found.string
        return text[0] if isinstance(text, (list, tuple)) else text

    def plural(self, one: str, many: str, n: int, context: str | None = None) -> str:
        """The translation of a message with a plural, chosen by ``n`` by the language's plural rule."""
        cat = catalog(self.lang)
        found = cat.get(one, context=context)
        forms = found.string if found is not None else None
        if not isinstance(forms, (list, tuple)) or not all(forms):
            return one if n == 1 else many
        return forms[plural_index(cat.plural_expr, len(forms), n)]  # the catalog's own Plural-Forms rule


PLURAL_FORMS: Mapping[str, str] = {
    "en": "nplurals=2; plural=(n != 1);",
    "de": "nplurals=2; plural=(n != 1);",
    "nl": "nplurals=2; plural=(n != 1);",
    "fr": "nplurals=2; plural=(n > 1);",
}
"""Each catalog's ``Plural-Forms`` header, which :meth:`Words.plural` (through :func:`clubsuite.wording.plural_index`)
and the page (matched to CLDR's categories) apply."""
