"""What a whist-group table shows and asks (:mod:`clubsuite.present`): beside the cards, the cards the seat knows of a
hand it gave up, who kept or exchanged (CW-4), whether clubs may be led (CW-2) and what wins the match; to the seat
to act, what it is asked (keep or exchange, lead, follow and beat: CW-1) and each action's label."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

from clubsuite.cards import Card, Suit, card
from clubsuite.games.whist import events as wc
from clubsuite.present import (
    MATCH,
    Asked,
    Fact,
    Known,
    Said,
    Shown,
    dealer_fact,
    is_viewer,
    play_label,
    signed,
    suit_key,
    told,
    trick_front,
    tricks_words,
)
from clubsuite.reasons import Reason, template

KNOWN_BID = template("whist.shown_known_bid", "The bid hand now holds the cards you gave up")
"""The hand an exchanger gave up, now the bid hand (the bid key of ``known_cards``): worded about that other hand
first, so that it never reads as the caption of the exchanger's new hand."""
KNOWN_HELD = template("whist.shown_known_held", "{seat} now holds the cards you gave up")
"""The hand an exchanger gave up, now held by the seat who exchanged after them (worded about that seat first)."""
BID_HAND = template("whist.shown_bid_hand", "Bid hand")
"""A fact's label: who kept and who exchanged (CW-4)."""
YOU_EXCHANGED = template("whist.shown_you_exchanged", "you exchanged")
EXCHANGED = template("whist.shown_exchanged", "{seat} exchanged")
YOU_KEPT = template("whist.shown_you_kept", "you kept")
KEPT = template("whist.shown_kept", "{seat} kept")
CLUBS = template("whist.shown_clubs", "Clubs")
"""A fact's label: whether clubs may be led yet."""
BROKEN = template("whist.shown_broken", "broken: they may be led", rule="CW-2")
NOT_BROKEN = template("whist.shown_not_broken", "not broken yet: they may not be led", rule="CW-2")
TARGET = template("whist.shown_target", "reaching +{target} or -{target} wins")
"""What wins the match."""


def decided(view: Mapping[str, Any], seat: int, exchanged: bool) -> Reason:
    """One seat's decision on the bid hand, worded for "you" in the seat's own view."""
    if is_viewer(view, seat):
        return Reason(YOU_EXCHANGED if exchanged else YOU_KEPT)
    return Reason(EXCHANGED if exchanged else KEPT, seat=seat)


def shown(view: Mapping[str, Any], options: object = None) -> Shown:
    """What a whist view shows beside the cards."""
    n = len(view["hand_sizes"])
    known = []
    for key, cards in (view.get("known_cards") or {}).items():
        if not cards:
            continue  # nothing known (the end of a match): no empty row
        title = Reason(KNOWN_BID) if key == "bid" else Reason(KNOWN_HELD, seat=int(key))
        known.append(Known(title, cards, folded=len(cards.split()) > 6))
    decisions = tuple((d["seat"], d["exchanged"]) for d in view.get("decisions") or ())
    facts = _facts(view.get("seat"), view.get("dealer"), decisions, bool(view.get("clubs_broken")), view["target"])
    return Shown(badges=((),) * n, stats=((),) * n, front=trick_front(view), known=tuple(known), facts=facts)


@functools.lru_cache(maxsize=4096)
def _facts(
    viewer: int | None, dealer: int | None, decisions: tuple[tuple[int, bool], ...], broken: bool, target: int
) -> tuple[Fact, ...]:
    """The facts of a hand beside the cards, for the view of ``viewer`` (None: a spectator): who dealt, who kept or
    exchanged (CW-4), whether clubs may be led (CW-2) and what wins. Made once for each set of them (they change a
    few times a hand, and a table shows them at every update)."""
    view = {"seat": viewer, "dealer": dealer}
    facts = list(dealer_fact(view))
    if decisions:
        facts.append(Fact(Reason(BID_HAND), tuple(decided(view, seat, exchanged) for seat, exchanged in decisions)))
    facts.append(Fact(Reason(CLUBS), (Reason(BROKEN if broken else NOT_BROKEN),)))
    facts.append(Fact(Reason(MATCH), (Reason(TARGET, target=target),)))
    return tuple(facts)


