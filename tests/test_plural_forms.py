"""A number's plural form and a list of names, as each language has them: the form index comes from the catalog's
``Plural-Forms`` (gettext's rule, any number of forms), each CLDR plural category is matched to one of those forms
(what the page's ``Intl.PluralRules`` choice is read through), a catalog whose rule disagrees with the language is
refused, and names are listed with CLDR's patterns (:mod:`clubsuite.wording`, :mod:`clubsuite.server.http.catalogs`)."""

from __future__ import annotations

import io
import json

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from clubsuite.i18n import LANGUAGES, catalog
from clubsuite.server.http.catalogs import page_catalog
from clubsuite.wording import list_words, plural_categories, plural_index

POLISH = """msgid ""
msgstr ""
"Language: pl\\n"
"Plural-Forms: nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\\n"
"Content-Type: text/plain; charset=utf-8\\n"

msgid "{n} player"
msgid_plural "{n} players"
msgstr[0] "{n} gracz"
msgstr[1] "{n} graczy"
msgstr[2] "{n} graczy (many)"
"""
"""A catalog of a language with three plural forms (Polish: one, few, many), as a translator would write it."""


def polish() -> Catalog:
    return read_po(io.BytesIO(POLISH.encode()), locale="pl")


def test_a_three_form_catalog_chooses_each_numbers_form_by_its_rule() -> None:
    cat = polish()
    assert cat.num_plurals == 3
    chosen = {n: plural_index(cat.plural_expr, cat.num_plurals, n) for n in (0, 1, 2, 5, 21, 22, 112, 1000)}
    assert chosen == {0: 2, 1: 0, 2: 1, 5: 2, 21: 2, 22: 1, 112: 2, 1000: 2}
    forms = cat.get("{n} player").string
    assert [forms[plural_index(cat.plural_expr, 3, n)] for n in (1, 2, 5)] == [
        "{n} gracz",
        "{n} graczy",
        "{n} graczy (many)",
    ]


def test_the_terminals_words_choose_a_three_form_catalogs_forms_by_its_own_rule(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import clubsuite.i18n as i18n

    monkeypatch.setattr(i18n, "catalog", lambda lang: polish())
    words = i18n.Words("pl")
    chosen = [words.plural("{n} player", "{n} players", n) for n in (1, 2, 5, 22)]
    assert chosen == ["{n} gracz", "{n} graczy", "{n} graczy (many)", "{n} graczy"]


def test_each_cldr_category_of_a_three_form_language_stands_for_one_form() -> None:
    cat = polish()
    # "other" holds only fractions in Polish: no count falls in it, and it takes the last form
    assert plural_categories("pl", cat.plural_expr, cat.num_plurals) == {"few": 1, "many": 2, "one": 0, "other": 2}


def test_an_index_past_the_forms_a_catalog_has_takes_its_last() -> None:
    assert plural_index("(n != 1)", 1, 5) == 0
    assert plural_index("(n%10==1 ? 0 : 1)", 2, -21) == 0  # a count below zero is counted as its size


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_page_catalog_names_the_form_of_each_category_of_its_language(lang: str) -> None:
    sent = json.loads(page_catalog(lang))
    cat = catalog(lang)
    assert sent["plurals"] == plural_categories(lang, cat.plural_expr, cat.num_plurals)
    assert sent["plurals"]["one"] == 0 and sent["plurals"]["other"] == cat.num_plurals - 1
    assert "plural" not in sent  # no rule text for the page to guess from
    players = sent["messages"]["{n} player"]
    assert isinstance(players, list) and len(players) == cat.num_plurals


def test_french_counts_zero_and_one_as_one_and_a_million_as_many() -> None:
    plurals = json.loads(page_catalog("fr"))["plurals"]
    assert plurals == {"one": 0, "many": 1, "other": 1}
    cat = catalog("fr")
    assert [plural_index(cat.plural_expr, cat.num_plurals, n) for n in (0, 1, 2, 1_000_000)] == [0, 0, 1, 1]


def test_a_catalog_whose_rule_disagrees_with_its_language_is_refused() -> None:
    with pytest.raises(ValueError, match="'one'"):
        plural_categories("fr", "(n != 1)", 2)  # French counts 0 as one; this rule gives 0 the plural


@pytest.mark.parametrize(
    ("lang", "three", "two"),
    [
        ("en", "Ann, Bob, and Cleo", "Ann and Bob"),
        ("de", "Ann, Bob und Cleo", "Ann und Bob"),
        ("fr", "Ann, Bob et Cleo", "Ann et Bob"),
        ("nl", "Ann, Bob en Cleo", "Ann en Bob"),
    ],
)
def test_names_are_listed_as_the_language_lists_them(lang: str, three: str, two: str) -> None:
    assert list_words(["Ann", "Bob", "Cleo"], lang) == three
    assert list_words(["Ann", "Bob"], lang) == two
    assert list_words(["Ann"], lang) == "Ann"
    assert list_words([], lang) == ""
