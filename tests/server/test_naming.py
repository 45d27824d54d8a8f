"""Plain words for the lobby (``naming.py``): every option, choice and variant of every game of the suite
has
words a player understands, a table's name says whose it is and what it plays, and no name or label ever shows an
option's key, a spec's raw value or a ruling id. ``GET /games`` carries the words beside the schema."""

from __future__ import annotations

import dataclasses
import enum
import re
import typing
from pathlib import Path
from typing import Any

import pytest
from serverkit import ThreadServer, get

from clubsuite.engine import SomeGame, games, resolve
from clubsuite.naming import HasWords, game_words, option_words, rules_words, table_name, value_words
from clubsuite.options import format_value
from clubsuite.server.store.database import Store
from clubsuite.wording import GameWords
from parts_helpers import parts_without

RULING = re.compile(r"\b[A-Z]{2}-\d+\b")
"""A ruling id: CW-3, NS-10."""


def suite_games() -> list[SomeGame]:
    """The games of the suite itself (a game added by another package brings no words of ours)."""
    return [g for g in games() if g.options_class.__module__.startswith("clubsuite.games.")]


def every_option() -> list[tuple[SomeGame, dataclasses.Field[Any], object]]:
    """Every option of every game with its type."""
    out = []
    for info in suite_games():
        hints = typing.get_type_hints(info.options_class)
        out += [(info, f, hints[f.name]) for f in dataclasses.fields(info.options_class)]
    return out


def raw_words(info: SomeGame) -> set[str]:
    """What a person should never read: the game's option keys of more than one word and the spec text of its flags
    and its choices (those that are not words: ``2x2``, ``next_round``)."""
    raw = {"true", "false", "=", "_"}
    for f in dataclasses.fields(info.options_class):
        if "_" in f.name:
            raw.add(f.name)
        hint = typing.get_type_hints(info.options_class)[f.name]
        if isinstance(hint, type) and issubclass(hint, enum.Enum):
            raw |= {str(m.value) for m in hint if "_" in str(m.value) or "x" in str(m.value)}
    return raw


def own_words(info: SomeGame) -> GameWords:
    """The words a game gives (its ``words`` part)."""
    assert isinstance(info.parts, HasWords), info.name
    return info.parts.words()


def test_the_suite_has_its_four_games_and_each_has_words() -> None:
    assert {g.name for g in suite_games()} == {"whist", "free", "northstar", "partnership"}
    for info in suite_games():
        assert isinstance(own_words(info), GameWords), f"{info.name} gives no words (its words part)"


@pytest.mark.parametrize(("info", "field", "hint"), every_option(), ids=lambda x: getattr(x, "name", ""))
def test_every_option_of_every_game_has_a_label_help_and_short_words_for_every_value(
    info: SomeGame, field: dataclasses.Field[Any], hint: object
) -> None:
    words = own_words(info).options.get(field.name)
    assert words is not None, f"{info.name}: the option {field.name} has no words in its words part"
    assert words.label and words.help, field.name
    if hint is bool:
        assert isinstance(words.short, dict) and set(words.short) == {"true", "false"}
    elif isinstance(hint, type) and issubclass(hint, enum.Enum):
        values = {str(m.value) for m in hint}
        assert isinstance(words.short, dict) and set(words.short) == values, "short words for every choice"
        assert set(words.choices) == values, "a label for every choice"
    elif hint is int:
        assert isinstance(words.short, str) and "{}" in words.short
    else:
        assert isinstance(words.short, str)
    shown = [words.label, words.help, *words.choices.values()]
    shown += list(words.short.values()) if isinstance(words.short, dict) else [words.short]
    for text in shown:
        assert not RULING.search(text), text
        assert "_" not in text and "=" not in text, text  # no key (the keys of more than one word have _)


def test_every_named_variant_has_a_label_and_a_description() -> None:
    for info in suite_games():
        words = own_words(info).variants
        assert set(words) == set(info.variants), info.name
        for name, variant in words.items():
            assert variant.label and variant.description, name
            assert name not in variant.label and "-" not in variant.label


@pytest.mark.parametrize(
    ("spec", "host", "name"),
    [
        ("northstar(wild_fifteens=true)", "Ann", "Ann's CLUBS, 4 players, wild 15s"),
        ("northstar-wild", None, "A CLUBS table, 4 players, wild 15s"),
        ("northstar-duel", "Bo", "Bo's CLUBS, 2 players"),
        (
            "northstar-teams(double_or_nothing=true)",
            "Cy",
            "Cy's CLUBS, 4 players, two teams of two, double or nothing",
        ),
        ("northstar-2013(target=80)", "Di", "Di's CLUBS, 4 players, full shuffle each round, to 80 points"),
        ("whist", "Ann", "Ann's Whist Clubs"),
        ("whist-1997(target=9)", None, "A Whist Clubs table, lead: left of the last to exchange, to \u00b19 points"),
        ("free(misplays=true)", "Ed", "Ed's Free Clubs, misplays called"),
        ("partnership(target=200)", "Flo", "Flo's Partnership Clubs, to 200 points"),
    ],
)
def test_a_table_is_named_by_its_host_its_game_its_seat_count_and_the_rules_that_differ(
    spec: str, host: str | None, name: str
) -> None:
    info, options = resolve(spec)
    assert table_name(info, options, host) == name


