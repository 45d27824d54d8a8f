"""Plain words for the lobby: each game's name, every option and every choice of every game, every named variant,
the bots, and a table's name ("Ann's CLUBS, 4 players, wild 15s").

A person choosing a table should never have to read a spec (``northstar(double_or_nothing=true)``), an option key
(``last_exchanger``) or a ruling id: those stay in the data for the "why?" that explains a rule, and the words here
are what the lobby shows. The words are kept apart from the games' options classes because they are the server's
presentation, and a test checks that every option and every choice of every registered game has its words, so a
game cannot gain an option the lobby would show raw.

A game registered from another package, which this module cannot know, gets words made from its keys (spaces for
underscores): readable, if not polished.
"""

from __future__ import annotations

import dataclasses
import enum
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field

from clubsuite.engine import SomeGame
from clubsuite.jsonform import JsonObject
from clubsuite.options import format_value


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


def _flag(label: str, help_text: str, on: str, off: str) -> OptionWords:
    return OptionWords(label, help_text, {"true": on, "false": off})


_TARGET_HELP = "the match ends after the hand in which someone reaches this score"

WORDS: Mapping[str, GameWords] = {
    "whist": GameWords(
        "Whist Clubs",
        {
            "lead_after_exchange": OptionWords(
                "Who leads after an exchange",
                "when someone has exchanged their hand for the bid hand, this player leads the first trick",
                {
                    "last_exchanger": "lead: the last to exchange",
                    "left_of_last_exchanger": "lead: left of the last to exchange",
                },
                {
                    "last_exchanger": "the last to exchange",
                    "left_of_last_exchanger": "their left neighbour, as in 1997",
                },
            ),
            "target": OptionWords(
                "Points to win or lose",
                "the match ends once someone is this many points up, or down",
                "to \u00b1{} points",
            ),
        },
        {
            "whist-1997": VariantWords(
                "The 1997 rules", "the player left of the last to exchange leads the first trick"
            ),
        },
    ),
    "free": GameWords(
        "Free Clubs",
        {
            "no_spades_needs_a_trick": _flag(
                "No-spades bonus needs a trick",
                "the 5 points for taking no spade go only to players who took at least one trick",
                "no-spades bonus needs a trick",
                "no-spades bonus without a trick",
            ),
            "target": OptionWords("Points to win", _TARGET_HELP + "; the highest total wins", "to {} points"),
            "misplays": _flag(
                "Misplays may be called",
                "a player may play a card that breaks the rules, and another player may call it for a penalty",
                "misplays called",
                "no misplays",
            ),
        },
    ),
    "northstar": GameWords(
        "CLUBS",
        {
            "players": OptionWords("Players", "how many play; the bonus cards depend on it", "{} players"),
            "teams": OptionWords(
                "Teams",
                "partners sit alternately and share their score",
                {
                    "none": "no teams",
                    "2x2": "two teams of two",
                    "3x2": "three teams of two",
                    "2x3": "two teams of three",
                },
                {
                    "none": "no teams",
                    "2x2": "2 teams of 2, 4 players",
                    "3x2": "3 teams of 2, 6 players",
                    "2x3": "2 teams of 3, 6 players",
                },
                {"2x2": {"players": "4"}, "3x2": {"players": "6"}, "2x3": {"players": "6"}},  # NS-10
            ),
            "double_or_nothing": _flag(
                "Double or nothing",
                "before your first card of a round you may bet to go out first: double if you do, nothing if not",
                "double or nothing",
                "no double or nothing",
            ),
            "wild_fifteens": _flag("Wild 15s", "a 15 may stand for any value", "wild 15s", "no wild 15s"),
            "crazy": _flag(
                "Crazy CLUBS",
                "a 15 does not win at once, and a play with more cards beats one with fewer",
                "crazy CLUBS",
                "not crazy",
            ),
            "leftover": OptionWords(
                "Cards not dealt",
                "what becomes of the cards left over after the deal",
                {"next_round": "leftovers dealt next round", "reshuffle": "full shuffle each round"},
                {
                    "next_round": "dealt next round, as in 2017",
                    "reshuffle": "reshuffled, as in 2013",
                },
            ),
            "club_points": OptionWords(
                "Points of each club",
                "how many points each club from 1 to 15 scores (the printed values are not known yet)",
                "own club points",
            ),
            "target": OptionWords(
                "Points to win, 0 for the rulebook's",
                _TARGET_HELP + "; 0 plays to the rulebook's 50, or 100 in teams of two and 150 in teams of three",
                "to {} points",
            ),
        },
        {
            "northstar-2013": VariantWords("The 2013 edition", "every card is shuffled back each round"),
            "northstar-double": VariantWords("Double or nothing", "a player may bet on going out first"),
            "northstar-wild": VariantWords("Wild 15s", "a 15 may stand for any value"),
            "northstar-crazy": VariantWords("Crazy CLUBS", "a 15 does not win at once; more cards beat fewer"),
            "northstar-duel": VariantWords("Duel", "two players"),
            "northstar-teams": VariantWords("Teams", "four players in two teams of two"),
        },
    ),
    "partnership": GameWords(
        "Partnership Clubs",
        {
            "target": OptionWords(
                "Points to win",
                "the match ends once a partnership has this many points; the higher wins",
                "to {} points",
            ),
        },
    ),
}
"""The words of every game of the suite, by game name (the tests check they cover every option and choice)."""

BOT_WORDS: Mapping[str, str] = {
    "easy": "Bot: easy",
    "normal": "Bot: normal",
    "hard": "Bot: hard",
    "expert": "Bot: expert",
    "heuristic": "Bot: rules of thumb",
    "random": "Bot: random moves",
    "pimc": "Bot: search (PIMC)",
    "ismcts": "Bot: search (ISMCTS)",
}
"""The bots as the lobby offers them for a seat (the levels first; a bot not named here is shown by its name)."""


# -- looking words up ------------------------------------------------------------------------------------------------
def game_words(info: SomeGame) -> GameWords:
    """The words of ``info``'s game (made from its keys for a game this module does not know)."""
    known = WORDS.get(info.name)
    if known is not None:
        return known
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


def short_words(info: SomeGame, key: str, value: object) -> str:
    """A value of an option in the few words a table's name uses: ``wild 15s``, ``to 9 points``."""
    words = option_words(info, key)
    text = format_value(value)
    if isinstance(words.short, str):
        return words.short.replace("{}", text)
    return words.short.get(text, f"{_spaced(key)} {text}")


def value_words(info: SomeGame, key: str, value: object) -> str:
    """A value of an option as the form shows it (``on``, ``off``, a choice's label, a number)."""
    text = format_value(value)
    if isinstance(value, bool):
        return "on" if value else "off"
    return option_words(info, key).choices.get(text, text)


# -- a table's name --------------------------------------------------------------------------------------------------
def rules_words(info: SomeGame, options: object) -> list[str]:
    """The options of a table that differ from the game's defaults, in short words, in the options' order. The
    player count is left out where the game's seat count varies with it: :func:`table_name` gives it already."""
    out = []
    counted = len(info.seats) > 1
    for f in dataclasses.fields(info.options_class):
        value = getattr(options, f.name)
        if value == f.default or (counted and f.name == "players"):
            continue
        out.append(short_words(info, f.name, value))
    return out


def table_name(info: SomeGame, options: object, host: str | None) -> str:
    """A table's name in words: whose it is and what it plays, with the seat count where the game's varies and the
    rules that differ from the defaults, e.g. ``Ann's CLUBS, 4 players, wild 15s``; before anyone has joined,
    ``A CLUBS table, ...``."""
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
