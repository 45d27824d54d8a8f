"""Cards, decks and card sets for every deck the Clubs family uses, with a two-way notation.

All cards live in one index space, so one :class:`CardSet` (a bit mask) serves every deck:

* the standard 52 cards: index ``suit * 13 + (rank - 2)``, rank 2..14 (the ace is 14), suits in the order
  clubs, diamonds, hearts, spades; so the clubs are bits 0..12 and, within a suit, a higher bit is a higher rank;
* two jokers: indices 52 and 53;
* a numbered pack of 60 cards valued 1..15 in four suits: index ``64 + suit * 15 + (value - 1)``.

Notation: a rank (``A K Q J 10 9 .. 2``, ``T`` accepted for ten) or a numbered card's value (``1`` .. ``15``) followed
by a suit letter ``C D H S`` or a suit symbol; jokers are ``JK1`` and ``JK2``. Input is case-insensitive; output is one
canonical ASCII form (``10H``, ``QC``, ``15S``, ``JK1``). Which deck a text is read against decides what it means
(``1C`` is a numbered card and no standard card), so parsing goes through a :class:`Deck`; a game makes the deck it
plays with (its own name for it, for messages) from these cards.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum
from typing import TYPE_CHECKING, NamedTuple, SupportsIndex

from clubsuite.card_reasons import CARD_TWICE, JOKER_HELP, NO_SUCH_INDEX, NUMBERED_HELP, STANDARD_HELP, deck_reasons
from clubsuite.errors import InvalidNotationError
from clubsuite.native import compiled, pure_python
from clubsuite.reasons import Reason
from clubsuite.safetext import quoted


class Suit(IntEnum):
    """The four suits, in the order of their bit blocks."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        """The ASCII letter of the suit: C, D, H or S."""
        return "CDHS"[self]

    @property
    def symbol(self) -> str:
        """The Unicode symbol of the suit."""
        return "♣♦♥♠"[self]


_CARDS = None if pure_python() else compiled("clubsuite.native._cards")
"""The compiled card paths (``native/_cards``) where they are built, unless ``CLUBS_PURE_PYTHON`` is set when this
module is imported: card sets are then indexed in C (the same cards, the same errors)."""

_SUIT_BY_CHAR: dict[str, Suit] = {}
for _s in Suit:
    _SUIT_BY_CHAR[_s.letter] = _s
    _SUIT_BY_CHAR[_s.symbol] = _s
_SUIT_BY_CHAR.update({"♧": Suit.CLUBS, "♢": Suit.DIAMONDS, "♡": Suit.HEARTS, "♤": Suit.SPADES})

#: Rank numbers of the standard deck: 2..10, J=11, Q=12, K=13, A=14.
JACK, QUEEN, KING, ACE = 11, 12, 13, 14
_RANK_TEXT = {11: "J", 12: "Q", 13: "K", 14: "A"}
_STD_RANK_BY_TEXT = {str(r): r for r in range(2, 11)} | {"T": 10, "J": 11, "Q": 12, "K": 13, "A": 14}

STANDARD_KIND = "standard"
JOKER_KIND = "joker"
NUMBERED_KIND = "numbered"
NUMBERED_BASE = 64
"""The index of the first numbered card (1C)."""


class Card(NamedTuple):
    """One card: immutable, hashable, ordered by index. Obtain cards from a :class:`Deck`, never build them."""

    index: int  # type: ignore[assignment]
    """Position in the shared index space; the card's bit in a :class:`CardSet` is ``1 << index``."""
    suit: Suit | None
    """The suit, or None for a joker."""
    rank: int
    """Standard rank 2..14 (ace 14), numbered value 1..15, or the joker's number 1..2."""
    kind: str
    """Which family of cards: ``standard``, ``joker`` or ``numbered``."""

    @property
    def bit(self) -> int:
        """The card's bit in a mask."""
        return 1 << self.index

    def __str__(self) -> str:
        index = self.index
        if 0 <= index < len(CARD_TEXT) and CARD_TABLE[index] is self:  # a deck's own card: its notation, made once
            return CARD_TEXT[index]
        return self.notation()

    def notation(self) -> str:
        """The card's notation (``10H``, ``AS``, ``JK1``, ``7C`` of the numbered deck), made from its fields."""
        if self.kind == JOKER_KIND:
            return f"JK{self.rank}"
        assert self.suit is not None
        if self.kind == STANDARD_KIND:
            return f"{_RANK_TEXT.get(self.rank, str(self.rank))}{self.suit.letter}"
        return f"{self.rank}{self.suit.letter}"

    def __repr__(self) -> str:
        return f"card({str(self)!r})"

    def pretty(self) -> str:
        """The card with its suit symbol, e.g. ``10♥``."""
        text = str(self)
        if self.suit is None:
            return text
        return text[:-1] + self.suit.symbol


