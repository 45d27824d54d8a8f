# cython: language_level=3, binding=True
"""The card-level hot paths every game shares, in C: each the same computation as the Python it stands for.

* ``CardSet.__getitem__`` (the random bot's pick: one call per decision), the k-th card of a set in index order, as
  :func:`clubsuite.cards.python_nth_card` states it. ``clubsuite.cards`` defines its class's index as
  :func:`nth_card` and hands this module the table of cards by index and the Python statement, which still serves
  the sets of more than 64 bits (the numbered deck's indices start at 64). ``tests/test_cards.py`` compares the two
  on many sets and positions, errors included.
* :func:`shuffled`, the Fisher-Yates pass of every deal (:func:`clubsuite.seeding.shuffled`), and
  :func:`shuffled_items`, the same pass over a tuple of items, which ``clubsuite.seeding`` defines as its own.
* :func:`random_choose`, :meth:`clubsuite.bots.RandomBot.choose`, which that class defines as its method.

Each is chosen where its module defines the function or class, where this module is built and ``CLUBS_PURE_PYTHON``
is not set when that module is imported; nothing is replaced afterwards. The tests compare each with the Python
statement it follows.
"""

cdef extern from *:
    int __builtin_popcountll(unsigned long long) nogil
    int __builtin_ctzll(unsigned long long) nogil

cdef extern from "Python.h":
    size_t _PyLong_NumBits(object) except? -1

from math import floor

cdef tuple _TABLE = ()
cdef object _PYTHON = None


def use_table(table, python_getitem):
    """Take the cards by index and the Python statement of the index (for the sets this module leaves to it)."""
    global _TABLE, _PYTHON
    _TABLE = tuple(table)
    _PYTHON = python_getitem


def nth_card(self, position):
    """The card at ``position`` in index order (negative positions count from the end)."""
    if _PyLong_NumBits(self) > 64:
        return _PYTHON(self, position)
    cdef unsigned long long mask = self
    cdef Py_ssize_t asked = position
    cdef Py_ssize_t at = asked
    cdef int n = __builtin_popcountll(mask)
    if at < 0:
        at += n
    if at < 0 or at >= n:
        raise IndexError(f"card set position {asked} out of range for {n} cards")
    while at > 0:
        mask &= mask - 1
        at -= 1
    return _TABLE[__builtin_ctzll(mask)]


def shuffled(n, rng):
    """The numbers 0..n-1 in a random order: :func:`clubsuite.seeding.shuffled` (Fisher-Yates on ``rng.random()``)
    with its loop in C, drawing the same numbers in the same order and so giving the same order."""
    cdef Py_ssize_t size = n
    cdef Py_ssize_t i, j
    cdef double r
    order = list(range(size))
    rnd = rng.random
    for i in range(size - 1, 0, -1):
        r = rnd()
        j = <Py_ssize_t>(r * (i + 1))  # floor of a non-negative double, as the Python loop's floor()
        order[i], order[j] = order[j], order[i]
    return order


def shuffled_items(tuple items, rng):
    """``items`` in a random order: :func:`clubsuite.seeding.shuffled_items` (the items at the positions
    :func:`shuffled` gives) with its loop in C, the same draws and so the same order."""
    cdef Py_ssize_t size = len(items)
    cdef Py_ssize_t i, j
    cdef double r
    order = list(items)
    rnd = rng.random
    for i in range(size - 1, 0, -1):
        r = rnd()
        j = <Py_ssize_t>(r * (i + 1))
        order[i], order[j] = order[j], order[i]
    return tuple(order)


def random_choose(self, view, legal, rng):
    """Any legal action, each with the same chance: :meth:`clubsuite.bots.RandomBot.choose`'s draw,
    ``legal[floor(rng.random() * len(legal))]``, the same action from the same generator."""
    r = rng.random()
    if type(r) is not float:  # a generator of another kind: the Python expression, whatever it makes of it
        return legal[floor(r * len(legal))]
    cdef double x = r
    cdef Py_ssize_t n = len(legal)
    return legal[<Py_ssize_t>(x * n)]  # floor(random() * n) of RandomBot.choose: the same draw, the same action