def non_default_specs() -> list[str]:
    """For every option of every game, a spec that sets it to a value other than its default (every choice)."""
    specs = []
    for info, field, hint in every_option():
        if hint is bool:
            values = [format_value(not field.default)]
        elif isinstance(hint, type) and issubclass(hint, enum.Enum):
            values = [str(m.value) for m in hint if m != field.default]
        elif hint is int:
            values = [str(field.default + 2)]
        else:
            values = ["1/" * 14 + "1"]
        for value in values:
            extra = ",players=6" if value in ("3x2", "2x3") else ",players=4" if value == "2x2" else ""
            specs.append(f"{info.name}({field.name}={value}{extra})")
    return specs


@pytest.mark.parametrize("spec", non_default_specs())
def test_a_tables_name_never_shows_an_option_key_a_raw_value_or_a_ruling(spec: str) -> None:
    info, options = resolve(spec)
    assert table_name(info, options, "Ann") != table_name(info, info.options_class(), "Ann"), "the change is named"
    assert set(rules_words(info, options)) <= set(table_name(info, options, "Ann").split(", "))
    for host in ("Ann", None):
        name = table_name(info, options, host)
        for raw in raw_words(info):
            assert raw not in name, (raw, name)
        assert not RULING.search(name) and "(" not in name, name


def test_a_game_that_gives_no_words_gets_words_made_from_its_keys() -> None:
    whist = next(g for g in games() if g.name == "whist")
    parts = parts_without(whist.parts, "words")  # a game that gives no words of its own
    stranger = dataclasses.replace(
        whist, name="stranger", title="A Stranger Game", variants={"stranger-two": {}}, parts=parts
    )
    words = game_words(stranger)
    assert words.title == "A Stranger Game"
    assert option_words(stranger, "lead_after_exchange").label == "Lead after exchange"
    assert words.variants["stranger-two"].label == "stranger two"
    assert value_words(stranger, "target", 11) == "11"


def test_the_lobby_is_offered_each_option_with_its_label_default_choices_and_rule_and_each_variant_in_words(
    tmp_path: Path,
) -> None:
    with ThreadServer(Store.in_directory(tmp_path)) as server:
        offered = {g["name"]: g for g in get(server.base, "/games")}
    northstar = offered["northstar"]
    assert northstar["label"] == "CLUBS" and northstar["summary"]
    wild = northstar["options"]["wild_fifteens"]
    assert (wild["label"], wild["default_label"], wild["rule"]) == ("Wild 15s", "off", "NS-9")
    assert "NS-9" in wild["description"] and wild["default"] is False  # what other code reads stays
    teams = northstar["options"]["teams"]
    assert teams["enum"] == ["none", "2x2", "3x2", "2x3"]
    assert [c["value"] for c in teams["choices"]] == teams["enum"]
    assert teams["choices"][1]["label"] == "2 teams of 2, 4 players"
    assert teams["default_label"] == "no teams"
    assert {"value": "northstar-wild", "label": "Wild 15s", "description": "a 15 may stand for any value"} in (
        northstar["variant_choices"]
    )
    whist = offered["whist"]["options"]["lead_after_exchange"]
    assert whist["default_label"] == "the last to exchange" and whist["rule"] == "CW-3"
    assert offered["whist"]["variant_choices"][0]["label"] == "The 1997 rules"
    for game in offered.values():
        assert [b["value"] for b in game["bot_choices"]] == game["bots"]
        assert game["bot_choices"][0] == {"value": "easy", "label": "Bot: easy"}
        for key, option in game["options"].items():
            assert option["label"] and key not in option["label"] and not RULING.search(option["label"])


def test_a_choice_that_needs_other_options_sets_values_that_go_with_it() -> None:
    for info in suite_games():
        for key, words in own_words(info).options.items():
            for value, needs in words.sets.items():
                spec = f"{info.name}({key}={value},{','.join(f'{k}={v}' for k, v in needs.items())})"
                resolve(spec)  # refused if the rules did not go together
    northstar = next(g for g in suite_games() if g.name == "northstar")
    assert own_words(northstar).options["teams"].sets["2x3"] == {"players": "6"}


@pytest.mark.parametrize(
    ("spec", "one", "two"),
    [
        ("whist(target=1)", "\u00b11 point", "\u00b12 points"),
        ("free(target=1)", "1 point", "2 points"),
        ("partnership(target=1)", "1 point", "2 points"),
        ("northstar(target=1)", "1 point", "2 points"),
    ],
)
def test_a_target_of_one_point_is_worded_in_the_singular_in_every_language(spec: str, one: str, two: str) -> None:
    from clubsuite.i18n import LANGUAGES, Words

    info, options = resolve(spec)
    assert rules_words(info, options) == [f"to {one}"]
    more = dataclasses.replace(options, target=2)
    assert rules_words(info, more) == [f"to {two}"]
    singular = {"en": "point", "de": "Punkt", "fr": "point", "nl": "punt"}
    plural = {"en": "points", "de": "Punkte", "fr": "points", "nl": "punten"}
    for lang in LANGUAGES:
        worded_one = rules_words(info, options, Words(lang))[0]
        worded_two = rules_words(info, more, Words(lang))[0]
        assert worded_one.endswith(f"1 {singular[lang]}"), (lang, worded_one)  # never "bis ±1 Punkte"
        assert worded_two.endswith(f"2 {plural[lang]}"), (lang, worded_two)
