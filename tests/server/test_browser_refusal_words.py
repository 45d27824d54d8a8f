"""Every refusal of every game reads the same in the page as in the terminal, in every language: for each reason
code (every template the games register, their words of what a table shows and tells too), with parameters of every
kind (a card, several cards, a seat, seats, a suit, a count of one and of more, a reason within the reason, a list of
reasons, a word), the page's ``reasonWords`` (``static/js/i18n.js``, run in a real Chromium on the catalog the server
sends) and the terminal's ``reason_words`` (``i18n/render.py``) give the same sentence, in the language's own words
(no placeholder left, no ruling id, and not the English where the language words it otherwise)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from serverkit import ThreadServer

from clubsuite.engine import games
from clubsuite.i18n import LANGUAGES
from clubsuite.i18n.render import reason_words
from clubsuite.lesson import lesson_of
from clubsuite.present import load_presentation
from clubsuite.reasons import Param, Reason, Template, kind_of, templates
from clubsuite.server.store.database import Store

RULING = re.compile(r"\b[A-Z]{2}-\d+\b")
INNER = "whist.must_follow"
"""The reason put inside a reason that adds to another (``...; or pass``)."""

WORDED = """async ([lang, reasons]) => {
    const i18n = await import("/static/js/i18n.js");
    await i18n.loadWords(lang);
    const seat = (n) => i18n.tc("seat", "seat {n}", {n: n + 1});
    return reasons.map((r) => i18n.reasonWords(r, seat));
}"""
"""Each reason worded by the page in ``lang``, seats named as the terminal names them by default."""


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    with ThreadServer(Store.in_directory(tmp_path_factory.mktemp("reasons"))) as running:
        yield running


def example(kind: Template, count: int) -> Reason:
    """A reason of ``kind`` with a value of each parameter's kind (``count`` for the counts)."""
    params: dict[str, Param] = {}
    for name in sorted(kind.fields()):
        what = kind_of(name)
        if what == "card":
            params[name] = "7H"
        elif what == "cards":
            params[name] = ("7H", "9S") if count != 1 else ("7H",)
        elif what == "seat":
            params[name] = 2
        elif what == "seats":
            params[name] = (0, 2) if count != 1 else (1,)
        elif what == "items":
            params[name] = (example(templates()[INNER], count), example(templates()[INNER], 1))
        elif what == "suit":
            params[name] = "hearts"
        elif what == "reason":
            params[name] = example(templates()[INNER], count)
        elif what == "count":
            params[name] = count
        else:
            params[name] = "xyz"
    return Reason(kind, **params)


def examples() -> list[Reason]:
    """Every template once with counts of 2, and again with counts of 1 where a count chooses its words."""
    for info in games():  # every game registered, and with it every game's templates: its refusals, and the words
        load_presentation(info)  # of what its table shows, asks and tells
        lesson_of(info)
    out = []
    for _code, kind in sorted(templates().items()):
        out.append(example(kind, 2))
        if kind.plural is not None:
            out.append(example(kind, 1))
    return out


def test_every_refusal_of_every_game_reads_the_same_in_the_page_and_the_terminal_in_every_language(
    web: ThreadServer, browser: Any
) -> None:
    reasons = examples()
    assert len({r.code for r in reasons}) == len(templates()) > 100
    page = browser.new_context().new_page()
    page.set_default_timeout(15000)
    try:
        page.goto(web.base + "/rules")  # any page of the server: the catalogs and scripts are its own
        english = [reason_words(r, "en") for r in reasons]
        for lang in LANGUAGES:
            shown = page.evaluate(WORDED, [lang, [r.to_json() for r in reasons]])
            expected = [reason_words(r, lang) for r in reasons]
            differ = [(r.code, s, e) for r, s, e in zip(reasons, shown, expected, strict=True) if s != e]
            assert differ == [], f"{lang}: {len(differ)} differ, e.g. {differ[:3]}"
            for reason, words in zip(reasons, shown, strict=True):
                assert words and "{" not in words and "undefined" not in words, (lang, reason.code, words)
                assert not RULING.search(words), (lang, reason.code, words)  # the ruling stays behind a "why?"
            if lang != "en":  # worded in the language, not left in English (a few may read the same)
                same = [r.code for r, w, e in zip(reasons, shown, english, strict=True) if w == e]
                assert len(same) <= len(reasons) // 20, (lang, same)
    finally:
        page.context.close()
