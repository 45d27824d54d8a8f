"""One name key for accounts, seats and club-night entrants (``tokens.name_key``): two names are one name when they
differ only in case (Unicode's folding, with its traps: Turkish İ and ı, ß, final sigma), in accents and other
marks, in spaces and the punctuation a name may hold, in letters of other alphabets that look Latin, or in the plain
look-alikes (i l 1, o 0, rn m, vv w). Sign-up refuses exactly what a table and a club night refuse."""

from __future__ import annotations

import re

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st
from serverkit import ThreadServer, new_table, post
from test_server_rated import account

import loopback
from clubsuite.errors import InvalidOptionsError
from clubsuite.server.tokens import check_name, looks_alike, name_key

PASSWORD = "correct horse battery"
RULE_ID = re.compile(r"\b[A-Z]{2,}-\d+\b")
"""A rule's id (CW-3): never in what a player reads."""

pytestmark = pytest.mark.backends("sqlite", "postgresql")
"""Every test that takes a store (or a server over one) runs on SQLite and on PostgreSQL."""


# -- the key itself ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Alice", "ALICE"),
        ("Bill", "BILL"),
        ("Alice", "aLiCe"),
        ("Zoë", "ZOË"),
    ],
)
def test_names_differing_only_in_case_are_one_name(a: str, b: str) -> None:
    assert name_key(a) == name_key(b)
    assert looks_alike(a, b) and looks_alike(b, a)


@pytest.mark.parametrize(("a", "b"), [("Alíce", "Alice"), ("Zoë", "Zoe"), ("José", "JOSE"), ("Ånnä", "anna")])
def test_accents_and_other_marks_do_not_make_a_new_name(a: str, b: str) -> None:
    assert name_key(a) == name_key(b)


def test_the_turkish_dotted_capital_i_and_the_dotless_i_read_as_i() -> None:
    assert "İ".casefold() == "i\u0307"  # the trap: case folding leaves a combining dot above
    assert name_key("İ") == name_key("i") == name_key("ı") == name_key("I")
    assert name_key("ALİCE") == name_key("Alice") == name_key("Alıce")


def test_sharp_s_reads_as_ss() -> None:
    assert name_key("Straße") == name_key("STRASSE") == name_key("strasse") == name_key("STRAẞE")


def test_final_sigma_medial_sigma_and_capital_sigma_are_one_letter() -> None:
    assert name_key("ς") == name_key("σ") == name_key("Σ")
    assert name_key("Σίσυφος") == name_key("ΣΊΣΥΦΟΣ") == name_key("σισυφοσ")


@pytest.mark.parametrize("other", ["Alice.", "a l i c e", "A-lice", "Al_ice", "Ali'ce", " Alice "])
def test_spaces_and_a_names_punctuation_do_not_make_a_new_name(other: str) -> None:
    assert name_key(other) == name_key("Alice")


@pytest.mark.parametrize(
    ("a", "b"),
    [("Bill", "BiII"), ("Bill", "Bi1l"), ("Bob", "B0b"), ("BOB", "B0B"), ("Sam", "Sarn"), ("Will", "VVill")],
)
def test_plain_look_alikes_read_alike_in_any_case(a: str, b: str) -> None:
    assert name_key(a) == name_key(b) == name_key(b.lower()) == name_key(b.upper())


@pytest.mark.parametrize(("latin", "other"), [("Mac", "Мас"), ("MAC", "мас"), ("Pop", "Рор"), ("Bob", "Воb")])
def test_letters_of_other_alphabets_that_look_latin_read_as_latin_in_either_case(latin: str, other: str) -> None:
    assert name_key(latin) == name_key(other) == name_key(other.upper()) == name_key(other.lower())


@pytest.mark.parametrize(
    ("a", "b"), [("Ann2", "Ann3"), ("Ann", "Ann2"), ("Ann", "Anna"), ("Bob", "Rob"), ("Анна", "Bill"), ("Ed", "Eb")]
)
def test_different_names_stay_different_and_digits_stay_distinct(a: str, b: str) -> None:
    assert name_key(a) != name_key(b)
    assert not looks_alike(a, b)


def test_a_name_of_punctuation_only_still_has_a_key_of_its_own() -> None:
    assert name_key("...") == name_key(". . .") != name_key("---")
    assert name_key("...") != ""


