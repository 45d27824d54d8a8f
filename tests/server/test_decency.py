"""The words a site does not accept (``server/decency``): whole words and their forms in their own language, folded
as names are, digits and signs read as letters, spaced letters joined, words run together with capitals read apart,
the parts a list marks found inside longer words; ordinary words and names of the four languages accepted; refused
in display names, account names, tournament names and chat, with words that never repeat the word; an operator's
list replaces the shipped one of its language."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from clubsuite.errors import InvalidOptionsError
from clubsuite.server import decency
from clubsuite.server.community.tournaments import check_title
from clubsuite.server.table.protocol import ProtocolError, chat_text
from clubsuite.server.tokens import check_name


@pytest.fixture(autouse=True)
def shipped_lists() -> Iterator[None]:
    """Each test starts from the shipped lists, and leaves them (the lists are the process's)."""
    decency.configure()
    yield
    decency.configure()


WRITTEN = ["fuck", "FUCK you", "Ｆｕｃｋ", "fück", "fu\u0441k", "sh1t", "s h i t", "Scheiße", "enculé", "retarded"]
WRITTEN += ["nique ta mère", "un pique-nique, nique", "pique-nique-salope"]


@pytest.mark.parametrize("text", WRITTEN)
def test_a_listed_word_is_found_however_it_is_written(text: str) -> None:
    assert decency.unwelcome(text)


@pytest.mark.parametrize("text", ["Ann", "Scunthorpe", "Dick Smith", "Straße", "shitake", "a b"])
def test_a_word_only_holding_a_listed_one_or_an_innocent_text_is_accepted(text: str) -> None:
    assert not decency.unwelcome(text)


PLURALS_AND_FORMS = ["Niggers", "bitches", "pussies", "shitty", "Schlampen", "Fotzen", "Arschlöcher", "salopes"]
PLURALS_AND_FORMS += ["connasses", "klootzakken", "hoeren", "sletjes"]


@pytest.mark.parametrize("text", PLURALS_AND_FORMS)
def test_a_listed_words_plural_and_other_forms_in_its_own_language_are_refused(text: str) -> None:
    assert decency.unwelcome(text)


COMPOUNDS = ["FuckYou", "fuckyou", "ShitHead", "bullshit", "motherfuckers", "Drecksfotze", "Hurensöhne", "Niggerlover"]


@pytest.mark.parametrize("text", COMPOUNDS)
def test_words_run_together_with_capitals_or_holding_a_listed_part_are_refused(text: str) -> None:
    assert decency.unwelcome(text)


SIGNS = ["n!gger", "$hit", "b!tch", "@sshole", "f*ck", "sh*t!", "n*ggers", "fuck_you", "Sh!tHead"]


@pytest.mark.parametrize("text", SIGNS)
def test_signs_standing_for_letters_inside_a_word_are_read_as_them(text: str) -> None:
    assert decency.unwelcome(text)


INNOCENT = {
    "en": "Scunthorpe Penistone Cockburn Hancock Dickens Essex Sussex Middlesex Arsenal assassin classic passion "
    "pussycat pussyfoot snigger sniggers lulled lull lullaby Cushite mishit mishits bastardy faggoting retarding "
    "retardant computer disputes reputed catering Bitcoin shitake Yamashita Matsushita Kinoshita Nazim Nazira "
    "Dick Smith Shital Fokker Lulu Hoover Kuttner Wanda Hello! Hi! wtf!! *sigh* 5*3 a*b **** I'm",
    "de": "Straße Hürde Hurrikan Kanal Kanaan Spastik spastisch schlampig Schlamm Kutte Kutten Puten Putenbrust "
    "Hurra Wichtel Fotzelschnitte Bastei Missgunst Scheibe Scheitel Spass Spaten Jürgen Günther",
    "fr": "Dominique niquet salopette bâtardeau pédestre merci merveille connaître conte putain computer dispute "
    "réputé Françoise Pedro retard retards retardé pique-nique pique-niques pique-niquer",
    "nl": "Mongools mongolen Mongoolse hoera kankeronderzoek klootjesvolk flikkeren flikkerend lullig Sjoerd Grietje "
    "Fokke Lutjebroek slettenhaar huren verhuren sleten",
}
"""Ordinary words and names of the four languages that look like a listed word, hold one, or are one's form in
another language (Dutch ``kut`` + ``ten`` is no form of it in German ``Kutten``; English ``lul`` + ``led`` none at
all), and punctuation and sums around or inside words."""


@pytest.mark.parametrize("lang", sorted(INNOCENT))
def test_ordinary_words_and_names_of_the_four_languages_are_accepted(lang: str) -> None:
    words = INNOCENT[lang].split()
    assert [w for w in words if decency.unwelcome(w)] == []
    assert not decency.unwelcome(INNOCENT[lang])


def test_names_titles_and_chat_are_refused_without_the_word_being_repeated() -> None:
    with pytest.raises(InvalidOptionsError, match="does not accept") as name:
        check_name("Big Shit")
    with pytest.raises(InvalidOptionsError, match="name: a tournament's name may not hold") as title:
        check_title("Hoer cup")
    with pytest.raises(ProtocolError, match="was not sent") as chat:
        chat_text("you are a klootzak")
    for refused in (name.value, title.value, chat.value):
        assert "shit" not in str(refused).lower() and "hoer" not in str(refused) and "klootzak" not in str(refused)


def test_an_operators_list_marks_parts_and_words_never_refused(tmp_path: Path) -> None:
    (tmp_path / "en.txt").write_text("banana*\n*split\n*nut*\nplum\n!plummy\n!splitsville\n", encoding="utf-8")
    decency.configure(tmp_path)
    refused = ["bananarama", "banana-split", "bigsplits!", "donuts", "chestnutty", "plums", "plumming", "BigPlum"]
    accepted = ["plummy", "splitsville", "plumber", "plumage", "pancake", "Plumbanana"]
    assert [w for w in refused if not decency.unwelcome(w)] == []
    assert [w for w in accepted if decency.unwelcome(w)] == []


@pytest.mark.parametrize(
    ("line", "rule"),
    [("*a*", "at least 3 letters"), ("ba*na", "word\\*"), ("!", "word"), ("!wo*rd", "word"), ("**", "word")],
)
def test_a_list_line_of_no_known_form_is_refused_naming_it(tmp_path: Path, line: str, rule: str) -> None:
    (tmp_path / "fr.txt").write_text(f"merde\n{line}\n", encoding="utf-8")
    with pytest.raises(InvalidOptionsError, match=f"fr.txt, line 2: .*{rule}"):
        decency.configure(tmp_path)


def test_an_operators_list_replaces_the_shipped_list_of_its_language(tmp_path: Path) -> None:
    (tmp_path / "en.txt").write_text("# our own\nbanana\n", encoding="utf-8")
    decency.configure(tmp_path)
    assert decency.unwelcome("a Banana split") and not decency.unwelcome("fuck")  # English replaced
    assert decency.unwelcome("Scheiße")  # German as shipped


def test_a_list_with_a_bad_line_is_refused_naming_it(tmp_path: Path) -> None:
    (tmp_path / "de.txt").write_text("gut\ntwo words\n", encoding="utf-8")
    with pytest.raises(InvalidOptionsError, match=r"de.txt, line 2"):
        decency.configure(tmp_path)
