"""The terminal table speaks the player's language: ``clubs play --lang de`` words its prompts, the events (in the
game's own words, as the page says them) and its score sheet in German from the catalog; the English run says what
the page says."""

from __future__ import annotations

import re

import pytest

from cli_helpers import clubs_in_process
from clubsuite.games.whist.present import KEEPS_YOU, SCORED
from clubsuite.i18n import Words
from clubsuite.present import LEADS, TAKES
from clubsuite.reasons import Template

MOVES = ("k\n" + "".join(f"{n}\n" for n in range(1, 14)) * 25 + "s\nq\n").encode()
"""Keep the hand, then every card number in turn (the illegal ones are refused) until the first hand is over;
then the scores, and quit."""

GERMAN = {
    "Keep or exchange with the bid hand? [{keep}/{exchange}]": "the exchange prompt",
    "Your card:": "the card prompt",
    "Scores": "the score sheet's title",
    "Your hand: {cards}": "the hand shown",
}
"""The terminal's words this test looks for in German, by what they are."""


def said_in(lang: str, kind: Template) -> str:
    """What the game's presenter says with ``kind`` in ``lang`` (its placeholders left open)."""
    return Words(lang).get(kind.text, kind.code)


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
        "Enter a card (e.g. QH) or its number; ? legal moves, h hint, s scores, q quit.",
        "A move refused is said in plain words; type why (or w) then to read the rule behind it.",
        "",
        "Hand 1 is dealt by you.",
    ]
    assert "Keep or exchange with the bid hand? [k/x] k" in lines
    assert "You keep your hand." in lines
    assert "Cleo leads." in lines
    assert "Trick so far: Cleo JH" in lines
    assert "The hand is over: you 3 tricks (-1), Basil 9 tricks (+5), Cleo 1 trick (-3)." in lines
    assert any(line.strip() == "Scores" for line in lines)
    assert "Hand 2 is dealt by Basil." in lines


def test_german_play_of_whist_words_prompts_and_summaries_in_german() -> None:
    missing = [what for msgid, what in GERMAN.items() if Words("de").get(msgid) == msgid]
    assert not missing, f"the German catalog does not translate the terminal's words: {', '.join(missing)}"
    out = clubs_in_process(["play", "whist", "--seed", "5", "--lang", "de"], MOVES)
    assert out.status == 0, out.stderr
    lines = out.stdout.splitlines()
    assert "Behalten oder mit dem Talon tauschen? [b/t] k" in lines  # the English key is read in every language
    assert said_in("de", KEEPS_YOU) in lines
    assert any(line.startswith(german("Your card:")) for line in lines)
    assert any(line.startswith(german("Your hand: {cards}")) for line in lines)
    summary = said_in("de", SCORED).split("{")[0]
    assert summary + "Sie 3 Stiche (-1), Basil 9 Stiche (+5), Cleo 1 Stich (-3)." in lines  # the player's seat: "Sie"
    head = Words("de").get("{title} · variant {spec} · seed {seed}")
    assert lines[0] == head.format(title=Words("de").get("Clubs (whist group)"), spec="whist", seed=5)
    assert lines[0] != "Clubs (whist group) · variant whist · seed 5"
    assert lines[1] == "Am Tisch, in Zugfolge: Sie, Basil (normaler Bot), Cleo (normaler Bot)"
    assert german("Game stopped before the end (you quit).") in lines
    assert any(line.strip() == german("Scores") for line in lines)
    english_words = ("Keep or exchange with the bid hand?", "The hand is over", "Your card:", "You keep your hand.")
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
    first = [said_in(lang, LEADS).format(seat=name) for name in ("Kiri", "Lena", "Milo")]
    assert any(line in first for line in lines), first
    takes = said_in(lang, TAKES).split("{seat}")[1].split("{number}")[0]
    assert takes.strip() and any(takes in line for line in lines)
    assert not any(line.endswith(" leads.") or " takes trick " in line for line in lines)


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
    assert "Sie spielen DH." in lines


EXAMPLES = {"en": "QH", "de": "DH", "fr": "DH", "nl": "VH"}
"""The queen of hearts as each language's table writes it and a player types it (German and French Dame, Dutch
vrouw)."""