# -- what the seat to act is asked ------------------------------------------------------------------------------------
KEEP_OR_EXCHANGE = template(
    "whist.ask_exchange",
    "Keep your hand, or exchange it for the {size}-card bid hand? You see the bid hand only once you have taken it.",
    rule="CW-4",
)
ONE_BEFORE = template(
    "whist.ask_one_before",
    "One player before you exchanged, so the bid hand is now the hand they gave up.",
    rule="CW-4",
)
SEVERAL_BEFORE = template(
    "whist.ask_several_before",
    "{count:cap} players before you exchanged, so the bid hand is now the one the last of them gave up.",
    rule="CW-4",
)
LEAD_ANY = template("whist.ask_lead_any", "Your lead: play any card.", rule="CW-2")
LEAD_ONLY_CLUBS = template("whist.ask_lead_only_clubs", "Your lead: you hold only clubs, so lead a club.", rule="CW-2")
LEAD_NO_CLUB = template(
    "whist.ask_lead_no_club",
    "Your lead: play any card except a club (clubs may not be led until one has been played on another suit).",
    rule="CW-2",
)
CLUBS_LED_NONE = template("whist.ask_clubs_led_none", "Clubs were led and you have none: play any card.", rule="CW-1")
CLUBS_LED_BEAT = template("whist.ask_clubs_led_beat", "Clubs were led: play a club higher than {card}.", rule="CW-1")
CLUBS_LED_CANNOT = template(
    "whist.ask_clubs_led_cannot", "Clubs were led and you cannot beat {card}: play any club.", rule="CW-1"
)
TRUMPED = template(
    "whist.ask_trumped",
    "{led_suit:cap} were led and a club has trumped the trick: play any {led_suit:one}.",
    rule="CW-1",
)
MUST_BEAT = template(
    "whist.ask_must_beat", "{led_suit:cap} were led: you must beat {card} with a higher {led_suit:one}.", rule="CW-1"
)
CANNOT_BEAT = template(
    "whist.ask_cannot_beat", "{led_suit:cap} were led and you cannot beat {card}: play any {led_suit:one}.", rule="CW-1"
)
VOID_TRUMP = template(
    "whist.ask_void_trump", "You have no {led_suit}: you must play a club, which wins the trick for now.", rule="CW-1"
)
VOID_NOTHING = template("whist.ask_void_nothing", "You have no {led_suit} and no clubs: play any card.", rule="CW-1")
VOID_OVERTRUMP = template(
    "whist.ask_void_overtrump", "You have no {led_suit}: you must play a club higher than {card}.", rule="CW-1"
)
VOID_CANNOT = template(
    "whist.ask_void_cannot", "You have no {led_suit} and cannot beat {card}: play any card.", rule="CW-1"
)
KEEP = template("whist.label_keep", "Keep my hand", rule="CW-4")
EXCHANGE = template("whist.label_exchange", "Exchange for the bid hand", rule="CW-4")
EXCHANGE_SIZE = template("whist.label_exchange_size", "Exchange for the bid hand ({size} cards)", rule="CW-4")


def _cards(text: str | None) -> list[Card]:
    return [card(t) for t in (text or "").split()]


def _top(cards: list[Card]) -> Card:
    return max(cards, key=lambda c: c.rank)


def asked(view: Mapping[str, Any], options: object, legal: Sequence[str]) -> Asked:
    """What the seat to act is asked: keep or exchange (CW-4), its lead (CW-2) or how to follow (CW-1); read from
    the engine's legal actions (``legal``), never worked out again here."""
    if view.get("phase") == "exchange":
        words = [Reason(KEEP_OR_EXCHANGE, size=view.get("bid_size") or 13)]
        before = sum(1 for d in view.get("decisions") or [] if d["exchanged"])
        if before == 1:
            words.append(Reason(ONE_BEFORE))
        elif before > 1:
            words.append(Reason(SEVERAL_BEFORE, count=before))
        return Asked(tuple(words), "CW-4")
    cards = _cards(" ".join(legal))
    trick = [card(p["card"]) for p in view.get("trick") or []]
    if not trick:
        return Asked((lead(cards, _cards(view.get("hand")), bool(view.get("clubs_broken"))),), "CW-2")
    return Asked((follow(cards, trick),), "CW-1")


def lead(legal: list[Card], hand: list[Card], clubs_broken: bool) -> Reason:
    """How the seat may lead (CW-2), from its legal cards: the cards of its hand the engine leaves out are its
    clubs, which may not be led yet; a hand all of whose cards may be led holds only clubs until clubs are
    broken."""
    if set(legal) != set(hand):
        return Reason(LEAD_NO_CLUB)
    if hand and not clubs_broken and all(c.suit is Suit.CLUBS for c in hand):
        return Reason(LEAD_ONLY_CLUBS)
    return Reason(LEAD_ANY)


