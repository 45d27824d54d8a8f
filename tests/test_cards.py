"""Tests of cards, decks and card sets: the two-way notation of every deck, set operations and immutability."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clubsuite.cards import (
    NUMBERED,
    STANDARD,
    STANDARD_WITH_JOKERS,
    CardSet,
    Deck,
    Suit,
    card,
    card_at,
    cards,
    std_card,
)
from clubsuite.errors import ClubsError, InvalidNotationError

ALL_DECKS = [STANDARD, STANDARD_WITH_JOKERS, NUMBERED]


@pytest.mark.parametrize("deck", ALL_DECKS, ids=lambda d: d.name)
def test_every_card_prints_in_a_form_that_reads_back(deck: Deck) -> None:
    for c in deck.cards:
        assert deck.parse(str(c)) is c
        assert deck.parse(str(c).lower()) is c
        assert deck.parse(c.pretty()) is c
        assert deck.parse(f"  {c}  ") is c


@pytest.mark.parametrize("deck", ALL_DECKS, ids=lambda d: d.name)
def test_a_set_of_a_whole_deck_prints_and_reads_back(deck: Deck) -> None:
    whole = CardSet(deck.cards)
    assert len(whole) == len(deck)
    assert deck.parse_set(str(whole)) == whole
    assert deck.parse_set(whole.pretty()) == whole
    assert list(whole) == sorted(deck.cards, key=lambda c: c.index)


def test_deck_sizes_are_52_54_and_60() -> None:
    assert (len(STANDARD), len(STANDARD_WITH_JOKERS), len(NUMBERED)) == (52, 54, 60)
    assert len({c.index for c in STANDARD_WITH_JOKERS.cards}) == 54
    assert len({c.index for c in NUMBERED.cards}) == 60
    assert len(STANDARD.mask) == 52


def test_ten_reads_as_t_or_10_and_prints_as_10() -> None:
    assert card("TH") is card("10H")
    assert card("th") is card("10h")
    assert str(card("TH")) == "10H"


def test_suit_symbols_and_lower_case_are_accepted() -> None:
    assert card("Q♣") is card("QC")
    assert card("7♦") is card("7D")
    assert card("10♥") is card("10H")
    assert card("a♠") is card("AS")
    assert card("q♧") is card("QC")
    assert card("kd") is card("KD")
    assert cards("a♠ k♠ 10♥") == cards("AS KS 10H")


def test_canonical_print_form() -> None:
    assert [str(card(t)) for t in ("as", "k♥", "j♦", "t♣", "2s")] == ["AS", "KH", "JD", "10C", "2S"]
    assert card("10H").pretty() == "10♥"
    assert repr(card("QC")) == "card('QC')"


def test_values_1_and_15_exist_only_in_the_numbered_deck() -> None:
    for text in ("1C", "15C", "11H", "13S", "12D", "14D"):
        c = card(text, NUMBERED)
        assert c.kind == "numbered"
        assert str(c) == text
        with pytest.raises(InvalidNotationError, match=text):
            card(text)
        with pytest.raises(InvalidNotationError, match=text):
            card(text, STANDARD_WITH_JOKERS)
    assert card("1C", NUMBERED).rank == 1
    assert card("15S", NUMBERED).rank == 15


def test_face_letters_are_not_numbered_cards() -> None:
    for text in ("AC", "KH", "QS", "JD"):
        with pytest.raises(InvalidNotationError, match=text):
            card(text, NUMBERED)


def test_jokers_exist_only_in_the_54_card_deck() -> None:
    jk1, jk2 = card("JK1", STANDARD_WITH_JOKERS), card("jk2", STANDARD_WITH_JOKERS)
    assert (str(jk1), str(jk2)) == ("JK1", "JK2")
    assert jk1.suit is None and jk1.kind == "joker"
    assert jk1.pretty() == "JK1"
    for deck in (STANDARD, NUMBERED):
        with pytest.raises(InvalidNotationError, match="JK1"):
            card("JK1", deck)
    with pytest.raises(InvalidNotationError, match="JK3"):
        card("JK3", STANDARD_WITH_JOKERS)


@pytest.mark.parametrize("text", ["ZZ", "1H", "11H", "10X", "H10", "AHH", "Q", "C", "10", "KC KD", "0C", "16C"])
def test_bad_notation_names_the_input(text: str) -> None:
    with pytest.raises(InvalidNotationError) as info:
        card(text)
    assert repr(text) in str(info.value)
    assert isinstance(info.value, ClubsError)
    assert isinstance(info.value, ValueError)


def test_bad_notation_in_a_set_names_the_bad_token() -> None:
    with pytest.raises(InvalidNotationError, match="'XH'"):
        cards("AH XH KH")


def test_empty_card_text_is_refused_with_a_hint() -> None:
    with pytest.raises(InvalidNotationError, match="empty card"):
        card("   ")


def test_parse_set_rejects_a_repeated_card_and_names_it() -> None:
    with pytest.raises(InvalidNotationError, match="AH appears twice"):
        cards("AH KH ah")
    with pytest.raises(InvalidNotationError, match="10H appears twice"):
        cards("TH 10H")
    assert STANDARD.parse_list("AH AH") == [card("AH"), card("AH")]


def test_parse_set_accepts_commas_and_spaces() -> None:
    assert cards("AH, KH,QH  JH") == cards("AH KH QH JH")
    assert cards("") == CardSet()
    assert CardSet.parse("2C 3C") == cards("2C 3C")
    assert CardSet.parse("1C 15C", NUMBERED) == CardSet([card("1C", NUMBERED), card("15C", NUMBERED)])


def test_card_fields_follow_the_index_layout() -> None:
    two_clubs, ace_spades = card("2C"), card("AS")
    assert (two_clubs.index, two_clubs.suit, two_clubs.rank) == (0, Suit.CLUBS, 2)
    assert (ace_spades.index, ace_spades.suit, ace_spades.rank) == (51, Suit.SPADES, 14)
    assert std_card(Suit.HEARTS, 10) is card("10H")
    assert card_at(card("QD").index) is card("QD")
    assert card("KC").bit == 1 << card("KC").index
    # Within a suit a higher rank has a higher index, and clubs come first.
    assert card("AC").index < card("2D").index
    assert card("9H").index < card("10H").index


def test_card_at_refuses_an_index_with_no_card() -> None:
    for index in (-1, 54, 63, 124, 500):
        with pytest.raises(InvalidNotationError, match=str(index)):
            card_at(index)


def test_cards_are_immutable_and_hashable() -> None:
    c = card("QH")
    with pytest.raises(AttributeError):
        c.rank = 3  # type: ignore[misc]
    with pytest.raises(AttributeError):
        c.colour = "red"  # type: ignore[attr-defined]
    assert card("QH") == c and hash(card("QH")) == hash(c)
    assert {c: 1}[card("qh")] == 1
    assert card("2C") < card("3C") < card("2D")


def test_card_set_membership_length_iteration_and_indexing() -> None:
    s = cards("KS 2C 10H 5D")
    assert len(s) == 4
    assert card("10H") in s
    assert card("JH") not in s
    assert "10H" not in s  # only cards are members, never their text
    assert list(s) == [card("2C"), card("5D"), card("10H"), card("KS")]
    assert s[0] is card("2C") and s[3] is card("KS")
    assert s[-1] is card("KS") and s[-4] is card("2C")
    for position in (4, -5):
        with pytest.raises(IndexError):
            s[position]
    assert s.sorted() == list(s)
    assert str(s) == "2C 5D 10H KS"
    assert s.pretty() == "2♣ 5♦ 10♥ K♠"
    assert eval(repr(s), {"CardSet": CardSet}) == s


def test_card_set_operations_are_set_operations() -> None:
    a = cards("AH KH QH 2C")
    b = cards("QH 2C 3D")
    assert a | b == cards("AH KH QH 2C 3D")
    assert a & b == cards("QH 2C")
    assert a ^ b == cards("AH KH 3D")
    assert a - b == cards("AH KH")
    assert b - a == cards("3D")
    for result in (a | b, a & b, a ^ b, a - b):
        assert isinstance(result, CardSet)
    assert a.with_card(card("3D")) == cards("AH KH QH 2C 3D")
    assert a.with_card(card("AH")) == a
    assert a.without(card("AH")) == cards("KH QH 2C")
    assert a.without(card("3D")) == a
    assert a.of_suit(Suit.HEARTS) == cards("AH KH QH")
    assert a.of_suit(Suit.SPADES) == CardSet()
    assert cards("QH 2C").issubset(a)
    assert not b.issubset(a)
    assert CardSet().issubset(b)
    assert not CardSet() and bool(a)


def test_card_set_is_immutable() -> None:
    s = cards("AH KH")
    before = int(s)
    s.with_card(card("QH"))
    s.without(card("AH"))
    _ = s | cards("2C")
    assert int(s) == before
    with pytest.raises(AttributeError):
        s.extra = 1  # type: ignore[attr-defined]


def test_card_set_from_cards_of_every_kind() -> None:
    mixed = CardSet([card("AS"), card("JK2", STANDARD_WITH_JOKERS), card("15H", NUMBERED)])
    assert len(mixed) == 3
    assert [str(c) for c in mixed] == ["AS", "JK2", "15H"]
    assert card("15H", NUMBERED) in mixed
    assert card("AS") in mixed


@given(st.integers(min_value=0, max_value=(1 << 60) - 1))
def test_bit_indices_lists_the_set_bits_lowest_first_like_iter_bits(mask: int) -> None:
    from clubsuite.cards import bit_indices, iter_bits

    assert bit_indices(mask) == list(iter_bits(mask))


@given(st.integers(0, (1 << 54) - 1), st.integers(-60, 60))
def test_the_compiled_card_set_index_is_the_pythons_cards_and_errors(mask: int, position: int) -> None:
    from clubsuite.cards import python_nth_card as python
    from native_helpers import kernel_or_skip

    module = kernel_or_skip("clubsuite.native._cards")
    cards_of = CardSet.from_mask(mask)
    try:
        expected: object = python(cards_of, position)
    except IndexError as exc:
        with pytest.raises(IndexError, match=f"^{re.escape(str(exc))}$"):
            module.nth_card(cards_of, position)
    else:
        assert module.nth_card(cards_of, position) is expected


def test_card_sets_are_indexed_in_c_where_built_and_wider_sets_by_python() -> None:
    from clubsuite.cards import NUMBERED_CARDS
    from native_helpers import kernel_or_skip

    module = kernel_or_skip("clubsuite.native._cards")
    assert CardSet.__getitem__ is module.nth_card
    numbered = CardSet(NUMBERED_CARDS[::7])  # indices from 64 up: more than 64 bits
    assert [numbered[k] for k in range(len(numbered))] == list(numbered)
    assert numbered[-1] == NUMBERED_CARDS[::7][-1]


def test_pure_python_at_import_keeps_the_python_index() -> None:
    import os
    import subprocess
    import sys

    code = "from clubsuite.cards import CardSet; print(type(CardSet.__getitem__).__name__)"
    env = {**os.environ, "CLUBS_PURE_PYTHON": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    assert out.strip() == "function"


@pytest.mark.parametrize("n", [0, 1, 2, 3, 13, 36, 52, 60, 500])
def test_the_compiled_shuffle_draws_the_python_shuffles_order(n: int) -> None:
    import random

    from clubsuite.seeding import python_shuffled, shuffled
    from native_helpers import kernel_or_skip

    assert shuffled is kernel_or_skip("clubsuite.native._cards").shuffled
    for seed in range(300):
        assert shuffled(n, random.Random(seed)) == python_shuffled(n, random.Random(seed))


@pytest.mark.parametrize("n", [0, 1, 2, 13, 52, 60])
def test_the_compiled_shuffle_of_items_puts_each_item_where_the_python_shuffle_puts_its_position(n: int) -> None:
    import random

    from clubsuite.seeding import python_shuffled, python_shuffled_items, shuffled_items
    from native_helpers import kernel_or_skip

    assert shuffled_items is kernel_or_skip("clubsuite.native._cards").shuffled_items
    items = tuple(f"item {k}" for k in range(n))
    for seed in range(300):
        a, b = random.Random(seed), random.Random(seed)
        made = shuffled_items(items, a)
        expected = tuple(items[k] for k in python_shuffled(n, b))
        assert made == expected == python_shuffled_items(items, random.Random(seed))
        assert type(made) is tuple and a.random() == b.random()  # the same draws taken from the generator


@given(st.integers(0, 2**64 - 1), st.lists(st.integers(0, 51), max_size=20))
def test_the_compiled_random_bot_chooses_the_python_bots_action(seed: int, cards: list[int]) -> None:
    import random

    from clubsuite.bots import RandomBot
    from clubsuite.bots.random_bot import python_choose as python
    from clubsuite.cards import card_at
    from native_helpers import kernel_or_skip

    module = kernel_or_skip("clubsuite.native._cards")
    assert RandomBot.choose is module.random_choose
    bot = RandomBot()
    for legal in (CardSet(card_at(c) for c in cards), tuple(cards), [str(c) for c in cards]):
        a, b = random.Random(seed), random.Random(seed)
        try:
            expected: object = python(bot, None, legal, a)
        except IndexError as exc:  # nothing legal: both refuse alike
            with pytest.raises(IndexError, match=f"^{re.escape(str(exc))}$"):
                bot.choose(None, legal, b)
        else:
            assert bot.choose(None, legal, b) == expected
        assert a.random() == b.random()  # the same draws taken from the generator


def test_the_random_bot_draws_once_from_a_generator_of_another_kind_as_the_python_method_does() -> None:
    from fractions import Fraction

    from clubsuite.bots import RandomBot
    from clubsuite.bots.random_bot import python_choose

    class ExactRandom:
        """Draws exact fractions from a fixed cycle, counting the draws."""

        def __init__(self) -> None:
            self.draws = 0

        def random(self) -> Fraction:
            self.draws += 1
            return Fraction(self.draws % 3, 3)

    compiled_side, python_side = ExactRandom(), ExactRandom()
    for _ in range(7):
        legal = (10, 20, 30)
        got = RandomBot().choose(None, legal, compiled_side)  # type: ignore[arg-type]
        assert got == python_choose(RandomBot(), None, legal, python_side)  # type: ignore[arg-type]
        assert compiled_side.draws == python_side.draws  # one draw a decision, as the Python statement takes


def test_a_card_set_of_a_stray_mask_writes_the_bits_that_are_no_card_by_index() -> None:
    """Bits with no card (a set built by ``from_mask`` from a stray number) cannot be named; they are written as
    ``#index`` so that any message about the set can be written."""
    assert str(CardSet.from_mask(1 << 60 | 1)) == "2C #60"
    assert str(CardSet.from_mask(1 << 300)) == "#300"
    assert str(CardSet.parse("2C 3D")) == "2C 3D"


def test_a_cards_notation_is_the_same_read_from_the_table_as_made_from_its_fields() -> None:
    """``str(card)`` reads a deck's own card from a table made once; a card equal to it but made apart (unpickled,
    built by hand) is written from its fields, alike."""
    import pickle

    from clubsuite.cards import CARD_TABLE, Card

    cards = [c for c in CARD_TABLE if c is not None]
    assert len(cards) == 52 + 2 + 60
    for c in cards:
        apart = pickle.loads(pickle.dumps(c))
        built = Card(c.index, c.suit, c.rank, c.kind)
        assert str(c) == c.notation() == str(apart) == str(built)
    assert str(Card(12, None, 1, "joker")) == "JK1"  # a card whose index belongs to another is written from its fields
