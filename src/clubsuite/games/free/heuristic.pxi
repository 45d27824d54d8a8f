# The heuristic bot of Free Clubs' card play in C (heuristic.h), for the search bots' play-outs: included by
# _core.pyx. An engine hand is read by replaying its actions from its deal in the kernel (checked against the hand
# it arrives at); tests/free/test_heuristic_free.py holds the C bot to bot.py at every decision.

from libc.string cimport memset
from libc.stdint cimport int8_t

cdef extern from "heuristic.h":
    ctypedef struct fh_weights_t:
        double plain_top, plain_decay, plain_length_decay, club_slope, club_floor, keep_weight, friend_defender
        double rival_winner, team_partner, break_team, diamond_value, ace_of_hearts_value, first_spade_cost

    ctypedef struct fh_known_t:
        uint64_t played
        int voids[3]
        int taken_spade[3]
        uint64_t discards[3]
        uint64_t gave[3][3]

    int fh_step(fh_known_t *k, free_t *f, int action) nogil
    int fh_choose_play(const fh_weights_t *w, const free_t *f, const fh_known_t *k) nogil
    int fh_finish(const fh_weights_t *w, free_t *f, fh_known_t *k, int8_t *out) nogil

from clubsuite.cards import card_at
from clubsuite.games.free.hand import Call, Stage

cdef object _PASS_CALL = Call.PASS
cdef tuple _STAGES = tuple(Stage)
cdef int _N_WEIGHTS = 13


cdef int _constants(tuple values, fh_weights_t *w) except -1:
    """playout.py's PLAY_CONSTANTS (bot.py's constants in heuristic.h's order) as the C struct."""
    if len(values) != _N_WEIGHTS:
        raise ValueError(f"the card play's constants are {_N_WEIGHTS} numbers, not {len(values)}")
    cdef double *out = &w.plain_top  # thirteen doubles in a row
    for k in range(_N_WEIGHTS):
        out[k] = values[k]
    return 0


cdef bint _replayed(object hand, free_t *f, fh_known_t *k) except -1:
    """Engine hand ``hand`` in the kernel with what its play has shown, by replaying its actions from its deal;
    False where it cannot be (table mode's misplays, FC-10, or a replay that does not arrive at the hand's state)."""
    cdef uint64_t a[3]
    cdef uint64_t p[3]
    cdef int s, number
    options = hand.options
    if options.misplays:
        return False
    deal = hand.deal
    for s in range(3):
        a[s] = <uint64_t>int(deal.auction[s])
        p[s] = <uint64_t>int(deal.primary[s])
    fc_start(f, a, p, <uint64_t>int(deal.chest), hand.dealer, options.no_spades_needs_a_trick)
    memset(k, 0, sizeof(fh_known_t))
    for action in hand.action_log():
        if action is _PASS_CALL:
            number = FC_PASS
        elif type(action) is Card:
            number = action.index
        else:
            return False
        if not 0 <= number <= FC_PASS or not (fc_legal(f) >> number) & 1:
            return False
        fh_step(k, f, number)
    if f.stage != _STAGES.index(hand.stage) or f.to_act != (-1 if hand.to_act is None else hand.to_act):
        return False
    for s in range(3):
        if f.hands[s] != hand.hands[s]:
            return False
        k.discards[s] = hand.discards[s]
    for giver, receiver, card in hand.passed:
        k.gave[giver][receiver] |= 1ull << card
    return True


def heuristic_play(hand, tuple constants):
    """The card bot.py's heuristic bot plays for the seat to act of ``hand`` (an engine hand in its card play),
    chosen in C with ``constants`` (playout.py's PLAY_CONSTANTS); None where the hand is not in its card play or
    cannot be read."""
    cdef free_t f
    cdef fh_known_t k
    cdef fh_weights_t w
    _constants(constants, &w)
    if not _replayed(hand, &f, &k) or f.stage != _STAGES.index(Stage.PLAY):
        return None
    return card_at(fh_choose_play(&w, &f, &k))


def heuristic_finish(hand, tuple constants):
    """The cards bot.py's heuristic bot plays in every seat to the end of ``hand`` (an engine hand in its card
    play), chosen in C; None where the hand is not in its card play or cannot be read (then the engine plays)."""
    cdef free_t f
    cdef fh_known_t k
    cdef fh_weights_t w
    cdef int8_t out[32]
    _constants(constants, &w)
    if not _replayed(hand, &f, &k) or f.stage != _STAGES.index(Stage.PLAY):
        return None
    n = fh_finish(&w, &f, &k, out)
    return [card_at(out[j]) for j in range(n)]
