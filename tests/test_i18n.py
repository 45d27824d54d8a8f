"""The catalogs (clubsuite.i18n): every message of the sources (each refusal's reason code, card and suit names,
the page's words) is in every shipped language, translated, with no placeholder its English lacks and no ruling
id in a player's words; the language is chosen from a header, a locale or CLUBS_LANG; a refusal is worded in each
language from its reason; the terminal takes --lang."""

from __future__ import annotations

import re
import string
import subprocess
import sys
from pathlib import Path

import pytest

from cli_helpers import clubs_in_process
from clubsuite.engine import resolve
from clubsuite.errors import ClubsError
from clubsuite.i18n import LANGUAGES, Words, best_match, catalog, from_environment, parse_language
from clubsuite.i18n.__main__ import template
from clubsuite.i18n.render import card_name, card_short, english_notation, reason_words
from clubsuite.reasons import reason_of, templates

RULING = re.compile(r"\b[A-Z]{2}-\d+\b")


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def _ids(cat: object) -> set[tuple[str | None, str]]:
    out = set()
    for m in cat:  # type: ignore[attr-defined]
        if m.id:
            out.add((m.context, m.id[0] if isinstance(m.id, (list, tuple)) else m.id))
    return out


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_catalog_holds_every_message_of_the_sources_and_no_other(lang: str) -> None:
    wanted, held = _ids(template()), _ids(catalog(lang))
    assert not wanted - held, f"{lang}.po lacks {sorted(wanted - held)[:5]}: run python -m clubsuite.i18n"
    assert not held - wanted, f"{lang}.po holds messages no source has: {sorted(held - wanted)[:5]}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_is_translated_with_only_the_placeholders_of_its_english(lang: str) -> None:
    missing, extra, rulings = [], [], []
    for m in catalog(lang):
        if not m.id:
            continue
        ids = list(m.id) if isinstance(m.id, (list, tuple)) else [m.id]
        strings = list(m.string) if isinstance(m.string, (list, tuple)) else [m.string]
        if not all(strings):
            missing.append((m.context, ids[0]))
            continue
        allowed = set().union(*(_fields(i) for i in ids))
        for s in strings:
            if not _fields(s) <= allowed:
                extra.append((m.context, s))
            if RULING.search(s):
                rulings.append((m.context, s))
    assert not missing, f"{lang}: {len(missing)} messages without a translation, e.g. {missing[:3]}"
    assert not extra, f"{lang}: placeholders the English lacks: {extra[:3]}"
    assert not rulings, f"{lang}: ruling ids belong behind why?, not in a player's words: {rulings[:3]}"


def test_the_language_comes_from_the_header_the_locale_or_clubs_lang() -> None:
    assert best_match("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7") == "fr"
    assert best_match("es, de;q=0.5, nl;q=0.6") == "nl"
    assert best_match("es, it") == "en" and best_match(None) == "en" and best_match("de;q=x") == "en"
    assert parse_language("nl_BE.UTF-8") == "nl" and parse_language("C.UTF-8") is None
    assert from_environment({"CLUBS_LANG": "de", "LANG": "fr_FR.UTF-8"}) == "de"
    assert from_environment({"LANG": "fr_FR.UTF-8"}) == "fr"
    assert from_environment({"LANG": "C"}) == "en"


def test_cards_and_suits_are_named_in_each_language() -> None:
    assert card_name("QH", Words("en")) == "queen of hearts"
    assert card_name("QH", Words("de")) == "Herz Dame"
    assert card_name("QH", Words("fr")) == "dame de cœur"
    assert card_name("QH", Words("nl")) == "harten vrouw"
    assert card_short("QH", Words("de")) == "D\u2665" and card_short("JC", Words("fr")) == "V\u2663"
    assert Words("de").get("clubs", "suit") == "Kreuz"
    assert Words("fr").get("clubs", "suit.card") == "trèfle"
    assert Words("nl").get("clubs", "suit") == "klaveren"


def _follow_refusal() -> object:
    """CW-1 on an exact deal: hearts led, the player holds hearts and tries a club."""
    info, options = resolve("whist")
    match = info.new_match(options, 0)
    match.deal(deal=info.deal_from_seed(11, 0))
    while match.phase != "play":
        match.apply(match.legal_actions()[0])
    leader = match.to_act
    hand = match.view(leader).hand
    led = next(c for c in hand if c.suit != 0) if any(c.suit != 0 for c in hand) else hand[0]
    match.apply(led)
    seat = match.to_act
    mine = match.view(seat).hand
    for card in mine:
        why = match.explain(card, seat)
        if why is not None:
            return why
    pytest.skip("this deal gives the second player no illegal card")  # pragma: no cover - the deal is fixed


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_refusal_is_worded_in_each_language_from_its_reason_with_its_cards_named_there(lang: str) -> None:
    reason = reason_of(_follow_refusal())  # type: ignore[arg-type]
    assert reason is not None and reason.rule == "CW-1"
    words = reason_words(reason, lang)
    assert words and "{" not in words and not RULING.search(words)
    assert card_short(str(reason.params["card"]), Words(lang)) in words
    if lang != "en":
        assert words != reason_words(reason, "en")


def test_the_terminal_words_a_refusal_in_the_language_asked_and_refuses_an_unknown_one() -> None:
    clubs = [str(Path(sys.executable).parent / "clubs")]
    lines = "k\n" + "\n".join(f"{r}{s}" for s in "CDHS" for r in ("2", "3")) + "\nq\n"
    english = clubs_in_process(["play", "whist", "--seed", "5"], lines.encode())
    german = clubs_in_process(["play", "whist", "--seed", "5", "--lang", "de"], lines.encode())
    # CW-1 in a player's words, in each language (the ruling's id is behind "why?")
    assert "You cannot play 3D: " in english.stdout and not RULING.search(english.stdout), english.stdout[-800:]
    assert "Sie können 3D nicht spielen: " in german.stdout and not RULING.search(german.stdout)
    bad = subprocess.run(  # a process: the language is read from the environment it starts with
        [*clubs, "play", "whist"], input="q\n", capture_output=True, text=True, env={"CLUBS_LANG": "xx", "PATH": ""}
    )
    assert bad.returncode == 2 and "CLUBS_LANG='xx' is not a language clubsuite speaks" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_every_reason_code_of_every_game_is_in_the_catalogs() -> None:
    codes = set(templates())
    for lang in LANGUAGES:
        held = {c for c, _ in _ids(catalog(lang)) if c}
        assert codes <= held, f"{lang} lacks {sorted(codes - held)[:5]}"
    assert isinstance(ClubsError("x"), ValueError)


def test_a_card_typed_with_a_languages_own_rank_letters_reads_as_its_notation_and_english_still_reads() -> None:
    assert english_notation("DH", "de") == "QH" and english_notation("BC 7H", "de") == "JC 7H"
    assert english_notation("RS", "fr") == "KS" and english_notation("VD", "fr") == "JD"
    assert english_notation("HH", "nl") == "KH" and english_notation("VS", "nl") == "QS"
    # as the table shows them, with the suit's symbol: B♠ is read as the terminal wrote it
    assert english_notation("B♠ D♥", "de") == "J♠ Q♥" and english_notation("R♦", "fr") == "K♦"
    for lang in LANGUAGES:
        assert english_notation("QH KS JD AC 10C pass", lang) == "QH KS JD AC 10C pass"
