"""Deals of Clubs (partnership): thirteen cards to each of the four seats, seeded or given explicitly.

A seeded deal is reproducible on any platform: the 52 cards, numbered as everywhere in clubsuite (``suit * 13 +
rank - 2``, clubs first), are shuffled by the same Fisher-Yates pass as a whist deal, driven only by
``random.Random(seed).random()``, and card ``k`` of the shuffled list goes to seat ``(dealer + 1 + k % 4) % 4``:
one card at a time clockwise, starting at the dealer's left, as the rules text deals.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from clubsuite.cards import FULL_STANDARD, STANDARD, CardSet
from clubsuite.errors import InvalidDealError, InvalidNotationError
from clubsuite.jsonform import JsonObject, JsonValue
from clubsuite.seeding import shuffled

N_SEATS = 4
HAND_SIZE = 13
_BITS = tuple(1 << i for i in range(52))
_new_set = int.__new__


@dataclass(frozen=True)
class PartnershipDeal:
    """The cards as dealt: each seat's thirteen cards, by seat number (not by position from the dealer)."""

    hands: tuple[CardSet, CardSet, CardSet, CardSet]
    """The hands of seats 0, 1, 2 and 3."""

    def __post_init__(self) -> None:
        if not isinstance(self.hands, tuple) or len(self.hands) != N_SEATS:
            raise InvalidDealError("a partnership deal has four hands, one per seat")
        if not all(isinstance(h, int) for h in self.hands):
            raise InvalidDealError("the hands of a deal must be card sets")
        seen = 0
        for seat, h in enumerate(self.hands):
            if int(h) & ~FULL_STANDARD:
                raise InvalidDealError(f"seat {seat}'s hand holds cards that are not in the standard 52-card deck")
            if len(h) != HAND_SIZE:
                raise InvalidDealError(f"seat {seat}'s hand has {len(h)} cards; every hand of the deal has 13")
            dup = int(h) & seen
            if dup:
                raise InvalidDealError(f"{CardSet(dup)} dealt twice (seat {seat}'s hand and another one)")
            seen |= int(h)

    @classmethod
    def random(cls, rng: random.Random, dealer: int = 0) -> PartnershipDeal:
        """A uniformly random deal, dealt one card at a time from ``dealer``'s left."""
        order = shuffled(52, rng)
        bit = _BITS.__getitem__
        hands = [0, 0, 0, 0]
        for pos in range(N_SEATS):
            hands[(dealer + 1 + pos) % N_SEATS] = sum(map(bit, order[pos::N_SEATS]))
        # A shuffled deck is a valid deal by construction: skip the checks a given deal needs.
        deal = object.__new__(cls)
        object.__setattr__(
            deal,
            "hands",
            (
                _new_set(CardSet, hands[0]),
                _new_set(CardSet, hands[1]),
                _new_set(CardSet, hands[2]),
                _new_set(CardSet, hands[3]),
            ),
        )
        return deal

    @classmethod
    def from_seed(cls, seed: int, dealer: int = 0) -> PartnershipDeal:
        """The deal a seed gives (see the module docstring)."""
        return cls.random(random.Random(seed), dealer)

    def to_json(self) -> JsonObject:
        """The record form: card notation strings by seat."""
        return {"hands": [str(h) for h in self.hands]}

    @classmethod
    def from_json(cls, data: JsonValue) -> PartnershipDeal:
        """Read the record form ``{"hands": [four strings of 13 cards]}``; names the bad field on error."""
        if not isinstance(data, dict) or set(data) != {"hands"}:
            raise InvalidDealError('an explicit partnership deal is {"hands": [four hands of 13 cards, by seat]}')
        hands = data["hands"]
        if not isinstance(hands, list) or len(hands) != N_SEATS or not all(isinstance(h, str) for h in hands):
            raise InvalidDealError("deal.hands must be a list of four strings of cards, seat 0 first")
        try:
            parsed = [STANDARD.parse_set(h) for h in hands]
        except InvalidNotationError as exc:
            raise InvalidDealError(f"in the deal: {exc}") from None
        return cls((parsed[0], parsed[1], parsed[2], parsed[3]))
