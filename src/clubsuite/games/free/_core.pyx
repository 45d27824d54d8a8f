# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The compiled Free Clubs kernel: a step-by-step state for the differential tests and a batch of random matches.

The C code is in core.h (the rules, FC-1 to FC-9 in the default table rules), heuristic.h (the heuristic bot),
vector.h (many tables of one learner against bots, for ``clubsuite.rl.vector``) and clubsuite/native/kernel.h (the
engine's random numbers and seeds); this module only moves numbers across and checks what it is handed (the C
trusts it). ``bulk.py`` beside it decides when it is used, with the engine as the fallback.
"""

from libc.stdint cimport int8_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free

from clubsuite.cards import Card, CardSet
from clubsuite.games.free.deal import FreeDeal
from clubsuite.native.checks import number_in, table_arrays


cdef extern from "core.h":
    ctypedef struct mt_t:
        uint32_t state[624]
        int index

    ctypedef struct free_t:
        uint64_t hands[3]
        uint64_t discarded[3]
        uint64_t gave[3][3]
        int stage, to_act
        int winner, partner
        int leader, last_winner
        int tricks_won[3]
        int scores[3]

    ctypedef struct free_outcome_t:
        int hands
        int totals[3]
        int winners
        int draw
        long long decisions

    int FC_PASS
    int FC_OVER
    void fc_start(free_t *f, const uint64_t *auction, const uint64_t *primary, uint64_t chest, int dealer,
                  int no_spades_needs_a_trick) nogil
    uint64_t fc_legal(const free_t *f) nogil
    int fc_step(free_t *f, int action) nogil
    uint64_t derive_seed1(uint64_t base, uint64_t path) nogil
    void fc_random_match(uint64_t match_seed, int target, int no_spades_needs_a_trick, mt_t *deals, mt_t *bots,
                         free_outcome_t *out) nogil


PASS = FC_PASS
"""The action number of the auction's pass (card indices are 0..53)."""

TARGET_MAX = 100000
"""The highest target the options allow (FC-9); the kernel takes any target from 1 to this."""


def state_bytes():
    """The size of one hand's state in the kernel (for the memory figures of the benchmarks)."""
    return sizeof(free_t)


cdef class FreeCore:
    """One hand in the kernel, driven step by step: the differential tests hold it beside the engine's FreeHand.

    Built from a deal's masks (checked as :class:`~clubsuite.games.free.deal.FreeDeal` checks a deal, so the C is
    never handed cards it cannot hold), the dealer and the option ``no_spades_needs_a_trick`` (FC-8)."""

    cdef free_t f

    def __init__(self, auction, primary, chest, int dealer, bint no_spades_needs_a_trick):
        cdef uint64_t a[3]
        cdef uint64_t p[3]
        try:
            deal = FreeDeal(
                tuple(CardSet.from_mask(int(h)) for h in auction),
                tuple(CardSet.from_mask(int(h)) for h in primary),
                CardSet.from_mask(int(chest)),
            )
        except TypeError as exc:
            raise ValueError(f"a deal: {exc}") from None
        for s in range(3):
            a[s] = deal.auction[s]
            p[s] = deal.primary[s]
        fc_start(&self.f, a, p, int(deal.chest), number_in(dealer, 0, 2, "dealer"), no_spades_needs_a_trick)

    @property
    def to_act(self):
        return self.f.to_act if self.f.to_act >= 0 else None

    @property
    def stage(self):
        """0 auction, 1 handicap, 2 pass, 3 play, 4 over (hand.py's Stage, in order)."""
        return self.f.stage

    @property
    def leader(self):
        """The leader of the trick in progress (-1 before play)."""
        return self.f.leader

    @property
    def last_winner(self):
        """The winner of the last trick taken (-1 before the first)."""
        return self.f.last_winner

    @property
    def winner(self):
        """The auction's winner (-1 during the auction)."""
        return self.f.winner

    @property
    def partner(self):
        """The Joker bidder's partner (-1 without a Joker, FC-4)."""
        return self.f.partner

    @property
    def hands(self):
        return (self.f.hands[0], self.f.hands[1], self.f.hands[2])

    @property
    def tricks_won(self):
        return (self.f.tricks_won[0], self.f.tricks_won[1], self.f.tricks_won[2])

    @property
    def scores(self):
        """Each seat's points for the hand once it is over, else None."""
        if self.f.stage != FC_OVER:
            return None
        return (self.f.scores[0], self.f.scores[1], self.f.scores[2])

    def legal(self):
        """The legal actions as a mask of action numbers (bit ``PASS`` for the pass), 0 once the hand is over."""
        return fc_legal(&self.f)

    def step(self, int action):
        """An action of the seat to act (a card index, or ``PASS``), checked legal; returns the event code."""
        if not 0 <= action <= FC_PASS or not (fc_legal(&self.f) >> action) & 1:
            raise ValueError(f"action {action} is not legal now")
        return fc_step(&self.f, action)


def _target(int target):
    return number_in(target, 1, TARGET_MAX, "target")


def random_matches(seeds, int target, bint no_spades_needs_a_trick):
    """Each seed's match played by random bots as ``clubsuite.runner.play_match`` plays it: a list of
    ``(hands, (total0, total1, total2), winners mask, draw)``."""
    cdef mt_t deals, bots
    cdef free_outcome_t out
    cdef uint64_t seed
    _target(target)
    results = []
    for s in seeds:
        seed = s
        with nogil:
            fc_random_match(seed, target, no_spades_needs_a_trick, &deals, &bots, &out)
        results.append((out.hands, (out.totals[0], out.totals[1], out.totals[2]), out.winners, bool(out.draw)))
    return results


def random_decisions(seeds, int target, bint no_spades_needs_a_trick):
    """The decisions the random bots make in each seed's match (as ``random_matches`` plays them): the benchmarks'
    count of actions, since a Free Clubs hand has no fixed number of decisions."""
    cdef mt_t deals, bots
    cdef free_outcome_t out
    cdef uint64_t seed
    _target(target)
    counts = []
    for s in seeds:
        seed = s
        with nogil:
            fc_random_match(seed, target, no_spades_needs_a_trick, &deals, &bots, &out)
        counts.append(out.decisions)
    return counts


def count_random_hands(uint64_t first_seed, int matches, int target, bint no_spades_needs_a_trick):
    """Play the matches of seeds ``derive_seed(first_seed, k)`` for k below ``matches`` and return the hands played
    (the bulk path's speed figure, with no Python object per hand)."""
    cdef mt_t deals, bots
    cdef free_outcome_t out
    cdef long long total = 0
    cdef int k
    _target(target)
    with nogil:
        for k in range(matches):
            fc_random_match(derive_seed1(first_seed, <uint64_t>k), target, no_spades_needs_a_trick, &deals, &bots,
                            &out)
            total += out.hands
    return total


include "generator_state.pxi"
include "heuristic.pxi"
cdef int _vector_rules(tuple rules, int *out) except -1:
    """The vector tables' rules settings ``(target, no_spades_needs_a_trick)`` checked (FC-9, FC-8) into ``out``;
    returns the seat count."""
    if len(rules) != 2:
        raise ValueError("rules: (target, no_spades_needs_a_trick)")
    out[0] = _target(rules[0])
    out[1] = number_in(rules[1], 0, 1, "no_spades_needs_a_trick")
    return 3

include "vector_tables.pxi"
