"""The card-play rules of Clubs (whist group) on bit masks: must-beat (CW-1), clubs broken (CW-2), trick winner.

Everything here is a pure function of masks and card indices, shared by the engine (legality), the sampler
(what a play reveals about the hand it came from) and the error messages (why a card is illegal).
Standard-deck indices put the clubs in bits 0..12 and order each suit by rank, so "a higher card of the same
suit" is "a higher bit inside the suit's block".
"""

from __future__ import annotations

from clubsuite.cards import CLUBS_MASK, FULL_STANDARD, SUIT_MASKS, CardSet, Suit, card_at


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


def _names(mask: int) -> str:
    return " ".join(str(c) for c in CardSet(mask))


def explain_follow(hand: int, card_index: int, led: int, top_led: int, top_club: int) -> str:
    """Why ``card_index`` may not follow here, in a player's words, naming the cards that must be played."""
    card = card_at(card_index)
    legal = follow_mask(hand, led, top_led, top_club)
    led_name = Suit(led).name.lower()
    if led == Suit.CLUBS:
        top = card_at(top_club)
        if hand & CLUBS_MASK & above(top_club):
            return (
                f"{card} is illegal: you hold {_names(legal)}, which beat the {top} so far, and on a club lead you "
                "must play a higher club if you can (CW-1)"
            )
        return f"{card} is illegal: you hold clubs ({_names(legal)}) and must follow the club lead (CW-1)"
    if hand & SUIT_MASKS[led]:
        if top_club < 0 and legal != hand & SUIT_MASKS[led]:
            return (
                f"{card} is illegal: you hold {_names(legal)}, which beat the {card_at(top_led)}, the highest "
                f"{led_name[:-1]} so far, and you must beat the highest card if you can (CW-1)"
            )
        return f"{card} is illegal: you must follow suit with a {led_name[:-1]} ({_names(legal)}) (CW-1)"
    if top_club < 0:
        return (
            f"{card} is illegal: you have no {led_name} and hold clubs ({_names(legal)}), which would win the "
            "trick, and you must win the trick if you can (CW-1)"
        )
    return (
        f"{card} is illegal: you have no {led_name} and hold {_names(legal)}, which beat the {card_at(top_club)} "
        "played, and you must win the trick if you can (CW-1)"
    )


def explain_lead(hand: int, card_index: int) -> str:
    """Why a club may not be led yet (CW-2)."""
    return (
        f"{card_at(card_index)} is illegal: clubs are not broken and you hold other suits "
        f"({_names(hand & ~CLUBS_MASK)}); a club may be led only once clubs are broken or when you hold only "
        "clubs (CW-2)"
    )
