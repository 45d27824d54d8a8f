"""The terminal table speaks the player's language: ``clubs play --lang de`` words its prompts, its summaries and
its score sheet in German from the catalog, while the English run stays word for word what it always printed."""

from __future__ import annotations

import re

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
    assert lines[:7] == [
        "Clubs (whist group) · variant whist · seed 5",
        "At the table, in turn order: You, Basil (normal bot), Cleo (normal bot)",
        "Clubs are trumps. Follow suit and beat the highest card if you can; quota 4 tricks.",
        "Enter a card (e.g. 10H) or its number; ? legal moves, h hint, s scores, q quit.",
        "A move refused is said in plain words; type why (or w) then to read the rule behind it.",
        "",
        "=== Hand 1: You deal. Totals: You +0, Basil +0, Cleo +0 (target ±11) ===",
    ]
    assert "Keep or exchange with the bid hand? [k/x] k" in lines
    assert "You keep your hand." in lines
    assert "Cleo leads the first trick." in lines
    assert "Trick so far: Cleo JH" in lines
    assert "Hand over. Tricks: You 3 (-1), Basil 9 (+5), Cleo 1 (-3)" in lines
    assert any(line.strip() == "Scores" for line in lines)
    assert "=== Hand 2: Basil deals. Totals: You -1, Basil +5, Cleo -3 (target ±11) ===" in lines


def test_german_play_of_whist_words_prompts_and_summaries_in_german() -> None:
    missing = [what for msgid, what in GERMAN.items() if Words("de").get(msgid) == msgid]
    assert not missing, f"the German catalog does not translate the terminal's words: {', '.join(missing)}"
    out = clubs_in_process(["play", "whist", "--seed", "5", "--lang", "de"], MOVES)
    assert out.status == 0, out.stderr
    lines = out.stdout.splitlines()
    assert german("Keep or exchange with the bid hand? [k/x]") + " k" in lines
    assert german("You keep your hand.") in lines
    assert any(line.startswith(german("Your card:")) for line in lines)
    assert any(line.startswith(german("Your hand: {cards}")) for line in lines)
    summary = german("Hand over. Tricks: {tricks}")
    assert summary + "Sie 3 (-1), Basil 9 (+5), Cleo 1 (-3)" in lines  # the player's seat: "Sie"
    head = Words("de").get("{title} · variant {spec} · seed {seed}")
    assert lines[0] == head.format(title=Words("de").get("Clubs (whist group)"), spec="whist", seed=5)
    assert lines[0] != "Clubs (whist group) · variant whist · seed 5"
    assert lines[1] == "Am Tisch, in Zugfolge: Sie, Basil (normaler Bot), Cleo (normaler Bot)"
    assert german("Game stopped before the end (you quit).") in lines
    assert any(line.strip() == german("Scores") for line in lines)
    english_words = ("Keep or exchange with the bid hand?", "Hand over. Tricks:", "Your card:", "You keep your hand.")
    for english in (*english_words, "You "):
        assert not any(english in line for line in lines), english
    # One card alphabet, the German one, in the hand, the trick, the legal moves and the refusals: the jack of
    # hearts is B (Bube), the queen D (Dame); without suit symbols (piped) the suit is its letter, as typed.
    assert "Stich bisher: Cleo BH" in lines
    hands = [line for line in lines if line.startswith(german("Your hand: {cards}"))]
    assert hands and not any(re.search(r"\b\d*:?[JQ][CDHS]\b", line) for line in hands), hands
    assert any(re.search(r"\bD[CDHS]\b", line) for line in hands)
    refusals = [line for line in lines if "nicht spielen" in line]
    assert refusals and not any(re.search(r"\b[JQ][CDHS]\b|[♣♦♥♠]", line) for line in refusals), refusals


@pytest.mark.parametrize("lang", ["fr", "nl"])
def test_watching_bots_in_french_or_dutch_words_the_header_the_events_and_the_end_in_that_language(lang: str) -> None:
    words = Words(lang)
    out = clubs_in_process(["watch", "whist", "--seed", "7", "--lang", lang])
    assert out.status == 0, out.stderr
    lines = out.stdout.splitlines()
    head = words.get("{title} · variant {spec} · seed {seed}")
    title = words.get("Clubs (whist group)")
    assert title != "Clubs (whist group)" and lines[0] == head.format(title=title, spec="whist", seed=7)
    first = [words.get("{name} leads the first trick.").format(name=name) for name in ("Kiri", "Lena", "Milo")]
    assert any(line in first for line in lines), first
    wins = words.get("{name} wins trick {number} (tricks: {counts})").split("{name}")[1].split("{number}")[0]
    assert wins.strip() and any(wins in line for line in lines)
    assert not any("leads the first trick" in line or " wins trick " in line for line in lines)


def test_watch_refuses_a_language_it_does_not_speak_naming_the_ones_it_does() -> None:
    out = clubs_in_process(["watch", "whist", "--lang", "es"])
    assert out.status == 2 and "es" in out.stderr and "en" in out.stderr and "Traceback" not in out.stderr


def test_a_german_table_hints_in_its_alphabet_and_reads_a_card_as_it_wrote_it() -> None:
    """The hint names its card as the hand does (the queen of hearts is D), and a card typed as the table writes it
    with its suit's symbol (``D♥``, copied from a terminal that shows symbols) is played."""
    out = clubs_in_process(["play", "whist", "--seed", "5", "--lang", "de"], "k\nh\nD♥\nq\n".encode())
    assert out.status == 0, out.stderr
    lines = out.stdout.splitlines()
    assert german("Hint: {move}") + "DH" in lines
    assert "Sie spielen DH" in lines
