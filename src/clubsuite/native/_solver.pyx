# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The compiled exact solver (solve.h): the search of clubsuite.solver.search for the trick games and scorers it
knows. ``clubsuite.solver.compiled`` decides when it is used; the Python search is the fallback."""

from libc.stdint cimport uint64_t

from clubsuite.native.checks import cards_of, hands_of, number_in


cdef extern from "solve.h":
    ctypedef struct s_table_t:
        size_t used

    ctypedef struct s_search_t:
        long long nodes
        s_table_t tt

    int s_init(s_search_t *s, int n, const uint64_t *hands, int leader, const int *trick, int trick_len,
               const int *side, int must_beat, int broken, int tricks_done, int max_tricks, int points, int sign,
               uint64_t special, int side_tricks, int other_tricks, long long limit) nogil
    int s_root(s_search_t *s, int *values, uint64_t *legal_out) nogil
    void s_free(s_search_t *s) nogil


def solve(hands, int leader, trick, side, bint must_beat, int broken, int tricks_done, int max_tricks,
          bint points, int sign, uint64_t special, int side_tricks, int other_tricks, long long limit):
    """The exact value of every legal card of the seat to act: ``(status, values, nodes, entries)``; status 0 done,
    1 past ``limit`` nodes, 2 out of memory, 3 the hand is over (values None unless done). ``broken`` is -1 for a
    game with no clubs-broken rule."""
    cdef s_search_t search
    cdef uint64_t h[4]
    cdef int cards[4]
    cdef int sides[4]
    cdef int values[52]
    cdef uint64_t legal = 0
    cdef int n = len(hands), t = len(trick), status
    if not 3 <= n <= 4 or t >= n or len(side) != n:
        raise ValueError("three or four seats, a trick of fewer cards than seats, a side flag for every seat")
    checked = hands_of(hands, n)
    down = cards_of(trick, n - 1, "trick")
    held = 0
    for mask in checked:
        held |= mask
    if any(held >> c & 1 for c in down):
        raise ValueError("trick: a card of the trick is also in a hand")
    number_in(leader, 0, n - 1, "leader")
    number_in(broken, -1, 1, "broken")
    number_in(sign, -1, 1, "sign")
    hands_of([special], 1, 4, "special")
    for p in range(n):
        h[p] = checked[p]
        sides[p] = 1 if side[p] else 0
    for i in range(t):
        cards[i] = down[i]
    if not s_init(&search, n, h, leader, cards, t, sides, must_beat, broken, tricks_done, max_tricks, points, sign,
                  special, side_tricks, other_tricks, limit):
        return 2, None, 0, 0
    with nogil:
        status = s_root(&search, values, &legal)
    nodes, entries = search.nodes, search.tt.used
    s_free(&search)
    if status != 0:
        return status, None, nodes, entries
    out = {}
    cdef int c
    while legal:
        c = 0
        while not (legal >> c) & 1:
            c += 1
        legal &= legal - 1
        out[c] = values[c]
    return 0, out, nodes, entries
