"""Deals of North Star's CLUBS: ten cards to each player, from the undealt cards first when they are kept (NS-6).

A round's deal is given either explicitly (:class:`NorthstarDeal`: each seat's ten cards) or as a shuffle
(:class:`NorthstarShuffle`: an order of all 60 cards, which is what a seed gives). A shuffle becomes a deal through
the state of the pack (:func:`deal_from_shuffle`): the cards still undealt from the last round come first, in the
order the shuffle gives them, then the discards in that order; the first ``10 * players`` cards are dealt one at a
time round the table from the dealer's left. With ``leftover=reshuffle`` (or in the first round) all 60 cards are
undealt, so the deal is simply the first cards of the shuffle.

A seeded shuffle is reproducible on any platform: the cards listed by index (clubs 1..15, diamonds, hearts, spades)
are put in order by the Fisher-Yates pass driven only by ``random.Random(seed).random()`` that the other games use.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from dataclasses import dataclass

from clubsuite import seeding
from clubsuite.cards import CardSet, iter_bits
from clubsuite.errors import InvalidDealError, InvalidNotationError
from clubsuite.games.northstar.combos import DECK_MASK, NORTHSTAR
from clubsuite.games.northstar.options import MAX_PLAYERS, MIN_PLAYERS
from clubsuite.jsonform import JsonObject, JsonValue

HAND_SIZE = 10
_DECK = tuple(iter_bits(DECK_MASK))
_BIT = tuple(1 << i for i in range(max(_DECK) + 1))
"""``_BIT[i]``: the mask of card ``i`` (summed at C speed when a deal is made, every round)."""
_card_set = int.__new__


@dataclass(frozen=True)
class NorthstarDeal:
    """The cards as dealt, by seat number: ten cards for each of 2 to 6 players."""

    hands: tuple[CardSet, ...]
    """The hands of seats 0, 1, ... (by seat number, not by position from the dealer)."""

    @classmethod
    def _made(cls, hands: tuple[CardSet, ...]) -> NorthstarDeal:
        """The deal of ``hands`` that are right by construction (from a shuffle: ten distinct North Star cards each),
        without checking them again: a deal is made every round."""
        deal = object.__new__(cls)
        object.__setattr__(deal, "hands", hands)
        return deal

    def __post_init__(self) -> None:
        if not isinstance(self.hands, tuple) or not MIN_PLAYERS <= len(self.hands) <= MAX_PLAYERS:
            raise InvalidDealError("a CLUBS deal has one hand per player, 2 to 6 hands (NS-1)")
        seen = 0
        for seat, h in enumerate(self.hands):
            if not isinstance(h, int):
                raise InvalidDealError(f"seat {seat}'s hand must be a card set")
            if int(h) & ~DECK_MASK:
                raise InvalidDealError(f"seat {seat}'s hand holds cards that are not North Star cards (1..15)")
            if len(h) != HAND_SIZE:
                raise InvalidDealError(f"seat {seat}'s hand has {len(h)} cards; every player is dealt 10")
            dup = int(h) & seen
            if dup:
                raise InvalidDealError(f"{CardSet(dup)} dealt twice (seat {seat}'s hand and another)")
            seen |= int(h)

    @property
    def cards(self) -> int:
        """Every card dealt (a mask)."""
        mask = 0
        for h in self.hands:
            mask |= int(h)
        return mask

    def to_json(self) -> JsonObject:
        """The record form: ``{"hands": ["1C 5D ...", ...]}`` by seat."""
        return {"hands": [str(h) for h in self.hands]}

    @classmethod
    def from_json(cls, data: JsonValue) -> NorthstarDeal:
        """Read the record form; raises :class:`InvalidDealError` naming what is wrong."""
        if not isinstance(data, dict) or set(data) != {"hands"}:
            raise InvalidDealError('a CLUBS deal is {"hands": [one string of ten cards per seat]}')
        hands = data["hands"]
        if not isinstance(hands, list) or not all(isinstance(h, str) for h in hands):
            raise InvalidDealError("deal.hands must be a list of strings, one per seat")
        parsed = []
        for seat, text in enumerate(hands):
            try:
                parsed.append(NORTHSTAR.parse_set(text))
            except InvalidNotationError as exc:
                raise InvalidDealError(f"seat {seat}'s hand: {exc}") from None
        return cls(tuple(parsed))


@dataclass(frozen=True)
class NorthstarShuffle:
    """An order of all 60 cards: the deal a seed gives, made into hands by :func:`deal_from_shuffle`."""

    order: tuple[int, ...]
    """The card indices, first dealt first."""

    def __post_init__(self) -> None:
        if not isinstance(self.order, tuple) or sorted(self.order) != list(_DECK):
            raise InvalidDealError("a shuffle must list each of the 60 cards once")

    @classmethod
    def random(cls, rng: random.Random) -> NorthstarShuffle:
        """A shuffle drawn from ``rng``."""
        shuffle = object.__new__(cls)  # a permutation of the cards by construction: not checked again
        object.__setattr__(shuffle, "order", seeding.shuffled_items(_DECK, rng))
        return shuffle

    @classmethod
    def from_seed(cls, seed: int, dealer: int = 0) -> NorthstarShuffle:
        """The shuffle of seed ``seed`` (the dealer does not change it: the hands are dealt from the dealer's left)."""
        del dealer
        return cls.random(random.Random(seed))


def deal_from_shuffle(shuffle: NorthstarShuffle, players: int, dealer: int, stock: int, discards: int) -> NorthstarDeal:
    """The hands a shuffle gives when ``stock`` is undealt and ``discards`` lie on the discard pile (NS-6).

    The undealt cards come first, then the discards (shuffled in only when the undealt cards run short); card ``k``
    goes to seat ``(dealer + 1 + k % players) % players``.
    """
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InvalidDealError(f"{players} players cannot play: CLUBS is for 2 to 6 (NS-1)")
    if stock & discards or (stock | discards) & ~DECK_MASK:
        raise InvalidDealError("the undealt cards and the discards must be distinct North Star cards (NS-6)")
    return NorthstarDeal._made(hands_dealer()(shuffle.order, players, dealer, stock, discards))


def python_hands_of_shuffle(
    order: tuple[int, ...], players: int, dealer: int, stock: int, discards: int
) -> tuple[CardSet, ...]:
    """The hands of :func:`deal_from_shuffle`, by seat, for arguments it has checked: the undealt cards in the
    shuffle's order, then the discards, card ``k`` to seat ``(dealer + 1 + k % players) % players`` (NS-6).

    Where the North Star kernel is built, deals use its C statement of this instead (:func:`hands_dealer`)."""
    need = HAND_SIZE * players
    dealt = [i for i in order if stock >> i & 1]
    if len(dealt) < need:  # the discards are shuffled in only when the undealt cards run short
        dealt += [i for i in order if discards >> i & 1]
        if len(dealt) < need:
            raise InvalidDealError(f"only {len(dealt)} cards to deal to {players} players")
    masks = [0] * players
    for k in range(players):  # cards k, k + players, ... go to the k-th seat from the dealer's left
        masks[(dealer + 1 + k) % players] = sum(map(_BIT.__getitem__, dealt[k:need:players]))
    return tuple([_card_set(CardSet, m) for m in masks])


HandsOfShuffle = Callable[[tuple[int, ...], int, int, int, int], tuple[CardSet, ...]]
"""A statement of :func:`python_hands_of_shuffle`: ``(order, players, dealer, stock, discards)`` to the hands."""


@functools.cache
def hands_dealer() -> HandsOfShuffle:
    """How deals from a shuffle are made here, chosen at the first deal: the North Star kernel's statement of
    :func:`python_hands_of_shuffle` (``_core.hands_of_shuffle``, the kernel's own deal) where it is built and not
    turned off, else the Python one. The hands are the same either way; the tests compare the two."""
    from clubsuite.native import kernel

    core = kernel("clubsuite.games.northstar._core")
    if core is None:
        return python_hands_of_shuffle
    compiled: HandsOfShuffle = core.hands_of_shuffle
    return compiled