def _build_universe() -> tuple[dict[int, Card], list[Card], list[Card], list[Card]]:
    by_index: dict[int, Card] = {}
    std: list[Card] = []
    for suit in Suit:
        for rank in range(2, 15):
            c = Card(suit * 13 + rank - 2, suit, rank, STANDARD_KIND)
            std.append(c)
            by_index[c.index] = c
    jokers = [Card(52 + n, None, n + 1, JOKER_KIND) for n in range(2)]
    for c in jokers:
        by_index[c.index] = c
    ns: list[Card] = []
    for suit in Suit:
        for value in range(1, 16):
            c = Card(NUMBERED_BASE + suit * 15 + value - 1, suit, value, NUMBERED_KIND)
            ns.append(c)
            by_index[c.index] = c
    return by_index, std, jokers, ns


_BY_INDEX, _STD, _JOKERS, _NS = _build_universe()
#: Card objects by index, for the hot loops of the engines (None where no card has that index).
CARD_TABLE: tuple[Card | None, ...] = tuple(_BY_INDEX.get(i) for i in range(NUMBERED_BASE + 60))
CARD_TEXT: tuple[str, ...] = tuple(c.notation() if c is not None else "" for c in CARD_TABLE)
"""The notation of each card of :data:`CARD_TABLE`, by index: a table's every update writes every card shown."""


def card_at(index: int) -> Card:
    """The card with this index."""
    c = CARD_TABLE[index] if 0 <= index < len(CARD_TABLE) else None
    if c is None:
        raise InvalidNotationError(Reason(NO_SUCH_INDEX, index=index))
    return c


def card_text(index: int) -> str:
    """The notation of the card with this index, as ``str(card_at(index))`` writes it (and refuses an index of no
    card alike), read from :data:`CARD_TEXT`."""
    text = CARD_TEXT[index] if 0 <= index < len(CARD_TEXT) else ""
    return text or str(card_at(index))


def _block_table() -> tuple[tuple[int, ...], ...]:
    table: list[tuple[int, ...]] = [()]
    for block in range(1, 1 << 13):
        low = (block & -block).bit_length() - 1
        table.append((low, *table[block & (block - 1)]))
    return tuple(table)


_BLOCK_BITS = _block_table()
"""For every 13-bit block, the positions of its set bits in increasing order."""


_BYTES = tuple(
    tuple(tuple(b + 8 * chunk for b in range(8) if value >> b & 1) for value in range(256)) for chunk in range(7)
)
"""``_BYTES[c][v]``: the bit indices of the byte value ``v`` at byte ``c`` of a mask, lowest first."""


def bit_indices(mask: int) -> list[int]:
    """The indices of the set bits of ``mask`` (any deck of up to 56 cards), lowest first, as a list: a table per
    byte, about twice as fast as :func:`iter_bits` on a hand of cards (the bots' card loops run in every rollout)."""
    if mask >> 56:
        return list(iter_bits(mask))
    b0, b1, b2, b3, b4, b5, b6 = _BYTES
    return [
        *b0[mask & 255],
        *b1[mask >> 8 & 255],
        *b2[mask >> 16 & 255],
        *b3[mask >> 24 & 255],
        *b4[mask >> 32 & 255],
        *b5[mask >> 40 & 255],
        *b6[mask >> 48 & 255],
    ]


