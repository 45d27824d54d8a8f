"""The themes every trick game shares, checked on golden puzzles from the shipped sets (kept here with the record
they come from, as they were tagged before the rules were mended) and on tricks built for the purpose.

* ``duck``: the seat let the trick go while holding a card of the suit over the one that won it. Its highest card
  of the suit, overtaken or ruffed later, is no duck (c983cd0d9490, e0be9ea934ea, 406867a87d35, 9534204be125 were
  tagged so wrongly).
* ``last tricks``: three tricks or fewer left; in Free Clubs play stops after ten tricks, or when a trick ends with
  two players out of cards (FC-7), so it is not the seat's cards that count (023467b666ae).
* a single-dummy card is tagged ``lead`` or ``discard`` from the trick in progress (04551019b349, 0d2364a59a41,
  23d2f191be00, 1af18fe9477c).
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from clubsuite.cards import Card, card
from clubsuite.games.free.themes import tricks_left
from clubsuite.puzzles.make import MakeSettings, match_puzzles
from clubsuite.puzzles.model import Puzzle, read_set
from clubsuite.puzzles.retheme import retheme
from clubsuite.puzzles.sets import shipped_sets
from clubsuite.puzzles.tricks import TrickSeen, own_view_themes, trick_themes

GOLDEN = Path(__file__).resolve().parent / "golden_themes.jsonl"

EXPECTED = {
    # the seat's highest card of the suit, overtaken: no duck
    "c983cd0d9490": ("fewest",),
    "e0be9ea934ea": ("fewest",),
    "406867a87d35": (),
    "9534204be125": (),
    # a low card while holding one over the card that won the trick: a duck
    "947cbe0351f7": ("fewest", "duck"),
    "497a87d7b1f1": ("ace_of_hearts", "duck"),
    "a82c47c29455": ("clubs", "duck"),
    # Free Clubs: three tricks left under the FC-7 end, though the seat holds eight cards
    "023467b666ae": ("diamonds", "ending"),
    # single dummy: the trick in progress says lead or discard
    "04551019b349": ("lead",),
    "0d2364a59a41": ("discard", "ending"),
    "23d2f191be00": ("discard",),
    "1af18fe9477c": ("lead",),
}


def golden() -> dict[str, Puzzle]:
    return {p.id: p for p in read_set(GOLDEN)}


@pytest.mark.parametrize("pid", sorted(EXPECTED))
def test_golden_puzzles_get_the_themes_their_answers_show(pid: str) -> None:
    assert retheme(golden()[pid]).themes == EXPECTED[pid]


def test_the_shipped_sets_carry_the_themes_the_rules_give_now() -> None:
    shipped = {p.id: p for s in shipped_sets() if s.game != "northstar" for p in read_set(s.file)}
    for pid, themes in EXPECTED.items():
        if pid in shipped:  # a single-dummy puzzle may have been dropped since (its margin not confirmed)
            assert shipped[pid].themes == themes, pid


def plain(c: Card) -> int:
    return c.rank


def test_a_low_card_under_the_winner_while_holding_one_over_it_is_a_duck() -> None:
    # seat 1 holds the ace and the three of hearts; it plays the three under West's queen, which wins
    trick = TrickSeen(((0, card("QH")), (1, card("3H")), (2, card("5H"))), winner=0)
    assert trick_themes(1, (), trick, [card("AH"), card("3H")], plain) == {"duck"}


def test_the_seats_highest_card_overtaken_is_no_duck() -> None:
    # seat 1 goes up with its king over the queen, the ace overtakes: it let nothing go
    trick = TrickSeen(((0, card("QH")), (1, card("KH")), (2, card("AH"))), winner=2)
    assert trick_themes(1, (), trick, [card("KH"), card("3H")], plain) == set()


def test_a_card_over_the_winner_kept_back_is_a_duck_even_when_the_answer_went_over_the_lead() -> None:
    # seat 1 plays the ten over the nine led and the jack wins: seat 1 kept back its queen, which would have taken it
    trick = TrickSeen(((0, card("9H")), (1, card("10H")), (2, card("JH"))), winner=2)
    assert trick_themes(1, (), trick, [card("10H"), card("QH")], plain) == {"duck"}


def test_a_trick_ruffed_after_the_seat_is_no_duck() -> None:
    trick = TrickSeen(((0, card("QH")), (1, card("3H")), (2, card("2C"))), winner=2)
    assert trick_themes(1, (), trick, [card("AH"), card("3H")], plain) == set()


def test_a_trick_the_partner_wins_is_no_duck() -> None:
    trick = TrickSeen(((0, card("QH")), (1, card("3H")), (2, card("5H")), (3, card("KH"))), winner=3)
    assert trick_themes(1, (3,), trick, [card("AH"), card("3H")], plain) == set()


def test_a_single_dummy_card_leads_or_discards_by_the_trick_in_progress() -> None:
    assert own_view_themes(None, card("3H")) == {"lead"}
    assert own_view_themes(card("QS").suit, card("3H")) == {"discard"}
    assert own_view_themes(card("QS").suit, card("3C")) == set()  # a club: a ruff or not, as the unseen cards say
    assert own_view_themes(card("QS").suit, card("3S")) == set()


def test_free_clubs_tricks_left_are_the_fewer_of_the_ten_trick_limit_and_the_second_shortest_hand() -> None:
    def hand(counts: list[int], done: int, in_trick: list[int]) -> SimpleNamespace:
        return SimpleNamespace(
            hands=[(1 << n) - 1 for n in counts], tricks=[None] * done, trick=[(s, 0) for s in in_trick]
        )

    assert tricks_left(hand([8, 8, 8], 8, [])) == 2  # FC-7: ten tricks at most
    assert tricks_left(hand([3, 2, 8], 4, [1])) == 3  # seat 1 has played to this trick: it began with 3
    assert tricks_left(hand([0, 2, 9], 5, [])) == 2  # once two players are out, play stops


def test_themes_found_again_from_a_puzzle_are_the_ones_the_generator_gave_it() -> None:
    made = match_puzzles(MakeSettings("whist", seed=5, kinds=("double_dummy",)), 3)
    assert made
    for p in made:
        assert retheme(p).themes == p.themes, p.id
