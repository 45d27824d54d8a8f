"""The scripted first hand of "Learn to play" (clubsuite.lesson), without a server: every game declares one; on its
chosen deal, a newcomer who plays what each step points at meets every key idea the game declares within five to
ten steps, and the hand is played to its end; a step is made only of what the seat may see; its one line is worded
in every language, with no ruling id and no placeholder left."""

from __future__ import annotations

import dataclasses
import random
import re
from dataclasses import dataclass
from typing import Any, cast

import pytest

from clubsuite import lesson
from clubsuite.bots.base import bot_names, make_bot
from clubsuite.engine import SomeGame, SomeMatch, games, resolve
from clubsuite.i18n import LANGUAGES, Words
from clubsuite.i18n.render import card_short, reason_words
from clubsuite.present import account_of
from clubsuite.reasons import Reason
from clubsuite.runner import deal_next
from clubsuite.seeding import derive_seed
from parts_helpers import parts_without

PERSON = 0
"""The newcomer's seat at a guided table (the others are easy bots)."""
RULING = re.compile(r"\b[A-Z]{2}-\d+\b")


@dataclass(frozen=True)
class Scripted:
    """The scripted first hand as a newcomer who follows every step plays it."""

    steps: list[lesson.Step]
    decisions: int
    match: SomeMatch


def play_scripted(info: SomeGame, spec: str) -> Scripted:
    """The first hand of the guided table of ``spec`` (its lesson's seed, seat 0 the newcomer, easy bots in the
    others, each drawing as the server draws for it), the newcomer playing what each step points at, and after the
    last step what the game's heuristic bot would."""
    _, options = resolve(spec)
    scripted = lesson.lesson_of(info)
    assert scripted is not None
    seed = scripted.seed
    match = info.new_match(options, 0)
    deal_next(match, info, seed)
    easy = make_bot("easy" if "easy" in bot_names(info.name) else "random", info.name)
    version, steps, decisions = 0, [], 0
    while len(match.hands) == 1 and match.to_act is not None:
        seat = match.to_act
        if seat == PERSON:
            decisions += 1
            rng = random.Random(derive_seed(seed, 0, version, seat + 1))
            pointed = lesson.pointer(info, match, seat, rng)
            made = lesson.step(info, match, seat, lambda: pointed)  # noqa: B023 (called at once)
            if made is not None:
                steps.append(made)
            action = match.parse_action(pointed)
        else:
            action = easy.choose(match.view(seat), match.legal_actions(), random.Random(derive_seed(seed, 0, version)))
        match.apply(action, seat)
        version += 1
    return Scripted(steps, decisions, match)


GAMES = sorted(g.name for g in games())


def test_every_game_declares_a_scripted_first_hand() -> None:
    assert all(lesson.lesson_of(g) is not None for g in games())


@pytest.mark.parametrize("game", GAMES)
def test_the_scripted_first_hand_shows_every_key_idea_in_five_to_ten_steps_and_is_played_to_its_end(game: str) -> None:
    info, _ = resolve(game)
    played = play_scripted(info, game)
    scripted = lesson.lesson_of(info)
    assert scripted is not None
    numbers = [s.number for s in played.steps]
    assert numbers == list(range(1, len(numbers) + 1))
    assert 5 <= len(numbers) <= 10
    assert len(numbers) == min(played.decisions, lesson.MAX_STEPS)
    assert set(scripted.ideas) <= told(played.steps), [(s.idea, s.told) for s in played.steps]


def told(steps: list[lesson.Step]) -> set[str]:
    """The ideas a lesson's steps show or tell."""
    return {s.idea for s in steps} | {t for s in steps for t in s.told}


OWN_IDEAS = {
    "free": {"chest", "handicap", "joker"},  # FC-3, FC-4, FC-5
    "partnership": {"ruby"},  # CP-3: the queen of diamonds, 5 points
    "northstar": {"going_out", "bonus", "club_points"},  # NS-5, NS-1, NS-2
    "whist": {"exchange", "quota"},  # CW-4, CW-5
}
"""Each game's own idea, beyond leading, following and trumping: what its first hand must teach."""