def iter_bits(mask: int) -> Iterator[int]:
    """The indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def python_nth_card(self: CardSet, position: int) -> Card:
    """The card at ``position`` of ``self`` in index order (negative positions count from the end): the Python
    statement of ``CardSet.__getitem__``, which the compiled core (``native/_cards.nth_card``) follows and hands the
    sets of more than 64 bits to."""
    mask = self + 0  # a plain int: several times cheaper than int(self), and this is the random bot's hot path
    asked = position
    if position < 0:
        position += mask.bit_count()
    # Walk 13-bit blocks (one suit of the standard deck each) with a table of set-bit positions.
    base = 0
    while mask and position >= 0:
        block = _BLOCK_BITS[mask & 0x1FFF]
        if position < len(block):
            return CARD_TABLE[base + block[position]]  # type: ignore[return-value]
        position -= len(block)
        mask >>= 13
        base += 13
    raise IndexError(f"card set position {asked} out of range for {self.bit_count()} cards")


class CardSet(int):
    """An immutable set of cards stored as a bit mask; supports ``in``, ``len``, iteration and set operators.

    Iteration runs from the lowest index up (clubs 2..A, then diamonds, hearts, spades for the standard deck).
    """

    __slots__ = ()

    @classmethod
    def from_mask(cls, mask: int) -> CardSet:
        """The set whose bit mask is ``mask`` (the fast path for engines)."""
        return int.__new__(cls, mask)

    def __new__(cls, cards: Iterable[Card] | SupportsIndex = 0) -> CardSet:
        if isinstance(cards, int):
            return super().__new__(cls, cards)
        mask = 0
        for c in cards:  # type: ignore[union-attr]
            mask |= 1 << c.index
        return super().__new__(cls, mask)

    def __contains__(self, card: object) -> bool:
        return isinstance(card, Card) and bool(self >> card.index & 1)

    # The number of cards is the popcount; binding int.bit_count directly keeps len() at C speed.
    __len__ = int.bit_count

    def __iter__(self) -> Iterator[Card]:
        table = CARD_TABLE
        for i in iter_bits(int(self)):
            c = table[i]
            assert c is not None
            yield c

    if TYPE_CHECKING:

        def __getitem__(self, position: int) -> Card:
            """The card at ``position`` in index order (negative positions count from the end)."""
            ...

    else:
        __getitem__ = python_nth_card if _CARDS is None else _CARDS.nth_card

    def __or__(self, other: int) -> CardSet:
        return CardSet(int(self) | int(other))

    def __and__(self, other: int) -> CardSet:
        return CardSet(int(self) & int(other))

    def __xor__(self, other: int) -> CardSet:
        return CardSet(int(self) ^ int(other))

    def __sub__(self, other: int) -> CardSet:
        """Set difference (not arithmetic)."""
        return CardSet(int(self) & ~int(other))

    def with_card(self, card: Card) -> CardSet:
        """This set plus one card."""
        return CardSet(int(self) | 1 << card.index)

    def without(self, card: Card) -> CardSet:
        """This set less one card."""
        return CardSet(int(self) & ~(1 << card.index))

    def of_suit(self, suit: Suit) -> CardSet:
        """The standard cards of one suit in this set."""
        return CardSet(int(self) & SUIT_MASKS[suit])

    def issubset(self, other: int) -> bool:
        """Whether every card of this set is in ``other``."""
        return int(self) & ~int(other) == 0

    def sorted(self) -> list[Card]:
        """The cards in index order."""
        return list(self)

    def __str__(self) -> str:
        """The cards' notation in index order; a bit that is no card of any deck (a set built from a stray mask)
        shows as ``#`` and its index, so that a message about such a set can still be written."""
        texts = CARD_TEXT
        return " ".join(texts[i] if i < len(texts) and texts[i] else f"#{i}" for i in iter_bits(int(self)))

    def __repr__(self) -> str:
        return f"CardSet.parse({str(self)!r})"

    def pretty(self) -> str:
        """The cards with suit symbols."""
        return " ".join(c.pretty() for c in self)

    @classmethod
    def parse(cls, text: str, deck: Deck | None = None) -> CardSet:
        """Read space- or comma-separated cards; duplicates are an error."""
        return (deck or STANDARD).parse_set(text)


#: Bit masks of the standard cards of each suit.
SUIT_MASKS: tuple[int, int, int, int] = tuple(0x1FFF << (13 * s) for s in Suit)  # type: ignore[assignment]
CLUBS_MASK = SUIT_MASKS[Suit.CLUBS]
FULL_STANDARD = (1 << 52) - 1
"""The mask of the whole standard 52-card deck."""


