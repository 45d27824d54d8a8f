"""The page chooses a number's plural form as the terminal does, in every language, and in a language with three
forms: ``tn`` and ``tc`` (``static/js/i18n.js``, run in a real Chromium) ask ``Intl.PluralRules`` for the number's
category and read its form through the catalog's ``plurals`` (what :func:`clubsuite.wording.plural_categories`
matched), so that French's 0 is singular and Polish's 22 takes the "few" form, with no guess from a rule's text."""

from __future__ import annotations

import json
from typing import Any

from serverkit import ThreadServer

from clubsuite.i18n import LANGUAGES, catalog
from clubsuite.wording import plural_categories, plural_index

COUNTS = (0, 1, 2, 3, 5, 11, 21, 22, 25, 101, 112, 1_000_000)

COUNTED = """async ([lang, counts]) => {
    const i18n = await import("/static/js/i18n.js");
    await i18n.loadWords(lang);
    return counts.map((n) => i18n.tn("{n} player", "{n} players", n));
}"""
"""The page's words for each count in ``lang`` (the catalog the server sends, or the one a route puts there)."""

POLISH_FORMS = ["{n} gracz", "{n} gracze", "{n} graczy"]
POLISH_RULE = "(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2)"


def test_the_page_words_every_count_with_the_terminals_form_in_every_language(web: ThreadServer, browser: Any) -> None:
    page = browser.new_context().new_page()
    try:
        page.goto(web.base + "/rules")  # any page of the server: the catalogs and scripts are its own
        for lang in LANGUAGES:
            forms = catalog(lang).get("{n} player").string
            cat = catalog(lang)
            expected = [forms[plural_index(cat.plural_expr, cat.num_plurals, n)].replace("{n}", str(n)) for n in COUNTS]
            assert page.evaluate(COUNTED, [lang, list(COUNTS)]) == expected, lang
        assert page.evaluate(COUNTED, ["fr", [0, 1, 2]]) == ["0 joueur", "1 joueur", "2 joueurs"]
    finally:
        page.context.close()


def test_a_language_with_three_forms_takes_the_form_its_catalog_gives_each_count(
    web: ThreadServer, browser: Any
) -> None:
    polish = {
        "lang": "pl",
        "name": "Polski",
        "plurals": plural_categories("pl", POLISH_RULE, 3),
        "messages": {"{n} player": POLISH_FORMS, "seat\u0004seat {n}": "miejsce {n}"},
    }
    page = browser.new_context().new_page()
    try:
        page.route(
            "**/i18n/pl.json", lambda route: route.fulfill(content_type="application/json", body=json.dumps(polish))
        )
        page.goto(web.base + "/rules")
        shown = page.evaluate(COUNTED, ["pl", list(COUNTS)])
        expected = [POLISH_FORMS[plural_index(POLISH_RULE, 3, n)].replace("{n}", str(n)) for n in COUNTS]
        assert shown == expected
        assert shown[:9] == [
            "0 graczy",
            "1 gracz",
            "2 gracze",
            "3 gracze",
            "5 graczy",
            "11 graczy",
            "21 graczy",
            "22 gracze",
            "25 graczy",
        ]
    finally:
        page.context.close()