def test_every_game_has_its_own_ideas_listed() -> None:
    assert sorted(OWN_IDEAS) == GAMES


@pytest.mark.parametrize("game", GAMES)
def test_the_first_hand_teaches_the_games_own_idea_in_a_step(game: str) -> None:
    info, _ = resolve(game)
    scripted = lesson.lesson_of(info)
    assert scripted is not None and OWN_IDEAS[game] <= set(scripted.ideas)
    assert OWN_IDEAS[game] <= told(play_scripted(info, game).steps)


@pytest.mark.parametrize("game", GAMES)
def test_every_step_says_why_its_choice_is_good(game: str) -> None:
    """A reason in every step: each has a line that says why this card, this bid, this pass (not only "a good
    choice here"), and names the cards it points at."""
    info, _ = resolve(game)
    for s in play_scripted(info, game).steps:
        assert s.why.code in lesson.WHY or codes(s.why)[1] in lesson.WHY, (s.number, str(s.say))
        assert not any(c.startswith("lesson.choose") for c in codes(s.say)), str(s.say)


SENTENCE = re.compile(r"(?<=[.!?])\s+")


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_two_steps_of_a_first_hand_say_the_same_sentence(game: str, lang: str) -> None:
    info, _ = resolve(game)
    seen: dict[str, int] = {}
    for s in play_scripted(info, game).steps:
        for sentence in SENTENCE.split(reason_words(s.say, lang)):
            assert sentence not in seen, (sentence, seen.get(sentence), s.number)
            seen[sentence] = s.number


@pytest.mark.parametrize("game", GAMES)
def test_a_step_is_made_only_of_what_the_seat_may_see(game: str) -> None:
    """The same step whatever the cards the newcomer cannot see: worked out on a world where every hidden card was
    dealt again, it points at the same choice and says the same words."""
    info, _ = resolve(game)
    scripted = lesson.lesson_of(info)
    assert scripted is not None
    match = info.new_match(resolve(game)[1], 0)
    deal_next(match, info, scripted.seed)
    rng = random.Random(5)
    checked = 0
    while len(match.hands) == 1 and match.to_act is not None and checked < 6:
        seat = match.to_act
        if seat == PERSON:
            pointed = lesson.pointer(info, match, seat, random.Random(1))
            other = match.determinize(seat, rng)
            assert lesson.pointer(info, other, seat, random.Random(1)) == pointed
            mine = lesson.step(info, match, seat, lambda: pointed)  # noqa: B023 (called at once)
            theirs = lesson.step(info, other, seat, lambda: pointed)  # noqa: B023 (called at once)
            assert mine is not None and theirs is not None
            assert mine.to_json() == theirs.to_json()
            checked += 1
        match.apply(match.parse_action(lesson.pointer(info, match, seat, random.Random(2))), seat)
    assert checked >= 5


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_steps_line_is_worded_in_every_language_with_no_ruling_id(game: str, lang: str) -> None:
    info, _ = resolve(game)
    for s in play_scripted(info, game).steps:
        words = reason_words(s.say, lang)
        assert words and "{" not in words and not RULING.search(words), words
        for card in s.cards:  # the cards pointed at are named in the line (a screen reader hears them)
            assert card_short(card, Words(lang)) in words, (card, words)


def test_a_game_without_a_lesson_has_no_steps() -> None:
    info, options = resolve("whist")
    match = info.new_match(options, 0)
    deal_next(match, info, 1)
    bare = dataclasses.replace(info, parts=parts_without(info.parts, "lesson"))
    assert lesson.step(bare, match, match.to_act or 0, lambda: "keep") is None


def test_no_step_past_the_first_hand_or_past_the_last_step() -> None:
    info, _ = resolve("whist")
    played = play_scripted(info, "whist")
    assert played.decisions > lesson.MAX_STEPS  # so that the steps stopped before the hand did
    match = played.match
    while match.current is None and not match.is_over:
        deal_next(match, info, 3)
    seat = match.to_act
    assert seat is not None
    assert lesson.step(info, match, seat, lambda: "keep") is None


SPECS = sorted({g.name for g in games()} | {v for g in games() for v in g.variants})
"""Every game and every named variant: a step's words must be true under each."""


