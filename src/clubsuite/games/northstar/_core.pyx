# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The compiled North Star kernel: a step-by-step match for the differential tests and a batch of random matches.

The C code is in core.h (the rules), heuristic.h (the heuristic bot), vector.h (many tables of one learner against
bots, for ``clubsuite.rl.vector``) and clubsuite/native/kernel.h (the engine's random numbers and seeds); this
module only moves numbers across. The rules options come as the tuple ``bulk.kernel_options`` makes of a
``NorthstarOptions``; cards cross as the engine's masks (the kernel's shifted left by ``NUMBERED_BASE``, 64). ``bulk.py``
beside it decides when it is used, with the engine as the fallback.
"""

from libc.stdint cimport int8_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport calloc, free, malloc

from clubsuite.native.checks import number_in, table_arrays


cdef extern from "core.h":
    ctypedef struct mt_t:
        pass

    ctypedef struct ns_action_t:
        uint64_t cards
        int8_t kind, high

    ctypedef struct ns_options_t:
        int players, n_teams, teams, double_or_nothing, wild, crazy, leftover, goal
        int club_points[15]

    ctypedef struct ns_round_t:
        uint64_t hands[6]
        uint64_t won[6]
        uint64_t trick_cards
        uint64_t dealt
        ns_action_t top
        int8_t n, dealer, to_act, top_seat, last_turn, first_out
        int8_t n_out, holding, passes
        int8_t bonus[6]
        uint8_t doubled, started
        int scores[6]

    ctypedef struct ns_list_t:
        ns_action_t *out
        int n, overflow

    ctypedef struct ns_events_t:
        uint64_t trick_cards
        int trick_seat, at_once, out_seat, bonus, last_turn, end_last, end_team

    ctypedef struct ns_match_t:
        ns_round_t round
        int pack_stock, pack_discards
        int rounds, scored, over, winners
        int totals[6]

    int NS_MAX_ACTIONS, NS_SINGLE, NS_SET, NS_RUN, NS_PASS, NS_DOUBLE
    int NS_EV_OUT, NS_EV_TRICK, NS_EV_LAST_TURN, NS_EV_ENDED

    uint64_t derive_seed1(uint64_t base, uint64_t path) nogil
    void ns_generate(ns_list_t *l, uint64_t hand, const ns_action_t *prev, int wild, int crazy) nogil
    int ns_legal(const ns_round_t *r, const ns_options_t *o, ns_action_t *out) nogil
    int ns_apply(ns_round_t *r, const ns_options_t *o, const ns_action_t *a, ns_events_t *ev) nogil
    void ns_round_start(ns_round_t *r, const uint64_t *hands, int n, int dealer) nogil
    void ns_match_start(ns_match_t *m, uint64_t seed) nogil
    void ns_deal(ns_match_t *m, const ns_options_t *o, mt_t *deals) nogil
    int ns_deal_order(const int *order, int n, int dealer, uint64_t stock, uint64_t discards, uint64_t *hands) nogil
    void ns_score(ns_match_t *m, const ns_options_t *o) nogil
    long long ns_random_match(ns_match_t *m, const ns_options_t *o, uint64_t seed, mt_t *deals, mt_t *bots,
                        ns_action_t *actions) nogil


def state_bytes():
    """The size of one round's state in the kernel (for the memory figures of the benchmarks)."""
    return sizeof(ns_round_t)


def match_state_bytes():
    """The size of a whole match's state in the kernel: the round, the kept pack and the totals."""
    return sizeof(ns_match_t)


cdef ns_options_t _options(args) except *:
    """The C options from ``(players, n_teams, teams, double_or_nothing, wild, crazy, leftover, goal, club_points)``,
    each checked (the C trusts them)."""
    cdef ns_options_t o
    players, n_teams, teams, double, wild, crazy, leftover, goal, points = args
    o.players = number_in(players, 2, 6, "players")
    o.n_teams = number_in(n_teams, 2, o.players, "n_teams")
    if o.players % o.n_teams:
        raise ValueError(f"n_teams={n_teams}: the teams must share the {players} seats evenly")
    o.teams = number_in(teams, 0, 1, "teams")
    if not o.teams and o.n_teams != o.players:
        raise ValueError("n_teams: without team play every player is a team of one")
    o.double_or_nothing = number_in(double, 0, 1, "double_or_nothing")
    o.wild = number_in(wild, 0, 1, "wild")
    o.crazy = number_in(crazy, 0, 1, "crazy")
    o.leftover = number_in(leftover, 0, 1, "leftover")
    o.goal = number_in(goal, 1, 1_000_000, "goal")
    if len(points) != 15:
        raise ValueError("club_points: the points of the 15 clubs")
    for i in range(15):
        o.club_points[i] = number_in(points[i], 0, 1000, "club_points")
    return o


