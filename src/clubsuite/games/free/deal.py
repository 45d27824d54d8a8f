"""Deals of Free Clubs: each seat's six auction cards and ten primary cards, and the six-card treasure chest.

The 54-card pack (52 cards and two jokers) splits into 18 **auction** cards (the jokers and every K, Q, J and 10)
and 36 **primary** cards (A and 2..9 of every suit). A seeded deal is reproducible on any platform:

1. the auction cards, listed in card-index order (clubs, diamonds, hearts, spades, each 10 J Q K, then JK1 JK2),
   are shuffled by a Fisher-Yates pass driven only by ``rng.random()``; card ``k`` of the result goes to the seat
   ``(dealer + 1 + k % 3) % 3`` (one at a time round the table, starting at the dealer's left);
2. then, with the same generator, the primary cards listed in card-index order (each suit 2..9 then A) are
   shuffled the same way; cards ``0..29`` go round the table in the same manner and cards ``30..35`` form the chest.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from clubsuite.cards import STANDARD_WITH_JOKERS, CardSet, Suit, iter_bits
from clubsuite.errors import InvalidDealError, InvalidNotationError
from clubsuite.jsonform import JsonObject, JsonValue
from clubsuite.seeding import shuffled

N_SEATS = 3
AUCTION_SIZE = 6
PRIMARY_SIZE = 10
CHEST_SIZE = 6
JOKER_INDICES = (52, 53)

_SUIT_PRIMARY = 0xFF | 1 << 12
"""Within one 13-bit suit block: ranks 2..9 (bits 0..7) and the ace (bit 12)."""
_SUIT_AUCTION = 0xF << 8
"""Within one 13-bit suit block: 10, J, Q, K (bits 8..11)."""

PRIMARY_SUIT_MASKS: tuple[int, int, int, int] = tuple(_SUIT_PRIMARY << (13 * s) for s in Suit)  # type: ignore[assignment]
"""The primary cards of each suit."""
PRIMARY_MASK = sum(PRIMARY_SUIT_MASKS)
"""All 36 primary cards."""
AUCTION_MASK = sum(_SUIT_AUCTION << (13 * s) for s in Suit) | 1 << 52 | 1 << 53
"""All 18 auction cards."""

_AUCTION_LIST = tuple(iter_bits(AUCTION_MASK))
_PRIMARY_LIST = tuple(iter_bits(PRIMARY_MASK))


@dataclass(frozen=True)
class FreeDeal:
    """The cards as dealt, by seat number: auction cards, primary cards, and the treasure chest."""

    auction: tuple[CardSet, CardSet, CardSet]
    """The six auction cards of seats 0, 1 and 2."""
    primary: tuple[CardSet, CardSet, CardSet]
    """The ten primary cards of seats 0, 1 and 2."""
    chest: CardSet
    """The six primary cards set aside face down."""

    def __post_init__(self) -> None:
        for name, group in (("auction", self.auction), ("primary", self.primary)):
            if not isinstance(group, tuple) or len(group) != N_SEATS:
                raise InvalidDealError(f"deal.{name} must hold three card sets, one per seat")
            if not all(isinstance(h, int) for h in group):
                raise InvalidDealError(f"deal.{name} must hold card sets")
        if not isinstance(self.chest, int):
            raise InvalidDealError("deal.chest must be a card set")
        seen = 0
        parts = [(f"deal.auction[{s}]", h, AUCTION_MASK, AUCTION_SIZE, "auction") for s, h in enumerate(self.auction)]
        parts += [(f"deal.primary[{s}]", h, PRIMARY_MASK, PRIMARY_SIZE, "primary") for s, h in enumerate(self.primary)]
        parts.append(("deal.chest", self.chest, PRIMARY_MASK, CHEST_SIZE, "primary"))
        for where, h, allowed, size, kind in parts:
            stray = int(h) & ~allowed
            if stray:
                raise InvalidDealError(
                    f"{where} holds {CardSet(stray)}, which are not {kind} cards "
                    + ("(jokers, K, Q, J, 10)" if kind == "auction" else "(A to 9)")
                )
            if len(h) != size:
                raise InvalidDealError(f"{where} has {len(h)} cards; it must have {size}")
            dup = int(h) & seen
            if dup:
                raise InvalidDealError(f"{CardSet(dup)} dealt twice ({where} and another part of the deal)")
            seen |= int(h)

    @classmethod
    def random(cls, rng: random.Random, dealer: int = 0) -> FreeDeal:
        """A uniformly random deal, dealt from ``dealer``'s left (see the module docstring)."""
        auction = [0, 0, 0]
        for k, i in enumerate(shuffled(len(_AUCTION_LIST), rng)):
            auction[(dealer + 1 + k) % N_SEATS] |= 1 << _AUCTION_LIST[i]
        primary = [0, 0, 0]
        chest = 0
        for k, i in enumerate(shuffled(len(_PRIMARY_LIST), rng)):
            if k < N_SEATS * PRIMARY_SIZE:
                primary[(dealer + 1 + k) % N_SEATS] |= 1 << _PRIMARY_LIST[i]
            else:
                chest |= 1 << _PRIMARY_LIST[i]
        new = CardSet.from_mask
        return cls(
            (new(auction[0]), new(auction[1]), new(auction[2])),
            (new(primary[0]), new(primary[1]), new(primary[2])),
            new(chest),
        )

    @classmethod
    def from_seed(cls, seed: int, dealer: int = 0) -> FreeDeal:
        """The deal a seed gives (see the module docstring)."""
        return cls.random(random.Random(seed), dealer)

    def to_json(self) -> JsonObject:
        """The record form: card notation strings."""
        return {
            "auction": [str(h) for h in self.auction],
            "primary": [str(h) for h in self.primary],
            "chest": str(self.chest),
        }

    @classmethod
    def from_json(cls, data: JsonValue) -> FreeDeal:
        """Read the record form; names the bad field on error."""
        if not isinstance(data, dict) or set(data) != {"auction", "primary", "chest"}:
            raise InvalidDealError(
                'an explicit Free Clubs deal is {"auction": [three strings], "primary": [three strings], '
                '"chest": "cards"}'
            )
        groups: list[tuple[CardSet, CardSet, CardSet]] = []
        for name in ("auction", "primary"):
            value = data[name]
            if not isinstance(value, list) or len(value) != N_SEATS or not all(isinstance(h, str) for h in value):
                raise InvalidDealError(f"deal.{name} must be a list of three strings of cards")
            parsed = []
            for seat, text in enumerate(value):
                try:
                    parsed.append(STANDARD_WITH_JOKERS.parse_set(text))
                except InvalidNotationError as exc:
                    raise InvalidDealError(f"in deal.{name}[{seat}]: {exc}") from None
            groups.append((parsed[0], parsed[1], parsed[2]))
        if not isinstance(data["chest"], str):
            raise InvalidDealError("deal.chest must be a string of cards")
        try:
            chest = STANDARD_WITH_JOKERS.parse_set(data["chest"])
        except InvalidNotationError as exc:
            raise InvalidDealError(f"in deal.chest: {exc}") from None
        return cls(groups[0], groups[1], chest)
