"""The words a site does not accept (``server/decency``): whole words, folded as names are, digits read as letters,
spaced letters joined; refused in display names, account names, tournament names and chat, with words that never
repeat the word; an operator's list replaces the shipped one of its language."""

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


WRITTEN = ["fuck", "FUCK you", "Ｆｕｃｋ", "fück", "fu\u0441k", "sh1t", "s h i t", "Scheiße", "enculé"]


@pytest.mark.parametrize("text", WRITTEN)
def test_a_listed_word_is_found_however_it_is_written(text: str) -> None:
    assert decency.unwelcome(text)


@pytest.mark.parametrize("text", ["Ann", "Scunthorpe", "Dick Smith", "Straße", "shitake", "klootzakken", "a b"])
def test_a_word_only_holding_a_listed_one_or_an_innocent_text_is_accepted(text: str) -> None:
    assert not decency.unwelcome(text)


def test_names_titles_and_chat_are_refused_without_the_word_being_repeated() -> None:
    with pytest.raises(InvalidOptionsError, match="does not accept") as name:
        check_name("Big Shit")
    with pytest.raises(InvalidOptionsError, match="name: a tournament's name may not hold") as title:
        check_title("Hoer cup")
    with pytest.raises(ProtocolError, match="was not sent") as chat:
        chat_text("you are a klootzak")
    for refused in (name.value, title.value, chat.value):
        assert "shit" not in str(refused).lower() and "hoer" not in str(refused) and "klootzak" not in str(refused)


def test_an_operators_list_replaces_the_shipped_list_of_its_language(tmp_path: Path) -> None:
    (tmp_path / "en.txt").write_text("# our own\nbanana\n", encoding="utf-8")
    decency.configure(tmp_path)
    assert decency.unwelcome("a Banana split") and not decency.unwelcome("fuck")  # English replaced
    assert decency.unwelcome("Scheiße")  # German as shipped


def test_a_list_with_a_bad_line_is_refused_naming_it(tmp_path: Path) -> None:
    (tmp_path / "de.txt").write_text("gut\ntwo words\n", encoding="utf-8")
    with pytest.raises(InvalidOptionsError, match=r"de.txt, line 2"):
        decency.configure(tmp_path)
