"""The heuristic bot for Clubs (partnership): the pass, and card play judged for the partnership, from one view.

The bot reads only :class:`PartnershipView` (its own cards, the public table, its own side of the pass) and the
legal actions. Its reasoning:

* **Where the unseen cards are.** :class:`Knowledge` gives the chance that another seat holds some of a set of
  cards, from the free places in each hand, the suits each seat has shown it lacks, and the cards the bot passed
  (they are with the receiver until played, CP-2).
* **What a card is worth kept.** A card's *potential* is the chance that it takes a trick later: a plain card
  loses potential for every higher card still out, a club keeps some however low it is (it can ruff, CP-1), and
  the queen of diamonds is worth keeping to give to the partner later (CP-3).
* **The pass (CP-2).** The three cards go to an opponent (partners sit opposite), so the bot gives the cards it
  values least: low plain cards, preferring to empty a short suit when it holds clubs to ruff with. Clubs and the
  queen of diamonds are valued highly, so they usually stay, but with many clubs emptying a suit can outweigh them
  (a long club suit gives away a low club, or the queen goes with the rest of a short diamond suit).
* **Card play for the partnership.** Every legal card is scored by the chance that the *partnership* takes the
  trick, times the points the trick holds (1 for the trick, 1 per club, 5 for the queen of diamonds), counted
  for the bot's side and against it for the other, minus the potential the card takes away from the hand. So
  the bot does not overtake a partner whose card already holds the trick (that wastes a high card for nothing),
  gives the partner's winning trick the queen of diamonds and clubs when it can, keeps points away from the
  opponents' tricks, and wins cheaply when the opponents lead. The order round the table decides the chances:
  a lead goes through the left opponent to the partner, who plays third, while the right opponent plays last and
  may ruff; so the bot leads a suit its partner has shown it lacks (for the partner to ruff) and stays away from
  suits the opponents lack.
"""

from __future__ import annotations

import random

from clubsuite.bots.base import register_bot
from clubsuite.cards import CLUBS_MASK, FULL_STANDARD, SUIT_MASKS, Card, bit_indices
from clubsuite.engine import LegalActions
from clubsuite.errors import IllegalActionError
from clubsuite.games.partnership.deal import N_SEATS
from clubsuite.games.partnership.hand import (
    RUBY_DAME,
    RUBY_DAME_POINTS,
    PartnershipAction,
    PartnershipPhase,
    Pass,
    PassChoices,
)
from clubsuite.games.partnership.sampling import void_masks
from clubsuite.games.partnership.view import PartnershipView

# -- tuning constants ---------------------------------------------------------------------------------------------
# Chosen by comparing win rates over many matches against random bots and against this bot itself.
TRICK_WORTH = 2.4
"""The average points of a trick (31 points over 13 tricks), the worth of a card that will take one later."""
PLAIN_TOP = 0.8
"""Chance that a plain card with no higher card out takes a trick later (it may be ruffed)."""
PLAIN_DECAY = 0.45
"""Factor on a plain card's potential for each higher card of its suit still out."""
CLUB_TOP = 0.95
"""Chance that the highest club out takes a trick later."""
CLUB_SLOPE = 0.07
"""Potential a club loses for each higher club still out."""
CLUB_FLOOR = 0.35
"""Potential of any club: even a low club can ruff."""
RUBY_KEEP = 1.5
"""Extra worth of holding the queen of diamonds: the chance to give it to the partner's trick later."""
KEEP_WEIGHT = 0.9
"""Weight of a card's potential against the points of the trick now."""
VOID_BONUS = 0.9
"""Worth of a plain suit emptied by the pass, per club held (up to three), for ruffing later."""
PARTNER_CHANCE = 0.7
"""Discount on the partner's chance to win a trick: its card is not known."""
TIE = 1e-3
"""Weight of the rank tie-break between cards of equal score (the lower card is kept back)."""


_bits = bit_indices
"""The card indices in a mask, lowest first."""


