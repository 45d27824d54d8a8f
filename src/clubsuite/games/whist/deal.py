"""Deals of Clubs (whist group): three hands and the bid hand, seeded or given explicitly.

A seeded deal is reproducible on any platform: the deck is shuffled by a Fisher-Yates pass driven only by
``random.Random(seed).random()`` (the one generator output Python promises to keep stable), and card ``k`` of the
shuffled deck goes to pile ``k % 4``; piles 0, 1, 2 are the seats to the dealer's left, two to the left, and the
dealer, pile 3 is the bid hand (the rules deal one card at a time into four piles).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from clubsuite.cards import FULL_STANDARD, STANDARD, CardSet
from clubsuite.errors import InvalidDealError, InvalidNotationError
from clubsuite.jsonform import JsonObject, JsonValue
from clubsuite.seeding import shuffled

N_SEATS = 3
HAND_SIZE = 13
_BITS = tuple(1 << i for i in range(52))
_new_set = int.__new__


@dataclass(frozen=True)
class WhistDeal:
    """The cards as dealt: each seat's thirteen cards and the bid hand."""

    hands: tuple[CardSet, CardSet, CardSet]
    """The hands of seats 0, 1 and 2 (by seat number, not by position from the dealer)."""
    bid: CardSet
    """The spare hand face down in the middle."""

    def __post_init__(self) -> None:
        if not isinstance(self.hands, tuple) or len(self.hands) != N_SEATS:
            raise InvalidDealError("a whist deal has three hands (one per seat) and the bid hand")
        if not all(isinstance(h, int) for h in (*self.hands, self.bid)):
            raise InvalidDealError("the hands of a deal must be card sets")
        seen = 0
        for seat, h in enumerate((*self.hands, self.bid)):
            where = "the bid hand" if seat == N_SEATS else f"seat {seat}'s hand"
            if int(h) & ~FULL_STANDARD:
                raise InvalidDealError(f"{where} holds cards that are not in the standard 52-card deck")
            if len(h) != HAND_SIZE:
                raise InvalidDealError(f"{where} has {len(h)} cards; every hand of the deal has 13")
            dup = int(h) & seen
            if dup:
                raise InvalidDealError(f"{CardSet(dup)} dealt twice ({where} and another hand)")
            seen |= int(h)

    @classmethod
    def random(cls, rng: random.Random, dealer: int = 0) -> WhistDeal:
        """A uniformly random deal, dealt from ``dealer``'s left."""
        order = shuffled(52, rng)
        bit = _BITS.__getitem__
        piles = [sum(map(bit, order[k::4])) for k in range(4)]
        hands = [0, 0, 0]
        for pos in range(3):
            hands[(dealer + 1 + pos) % 3] = piles[pos]
        # A shuffled deck is a valid deal by construction: skip the checks a given deal needs.
        deal = object.__new__(cls)
        object.__setattr__(
            deal, "hands", (_new_set(CardSet, hands[0]), _new_set(CardSet, hands[1]), _new_set(CardSet, hands[2]))
        )
        object.__setattr__(deal, "bid", _new_set(CardSet, piles[3]))
        return deal

    @classmethod
    def from_seed(cls, seed: int, dealer: int = 0) -> WhistDeal:
        """The deal a seed gives (see the module docstring)."""
        return cls.random(random.Random(seed), dealer)

    def to_json(self) -> JsonObject:
        """The record form: card notation strings."""
        return {"hands": [str(h) for h in self.hands], "bid": str(self.bid)}

    @classmethod
    def from_json(cls, data: JsonValue) -> WhistDeal:
        """Read the record form; names the bad field on error."""
        if not isinstance(data, dict) or set(data) != {"hands", "bid"}:
            raise InvalidDealError('an explicit whist deal is {"hands": [three hands], "bid": "cards"}')
        hands = data["hands"]
        if not isinstance(hands, list) or len(hands) != N_SEATS or not all(isinstance(h, str) for h in hands):
            raise InvalidDealError("deal.hands must be a list of three strings of cards")
        if not isinstance(data["bid"], str):
            raise InvalidDealError("deal.bid must be a string of cards")
        try:
            parsed = [STANDARD.parse_set(h) for h in hands]
            bid = STANDARD.parse_set(data["bid"])
        except InvalidNotationError as exc:
            raise InvalidDealError(f"in the deal: {exc}") from None
        return cls((parsed[0], parsed[1], parsed[2]), bid)
