"""The how-to-play pages (``/rules``, ``/rules/{game}?lang=``): every game in every language is served as a whole
page in that language; every ruling of the game, every option and every named variant has its anchor, the same in
the four languages, so the table's "why?" can link to it; every drawn example of cards is notation the game's engine
reads; the browser's language is honoured; a wrong game or language is refused in words; no page copies the rule
texts the project learned the games from; and in a real browser the cards are drawn and named in the page's
language."""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from serverkit import ThreadServer

import loopback
from clubsuite.cards import Card
from clubsuite.engine import games
from clubsuite.games.free import FreeMatch
from clubsuite.games.northstar import parse_play
from clubsuite.games.partnership import PartnershipMatch
from clubsuite.games.whist import WhistMatch
from clubsuite.i18n import Words
from clubsuite.server.http import rules_pages as rules
from timeouts import PAGE_TIMEOUT_MS

ROOT = Path(__file__).resolve().parents[2]
SHARED_RULES = ROOT.parent / "shared" / "rules"
"""The third-party rule texts and the project's rulings, beside the repository (absent from a bare checkout)."""
GAMES = ("whist", "free", "northstar", "partnership")
LANGS = tuple(rules.LANGUAGES)
RULING_PREFIX = {"whist": "CW", "free": "FC", "northstar": "NS", "partnership": "CP"}
JS_CARD = re.compile(r"^(JK[12]|[0-9]{1,2}|[JQKA])([CDHS])?(?:=([0-9]{1,2}))?$")
"""The notation ``static/js/cards.js`` draws (its ``parseCard``): a card the page cannot draw is no example."""


def _is_card(read: Callable[[str], object]) -> Callable[[str], None]:
    """A check that every word of an example is one card as ``read`` (a game's ``parse_action``) reads it."""

    def check(text: str) -> None:
        for word in text.split():
            assert isinstance(read(word), Card), f"{word} is not a card"

    return check


def _is_play(text: str) -> None:
    """A check that an example is one play of the climbing game: a single, set or run (wild 15s allowed)."""
    assert parse_play(text, True).cards, f"{text} is no play"


EXAMPLE_CHECKS: dict[str, Callable[[str], None]] = {
    "whist": _is_card(WhistMatch.parse_action),
    "free": _is_card(FreeMatch.parse_action),
    "partnership": _is_card(PartnershipMatch.parse_action),
    "northstar": _is_play,
}
"""How each game's engine reads an example: a card at a time, or (a climbing game) the whole play at once."""


class Page(HTMLParser):
    """What the tests read of a page: the ``lang`` of its root, every id, every inline code text, its scripts and
    its visible text."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.lang: str | None = None
        self.ids: list[str] = []
        self.codes: list[str] = []
        self.scripts: list[dict[str, str | None]] = []
        self.words: list[str] = []
        self._in_code = False
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "html":
            self.lang = found.get("lang")
        if found.get("id"):
            self.ids.append(str(found["id"]))
        if tag == "code":
            self._in_code = True
            self.codes.append("")
        if tag == "script":
            self.scripts.append(found)

    def handle_endtag(self, tag: str) -> None:
        if tag == "code":
            self._in_code = False

    def handle_data(self, data: str) -> None:
        if self._in_code:
            self.codes[-1] += data
        self.words.append(data)


@pytest.fixture(scope="module")
def pages(web: ThreadServer) -> dict[tuple[str, str], httpx.Response]:
    """Every game's page in every language, fetched once."""
    return {(g, lang): loopback.get(f"{web.base}/rules/{g}?lang={lang}", timeout=10) for g in GAMES for lang in LANGS}


