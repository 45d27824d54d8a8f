# The heuristic bot of North Star's CLUBS in C (heuristic.h) for the search bots' play-outs: included by _core.pyx
# after hand.pxi. A round is read from a compiled round as it is, or from the engine's round by replaying its actions
# from its deal in C (a search's imagined worlds are engine rounds); tests/northstar/test_heuristic_northstar.py holds
# the C bot to bot.py at every decision.

cdef extern from "heuristic.h":
    ctypedef struct nh_weights_t:
        double kappa, shed, keep_lead, lead_only, lead_value, take, gift, deny, lead_only_control, stranded
        double wild_fill, finish, double_cost, double_per_player

    ctypedef struct nh_table_t:
        pass

    int nh_choose(nh_table_t *t, const ns_round_t *r, const ns_options_t *o, const nh_weights_t *w,
                  uint64_t earlier, const ns_action_t *legal, int n_legal) nogil
    int nh_finish(ns_round_t *r, const ns_options_t *o, const nh_weights_t *w, const uint64_t *earlier,
                  nh_table_t *t, ns_action_t *legal, ns_action_t *out, int room) nogil
    long long nh_match(ns_match_t *m, const ns_options_t *o, const nh_weights_t *w, unsigned heuristic,
                       uint64_t seed, mt_t *deals, mt_t *bots, ns_action_t *actions, nh_table_t *t) nogil

from clubsuite.games.northstar.bot import Weights

cdef tuple _WEIGHT_FIELDS = (
    "kappa", "shed", "keep_lead", "lead_only", "lead_value", "take", "gift", "deny", "lead_only_control",
    "stranded", "wild_fill", "finish", "double_cost", "double_per_player",
)
WEIGHT_FIELDS = _WEIGHT_FIELDS
"""bot.py's Weights' fields in heuristic.h's order (the vector tables take the weights as these numbers)."""
cdef nh_table_t _table  # one decision's table (the GIL keeps it to one at a time)
cdef ns_action_t _played[512]  # the actions of one play-out (a round has some tens to a few hundred)


cdef int _weights(object weights, nh_weights_t *w) except -1:
    """bot.py's Weights as heuristic.h's struct (every field, in heuristic.h's order)."""
    if type(weights) is not Weights:
        raise TypeError(f"weights must be bot.py's Weights, not {type(weights).__name__}")
    cdef double *out = &w.kappa
    for k, name in enumerate(_WEIGHT_FIELDS):
        out[k] = getattr(weights, name)
    return 0


cdef int _engine_action(object action, ns_action_t *out) except -1:
    if action is _PASS:
        out.kind = NS_PASS
        out.cards = 0
        out.high = 0
    elif action is _DOUBLE:
        out.kind = NS_DOUBLE
        out.cards = 0
        out.high = 0
    else:
        _action_of(action, out)
    return 0


cdef object _action_object(const ns_action_t *a):
    if a.kind == NS_PASS:
        return _PASS
    if a.kind == NS_DOUBLE:
        return _DOUBLE
    return _play_of(a)


cdef bint _round_of(object hand, ns_round_t *r) except -1:
    """Round ``hand`` (compiled or the engine's) as core.h's struct; False where the replay of an engine round does
    not arrive at its state (never expected: then the engine plays on)."""
    cdef uint64_t h[6]
    cdef ns_action_t a
    cdef ns_events_t ev
    cdef int n, s
    if type(hand) is CompiledHand:
        r[0] = (<CompiledHand>hand).r
        return True
    n = len(hand.deal.hands)
    for s in range(n):
        h[s] = <uint64_t>(int(hand.deal.hands[s]) >> 64)
    ns_round_start(r, h, n, hand.dealer)
    o = (<_KernelOptions>_kernel_options_of(hand.options)).o
    for action in hand.action_log():
        if r.to_act < 0:
            return False
        _engine_action(action, &a)
        ns_apply(r, &o, &a, &ev)
    to_act = hand.to_act
    if r.to_act != (-1 if to_act is None else to_act):
        return False
    held = hand.hands
    for s in range(n):
        if (<object>r.hands[s]) << 64 != held[s]:
            return False
    return True


