# The heuristic bot of Free Clubs in C (heuristic.h): its card play for the search bots' play-outs, the whole bot for
# the bulk path's matches. Included by _core.pyx. An engine hand is read by replaying its actions from its deal in
# the kernel (checked against the hand it arrives at); tests/free/test_heuristic_free.py holds the C bot to bot.py.

from libc.string cimport memset
from libc.stdint cimport int8_t, int16_t

cdef extern from "heuristic.h":
    ctypedef struct fh_weights_t:
        double plain_top

    ctypedef struct fh_known_t:
        pass

    int fh_step(fh_known_t *k, free_t *f, int action) nogil
    int fh_choose_play(const fh_weights_t *w, const free_t *f, const fh_known_t *k) nogil
    int fh_finish(const fh_weights_t *w, free_t *f, fh_known_t *k, int8_t *out) nogil
    int fh_choose(const fh_weights_t *w, const free_t *f, const fh_known_t *k, mt_t *rng) nogil
    int fh_finish_hand(const fh_weights_t *w, free_t *f, fh_known_t *k, mt_t *rng, int16_t *out, int room) nogil
    void fh_match(const fh_weights_t *w, uint64_t match_seed, int target, int no_spades_needs_a_trick,
                  unsigned heuristic, mt_t *deals, mt_t *bots, free_outcome_t *out) nogil

from clubsuite.cards import card_at
from clubsuite.games.free.hand import Call, Stage

cdef object _PASS_CALL = Call.PASS
cdef tuple _STAGES = tuple(Stage)
cdef int _N_WEIGHTS = 16


cdef int _constants(tuple values, fh_weights_t *w) except -1:
    """bot.py's heuristic_constants() (bot.py's constants in heuristic.h's order) as the C struct."""
    if len(values) != _N_WEIGHTS:
        raise ValueError(f"the heuristic bot's constants are {_N_WEIGHTS} numbers, not {len(values)}")
    cdef double *out = &w.plain_top  # sixteen doubles in a row
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
    cdef int r
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
    gave = [[0, 0, 0], [0, 0, 0], [0, 0, 0]]
    for giver, receiver, card in hand.passed:
        gave[giver][receiver] |= 1 << card
    for s in range(3):
        if f.hands[s] != hand.hands[s] or f.discarded[s] != hand.discards[s]:
            return False
        for r in range(3):
            if f.gave[s][r] != gave[s][r]:
                return False
    return True


def heuristic_play(hand, tuple constants):
    """The card bot.py's heuristic bot plays for the seat to act of ``hand`` (an engine hand in its card play),
    chosen in C with ``constants`` (bot.py's heuristic_constants()); None where the hand is not in its card play
    or cannot be read."""
    cdef free_t f
    cdef fh_known_t k
    cdef fh_weights_t w
    _constants(constants, &w)
    if not _replayed(hand, &f, &k) or f.stage != _STAGES.index(Stage.PLAY):
        return None
    return card_at(fh_choose_play(&w, &f, &k))


cdef object _action_of_number(int action):
    return _PASS_CALL if action == FC_PASS else card_at(action)


def heuristic_action(hand, tuple constants, state):
    """The action bot.py's heuristic bot takes for the seat to act of engine hand ``hand`` at any stage, chosen in C
    with its generator in ``state`` (``random.Random.getstate()``: the auction draws chests from it), and that
    generator's state after it (for the tests); None where the hand cannot be read or is over."""
    cdef free_t f
    cdef fh_known_t k
    cdef fh_weights_t w
    cdef mt_t mt
    _constants(constants, &w)
    load_generator_state(state, &mt)
    if not _replayed(hand, &f, &k) or f.stage == _STAGES.index(Stage.OVER):
        return None
    action = fh_choose(&w, &f, &k, &mt)
    return _action_of_number(action), generator_state(state, &mt)


def heuristic_finish_hand(hand, tuple constants, state):
    """The actions bot.py's heuristic bot takes in every seat to the end of engine hand ``hand`` from any stage,
    chosen in C with its generator in ``state`` (``random.Random.getstate()``), and the generator's state after them:
    ``(actions, state)``; None where the hand cannot be read or is over (then the engine plays it)."""
    cdef free_t f
    cdef fh_known_t k
    cdef fh_weights_t w
    cdef mt_t mt
    cdef int16_t out[128]
    _constants(constants, &w)
    load_generator_state(state, &mt)
    if not _replayed(hand, &f, &k) or f.stage == _STAGES.index(Stage.OVER):
        return None
    n = fh_finish_hand(&w, &f, &k, &mt, out, 128)
    if n < 0:
        return None
    return [_action_of_number(out[j]) for j in range(n)], generator_state(state, &mt)


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


def _bot_played(seeds, int target, bint no_spades_needs_a_trick, int heuristic, tuple constants):
    cdef mt_t deals, bots
    cdef free_outcome_t out
    cdef fh_weights_t w
    cdef uint64_t seed
    cdef unsigned seats = number_in(heuristic, 0, 7, "heuristic seats")
    _target(target)
    _constants(constants, &w)
    played = []
    for s in seeds:
        seed = s
        with nogil:
            fh_match(&w, seed, target, no_spades_needs_a_trick, seats, &deals, &bots, &out)
        played.append((out.hands, (out.totals[0], out.totals[1], out.totals[2]), out.winners, bool(out.draw),
                       out.decisions))
    return played


def bot_matches(seeds, int target, bint no_spades_needs_a_trick, int heuristic, tuple constants):
    """Each seed's match as ``clubsuite.runner.play_match`` plays it with bot.py's heuristic bot (``constants``:
    bot.py's heuristic_constants()) in the seats of the bits of ``heuristic`` and the random bot in the others:
    a list like ``random_matches``'."""
    return [p[:4] for p in _bot_played(seeds, target, no_spades_needs_a_trick, heuristic, constants)]


def bot_decisions(seeds, int target, bint no_spades_needs_a_trick, int heuristic, tuple constants):
    """The decisions the bots make in each seed's match (as ``bot_matches`` plays it): the benchmarks' count."""
    return [p[4] for p in _bot_played(seeds, target, no_spades_needs_a_trick, heuristic, constants)]