def follow(legal: list[Card], trick: list[Card]) -> Reason:
    """How the seat follows ``trick`` (CW-1), from its legal cards: whether they are of the suit led (it holds
    that suit), clubs (it must trump) or any card, and whether they beat the trick's top card (it must beat)."""
    led = trick[0].suit
    assert led is not None
    clubs = [c for c in trick if c.suit is Suit.CLUBS]
    top_club = _top(clubs) if clubs else None
    of_led = [c for c in legal if c.suit is led]
    suit = suit_key(led.letter)
    if led is Suit.CLUBS:
        assert top_club is not None
        if not of_led:
            return Reason(CLUBS_LED_NONE)
        if any(c.rank > top_club.rank for c in of_led):
            return Reason(CLUBS_LED_BEAT, card=str(top_club))
        return Reason(CLUBS_LED_CANNOT, card=str(top_club))
    if of_led:
        if top_club is not None:
            return Reason(TRUMPED, led_suit=suit)
        top = _top([c for c in trick if c.suit is led])
        if any(c.rank > top.rank for c in of_led):
            return Reason(MUST_BEAT, led_suit=suit, card=str(top))
        return Reason(CANNOT_BEAT, led_suit=suit, card=str(top))
    trumps = bool(legal) and all(c.suit is Suit.CLUBS for c in legal)
    if top_club is None:
        return Reason(VOID_TRUMP, led_suit=suit) if trumps else Reason(VOID_NOTHING, led_suit=suit)
    if trumps and any(c.rank > top_club.rank for c in legal):
        return Reason(VOID_OVERTRUMP, led_suit=suit, card=str(top_club))
    return Reason(VOID_CANNOT, led_suit=suit, card=str(top_club))


def label(view: Mapping[str, Any], action: str) -> Reason:
    """An action as its button says it: keep, exchange (with the bid hand's size), or play a card."""
    if action == "keep":
        return Reason(KEEP)
    if action == "exchange":
        size = view.get("bid_size")
        return Reason(EXCHANGE_SIZE, size=size) if size else Reason(EXCHANGE)
    return play_label(action)


# -- what happened, told ----------------------------------------------------------------------------------------------
EXCHANGES = template("whist.said_exchanges", "{seat} exchanges their hand for the bid hand.", rule="CW-4")
EXCHANGES_YOU = template("whist.said_exchanges_you", "You exchange your hand for the bid hand.", rule="CW-4")
KEEPS = template("whist.said_keeps", "{seat} keeps their hand.", rule="CW-4")
KEEPS_YOU = template("whist.said_keeps_you", "You keep your hand.", rule="CW-4")
SCORED = template("whist.said_scored", "The hand is over: {score_items}.", rule="CW-5")
SEAT_TRICKS = template(
    "whist.said_seat_tricks", "{seat} {n} trick ({points})", plural="{seat} {n} tricks ({points})", count="n"
)


def said(ev: Mapping[str, Any], view: Mapping[str, Any]) -> Said | None:
    """Whist's own events told: a decision on the bid hand (CW-4), a hand's tricks and points (CW-5)."""
    kind = ev["type"]
    if kind == wc.Decided.wire:
        seat = ev["seat"]
        if ev["exchanged"]:
            return told(seat, (Reason(EXCHANGES, seat=seat),), (Reason(EXCHANGES_YOU),))
        return told(seat, (Reason(KEEPS, seat=seat),), (Reason(KEEPS_YOU),))
    if kind == wc.HandScored.wire:
        items = tuple(
            Reason(SEAT_TRICKS, seat=s, n=n, points=signed(ev["scores"][s])) for s, n in enumerate(ev["tricks"])
        )
        return Said((Reason(SCORED, score_items=items),), kind="scored")
    return None


NOBODY_EXCHANGED = template("whist.said_nobody_exchanged", "nobody exchanged", rule="CW-4")
SEATS_EXCHANGED = template("whist.said_seats_exchanged", "{seats} exchanged", rule="CW-4")


def account(hand: Mapping[str, Any]) -> Said:
    """A hand in plain words: the tricks each took, who exchanged; told to each seat with "you"."""
    tricks = list(hand.get("tricks_won") or ())
    exchanged = list(hand.get("exchanged") or ())

    def words(me: int | None) -> tuple[Reason, ...]:
        out = [tricks_words(tricks, me)] if tricks else []
        if not exchanged:
            out.append(Reason(NOBODY_EXCHANGED))
        elif len(exchanged) > 1:
            out.append(Reason(SEATS_EXCHANGED, seats=tuple(exchanged)))
        else:
            one = exchanged[0]
            out.append(Reason(YOU_EXCHANGED) if one == me else Reason(EXCHANGED, seat=one))
        return tuple(out)

    return Said(words(None), {s: words(s) for s in range(len(tricks))})