def _above(index: int) -> int:
    """The cards of the same suit ranked above ``index``."""
    return SUIT_MASKS[index // 13] & ~((2 << index) - 1)


def card_points(index: int) -> int:
    """The points a card adds to the trick it falls in (CP-3): 1 for a club, 5 for the queen of diamonds."""
    if index < 13:
        return 1
    return RUBY_DAME_POINTS if index == RUBY_DAME else 0


class Knowledge:
    """What one seat can infer about the cards it cannot see.

    ``sure[s]`` are cards known to be in seat ``s``'s hand (those the seat passed to it, CP-2); ``unseen`` the
    other cards out; ``voids[s]`` the suits seat ``s`` has shown it lacks, as card masks; ``slots[s]`` the places
    in seat ``s``'s hand that unseen cards may fill.
    """

    __slots__ = ("_any", "hand", "me", "out", "room", "slots", "sure", "unseen", "voids")

    def __init__(self, view: PartnershipView) -> None:
        self.me = view.seat
        self.hand = int(view.hand)
        self.out = FULL_STANDARD & ~self.hand & ~int(view.played)
        """Every card still held by another seat."""
        self.sure = [0] * N_SEATS
        for s, cards in view.known_cards().items():
            self.sure[s] = int(cards)
        known = 0
        for m in self.sure:
            known |= m
        self.unseen = self.out & ~known
        self.voids = void_masks(view)
        sizes = view.hand_sizes
        self.slots = [0 if s == self.me else sizes[s] - self.sure[s].bit_count() for s in range(N_SEATS)]
        self.room = [
            sum(self.slots[s] for s in range(N_SEATS) if s != self.me and not self.voids[s] & SUIT_MASKS[suit])
            for suit in range(4)
        ]
        """Per suit, the places in the other hands that may hold an unseen card of it."""
        self._any: dict[tuple[int, int], float] = {}

    def p_holds_any(self, seat: int, mask: int) -> float:
        """The chance that ``seat`` holds at least one card of ``mask`` now (cards treated independently)."""
        if seat == self.me:
            return 1.0 if self.hand & mask else 0.0
        if self.sure[seat] & mask:
            return 1.0
        cached = self._any.get((seat, mask))
        if cached is not None:
            return cached
        p_none = 1.0
        for suit in range(4):
            k = (mask & self.unseen & SUIT_MASKS[suit] & ~self.voids[seat]).bit_count()
            if not k:
                continue
            room = self.room[suit]
            if room <= 0:
                continue
            p_none *= (1.0 - self.slots[seat] / room) ** k
        self._any[(seat, mask)] = result = 1.0 - p_none
        return result

    def p_void(self, seat: int, suit: int) -> float:
        """The chance that ``seat`` holds no card of ``suit`` now."""
        return 1.0 - self.p_holds_any(seat, SUIT_MASKS[suit])

    def p_beats(self, seat: int, top: int, led: int) -> float:
        """The chance that ``seat``, playing after ``top`` (the card winning so far), can take the trick over it."""
        if top < 13:  # a club on top: only a higher club beats it
            higher = CLUBS_MASK & _above(top)
            if led == 0:
                return self.p_holds_any(seat, higher)
            return self.p_void(seat, led) * self.p_holds_any(seat, higher)
        void = self.p_void(seat, led)
        return (1.0 - void) * self.p_holds_any(seat, _above(top)) + void * self.p_holds_any(seat, CLUBS_MASK)

    def potential(self, index: int) -> float:
        """The chance that a card of this hand takes a trick later, from the higher cards still out."""
        higher = (self.out & _above(index)).bit_count()
        if index < 13:
            return max(CLUB_FLOOR, CLUB_TOP - CLUB_SLOPE * higher)
        return PLAIN_TOP * PLAIN_DECAY**higher

    def keep_value(self, index: int) -> float:
        """What playing or giving away this card costs the hand, in points."""
        value = self.potential(index) * TRICK_WORTH
        if index == RUBY_DAME:
            value += RUBY_KEEP
        return value


def _beats(card: int, top: int, led: int) -> bool:
    """Whether ``card`` takes the trick over ``top`` (CP-1: the highest club, else the highest of the suit led)."""
    if card < 13:
        return top >= 13 or card > top
    return card // 13 == led and top // 13 == led and card > top


class PartnershipHeuristicBot:
    """A rule-based player for the partnership: passes its least useful cards and plays for its side's points."""

    name = "heuristic"

    def choose(
        self, view: PartnershipView, legal: LegalActions[PartnershipAction], rng: random.Random
    ) -> PartnershipAction:
        """Pick the pass in the pass phase, else a card (see the module docstring)."""
        if not len(legal):
            raise IllegalActionError(f"seat {view.seat} has no legal action to choose from")
        know = Knowledge(view)
        if view.phase is PartnershipPhase.PASS:
            assert isinstance(legal, PassChoices)
            return self.choose_pass(know, legal)
        playable = [c for c in legal if isinstance(c, Card)]  # in play every action is a card
        if len(playable) == 1:
            return playable[0]
        cards = [c.index for c in playable]
        if view.trick:
            best = max(cards, key=lambda c: self._follow_score(view, know, c))
        else:
            best = max(cards, key=lambda c: self._lead_score(know, c))
        return next(c for c in playable if c.index == best)

    # -- the pass ------------------------------------------------------------------------------------------------
    def choose_pass(self, know: Knowledge, legal: PassChoices) -> Pass:
        """The three cards whose loss costs least, counting a plain suit emptied for ruffing (CP-2)."""
        hand = know.hand
        value = {c: know.keep_value(c) for c in _bits(hand)}
        clubs = min(3, (hand & CLUBS_MASK).bit_count())
        ruff = VOID_BONUS * clubs

        def score(choice: Pass) -> float:
            given = int(choice.cards)
            left = hand & ~given
            emptied = sum(1 for s in (1, 2, 3) if hand & SUIT_MASKS[s] and not left & SUIT_MASKS[s])
            # Given to an opponent, a card's worth goes to the other side: it counts twice. (A loop, not sum(): from
            # Python 3.12 on sum() compensates its rounding; the play-outs' C bot, heuristic.h, and the recorded
            # hands of the tests add one after another, as 3.11's sum() does.)
            lost = 0.0
            for c in _bits(given):
                lost += value[c]
            return emptied * ruff - 2 * lost - TIE * sum(_bits(given))

        return max(legal, key=score)

    # -- card play -----------------------------------------------------------------------------------------------
    def _follow_score(self, view: PartnershipView, know: Knowledge, card: int) -> float:
        """The worth of following with ``card``: the partnership's chance of the trick times its points, less
        the card's potential."""
        me = view.seat
        trick = view.trick
        led = trick[0][1].index // 13
        winner = view.winning
        top = next(c.index for s, c in trick if s == winner)
        after = [(me + k) % N_SEATS for k in range(1, N_SEATS - len(trick))]
        partner = (me + 2) % N_SEATS
        points = 1 + sum(card_points(c.index) for _, c in trick) + card_points(card)
        if _beats(card, top, led):
            p_team = self._holds(know, card, led, after, partner)
        elif winner == partner:
            p_team = self._holds(know, top, led, after, partner)
        elif partner in after:
            rest = [s for s in after if s != partner]
            p_team = PARTNER_CHANCE * know.p_beats(partner, top, led) * self._holds(know, top, led, rest, partner)
        else:
            p_team = 0.0
        return (2 * p_team - 1) * points - KEEP_WEIGHT * know.keep_value(card) - TIE * card

    @staticmethod
    def _holds(know: Knowledge, top: int, led: int, after: list[int], partner: int) -> float:
        """The chance that no opponent among ``after`` takes the trick over ``top``."""
        p = 1.0
        for s in after:
            if s != partner:
                p *= 1.0 - know.p_beats(s, top, led)
        return p

    def _lead_score(self, know: Knowledge, card: int) -> float:
        """The worth of leading ``card``: the left opponent plays second, the partner third, the right last.

        The bot's own card holds when neither opponent can beat it; failing that the partner may take the trick,
        by a higher card of the suit or, lacking the suit, by a club that the right opponent cannot overruff.
        """
        me = know.me
        led = card // 13
        lho, partner, rho = (me + 1) % N_SEATS, (me + 2) % N_SEATS, (me + 3) % N_SEATS
        p_me = (1.0 - know.p_beats(lho, card, led)) * (1.0 - know.p_beats(rho, card, led))
        partner_void = know.p_void(partner, led)
        follow = (1.0 - partner_void) * know.p_holds_any(partner, _above(card)) * (1.0 - know.p_beats(rho, card, led))
        ruff = 0.0
        if led:
            overruff = know.p_void(rho, led) * know.p_holds_any(rho, CLUBS_MASK) * 0.5
            ruff = partner_void * know.p_holds_any(partner, CLUBS_MASK) * (1.0 - overruff)
        p_team = p_me + (1.0 - p_me) * min(1.0, PARTNER_CHANCE * follow + ruff)
        points = 1.0 + card_points(card)
        for s in (lho, partner, rho):
            if led == 0:
                points += know.p_holds_any(s, CLUBS_MASK)  # a club lead draws clubs from those who hold them
            else:
                points += know.p_void(s, led) * know.p_holds_any(s, CLUBS_MASK)
        return (2 * p_team - 1) * points - KEEP_WEIGHT * know.keep_value(card) - TIE * card


register_bot("heuristic", PartnershipHeuristicBot, "partnership")