SCRIPT_LETTERS = [
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789ßẞıİŀĳǅǈǋſéÉèÈçÇñÑøØåÅæÆœŒðÐþÞ",
    "αβγδεζηθικλμνξοπρσςτυφχψωΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩάέήίόύώΐΰϊϋᾳᾼ",
    "абвгдеёжзийклмнопрстуфхцчшщъыьэюяАБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯіїєґІЇЄҐӏӀ",
    "ءابتثجحخدذرزسشصضطظعغفقكلمنهوي٠١٢٣",
    "あいうえおかがきぎくぐアイウエオカガキギ日本語漢字",
    "აბგდევზთიკლმნოპ",
]


def accepted_names() -> st.SearchStrategy[str]:
    """Names ``check_name`` accepts, from several alphabets (the case traps among them), with spaces and the
    punctuation a name may hold."""
    return st.one_of(
        *(st.text(st.sampled_from(letters + " -_.'"), min_size=1, max_size=24) for letters in SCRIPT_LETTERS)
    ).filter(_accepted)


def _accepted(name: str) -> bool:
    try:
        check_name(name)
    except InvalidOptionsError:
        return False
    return True


@given(accepted_names())
def test_a_names_key_does_not_change_with_its_case(name: str) -> None:
    key = name_key(name)
    assert key == name_key(name.upper()) == name_key(name.lower()) == name_key(name.casefold())
    assert key == name_key(check_name(name))  # the tidy form the server keeps is the same name
    assert "#" not in key  # the mark of an account a migration set apart (r0007) is never a name's key


@given(accepted_names(), accepted_names())
def test_looks_alike_is_symmetric_and_means_the_same_key(a: str, b: str) -> None:
    assert looks_alike(a, b) == looks_alike(b, a) == (name_key(a) == name_key(b))
    assert looks_alike(a, a.upper()) and looks_alike(a.upper(), a)


# -- on a real server: sign-up, seats and club nights refuse the same names ------------------------------------------
def sign_up(server: ThreadServer, name: str) -> httpx.Response:
    """Sign up from a browser of its own (another address, as far as the account is concerned)."""
    with loopback.client(base_url=server.base, timeout=30) as b:
        return b.post("/account/signup", json={"name": name, "password": PASSWORD})


def test_signing_up_a_name_that_passes_for_an_accounts_name_is_refused_as_taken(server: ThreadServer) -> None:
    assert sign_up(server, "Alice").status_code == 201
    assert sign_up(server, "Bill").status_code == 201
    for alike in ("ALICE", "ALİCE", "Alíce", "Alice.", "a l i c e", "A-lice", "Alıce", "BILL", "bill", "BiII"):
        r = sign_up(server, alike)
        assert r.status_code == 409, (alike, r.text)
        assert r.json()["code"] == "name_taken", (alike, r.text)
        message = r.json()["message"]
        assert "choose another" in message and not RULE_ID.search(message), message  # plain words, no rule id
    assert sign_up(server, "Alina").status_code == 201  # a name of its own is still free


def test_an_account_signs_in_under_any_form_of_its_name(server: ThreadServer) -> None:
    assert sign_up(server, "Straße").status_code == 201
    for typed in ("Straße", "STRASSE", "strasse", "Strasse."):
        with loopback.client(base_url=server.base, timeout=30) as b:
            r = b.post("/account/login", json={"name": typed, "password": PASSWORD})
            assert r.status_code == 200, (typed, r.text)
            assert b.get("/account").json()["name"] == "Straße"


def test_a_seat_name_differing_from_a_seated_players_only_in_case_accents_or_spaces_is_refused(
    server: ThreadServer,
) -> None:
    table = new_table(server.base, "whist")["id"]
    join = server.base + f"/tables/{table}/join"
    post(server.base, f"/tables/{table}/join", {"name": "Alice"})
    for alike in ("ALICE", "ALİCE", "Alíce", "Alice.", "a l i c e", "Alıce"):
        r = loopback.post(join, json={"name": alike})
        assert r.status_code == 409, (alike, r.text)
        assert r.json()["code"] == "name_taken", (alike, r.text)
    assert post(server.base, f"/tables/{table}/join", {"name": "Alina"})["seat"] == 1


def test_a_club_night_entrant_differing_from_another_only_in_case_accents_or_spaces_is_refused(
    server: ThreadServer,
) -> None:
    host, _, headers = account(server, "Ann")
    night = host.post("/clubnights", json={"game": "whist", "tables": 2}, headers=headers).json()["id"]
    enter = f"{server.base}/clubnights/{night}/enter"
    assert loopback.post(enter, json={"name": "Bob"}).status_code == 200
    for alike in ("BÖB", "B o b", "Bob.", "b0b"):
        r = loopback.post(enter, json={"name": alike})
        assert r.json()["code"] == "name_taken", (alike, r.text)