def plays(hand, prev, bint wild, bint crazy):
    """The plays of ``hand`` (the engine's mask of at most ten cards) that may follow ``prev`` (a play's code, as
    ``NorthstarCore.legal`` lists it; None: a lead), in the engine's order, as codes (for the tests)."""
    cdef ns_list_t l
    cdef ns_action_t top
    cdef uint64_t cards = _cards(hand, 10, "hand")
    if prev is not None:
        top.cards = _cards(prev >> 64 << 64, 10, "prev")
        top.kind = number_in((prev >> 4) & 0xF, 0, 2, "prev's kind")
        top.high = number_in(prev & 0xF, 1, 15, "prev's top value")
        if top.cards == 0:
            raise ValueError("prev: a play has cards")
    l.out = <ns_action_t *> malloc(NS_MAX_ACTIONS * sizeof(ns_action_t))
    if l.out == NULL:
        raise MemoryError()
    l.n = l.overflow = 0
    try:
        ns_generate(&l, cards, NULL if prev is None else &top, wild, crazy)
        if l.overflow:
            raise OverflowError("more plays than the kernel has room for")
        return [((<object> l.out[i].cards) << 64) + (l.out[i].kind * 16 + l.out[i].high) for i in range(l.n)]
    finally:
        free(l.out)


cdef uint64_t _cards(mask, int most, str name) except? 0:
    """An engine's card mask (bits 64..123) as the kernel's, checked to hold at most ``most`` cards."""
    mask = int(mask)
    if mask < 0 or mask & ~((1 << 124) - (1 << 64)) or mask.bit_count() > most:
        raise ValueError(f"{name}: expected a mask of at most {most} North Star cards")
    return mask >> 64


cdef class NorthstarCore:
    """A whole match in the kernel, driven step by step beside the engine's NorthstarMatch in the differential
    tests: ``deal`` deals the next round from the match seed (the kept pack included, NS-6), ``legal`` lists the
    actions of the seat to act in the engine's order, ``apply`` takes one of them by its place in that list."""

    cdef ns_match_t m
    cdef ns_options_t o
    cdef mt_t deals  # the generator each round is dealt from (seeded afresh at every deal)
    cdef ns_action_t *actions
    cdef int n_actions  # the length of the list in `actions`; -1 when it is to be made again

    def __cinit__(self):
        self.actions = <ns_action_t *> malloc(NS_MAX_ACTIONS * sizeof(ns_action_t))
        if self.actions == NULL:
            raise MemoryError()
        self.n_actions = -1

    def __dealloc__(self):
        free(self.actions)

    def __init__(self, options, uint64_t seed):
        self.o = _options(options)
        ns_match_start(&self.m, seed)

    def deal(self):
        """Deal the next round (hand ``rounds`` of the match seed)."""
        if self.m.over or self.m.round.to_act >= 0:
            raise ValueError("no deal now: the match is over or a round is in progress")
        ns_deal(&self.m, &self.o, &self.deals)
        self.n_actions = -1

    @property
    def to_act(self):
        return self.m.round.to_act if self.m.round.to_act >= 0 else None

    @property
    def dealer(self):
        return self.m.round.dealer

    @property
    def hands(self):
        """Each seat's cards now, as the engine's masks."""
        return tuple((<object> self.m.round.hands[s]) << 64 for s in range(self.o.players))

    @property
    def pack(self):
        """How many undealt cards and discards there were before the last deal (the engine's ``match.packs``)."""
        return (self.m.pack_stock, self.m.pack_discards)

    @property
    def rounds(self):
        return self.m.scored

    @property
    def totals(self):
        return tuple(self.m.totals[s] for s in range(self.o.players))

    @property
    def is_over(self):
        return bool(self.m.over)

    @property
    def winners(self):
        return tuple(s for s in range(self.o.players) if self.m.winners >> s & 1)

    cdef int _list(self) except -1:
        if self.n_actions < 0:
            self.n_actions = ns_legal(&self.m.round, &self.o, self.actions)
            if self.n_actions < 0:
                raise OverflowError("more legal actions than the kernel has room for")
        return self.n_actions

    def legal(self):
        """The legal actions of the seat to act in the engine's order, each as a number: 0 to pass, 1 to double, a
        play as its cards (the engine's mask) plus 16 times its kind (single 0, set 1, run 2) plus its top value."""
        cdef int n = self._list()
        cdef ns_action_t *a
        out = []
        for i in range(n):
            a = &self.actions[i]
            if a.kind == NS_PASS:
                out.append(0)
            elif a.kind == NS_DOUBLE:
                out.append(1)
            else:
                out.append(((<object> a.cards) << 64) + (a.kind * 16 + a.high))  # see legal's docstring
        return out

    def apply(self, int index):
        """The seat to act takes the ``index``-th legal action; returns what it did, as the engine's events in order:
        ``("played" | "passed" | "double", seat)``, then ``("out", seat, bonus)``, ``("trick", seat, cards,
        at_once)``, ``("last", seat)``, ``("ended", last, team)`` (None where the engine has None), and at a round's
        end ``("scored", scores, totals, team_totals)`` and, when the match is decided, ``("match", winners,
        draw, totals)``."""
        cdef ns_events_t ev
        cdef int n = self._list()
        cdef int seat = self.m.round.to_act
        if seat < 0:
            raise ValueError("nobody is to act")
        if not 0 <= index < n:
            raise ValueError(f"action {index} is not one of the {n} legal actions")
        cdef int kind = self.actions[index].kind
        cdef int flags = ns_apply(&self.m.round, &self.o, &self.actions[index], &ev)
        self.n_actions = -1
        events = [("passed" if kind == NS_PASS else "double" if kind == NS_DOUBLE else "played", seat)]
        if flags & NS_EV_OUT:
            events.append(("out", ev.out_seat, ev.bonus))
        if flags & NS_EV_TRICK:
            events.append(("trick", ev.trick_seat, (<object> ev.trick_cards) << 64, bool(ev.at_once)))
        if flags & NS_EV_LAST_TURN:
            events.append(("last", ev.last_turn))
        if flags & NS_EV_ENDED:
            events.append(("ended", ev.end_last if ev.end_last >= 0 else None, ev.end_team if ev.end_team >= 0 else None))
            ns_score(&self.m, &self.o)
            players = self.o.players
            totals = self.totals
            team_totals = [0] * self.o.n_teams
            for s in range(players):
                team_totals[s % self.o.n_teams] += totals[s]
            scores = tuple(self.m.round.scores[s] for s in range(players))
            events.append(("scored", scores, totals, tuple(team_totals)))
            if self.m.over:
                events.append(("match", self.winners, False, totals))  # NS-7: never a draw
        return events


