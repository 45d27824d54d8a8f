"""Lists of names are worded by CLDR's patterns on both faces: the terminal's and the replay's through Babel
(:func:`clubsuite.wording.list_words`, read by :func:`clubsuite.i18n.render.list_words`), the page's through
``Intl.ListFormat`` (``i18n.js``'s ``listWords``). Both must say the same list in every language the project ships,
or a player would read "Ann, Bob, and you" on the page and "Ann, Bob and you" in the terminal.

The page's side is asked of Node.js's ``Intl.ListFormat`` (the same ICU patterns as the browser's; ``make typecheck``
needs Node.js already). Where Node.js is missing the test skips, unless ``CLUBS_REQUIRE_BROWSER=1`` (CI), where it
fails.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest

from clubsuite.i18n import LANGUAGES, Words
from clubsuite.i18n.render import list_words
from clubsuite.wording import list_words as cldr_list_words

LISTS = [[], ["Ann"], ["Ann", "you"], ["Ann", "Bob", "you"], ["Ann", "Bob", "Cleo", "Dario"]]


def _node_lists() -> dict[str, list[str]]:
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CLUBS_REQUIRE_BROWSER") == "1":
            pytest.fail("no Node.js to ask Intl.ListFormat (CLUBS_REQUIRE_BROWSER=1: this test must run)")
        pytest.skip("no Node.js to ask Intl.ListFormat")
    script = (
        "const [langs, lists] = JSON.parse(process.argv[1]); const out = {};"
        "for (const l of langs) { const f = new Intl.ListFormat(l, {style: 'long', type: 'conjunction'});"
        "out[l] = lists.map((x) => f.format(x)); } console.log(JSON.stringify(out));"
    )
    done = subprocess.run(
        [node, "-e", script, json.dumps([list(LANGUAGES), LISTS])], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def test_the_terminal_lists_names_as_the_page_does_in_every_language() -> None:
    page = _node_lists()
    for lang in LANGUAGES:
        terminal = [list_words(items, Words(lang)) for items in LISTS]
        assert terminal == page[lang], lang


def test_english_lists_three_names_with_a_serial_comma_and_two_without() -> None:
    words = Words("en")
    assert list_words(["Ann", "Bob", "you"], words) == "Ann, Bob, and you"
    assert list_words(["Ann", "you"], words) == "Ann and you"
    assert cldr_list_words(["Ann", "Bob", "Cleo"], "de") == "Ann, Bob und Cleo"
    assert list_words([], words) == ""