class Deck:
    """A named collection of cards with the notation reader for it.

    ``key`` names the deck in the codes of its refusals (``cards.not_a_card_<key>``, :mod:`clubsuite.card_reasons`):
    the deck's name and notation are words of those sentences, registered once per deck; by default the name, in
    lower case with ``_`` for anything but letters and digits.
    """

    def __init__(self, name: str, cards: Iterable[Card], key: str | None = None) -> None:
        self.name = name
        self.cards: tuple[Card, ...] = tuple(cards)
        self.mask = CardSet(self.cards)
        self._by_text: dict[str, Card] = {str(c): c for c in self.cards}
        self.key = key or "_".join("".join(ch if ch.isascii() and ch.isalnum() else " " for ch in name.lower()).split())
        self._reasons = deck_reasons(self.key, name, self.notation_help())

    def __repr__(self) -> str:
        return f"Deck({self.name!r}, {len(self.cards)} cards)"

    def __len__(self) -> int:
        return len(self.cards)

    def parse(self, text: str) -> Card:
        """Read one card; raises :class:`InvalidNotationError` naming the text and the deck."""
        raw = text
        t = text.strip().upper().replace("\ufe0f", "")  # drop the emoji variation selector of ♥️
        if not t:
            raise InvalidNotationError(Reason(self._reasons.empty))
        if t in self._by_text:
            return self._by_text[t]
        if len(t) >= 2 and t[-1] in _SUIT_BY_CHAR:
            rank_text = t[:-1].strip()
            suit = _SUIT_BY_CHAR[t[-1]]
            if rank_text == "T":
                rank_text = "10"
            canon = f"{rank_text}{suit.letter}"
            if canon in self._by_text:
                return self._by_text[canon]
        raise InvalidNotationError(Reason(self._reasons.not_a_card, text=quoted(raw)))

    def notation_help(self) -> str:
        """One line describing the notation this deck accepts."""
        kinds = {c.kind for c in self.cards}
        parts = []
        if STANDARD_KIND in kinds:
            parts.append(STANDARD_HELP)
        if NUMBERED_KIND in kinds:
            parts.append(NUMBERED_HELP)
        if JOKER_KIND in kinds:
            parts.append(JOKER_HELP)
        return "; ".join(parts)

    def parse_set(self, text: str) -> CardSet:
        """Read space- or comma-separated cards into a set; a repeated card is an error."""
        mask = 0
        for token in text.replace(",", " ").split():
            c = self.parse(token)
            if mask >> c.index & 1:
                raise InvalidNotationError(Reason(CARD_TWICE, card=str(c), text=quoted(text)))
            mask |= 1 << c.index
        return CardSet(mask)

    def parse_list(self, text: str) -> list[Card]:
        """Read space- or comma-separated cards in order (repeats allowed)."""
        return [self.parse(token) for token in text.replace(",", " ").split()]


#: The standard 52-card pack.
STANDARD = Deck("standard 52-card", _STD, "standard")
#: The standard pack with two jokers.
STANDARD_WITH_JOKERS = Deck("54-card (52 and two jokers)", _STD + _JOKERS, "standard_with_jokers")
#: The 60 numbered cards, valued 1..15 in four suits.
NUMBERED_CARDS: tuple[Card, ...] = tuple(_NS)
NUMBERED = Deck("60-card numbered", NUMBERED_CARDS, "numbered")


def card(text: str, deck: Deck | None = None) -> Card:
    """Read one card (standard deck unless another is given)."""
    return (deck or STANDARD).parse(text)


def cards(text: str, deck: Deck | None = None) -> CardSet:
    """Read a set of cards (standard deck unless another is given)."""
    return (deck or STANDARD).parse_set(text)


def std_card(suit: Suit, rank: int) -> Card:
    """The standard card of this suit and rank (2..14)."""
    c = CARD_TABLE[suit * 13 + rank - 2]
    assert c is not None
    return c


if _CARDS is not None:  # the compiled index reads the cards by index, and hands wider sets to the Python statement
    _CARDS.use_table(CARD_TABLE, python_nth_card)