def heuristic_choice(hand, weights, earlier):
    """The action bot.py's heuristic bot (``weights``) takes for the seat to act of round ``hand``, which saw
    ``earlier`` in the rounds before (bot.py's seen_earlier), chosen in C (for the tests); None where the round is
    over or cannot be read."""
    cdef ns_round_t r
    cdef nh_weights_t w
    cdef ns_options_t o
    if not _round_of(hand, &r) or r.to_act < 0:
        return None
    _weights(weights, &w)
    o = (<_KernelOptions>_kernel_options_of(hand.options)).o
    n = ns_legal(&r, &o, _listed)
    if n <= 0:
        return None
    k = nh_choose(&_table, &r, &o, &w, <uint64_t>(earlier >> 64), _listed, n)
    return _action_object(&_listed[k])


def heuristic_finish(hand, weights, earlier):
    """The actions bot.py's heuristic bot (``weights``) takes in every seat to the end of round ``hand``, chosen in
    C; ``earlier[s]``: what seat ``s`` saw in the rounds before (bot.py's seen_earlier). None where the round cannot
    be read or a play-out would not fit (then the engine plays it)."""
    cdef ns_round_t r
    cdef nh_weights_t w
    cdef ns_options_t o
    cdef uint64_t seen[6]
    if not _round_of(hand, &r):
        return None
    _weights(weights, &w)
    o = (<_KernelOptions>_kernel_options_of(hand.options)).o
    for s in range(r.n):
        seen[s] = <uint64_t>(earlier[s] >> 64)
    n = nh_finish(&r, &o, &w, seen, &_table, _listed, _played, 512)
    if n < 0:
        return None
    return [_action_object(&_played[k]) for k in range(n)]


def _bot_played(seeds, options, int heuristic, weights):
    """Each seed's match with heuristic bots in the seats of ``heuristic`` (bits), random ones in the others:
    ``(rounds, totals by seat, winners mask, decisions)``."""
    cdef ns_options_t o = _options(options)
    cdef nh_weights_t w
    cdef mt_t deals, bots
    cdef ns_match_t m
    cdef uint64_t seed
    cdef long long rc
    cdef unsigned seats = number_in(heuristic, 0, (1 << o.players) - 1, "heuristic seats")
    _weights(weights, &w)
    cdef ns_action_t *actions = <ns_action_t *> malloc(NS_MAX_ACTIONS * sizeof(ns_action_t))
    if actions == NULL:
        raise MemoryError()
    played = []
    try:
        for s in seeds:
            seed = s
            with nogil:
                rc = nh_match(&m, &o, &w, seats, seed, &deals, &bots, actions, &_table)
            if rc < 0:
                raise OverflowError(f"match seed {seed}: more legal actions than the kernel has room for")
            played.append((m.scored, tuple(m.totals[i] for i in range(o.players)), m.winners, rc))
    finally:
        free(actions)
    return played


def bot_matches(seeds, options, int heuristic, weights):
    """Each seed's match as ``clubsuite.runner.play_match`` plays it (first dealer seat 0) with bot.py's heuristic
    bot (``weights``) in the seats of the bits of ``heuristic`` and the random bot in the others: a list of
    ``(rounds, totals by seat, winners mask, draw)``, as ``random_matches`` gives it."""
    return [(rounds, totals, winners, False) for rounds, totals, winners, _ in _bot_played(seeds, options, heuristic,
                                                                                          weights)]


def bot_decisions(seeds, options, int heuristic, weights):
    """The decisions the bots make in each seed's match (as ``bot_matches`` plays it): the benchmarks' count."""
    return [decisions for *_, decisions in _bot_played(seeds, options, heuristic, weights)]
