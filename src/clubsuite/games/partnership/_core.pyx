# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The compiled partnership kernel: a step-by-step hand for the differential tests and a batch of random matches.

The C code is in core.h (the rules), heuristic.h (the heuristic bot), vector.h (many tables of one learner against
bots, for ``clubsuite.rl.vector``) and clubsuite/native/kernel.h (the engine's random numbers and seeds); this
module only moves numbers across. ``bulk.py`` beside it decides when it is used, with the engine as the fallback.
"""

from libc.stdint cimport int8_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport calloc, free

from math import comb

from clubsuite.native.checks import hands_of, number_in, table_arrays


cdef extern from "heuristic.h":
    ctypedef struct ph_table_t:
        pass

    void ph_start(ph_table_t *tb, const uint64_t *hands, int dealer, int direction) nogil
    int ph_pass(ph_table_t *tb, uint64_t cards) nogil
    int ph_play(ph_table_t *tb, int idx) nogil
    int ph_card_choice(const ph_table_t *tb) nogil
    uint64_t ph_pass_choice(const ph_table_t *tb) nogil
    int ph_finish(ph_table_t *tb, uint64_t *passes_out, int *n_passes, int *out) nogil
    uint64_t ph_legal(const ph_table_t *tb) nogil
    int ph_phase(const ph_table_t *tb) nogil
    int ph_to_act(const ph_table_t *tb) nogil
    uint64_t ph_hand_of(const ph_table_t *tb, int seat) nogil


cdef extern from "core.h":
    ctypedef struct mt_t:
        pass

    ctypedef struct partnership_t:
        uint64_t hands[4]
        uint64_t chosen[4]
        uint64_t taken[4]
        int dealer, direction, to_act, phase, n_chosen
        int leader, trick_len, led, top, winning
        int tricks_done
        int tricks_won[4]
        int team_scores[2]

    ctypedef struct partnership_outcome_t:
        int hands
        int totals[2]
        int winner

    uint64_t derive_seed1(uint64_t base, uint64_t path) nogil
    void partnership_start(partnership_t *p, const uint64_t *hands, int dealer, int direction) nogil
    uint64_t partnership_legal(const partnership_t *p) nogil
    int partnership_pass(partnership_t *p, uint64_t cards) nogil
    int partnership_play(partnership_t *p, int idx) nogil
    uint64_t p_pass_at(uint64_t hand, int index) nogil
    void partnership_random_match(uint64_t match_seed, int target, mt_t *deals, mt_t *bots,
                                  partnership_outcome_t *out) nogil


cdef extern from "heuristic.h":
    void ph_bot_match(uint64_t match_seed, int target, unsigned heuristic, mt_t *deals, mt_t *bots, ph_table_t *tb,
                      partnership_outcome_t *out) nogil


def state_bytes():
    """The size of one hand's state in the kernel (for the memory figures of the benchmarks)."""
    return sizeof(partnership_t)


def pass_at(uint64_t hand, int index):
    """The ``index``-th pass of ``hand`` in the engine's order (for the tests)."""
    hands_of([hand], 1)
    number_in(index, 0, comb(bin(hand).count("1"), 3) - 1, "index")
    return p_pass_at(hand, index)


cdef class PartnershipCore:
    """One hand in the kernel, driven step by step beside the engine's PartnershipHand in the differential tests."""

    cdef partnership_t p

    def __init__(self, hands, int dealer, int direction):
        cdef uint64_t h[4]
        checked = hands_of(hands, 4)
        for s in range(4):
            h[s] = checked[s]
        partnership_start(&self.p, h, number_in(dealer, 0, 3, "dealer"), number_in(direction, 0, 2, "direction"))

    @property
    def to_act(self):
        return self.p.to_act if self.p.to_act >= 0 else None

    @property
    def phase(self):
        return self.p.phase

    @property
    def leader(self):
        return self.p.leader

    @property
    def hands(self):
        return tuple(self.p.hands[s] for s in range(4))

    @property
    def tricks_won(self):
        return tuple(self.p.tricks_won[s] for s in range(4))

    @property
    def team_scores(self):
        return (self.p.team_scores[0], self.p.team_scores[1])

    def legal(self):
        """The legal cards as a mask (play phase), 0 otherwise."""
        return partnership_legal(&self.p) if self.p.phase == 1 else 0

    def pass_cards(self, uint64_t cards):
        """The seat to act passes ``cards`` (three it holds); returns the event code (core.h)."""
        if self.p.phase != 0:
            raise ValueError("not in the pass")
        if bin(cards).count("1") != 3 or cards & ~self.p.hands[self.p.to_act]:
            raise ValueError("a pass is three cards of the hand")
        return partnership_pass(&self.p, cards)

    def play(self, int index):
        """A card of the seat to act; returns the event code (core.h)."""
        if self.p.phase != 1:
            raise ValueError("not in the play")
        if not 0 <= index < 52 or not (partnership_legal(&self.p) >> index) & 1:
            raise ValueError(f"card index {index} is not legal now")
        return partnership_play(&self.p, index)


def random_matches(seeds, int target):
    """Each seed's match played by random bots as ``clubsuite.runner.play_match`` plays it: a list of
    ``(hands, (total of partnership 0, of partnership 1), winning partnership)``."""
    cdef mt_t deals, bots
    cdef partnership_outcome_t out
    cdef uint64_t seed
    results = []
    for s in seeds:
        seed = s
        with nogil:
            partnership_random_match(seed, target, &deals, &bots, &out)
        results.append((out.hands, (out.totals[0], out.totals[1]), out.winner))
    return results


def bot_matches(seeds, int target, int heuristic):
    """Each seed's match as ``clubsuite.runner.play_match`` plays it with bot.py's heuristic bot in the seats of the
    bits of ``heuristic`` and the random bot in the others: a list like ``random_matches``'."""
    cdef mt_t deals, bots
    cdef partnership_outcome_t out
    cdef ph_table_t tb
    cdef uint64_t seed
    cdef unsigned seats = number_in(heuristic, 0, 15, "heuristic seats")
    results = []
    for s in seeds:
        seed = s
        with nogil:
            ph_bot_match(seed, target, seats, &deals, &bots, &tb, &out)
        results.append((out.hands, (out.totals[0], out.totals[1]), out.winner))
    return results


cdef class HeuristicTable:
    """A hand as every seat sees it, for the heuristic bot of ``heuristic.h`` (the search bots' play-outs): built
    from the deal (``hands`` as dealt, the ``dealer``, the pass ``direction``: 0 left, 1 right, 2 none) and brought
    to the present by replaying the passes chosen and the cards played."""

    cdef ph_table_t tb

    def __init__(self, hands, int dealer, int direction):
        cdef uint64_t h[4]
        checked = hands_of(hands, 4)
        for s in range(4):
            h[s] = checked[s]
        ph_start(&self.tb, h, number_in(dealer, 0, 3, "dealer"), number_in(direction, 0, 2, "direction"))

    def pass_cards(self, uint64_t cards):
        """The seat to act passes ``cards`` (three it holds)."""
        if ph_phase(&self.tb) != 0:
            raise ValueError("not in the pass")
        if bin(cards).count("1") != 3 or cards & ~ph_hand_of(&self.tb, ph_to_act(&self.tb)):
            raise ValueError("a pass is three cards of the hand")
        ph_pass(&self.tb, cards)

    def play(self, int index):
        """A card of the seat to act (checked legal)."""
        if ph_phase(&self.tb) != 1:
            raise ValueError("not in the play")
        if not 0 <= index < 52 or not (ph_legal(&self.tb) >> index) & 1:
            raise ValueError(f"card index {index} is not legal now")
        ph_play(&self.tb, index)

    def choice(self):
        """What the heuristic bot does for the seat to act: a card index in play, a pass (a mask) in the pass."""
        phase = ph_phase(&self.tb)
        if phase == 0:
            return ph_pass_choice(&self.tb)
        if phase == 1:
            return ph_card_choice(&self.tb)
        raise ValueError("the hand is over")

    def finish(self):
        """Play the hand to its end with the heuristic bot in every seat: (the passes still chosen, as masks; the
        cards played, as indices), in order."""
        cdef uint64_t passes[4]
        cdef int out[52]
        cdef int n, n_passes
        with nogil:
            n = ph_finish(&self.tb, passes, &n_passes, out)
        return [passes[i] for i in range(n_passes)], [out[i] for i in range(n)]


cdef int _vector_rules(tuple rules, int *out) except -1:
    """The vector tables' rules settings ``(target,)`` checked into ``out``; returns the seat count."""
    if len(rules) != 1:
        raise ValueError("rules: (target,)")
    out[0] = number_in(rules[0], 1, 1 << 20, "target")
    return 4

include "vector_tables.pxi"
include "compiled_hand.pxi"
include "hand.pxi"
include "compiled_match.pxi"