def codes(reason: Reason) -> list[str]:
    """A reason's code and those of the reasons within it, outermost first."""
    inner = [c for v in reason.params.values() if isinstance(v, Reason) for c in codes(v)]
    return [reason.code, *inner]


STEP_DEALS = 5
"""Deals whose every decision a run checks the lesson's words at, per game and variant, from the run's seed
(``fresh_seed``): other ones each run, so many runs cover more deals than one long one."""


@pytest.mark.long
@pytest.mark.parametrize("spec", SPECS)
def test_what_a_step_says_is_true_at_every_decision_of_many_deals(spec: str, fresh_seed: int) -> None:
    """Every decision of the seat of :data:`STEP_DEALS` deals from the run's seed, other ones each run (not only the
    first eight of the lesson's): a trick game's step says
    "you may play any card" only where every card of the hand is allowed, "you must play a club" only where only
    clubs are; North Star's says the seat could beat the last play only where a play is allowed, and speaks of the
    last turn exactly where it is one (NS-5, NS-8)."""
    info, options = resolve(spec)
    scripted = lesson.lesson_of(info)
    assert scripted is not None
    seen: set[str] = set()
    for seed in range(fresh_seed, fresh_seed + STEP_DEALS):
        match = info.new_match(options, 0)
        deal_next(match, info, seed)
        rng = random.Random(seed)
        while len(match.hands) == 1 and match.to_act is not None:
            seat = match.to_act
            legal = [match.format_action(a) for a in match.legal_actions()]
            pointed = lesson.pointer(info, match, seat, rng)
            say = scripted.say(match, seat, legal, pointed, frozenset()).say()
            found = codes(say)
            seen.update(found)
            view = match.view(seat).to_dict()
            hand = str(view.get("hand", "")).split()
            if "lesson.trump_rule" in found:
                assert set(hand) <= set(legal), (spec, seed, str(say))
            if "lesson.trump_must_rule" in found:
                assert all(c.endswith("C") for c in legal), (spec, seed, str(say))
            if "northstar.lesson_why_keep" in found:
                assert any(a not in ("pass", "double") for a in legal), (spec, seed, str(say))
            if "northstar.lesson_why_cannot" in found:
                assert all(a in ("pass", "double") for a in legal), (spec, seed, str(say))
            assert ("northstar.lesson_last_rule" in found) == (view.get("last_turn") == seat and "last_turn" in view)
            match.apply(match.parse_action(pointed), seat)
    assert seen, spec


TRICKS_TOLD = ("partnership", "whist")
"""The games whose account tells every seat's tricks (Free Clubs' tells the contract's, North Star's who went out)."""
SHORTHAND = re.compile(r"\d\s*[-\u2011\u2013]\s*\d")
"""Figures run together ("tricks 4-6-3"): what a hand's account must not read like."""


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_first_hands_account_is_told_in_plain_words_to_every_seat(game: str, lang: str) -> None:
    """The account of the first hand (the coach's "How the last hand was scored") reads as words, told to each seat
    with "you": in a tricks game every seat's tricks are said one by one ("Dario took 6 tricks"), never as
    "tricks 4-6-3"."""
    info, _ = resolve(game)
    match = play_scripted(info, game).match
    while match.current is None and not match.is_over:
        deal_next(match, info, 3)
    hands = [h for h in cast(list[dict[str, Any]], match.summary()["hands"]) if h.get("complete")]
    assert hands
    said = account_of(info, hands[0])
    assert said is not None
    words = Words(lang)
    for seat in range(match.n_seats):

        def name(s: int, me: int = seat) -> str:
            return words.get("you") if s == me else f"Seat{s + 1}"

        told = [reason_words(r, lang, name) for r in said.mine.get(seat, said.words)]
        text = " ".join(told)
        assert text and not SHORTHAND.search(text), (seat, text)
        if game in TRICKS_TOLD:  # each seat's tricks one by one, the reader's as "you"
            assert len(re.findall(r"\b\d+\b", told[0])) == match.n_seats, told[0]
            assert words.get("you") in told[0] and "Seat" in told[0], told[0]