def _random_played(seeds, options):
    """Each seed's match played by random bots: ``(rounds, totals by seat, winners mask, decisions)``."""
    cdef ns_options_t o = _options(options)
    cdef mt_t deals, bots
    cdef ns_match_t m
    cdef uint64_t seed
    cdef long long rc
    cdef ns_action_t *actions = <ns_action_t *> malloc(NS_MAX_ACTIONS * sizeof(ns_action_t))
    if actions == NULL:
        raise MemoryError()
    played = []
    try:
        for s in seeds:
            seed = s
            with nogil:
                rc = ns_random_match(&m, &o, seed, &deals, &bots, actions)
            if rc < 0:
                raise OverflowError(f"match seed {seed}: more legal actions than the kernel has room for")
            played.append((m.scored, tuple(m.totals[i] for i in range(o.players)), m.winners, rc))
    finally:
        free(actions)
    return played


def random_matches(seeds, options):
    """Each seed's match played by random bots as ``clubsuite.runner.play_match`` plays it (first dealer seat 0):
    a list of ``(rounds, totals by seat, winners mask, draw)`` (North Star's CLUBS has no draw, NS-7)."""
    return [(rounds, totals, winners, False) for rounds, totals, winners, _ in _random_played(seeds, options)]


def random_decisions(seeds, options):
    """The decisions the random bots make in each seed's match (as ``random_matches`` plays it): the benchmarks'
    count of actions, since a round has no fixed number of decisions."""
    return [decisions for *_, decisions in _random_played(seeds, options)]


def count_random_rounds(uint64_t first_seed, int matches, options):
    """Play the matches of seeds ``derive_seed(first_seed, k)`` for k below ``matches`` and return the rounds played
    (the bulk path's speed figure, with no Python object per match)."""
    cdef ns_options_t o = _options(options)
    cdef mt_t deals, bots
    cdef ns_match_t m
    cdef long long total = 0, rc = 0
    cdef int k
    cdef ns_action_t *actions = <ns_action_t *> malloc(NS_MAX_ACTIONS * sizeof(ns_action_t))
    if actions == NULL:
        raise MemoryError()
    with nogil:
        for k in range(matches):
            rc = ns_random_match(&m, &o, derive_seed1(first_seed, <uint64_t>k), &deals, &bots, actions)
            if rc < 0:
                break
            total += m.scored
    free(actions)
    if rc < 0:
        raise OverflowError("more legal actions than the kernel has room for")
    return total


include "compiled_hand.pxi"
include "hand.pxi"
include "heuristic.pxi"
include "compiled_match.pxi"


cdef int _vector_rules(tuple rules, int *out) except -1:
    """The vector tables' rules settings (the tuple ``bulk.kernel_options`` makes) checked as ``_options`` checks them,
    written as vector.h's numbers (the eight options, then the 15 club points); returns the player count."""
    if len(rules) != 9:
        raise ValueError("rules: the nine rules settings of bulk.kernel_options")
    cdef ns_options_t o = _options(rules)
    cdef int *head = [o.players, o.n_teams, o.teams, o.double_or_nothing, o.wild, o.crazy, o.leftover, o.goal]
    for k in range(8):
        out[k] = head[k]
    for k in range(15):
        out[8 + k] = o.club_points[k]
    return o.players


include "vector_tables.pxi"
