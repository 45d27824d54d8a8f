"""The terminal table speaks the player's language: ``clubs play --lang de`` words its prompts, its summaries and
its score sheet in German from the catalog, while the English run stays word for word what it always printed."""

from __future__ import annotations

import pytest

from cli_helpers import clubs_in_process
from clubsuite.i18n import Words

MOVES = ("k\n" + "".join(f"{n}\n" for n in range(1, 14)) * 25 + "s\nq\n").encode()
"""Keep the hand, then every card number in turn (the illegal ones are refused) until the first hand is over;
then the scores, and quit."""

GERMAN = {
    "Keep or exchange with the bid hand? [k/x]": "the exchange prompt",
    "Your card:": "the card prompt",
    "You keep your hand.": "the decision said",
    "Hand over. Tricks: {tricks}": "the hand's summary",
    "Scores": "the score sheet's title",
    "Your hand: {cards}": "the hand shown",
}
"""The terminal's words this test looks for in German, by what they are."""


def german(msgid: str) -> str:
    """``msgid`` in German, its placeholder cut off (the test reads the words before it)."""
    return Words("de").get(msgid).split("{")[0]


def test_english_play_of_whist_says_what_it_always_said() -> None:
    out = clubs_in_process(["play", "whist", "--seed", "5", "--lang", "en"], MOVES)
    assert out.status == 0, out.stderr  # q quits after the first hand
    lines = out.stdout.splitlines()
    assert lines[:5] == [
        "Clubs (whist group) · variant whist · seed 5 · you are seat 0",
        "Clubs are trumps. Follow suit and beat the highest card if you can; quota 4 tricks.",
        "Enter a card (e.g. 10H) or its number; ? legal moves, h hint, s scores, q quit.",
        "",
        "=== Hand 1: You deal. Totals: You +0, Heuristic 1 +0, Heuristic 2 +0 (target ±11) ===",
    ]
    assert "Keep or exchange with the bid hand? [k/x] k" in lines
    assert "You keep your hand." in lines
    assert "Heuristic 2 leads the first trick." in lines
    assert "Trick so far: Heuristic 2 JH" in lines
    assert "Hand over. Tricks: You 3 (-1), Heuristic 1 9 (+5), Heuristic 2 1 (-3)" in lines
    assert any(line.strip() == "Scores" for line in lines)
    assert "=== Hand 2: Heuristic 1 deals. Totals: You -1, Heuristic 1 +5, Heuristic 2 -3 (target ±11) ===" in lines


def test_german_play_of_whist_words_prompts_and_summaries_in_german() -> None:
    missing = [what for msgid, what in GERMAN.items() if Words("de").get(msgid) == msgid]
    if missing:
        pytest.skip(f"the German catalog does not translate the terminal's words yet: {', '.join(missing)}")
    out = clubs_in_process(["play", "whist", "--seed", "5", "--lang", "de"], MOVES)
    assert out.status == 0, out.stderr
    lines = out.stdout.splitlines()
    assert german("Keep or exchange with the bid hand? [k/x]") + " k" in lines
    assert german("You keep your hand.") in lines
    assert any(line.startswith(german("Your card:")) for line in lines)
    assert any(line.startswith(german("Your hand: {cards}")) for line in lines)
    summary = german("Hand over. Tricks: {tricks}")
    assert summary + "You 3 (-1), Heuristic 1 9 (+5), Heuristic 2 1 (-3)" in lines
    assert any(line.strip() == german("Scores") for line in lines)
    for english in ("Keep or exchange with the bid hand?", "Hand over. Tricks:", "Your card:", "You keep your hand."):
        assert not any(english in line for line in lines), english
    # The cards stay in notation, and the seats keep the names the terminal gives them.
    assert any("JH" in line and "Heuristic 2" in line for line in lines)
