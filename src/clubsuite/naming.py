"""Plain words for the lobby: each game's name, every option and every choice of every game, every named variant,
the bots, and a table's name ("Ann's CLUBS, 4 players, wild 15s").

A person choosing a table should never have to read a rules spec, an option key or a ruling id: those stay in the
data for the "why?" that explains a rule, and the words are what the lobby shows. Each game gives its own words (its
``words`` part: :mod:`clubsuite.wording`), and a test checks that every option and every choice of every registered
game has its words, so a game cannot gain an option the lobby would show raw.

A game registered from another package, which this module cannot know, gets words made from its keys (spaces for
underscores): readable, if not polished.
"""

from __future__ import annotations

import dataclasses
import enum
import typing
from collections.abc import Mapping
from typing import Protocol, runtime_checkable

from clubsuite.engine import SomeGame
from clubsuite.i18n import Words
from clubsuite.jsonform import JsonObject
from clubsuite.options import format_value
from clubsuite.wording import GameWords, OptionWords, VariantWords

BOT_WORDS: Mapping[str, str] = {
    "easy": "Bot: easy",
    "normal": "Bot: normal",
    "hard": "Bot: hard",
    "expert": "Bot: expert",
    "heuristic": "Bot: rules of thumb",
    "random": "Bot: random moves",
    "pimc": "Bot: search (PIMC)",
    "ismcts": "Bot: search (ISMCTS)",
    "learned": "Bot: learned (quick)",
}
"""The bots as the lobby offers them for a seat (the levels first; a bot not named here is shown by its name)."""

WORDS = "words"
"""The catalogs' context of the words this module gives (a game's name and summary, its options, their values, its
variants, the bots): a page looks each up by its English words (``i18n.sources`` puts every one in the catalogs)."""


@runtime_checkable
class HasWords(Protocol):
    """A game's parts that give its words for the lobby."""

    def words(self) -> GameWords:
        """The game's name, summary, options and variants in plain words."""
        ...


# -- looking words up ------------------------------------------------------------------------------------------------
def game_words(info: SomeGame) -> GameWords:
    """The words of ``info``'s game (made from its keys for a game this module does not know)."""
    if isinstance(info.parts, HasWords):
        return info.parts.words()
    options = {f.name: _made_up(f.name) for f in dataclasses.fields(info.options_class)}
    variants = {name: VariantWords(_spaced(name), "") for name in info.variants}
    return GameWords(info.title, options, variants)


def _spaced(key: str) -> str:
    return key.replace("_", " ").replace("-", " ")


def _made_up(key: str) -> OptionWords:
    spaced = _spaced(key)
    return OptionWords(spaced.capitalize(), "", f"{spaced} {{}}")


def option_words(info: SomeGame, key: str) -> OptionWords:
    """The words of one option of ``info``'s game."""
    return game_words(info).options.get(key) or _made_up(key)


def short_parts(info: SomeGame, key: str, value: object) -> JsonObject:
    """A value of an option in a table name's few words, as data a page words in its reader's language: ``words``
    (English, a message of the catalogs' ``words`` context) and ``value`` (the spec text that fills its ``{}``, or
    null where the words say it all)."""
    words = option_words(info, key)
    text = format_value(value)
    if isinstance(words.short, str):
        part: JsonObject = {"option": key, "words": words.short, "value": text}
        if words.one:
            part["one"] = words.one  # the words when the number is one: a page chooses by the number
        return part
    found = words.short.get(text)
    if found is None:
        return {"option": key, "words": f"{_spaced(key)} {{}}", "value": text}
    return {"option": key, "words": found, "value": None}


def worded(part: JsonObject, words: Words | None = None) -> str:
    """One of :func:`short_parts`' phrases in words, in ``words``' language (English without)."""
    text = str(part["words"])
    value = part.get("value")
    if part.get("one") and value is not None and str(value).lstrip("-").isdigit():
        n = int(str(value))  # words with a plural (to 1 point, to 11 points), each language's form for n
        one = str(part["one"])
        text = words.plural(one, text, n, WORDS) if words is not None else (one if n == 1 else text)
    elif words is not None:
        text = words.get(text, WORDS)
    return text if value is None else text.replace("{}", str(value))


def short_words(info: SomeGame, key: str, value: object) -> str:
    """A value of an option in the few words a table's name uses: ``wild 15s``, ``to 9 points``."""
    return worded(short_parts(info, key, value))


