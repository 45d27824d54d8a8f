"""The one place that makes outside text safe to print (:mod:`clubsuite.safetext`): what it escapes, what it keeps,
how it cuts, and that JSON stays the same JSON."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clubsuite.safetext import SHOWN, escape, json_escaped, quoted, safe_lines, shown


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("ann", "ann"),
        ("Zoë 李 ♣", "Zoë 李 ♣"),  # printable text of any script is kept
        ("a\x1b[2Jb", "a\\x1b[2Jb"),  # ESC (C0)
        ("bell\x07", "bell\\x07"),
        ("csi\x9b31m", "csi\\x9b31m"),  # an 8-bit CSI (C1)
        ("rtl\u202eevil", "rtl\\u202eevil"),  # a format character that reverses what follows
        ("two\nlines\r", "two\\nlines\\r"),
        ("tab\there", "tab\\there"),
        ("nbsp\xa0", "nbsp\\xa0"),
        ("surrogate\udcff", "surrogate\\udcff"),
        ("del\x7f", "del\\x7f"),
    ],
)
def test_escape_shows_every_character_a_terminal_could_act_on(raw: str, expected: str) -> None:
    assert escape(raw) == expected


@given(st.text())
def test_escaped_text_is_always_printable(text: str) -> None:
    assert escape(text).isprintable()
    assert shown(text).isprintable()
    assert quoted(text).isprintable()


def test_shown_cuts_a_long_value_with_a_note_of_its_length() -> None:
    assert shown("x" * 1_000_000) == "x" * SHOWN + "... (1,000,000 characters)"
    assert shown("y" * SHOWN) == "y" * SHOWN
    assert quoted("z" * 100, 10) == "'zzzzzzzzzz'... (100 characters)"
    assert quoted("ZZ") == "'ZZ'"


def test_safe_lines_keeps_line_breaks_and_cuts_each_line() -> None:
    assert safe_lines("one\x1b\ntwo") == "one\\x1b\ntwo"
    cut = safe_lines("a" * 50 + "\nb", line_limit=10)
    assert cut == "aaaaaaaaaa... (50 characters)\nb"


@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(), lambda inner: st.lists(inner, max_size=3)))
def test_json_escaped_is_the_same_json_and_printable(value: object) -> None:
    text = json.dumps({"v": value}, ensure_ascii=False, indent=1)
    safe = json_escaped(text)
    assert json.loads(safe) == json.loads(text)
    assert all(c == "\n" or c.isprintable() for c in safe)


def test_json_escaped_writes_c1_and_format_characters_as_escapes() -> None:
    text = json.dumps(["\x9b\u202e\x7f\U000e0001"], ensure_ascii=False)
    assert json_escaped(text) == '["\\u009b\\u202e\\u007f\\udb40\\udc01"]'