def ruling_ids(game: str) -> set[str]:
    """The ids of ``game``'s rulings: those of RULINGS.md where it is at hand, and those the game's rules page in
    the docs cites (so the check still runs in a checkout without the shared folder)."""
    pattern = re.compile(rf"\b{RULING_PREFIX[game]}-\d+\b")
    found = set(pattern.findall((ROOT / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8")))
    rulings = SHARED_RULES / "RULINGS.md"
    if rulings.is_file():
        found |= set(pattern.findall(rulings.read_text(encoding="utf-8")))
    return found


def test_there_is_a_page_for_every_registered_game_and_the_games_checked_here_are_all_of_them() -> None:
    assert set(rules.served_games()) == {info.name for info in games()} >= set(GAMES)
    assert set(LANGS) == {"en", "de", "fr", "nl"}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_every_game_is_served_in_every_language_as_a_page_in_that_language(
    pages: dict[tuple[str, str], httpx.Response], game: str, lang: str
) -> None:
    r = pages[game, lang]
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert r.headers["content-language"] == lang
    policy = r.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "unsafe" not in policy
    page = Page(r.text)
    assert page.lang == lang
    assert page.scripts == [{"type": "module", "src": "/static/js/rules.js"}]  # no inline script
    title = re.search(r"<title>(.*?)</title>", r.text)
    assert title and title.group(1).startswith(rules.LANGUAGES[lang].how_to_play)
    for code, language in rules.LANGUAGES.items():  # the switch: each language named in itself
        assert f'href="/rules/{game}?lang={code}" hreflang="{code}" lang="{code}"' in r.text
        assert f">{language.name}</a>" in r.text
    assert 'href="/"' in r.text  # back to the lobby


def not_offered(game: str) -> set[str]:
    """The rulings of ``game`` that settle what the game does not offer (the docs' "Not implemented" section, such
    as a variant no source describes): where the project's reading comes from, which the docs keep and a player's
    page leaves out."""
    text = (ROOT / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8")
    return set(re.findall(rf"^## Not implemented \(({RULING_PREFIX[game]}-\d+)\)$", text, re.MULTILINE))


@pytest.mark.parametrize("game", GAMES)
def test_every_ruling_of_the_game_has_an_anchor_in_every_language(
    pages: dict[tuple[str, str], httpx.Response], game: str
) -> None:
    """Every ruling a player meets has its paragraph (the table's "why?" links to it); one about what the game does
    not offer has none: it is the docs' (``not_offered``)."""
    wanted = ruling_ids(game) - not_offered(game)
    assert wanted, f"no ruling of {game} found"
    for lang in LANGS:
        ids = Page(pages[game, lang].text).ids
        assert wanted <= set(ids), f"{game} in {lang} lacks {sorted(wanted - set(ids))}"
        assert not not_offered(game) & set(ids), f"{game} in {lang} speaks of what it does not offer"
        assert len(ids) == len(set(ids)), f"{game} in {lang} repeats an id"


@pytest.mark.parametrize("game", GAMES)
def test_every_rules_page_has_its_scoring_section_under_one_anchor_in_every_language(
    pages: dict[tuple[str, str], httpx.Response], game: str
) -> None:
    """The coach's "How scoring works" links every game's page at ``#scoring`` (the page names no game for it)."""
    for lang in LANGS:
        assert "scoring" in Page(pages[game, lang].text).ids, f"{game} in {lang} has no #scoring"


RESEARCH_WORDS = {
    "en": ("source", "copy we know", "we do not", "provisional", "printed"),
    "de": ("quelle", "fassung, die wir", "wir nicht", "vorläufig", "gedruckt"),
    "fr": ("source", "nous ne", "provisoire", "imprimé"),
    "nl": ("bron", "we niet", "voorlopig", "gedrukt"),
}
"""Words of where a rule comes from and how sure the project is of it: the docs' business (docs/rules/), never a
player's page."""


@pytest.mark.parametrize("game", GAMES)
def test_a_rules_page_speaks_to_players_and_leaves_where_the_rules_come_from_to_the_docs(
    pages: dict[tuple[str, str], httpx.Response], game: str
) -> None:
    """A player reads how to play: no word on the project's sources, a variant it does not play, or values it
    holds provisional (those stay in docs/rules/, with the rulings)."""
    for lang in LANGS:
        text = " ".join(Page(pages[game, lang].text).words).lower()
        found = [w for w in RESEARCH_WORDS[lang] if w in text]
        assert not found, f"{game} in {lang}: {found}"


@pytest.mark.parametrize("game", GAMES)
def test_every_option_and_named_variant_has_an_anchor_in_every_language(
    pages: dict[tuple[str, str], httpx.Response], game: str
) -> None:
    info = next(i for i in games() if i.name == game)
    wanted = {f"option-{name}" for name in info.options_class.__dataclass_fields__}
    wanted |= {f"variant-{name}" for name in info.variants}
    for lang in LANGS:
        ids = set(Page(pages[game, lang].text).ids)
        assert wanted <= ids, f"{game} in {lang} lacks {sorted(wanted - ids)}"


@pytest.mark.parametrize("game", GAMES)
def test_the_four_languages_carry_the_same_anchors_in_the_same_order(
    pages: dict[tuple[str, str], httpx.Response], game: str
) -> None:
    english = Page(pages[game, "en"].text).ids
    for lang in LANGS:
        assert Page(pages[game, lang].text).ids == english, f"{game} in {lang} differs from English"


@pytest.mark.parametrize("game", GAMES)
def test_every_example_of_cards_is_notation_the_games_engine_reads_and_the_page_can_draw(
    pages: dict[tuple[str, str], httpx.Response], game: str
) -> None:
    counts = set()
    for lang in LANGS:
        examples = [c[len("cards:") :].strip() for c in Page(pages[game, lang].text).codes if c.startswith("cards:")]
        assert examples, f"{game} in {lang} draws no cards"
        for text in examples:
            EXAMPLE_CHECKS[game](text)
            for word in text.split():
                m = JS_CARD.match(word)
                assert m and (m.group(2) or m.group(1).startswith("JK")), f"the page cannot draw {word}"
        counts.add(tuple(examples))
    assert len(counts) == 1, f"{game}'s examples differ between languages"


@pytest.mark.parametrize("game", GAMES)
def test_every_games_showcase_on_its_lobby_tile_is_cards_its_engine_reads_and_the_page_can_draw(game: str) -> None:
    shown = next(g for g in games() if g.name == game).showcase
    assert 3 <= len(shown) <= 5 and len(set(shown)) == len(shown)
    for word in shown:
        EXAMPLE_CHECKS[game](word)  # one card each (a single play, in the climbing game)
        m = JS_CARD.match(word)
        assert m and (m.group(2) or m.group(1).startswith("JK")), f"the page cannot draw {word}"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_a_games_rules_in_brief_are_its_first_section_in_plain_words_for_the_coach(
    web: ThreadServer, game: str, lang: str
) -> None:
    r = loopback.get(f"{web.base}/rules/{game}/brief?lang={lang}")
    assert r.status_code == 200, r.text
    brief = r.json()
    page = rules.rendered(game, lang)
    assert page is not None and page.contents[0] == ("overview", brief["title"])  # the page's first section
    assert brief["paragraphs"] and all(len(p) > 60 and "<" not in p and "**" not in p for p in brief["paragraphs"])
    read = Page(loopback.get(f"{web.base}/rules/{game}?lang={lang}").text)
    shown = " ".join(html.unescape("".join(read.words)).split())
    for paragraph in brief["paragraphs"]:
        assert paragraph in shown, paragraph  # word for word as the page reads (no two words run together)


def test_the_brief_of_an_unknown_game_or_language_is_refused_in_words(web: ThreadServer) -> None:
    r = loopback.get(f"{web.base}/rules/chess/brief?lang=en")
    assert r.status_code == 404 and r.json()["code"] == "no_game"
    r = loopback.get(f"{web.base}/rules/whist/brief?lang=xx")
    assert r.status_code == 422 and "en, de, fr, nl" in r.json()["message"]


def test_the_examples_show_a_set_a_run_a_wild_fifteen_and_the_quota_of_four(
    pages: dict[tuple[str, str], httpx.Response],
) -> None:
    climbing = [c for c in Page(pages["northstar", "en"].text).codes if c.startswith("cards:")]
    plays = [parse_play(c[len("cards:") :], True) for c in climbing]
    kinds = {p.kind.name for p in plays}
    assert {"SET", "RUN"} <= kinds
    assert any("=" in c for c in climbing)  # a wild 15 standing for another value
    assert any(p.kind.name == "SET" and len(p.cards) == 4 for p in plays)  # the largest set without wild 15s
    whist = [c for c in Page(pages["whist", "en"].text).codes if c.startswith("cards:")]
    assert any(len(c[len("cards:") :].split()) == 4 for c in whist)  # the four tricks of a quota made exactly


def test_an_unknown_game_is_a_404_page_in_words(web: ThreadServer) -> None:
    r = loopback.get(f"{web.base}/rules/no-such-game?lang=de", timeout=10)
    assert r.status_code == 404 and r.headers["content-type"].startswith("text/html")
    assert Page(r.text).lang == "de" and rules.LANGUAGES["de"].no_game in r.text
    assert "Traceback" not in r.text and "no-such-game" not in r.text
    r = loopback.get(f"{web.base}/rules/..%2F..%2Fapp.py", timeout=10)
    assert r.status_code == 404 and "Traceback" not in r.text


@pytest.mark.parametrize("path", ["/rules/whist", "/rules"])
def test_an_unknown_language_is_a_400_naming_the_languages_allowed(web: ThreadServer, path: str) -> None:
    r = loopback.get(f"{web.base}{path}?lang=xx", timeout=10)
    assert r.status_code == 400 and r.headers["content-type"].startswith("text/html")
    assert "en, de, fr, nl" in r.text and "Traceback" not in r.text
    assert "content-security-policy" in r.headers


@pytest.mark.parametrize("path", ["/rules/whist", "/rules"])
def test_the_browsers_accept_language_picks_german_when_no_language_is_asked_for(web: ThreadServer, path: str) -> None:
    r = loopback.get(web.base + path, headers={"accept-language": "es;q=0.9, de-AT;q=0.8, en;q=0.5"}, timeout=10)
    assert r.status_code == 200 and Page(r.text).lang == "de"
    r = loopback.get(web.base + path, headers={"accept-language": "ja, zh"}, timeout=10)
    assert Page(r.text).lang == "en"
    r = loopback.get(web.base + path + "?lang=nl", headers={"accept-language": "de"}, timeout=10)
    assert Page(r.text).lang == "nl"  # the address wins over the browser


def test_the_list_of_games_links_every_games_page_in_its_language(web: ThreadServer) -> None:
    r = loopback.get(f"{web.base}/rules?lang=fr", timeout=10)
    assert r.status_code == 200 and Page(r.text).lang == "fr"
    for game in GAMES:
        assert f'href="/rules/{game}?lang=fr"' in r.text


# -- a page opened from a table: what that table plays, at the top ------------------------------------------------
def table_rules_line(text: str) -> str:
    """The words of the line at the top of a page opened from a table (``?spec=``)."""
    found = re.search(r'<p class="(?:notice )?table-rules"[^>]*>(.*?)</p>', text, re.S)
    assert found is not None, "no line about the table's rules"
    return html.unescape(re.sub(r"<[^>]+>", "", found.group(1)))


@pytest.mark.parametrize("lang", LANGS)
def test_a_page_opened_from_a_table_states_that_tables_rules_in_words_each_linking_to_its_paragraph(
    web: ThreadServer, lang: str
) -> None:
    spec = "northstar(players=4,wild_fifteens=true,target=90)"
    r = loopback.get(f"{web.base}/rules/northstar", params={"lang": lang, "spec": spec}, timeout=10)
    assert r.status_code == 200 and Page(r.text).lang == lang
    said = Words(lang)
    line = table_rules_line(r.text)
    expected = [
        said.plural("{n} player", "{n} players", 4).replace("{n}", "4"),
        said.get("wild 15s", "words"),
        said.plural("to {} point", "to {} points", 90, "words").replace("{}", "90"),
    ]
    head = rules.LANGUAGES[lang].at_this_table.partition("{rules}")[0]
    assert line.startswith(head) and ", ".join(expected) in line
    if lang != "en":  # the words are the language's own, not the English
        assert "wild 15s" not in line and "players" not in line
    for key in ("players", "wild_fifteens", "target"):  # each rule links to its paragraph on the page
        assert f'href="#option-{key}"' in r.text and f'id="option-{key}"' in r.text
    assert "wild_fifteens" not in line and "=" not in line  # words, never the spec's keys or values
    # the language switch keeps the table's rules
    assert f'href="/rules/northstar?lang=de&amp;spec={quote(spec, safe="")}"' in r.text


def test_a_table_playing_the_rules_as_written_is_told_so_and_a_named_variant_is_worded(web: ThreadServer) -> None:
    r = loopback.get(f"{web.base}/rules/whist", params={"lang": "fr", "spec": "whist"}, timeout=10)
    assert r.status_code == 200 and table_rules_line(r.text) == rules.LANGUAGES["fr"].as_written
    r = loopback.get(f"{web.base}/rules/whist", params={"lang": "de", "spec": "whist-1997"}, timeout=10)
    option = Words("de").get("lead: left of the last to exchange", "words")
    assert r.status_code == 200 and option in table_rules_line(r.text)
    assert 'href="#option-lead_after_exchange"' in r.text


@pytest.mark.parametrize(
    ("spec", "why"),
    [
        ("northstar(players=9)", "players"),  # out of range: the engine's reason, naming the option
        ("northstar(colour=red)", "colour"),  # no such option
        ("whist", "whist"),  # another game's rules
        ("northstar(" + "x" * 300 + ")", "200"),  # longer than any table's rules
    ],
)
def test_table_rules_that_cannot_be_read_are_a_400_saying_why_above_the_page(
    web: ThreadServer, spec: str, why: str
) -> None:
    r = loopback.get(f"{web.base}/rules/northstar", params={"lang": "nl", "spec": spec}, timeout=10)
    assert r.status_code == 400 and Page(r.text).lang == "nl"
    line = table_rules_line(r.text)
    assert line.startswith(rules.LANGUAGES["nl"].bad_spec.partition("{reason}")[0]) and why in line
    assert 'id="option-players"' in r.text  # the game's page is still shown below
    assert "Traceback" not in r.text and "spec=" not in r.text  # the switch does not carry rules it could not read


def test_raw_html_in_a_page_source_is_shown_as_text_never_as_markup() -> None:
    html = rules._markdown().render("{#CW-1}\nSee <script>x()</script> and <b>this</b>.\n")
    assert html == '<p id="CW-1">See &lt;script&gt;x()&lt;/script&gt; and &lt;b&gt;this&lt;/b&gt;.</p>\n'


def _words(text: str) -> list[str]:
    """The words of a text, case-folded, punctuation left out."""
    return re.findall(r"\w+", text.casefold())


def test_no_page_copies_eight_words_in_a_row_from_a_rules_text() -> None:
    texts = sorted(SHARED_RULES.glob("*.txt")) if SHARED_RULES.is_dir() else []
    if not texts:
        pytest.skip(f"the third-party rule texts are not beside this checkout ({SHARED_RULES.name} folder absent)")
    run = 8
    theirs: dict[tuple[str, ...], str] = {}
    for path in texts:
        words = _words(path.read_text(encoding="utf-8"))
        for i in range(len(words) - run + 1):
            theirs.setdefault(tuple(words[i : i + run]), path.name)
    copied = []
    for game in GAMES:
        for lang in LANGS:
            page = rules.rendered(game, lang)
            assert page is not None
            words = _words(" ".join(Page(page.body).words))
            for i in range(len(words) - run + 1):
                found = theirs.get(tuple(words[i : i + run]))
                if found:
                    copied.append(f"{game}.{lang}: '{' '.join(words[i : i + run])}' ({found})")
    assert copied == []


GERMAN_NAME = re.compile(
    r"^(Kreuz|Pik|Herz|Karo) ([0-9]{1,2}|Bube|Dame|König|Ass)( \(wild\) als [0-9]{1,2})?$|^Joker [12]$"
)
"""A card's accessible name on a German page: "Herz 7", "Kreuz Bube", "Pik 15 (wild) als 7", "Joker 1"."""


def test_a_german_page_draws_its_cards_with_german_names_and_its_switch_goes_to_french(
    web: ThreadServer, browser: Any
) -> None:
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.set_default_timeout(PAGE_TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.goto(f"{web.base}/rules/whist?lang=de#CW-1")
    cards = page.locator(".rules-body .rules-cards .card[role=img]")
    cards.first.wait_for()
    names = [cards.nth(i).get_attribute("aria-label") for i in range(cards.count())]
    assert "Herz Bube" in names and "Herz Dame" in names and "Herz 7" in names
    assert all(GERMAN_NAME.match(n or "") for n in names), names
    assert page.locator(".rules-body code").count() == 0  # every example drawn
    assert page.get_by_role("img", name="Herz Bube").count() >= 1
    page.get_by_role("navigation", name="Sprache").get_by_role("link", name="Français").click()
    page.wait_for_url("**/rules/whist?lang=fr#CW-1")
    assert page.locator("html").get_attribute("lang") == "fr"
    page.locator(".rules-body .rules-cards .card").first.wait_for()
    assert page.get_by_role("img", name="valet de cœur").count() >= 1
    page.goto(f"{web.base}/rules/northstar?lang=de#NS-9")
    page.locator(".rules-body .rules-cards .card").first.wait_for()
    assert page.get_by_role("img", name="Pik 15 (wild) als 7").count() == 1
    assert errors == []
