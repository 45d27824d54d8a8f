# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The compiled whist kernel: a step-by-step state for the differential tests and a batch of random matches.

The C code is in core.h (the rules), heuristic.h (the heuristic bot's card play), vector.h (many tables of one
learner against bots, for ``clubsuite.rl.vector``) and clubsuite/native/kernel.h (the
engine's random numbers and seeds); this module only moves numbers across. ``bulk.py`` beside it decides when it is used, with the engine as the fallback.
"""

from libc.stdint cimport int8_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free

from clubsuite.native.checks import hands_of, number_in, table_arrays


cdef extern from "heuristic.h":
    ctypedef struct wh_table_t:
        pass

    void wh_start(wh_table_t *tb, const uint64_t *hands, int leader, const uint64_t *given, const int *known_at,
                  const int *totals, int target) nogil
    int wh_play(wh_table_t *tb, int idx) nogil
    int wh_card_choice(const wh_table_t *tb) nogil
    int wh_finish(wh_table_t *tb, int *out) nogil
    int wh_exchange_choice(uint64_t hand, int seat, int total, int target, int someone_exchanged, mt_t *rng) nogil
    void whist_bots_match(uint64_t match_seed, int target, int lead_rule, const int *bots, mt_t *deals, mt_t *rng,
                          whist_outcome_t *out) nogil
    uint64_t wh_legal(const wh_table_t *tb) nogil
    int wh_phase(const wh_table_t *tb) nogil


cdef extern from "core.h":
    ctypedef struct mt_t:
        uint32_t state[624]
        int index

    ctypedef struct whist_trick_t:
        int led, top_led, top_club, winning, broken

    ctypedef struct whist_t:
        uint64_t hands[3]
        uint64_t bid
        int dealer, to_act, phase, lead_rule
        int last_exchanger
        int leader
        whist_trick_t t
        int trick_len
        int trick[3]
        int tricks_done
        int tricks_won[3]

    ctypedef struct whist_outcome_t:
        int hands
        int totals[3]
        int winners
        int draw

    void mt_seed(mt_t *mt, uint64_t seed) nogil
    double mt_random(mt_t *mt) nogil
    uint64_t derive_seed1(uint64_t base, uint64_t path) nogil
    void whist_start(whist_t *w, const uint64_t *hands, uint64_t bid, int dealer, int lead_rule) nogil
    uint64_t whist_legal(const whist_t *w) nogil
    int whist_decide(whist_t *w, int take) nogil
    int whist_play(whist_t *w, int idx) nogil
    void whist_random_match(uint64_t match_seed, int target, int lead_rule, mt_t *deals, mt_t *bots,
                            whist_outcome_t *out) nogil


include "generator_state.pxi"


def state_bytes():
    """The size of one hand's state in the kernel (for the memory figures of the benchmarks)."""
    return sizeof(whist_t)


def random_doubles(uint64_t seed, int n):
    """The first ``n`` values of ``random.Random(seed).random()`` as the kernel draws them (for the tests)."""
    cdef mt_t mt
    mt_seed(&mt, seed)
    return [mt_random(&mt) for _ in range(n)]


def derive_seed(uint64_t base, uint64_t path):
    """``clubsuite.seeding.derive_seed(base, path)`` as the kernel computes it (for the tests)."""
    return derive_seed1(base, path)


cdef class WhistCore:
    """One hand in the kernel, driven step by step: the differential tests hold it beside the engine's WhistHand."""

    cdef whist_t w

    def __init__(self, hands, uint64_t bid, int dealer, int lead_rule):
        cdef uint64_t h[3]
        checked = hands_of([*hands, bid], 4)
        for s in range(3):
            h[s] = checked[s]
        whist_start(&self.w, h, bid, number_in(dealer, 0, 2, "dealer"), number_in(lead_rule, 0, 1, "lead_rule"))

    @property
    def to_act(self):
        return self.w.to_act if self.w.to_act >= 0 else None

    @property
    def phase(self):
        return self.w.phase

    @property
    def leader(self):
        return self.w.leader

    @property
    def tricks_won(self):
        return (self.w.tricks_won[0], self.w.tricks_won[1], self.w.tricks_won[2])

    @property
    def hands(self):
        return (self.w.hands[0], self.w.hands[1], self.w.hands[2])

    @property
    def bid(self):
        return self.w.bid

    def legal(self):
        """The legal cards as a mask (play phase), 0 otherwise."""
        if self.w.phase != 1:
            return 0
        return whist_legal(&self.w)

    def decide(self, bint take):
        """An exchange decision of the seat to act; returns the event code (core.h)."""
        if self.w.phase != 0:
            raise ValueError("not in the exchange round")
        return whist_decide(&self.w, take)

    def play(self, int index):
        """A card of the seat to act; returns the event code (core.h)."""
        if self.w.phase != 1:
            raise ValueError("not in the play")
        if not 0 <= index < 52 or not (whist_legal(&self.w) >> index) & 1:
            raise ValueError(f"card index {index} is not legal now")
        return whist_play(&self.w, index)


def random_matches(seeds, int target, int lead_rule):
    """Each seed's match played by random bots as ``clubsuite.runner.play_match`` plays it: a list of
    ``(hands, (total0, total1, total2), winners mask, draw)``."""
    cdef mt_t deals, bots
    cdef whist_outcome_t out
    cdef uint64_t seed
    number_in(lead_rule, 0, 1, "lead_rule")
    results = []
    for s in seeds:
        seed = s
        with nogil:
            whist_random_match(seed, target, lead_rule, &deals, &bots, &out)
        results.append((out.hands, (out.totals[0], out.totals[1], out.totals[2]), out.winners, bool(out.draw)))
    return results


def count_random_hands(uint64_t first_seed, int matches, int target, int lead_rule):
    """Play the matches of seeds ``derive_seed(first_seed, k)`` for k below ``matches`` and return the hands played
    (the bulk path's speed figure, with no Python object per hand)."""
    cdef mt_t deals, bots
    cdef whist_outcome_t out
    cdef long long total = 0
    cdef int k
    number_in(lead_rule, 0, 1, "lead_rule")
    with nogil:
        for k in range(matches):
            whist_random_match(derive_seed1(first_seed, <uint64_t>k), target, lead_rule, &deals, &bots, &out)
            total += out.hands
    return total


cdef class HeuristicTable:
    """A hand in play as every seat sees it, for the heuristic bot of ``heuristic.h`` (the search bots' play-outs).

    Built at the hand's first card (``hands`` as the play began, ``leader`` to lead; ``given`` the hand each seat
    left in the middle when it exchanged, 0 if it kept; ``known_at`` where that hand is now: the next exchanger,
    3 for the bid hand, -1 if it kept; ``totals`` the match totals before the hand) and brought to the present by
    ``play``ing every card played since."""

    cdef wh_table_t tb

    def __init__(self, hands, int leader, given, known_at, totals, int target):
        cdef uint64_t h[3]
        cdef uint64_t g[3]
        cdef int at[3]
        cdef int tot[3]
        checked = hands_of(hands, 3)
        left = hands_of(given, 3, name="given")
        for s in range(3):
            h[s] = checked[s]
            g[s] = left[s]
            at[s] = number_in(known_at[s], -1, 3, "known_at")
            tot[s] = totals[s]
        wh_start(&self.tb, h, number_in(leader, 0, 2, "leader"), g, at, tot, target)

    def play(self, int index):
        """A card of the seat to act (checked legal)."""
        if wh_phase(&self.tb) != 1:
            raise ValueError("the hand is over")
        if not 0 <= index < 52 or not (wh_legal(&self.tb) >> index) & 1:
            raise ValueError(f"card index {index} is not legal now")
        wh_play(&self.tb, index)

    def choice(self):
        """The card the heuristic bot plays for the seat to act."""
        if wh_phase(&self.tb) != 1:
            raise ValueError("the hand is over")
        return wh_card_choice(&self.tb)

    def finish(self):
        """Play the hand to its end with the heuristic bot in every seat: the cards played, in order."""
        cdef int out[39]
        cdef int n
        with nogil:
            n = wh_finish(&self.tb, out)
        return [out[i] for i in range(n)]


def exchange_choice(uint64_t hand, int seat, int total, int target, bint someone_exchanged, state):
    """The heuristic bot's exchange decision (True: take the bid hand) with its generator in ``state``
    (``random.Random.getstate()``), and that generator's state after it: for the tests."""
    cdef mt_t mt
    load_generator_state(state, &mt)
    hands_of([hand], 1)
    take = wh_exchange_choice(hand, number_in(seat, 0, 2, "seat"), total, target, someone_exchanged, &mt)
    return bool(take), generator_state(state, &mt)


def bot_matches(seeds, int target, int lead_rule, bots):
    """Each seed's match played as ``clubsuite.runner.play_match`` plays it with ``bots`` by seat (0 the random bot,
    1 the heuristic bot): a list of ``(hands, (total0, total1, total2), winners mask, draw)``."""
    cdef mt_t deals, rng
    cdef whist_outcome_t out
    cdef uint64_t seed
    cdef int kinds[3]
    number_in(lead_rule, 0, 1, "lead_rule")
    for s in range(3):
        kinds[s] = number_in(bots[s], 0, 1, "bots")
    results = []
    for s in seeds:
        seed = s
        with nogil:
            whist_bots_match(seed, target, lead_rule, kinds, &deals, &rng, &out)
        results.append((out.hands, (out.totals[0], out.totals[1], out.totals[2]), out.winners, bool(out.draw)))
    return results


cdef int _vector_rules(tuple rules, int *out) except -1:
    """The vector tables' rules settings ``(target, lead rule)`` checked (CW-5's target; CW-3's reading, 0 or 1) into
    ``out``; returns the seat count."""
    if len(rules) != 2:
        raise ValueError("rules: (target, lead rule)")
    out[0] = number_in(rules[0], 1, 1 << 20, "target")
    out[1] = number_in(rules[1], 0, 1, "rule")
    return 3

include "vector_tables.pxi"
include "compiled_hand.pxi"
include "hand.pxi"
include "compiled_match.pxi"