@pytest.mark.parametrize("lang", sorted(EXAMPLES))
def test_the_typed_move_example_is_a_card_as_the_language_writes_and_the_table_reads_it(lang: str) -> None:
    from clubsuite.i18n.render import english_notation

    out = clubs_in_process(["play", "whist", "--seed", "5", "--lang", lang], b"q\n")
    help_line = out.stdout.splitlines()[3]
    example = EXAMPLES[lang]
    assert f" {example})" in help_line, help_line  # "(e.g. QH)", "(z. B. DH)", "(p. ex. DH)", "(bv. VH)"
    assert english_notation(example, lang) == "QH"  # and the table reads it as the queen of hearts
    if lang != "en":
        assert "QH" not in help_line


KEYS = {"en": ("k", "x"), "de": ("b", "t"), "fr": ("g", "e"), "nl": ("b", "r")}
"""The exchange round's keys (keep, exchange) each language's table shows."""


@pytest.mark.parametrize("lang", sorted(KEYS))
def test_the_exchange_round_shows_and_takes_the_keys_of_the_table_language(lang: str) -> None:
    keep, exchange = KEYS[lang]
    words = Words(lang)
    out = clubs_in_process(["play", "whist", "--seed", "5", "--lang", lang], f"?\n{keep}\nq\n".encode())
    assert out.status == 0, out.stderr
    lines = out.stdout.splitlines()
    prompt = words.get("Keep or exchange with the bid hand? [{keep}/{exchange}]").format(keep=keep, exchange=exchange)
    assert any(line.startswith(prompt) for line in lines), lines
    assert words.get("You keep your hand.", "whist.said_keeps_you") in lines  # the event as the game tells it
    legal = [line for line in lines if line.startswith(words.get("Legal: {moves}").split("{")[0])]
    assert legal and f"({keep})" in legal[0] and f"({exchange})" in legal[0], legal
    if lang != "en":
        assert not any("[k/x]" in line or "keep" in line for line in lines), lines


def test_the_german_terminal_words_why_and_the_seed_in_german_and_takes_warum() -> None:
    out = clubs_in_process(["play", "whist", "--seed", "5", "--lang", "de"], b"warum\nbehalten\nhilfe\nende\n")
    assert out.status == 0, out.stderr
    lines = out.stdout.splitlines()
    assert "Startwert 5" in lines[0] and "Seed" not in out.stdout, lines[0]
    assert "tippen Sie dann warum (oder w)" in out.stdout
    assert any("Tippen Sie warum nach einem" in line for line in lines)  # warum answered as why
    assert "Sie behalten Ihr Blatt." in lines  # behalten answered the exchange round
    assert any(line.startswith("Erlaubt: ") for line in lines)  # hilfe listed the legal moves
    assert Words("de").get("Game stopped before the end (you quit).") in lines  # ende quit
    assert not re.search(r"\bwhy\b", out.stdout), out.stdout


@pytest.mark.parametrize("lang", sorted(KEYS))
def test_the_words_a_player_types_never_clash_with_another_command_an_answer_or_a_card(lang: str) -> None:
    from clubsuite.cards import STANDARD
    from clubsuite.errors import ClubsError
    from clubsuite.games.whist.screen import ANSWERS
    from clubsuite.i18n.render import english_notation
    from clubsuite.tui.table import COMMANDS, TYPED

    words = Words(lang)
    local = {name: words.get(name, TYPED).lower() for name in COMMANDS}
    for name, word in local.items():
        others = [given for other, given in COMMANDS.items() if other != name]
        assert word and " " not in word and not any(word in given for given in others), (name, word)
        assert list(local.values()).count(word) == 1, word
    taken = {*local.values(), *(g for given in COMMANDS.values() for g in given)}
    answers = [words.get(w, TYPED).lower() for pair in ANSWERS.values() for w in pair]
    assert len(set(answers)) == len(answers) and not set(answers) & taken, answers
    for typed in (*local.values(), *answers):
        with pytest.raises(ClubsError):
            STANDARD.parse(english_notation(typed.upper(), lang))