def value_words(info: SomeGame, key: str, value: object) -> str:
    """A value of an option as the form shows it (``on``, ``off``, a choice's label, a number)."""
    text = format_value(value)
    if isinstance(value, bool):
        return "on" if value else "off"
    return option_words(info, key).choices.get(text, text)


# -- a table's name --------------------------------------------------------------------------------------------------
def rules_parts(info: SomeGame, options: object) -> list[JsonObject]:
    """The options of a table that differ from the game's defaults, as :func:`short_parts` each, in the options'
    order. The player count is left out where the game's seat count varies with it: a table's name gives it
    already."""
    out = []
    counted = len(info.seats) > 1
    for f in dataclasses.fields(info.options_class):
        value = getattr(options, f.name)
        if value == f.default or (counted and f.name == "players"):
            continue
        out.append(short_parts(info, f.name, value))
    return out


def rules_words(info: SomeGame, options: object, words: Words | None = None) -> list[str]:
    """The options of a table that differ from the game's defaults, in short words (English, or ``words``'
    language): ``wild 15s``, ``to 9 points``."""
    return [worded(part, words) for part in rules_parts(info, options)]


def name_words(info: SomeGame, options: object, host: str | None) -> JsonObject:
    """What a table's name is made of, for a page to word it in its reader's language: the ``host`` (or null), the
    game's ``title`` (English, a message of the ``words`` context), the number of ``players`` where the game's seat
    count varies (else null) and the ``rules`` that differ from the defaults (:func:`rules_parts`)."""
    return {
        "host": host,
        "title": game_words(info).title,
        "players": info.n_seats(options) if len(info.seats) > 1 else None,
        "rules": rules_parts(info, options),
    }


def table_name(info: SomeGame, options: object, host: str | None) -> str:
    """A table's name in words: whose it is and what it plays, with the seat count where the game's varies and the
    rules that differ from the defaults, e.g. ``Ann's CLUBS, 4 players, wild 15s``; before anyone has joined,
    ``A CLUBS table, ...``. (A page words the same parts, :func:`name_words`, in its reader's language.)"""
    title = game_words(info).title
    if host is None:
        article = "An" if title[:1].lower() in "aeiou" else "A"
        head = f"{article} {title} table"
    else:
        head = f"{host}'s {title}"
    parts = [head]
    if len(info.seats) > 1:
        parts.append(f"{info.n_seats(options)} players")
    parts.extend(rules_words(info, options))
    return ", ".join(parts)


# -- what GET /games adds ----------------------------------------------------------------------------------------
def options_with_words(info: SomeGame, schemas: JsonObject) -> JsonObject:
    """Each option's JSON Schema (from ``options_schema``) with its words beside it: ``label``, ``help``, ``rule``
    (the ruling id, for a "why?"), ``default_label`` (the default in words) and, for a choice, ``choices`` (each
    value with its label, in the schema's order)."""
    hints = typing.get_type_hints(info.options_class)
    defaults = {f.name: f.default for f in dataclasses.fields(info.options_class)}
    rulings = {f.name: str(f.metadata.get("ruling", "")) for f in dataclasses.fields(info.options_class)}
    out: JsonObject = {}
    for key, schema in schemas.items():
        words = option_words(info, key)
        entry: JsonObject = dict(schema) if isinstance(schema, dict) else {}
        entry["label"] = words.label
        entry["help"] = words.help
        entry["rule"] = rulings.get(key) or None
        entry["default_label"] = value_words(info, key, defaults.get(key))
        hint = hints.get(key)
        if isinstance(hint, type) and issubclass(hint, enum.Enum):
            entry["choices"] = [_choice(words, str(m.value)) for m in hint]
        out[key] = entry
    return out


def _choice(words: OptionWords, value: str) -> JsonObject:
    """One choice of an option for the form: its value, its label and what choosing it also sets."""
    out: JsonObject = {"value": value, "label": words.choices.get(value, value)}
    if value in words.sets:
        out["sets"] = dict(words.sets[value])
    return out


def variants_with_words(info: SomeGame) -> list[JsonObject]:
    """The named variants in words: each one's ``value`` (its spec name), ``label`` and ``description``."""
    words = game_words(info).variants
    out: list[JsonObject] = []
    for name in sorted(info.variants):
        known = words.get(name) or VariantWords(_spaced(name), "")
        out.append({"value": name, "label": known.label, "description": known.description})
    return out


def bots_with_words(names: list[str]) -> list[JsonObject]:
    """The bots, in the order given, each with its words for a seat's choice."""
    return [{"value": n, "label": BOT_WORDS.get(n, f"Bot: {n}")} for n in names]
