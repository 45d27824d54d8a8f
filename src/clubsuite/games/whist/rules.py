"""The card-play rules of Clubs (whist group) on bit masks: must-beat (CW-1), clubs broken (CW-2), trick winner.

Everything here is a pure function of masks and card indices, shared by the engine (legality), the sampler
(what a play reveals about the hand it came from) and the error messages (why a card is illegal).
Standard-deck indices put the clubs in bits 0..12 and order each suit by rank, so "a higher card of the same
suit" is "a higher bit inside the suit's block".
"""

from __future__ import annotations

from clubsuite.cards import CLUBS_MASK, FULL_STANDARD, SUIT_MASKS, CardSet, Suit, card_at
from clubsuite.games.whist import reasons
from clubsuite.reasons import Reason, cards_param


def above(index: int) -> int:
    """The mask of every bit above ``index`` (all bits when index is -1)."""
    return ~((2 << index) - 1) if index >= 0 else -1


def suit_of(index: int) -> int:
    """The suit number of a standard card index."""
    return index // 13


def tiers(led: int, top_led: int, top_club: int) -> tuple[int, ...]:
    """The CW-1 priority tiers for a follower, as masks over the whole deck.

    A follower must play from the first tier that meets their hand. ``led`` is the led suit, ``top_led`` the
    index of the highest card of the led suit in the trick, ``top_club`` that of the highest club (-1: none).
    """
    if led == Suit.CLUBS:
        return (CLUBS_MASK & above(top_club), CLUBS_MASK, FULL_STANDARD)
    suit = SUIT_MASKS[led]
    if top_club < 0:
        return (suit & above(top_led), suit, CLUBS_MASK, FULL_STANDARD)
    return (suit, CLUBS_MASK & above(top_club), FULL_STANDARD)


def follow_mask(hand: int, led: int, top_led: int, top_club: int) -> int:
    """The cards of ``hand`` a follower may play (CW-1); the hot path of the engine."""
    if led == 0:  # a club lead: beat the highest club, else any club, else anything
        higher = hand & CLUBS_MASK & ~((2 << top_club) - 1)
        if higher:
            return higher
        return (hand & CLUBS_MASK) or hand
    follow = hand & SUIT_MASKS[led]
    if top_club < 0:
        if follow:
            return (follow & ~((2 << top_led) - 1)) or follow
        return (hand & CLUBS_MASK) or hand
    if follow:
        return follow
    return (hand & CLUBS_MASK & ~((2 << top_club) - 1)) or hand


def lead_mask(hand: int, clubs_broken: bool) -> int:
    """The cards of ``hand`` a leader may lead (CW-2): no club before clubs are broken, unless only clubs are left."""
    if clubs_broken:
        return hand
    return (hand & ~CLUBS_MASK) or hand


def revealed_absent(card_index: int, led: int, top_led: int, top_club: int) -> int:
    """What a legal follow of ``card_index`` proves the hand did *not* hold (the tiers above the one used).

    Used by the sampler: a player who did not beat the highest card holds no card that would have beaten it.
    """
    absent = 0
    bit = 1 << card_index
    for tier in tiers(led, top_led, top_club):
        if tier & bit:
            return absent
        absent |= tier
    return absent


def _names(mask: int) -> tuple[str, ...]:
    return cards_param(CardSet(mask))


def explain_follow(hand: int, card_index: int, led: int, top_led: int, top_club: int) -> Reason:
    """Why ``card_index`` may not follow here, in a player's words, naming the cards that must be played."""
    card = str(card_at(card_index))
    legal_mask = follow_mask(hand, led, top_led, top_club)
    legal = _names(legal_mask)
    led_suit = Suit(led).name.lower()
    if led == Suit.CLUBS:
        top = str(card_at(top_club))
        if hand & CLUBS_MASK & above(top_club):
            return Reason(reasons.CLUB_MUST_BEAT, card=card, legal_cards=legal, top_card=top)
        return Reason(reasons.CLUB_MUST_FOLLOW, card=card, legal_cards=legal)
    if hand & SUIT_MASKS[led]:
        if top_club < 0 and legal_mask != hand & SUIT_MASKS[led]:
            top = str(card_at(top_led))
            return Reason(reasons.MUST_BEAT_LED, card=card, legal_cards=legal, top_card=top, led_suit=led_suit)
        return Reason(reasons.MUST_FOLLOW, card=card, legal_cards=legal, led_suit=led_suit)
    if top_club < 0:
        return Reason(reasons.MUST_TRUMP, card=card, legal_cards=legal, led_suit=led_suit)
    top = str(card_at(top_club))
    return Reason(reasons.MUST_OVERTRUMP, card=card, legal_cards=legal, top_card=top, led_suit=led_suit)


def explain_lead(hand: int, card_index: int) -> Reason:
    """Why a club may not be led yet (CW-2)."""
    card = str(card_at(card_index))
    return Reason(reasons.CLUBS_NOT_BROKEN, card=card, other_cards=_names(hand & ~CLUBS_MASK))
