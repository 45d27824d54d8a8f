# cython: language_level=3, binding=True
"""The card-level hot paths every game shares, in C: each the same computation as the Python it stands for.

* ``CardSet.__getitem__`` (the random bot's pick: one call per decision), the k-th card of a set in index order, as
  :class:`clubsuite.cards.CardSet` states it in Python. ``clubsuite.cards`` installs :func:`nth_card` in place of
  its own method, handing it the table of cards by index and its own method, which still serves the sets of more
  than 64 bits (the numbered deck's indices start at 64). ``tests/test_cards.py`` compares the two on many sets and
  positions, errors included.
* :func:`shuffled`, the Fisher-Yates pass of every deal (:func:`clubsuite.seeding.shuffled`), and
  :func:`shuffled_items`, the same pass over a tuple of items, installed by ``clubsuite.seeding``.
* :func:`random_choose`, :meth:`clubsuite.bots.RandomBot.choose`, installed by ``clubsuite.bots.random_bot``.

Each is installed where this module is built and ``CLUBS_PURE_PYTHON`` is not set when the installing module is
imported; the tests compare each with the Python it replaces.
"""

cdef extern from *:
    int __builtin_popcountll(unsigned long long) nogil
    int __builtin_ctzll(unsigned long long) nogil

cdef extern from "Python.h":
    size_t _PyLong_NumBits(object) except? -1

cdef tuple _TABLE = ()
cdef object _PYTHON = None


def install(table, python_getitem):
    """Hand over the cards by index and the Python method (for the sets this module leaves to it)."""
    global _TABLE, _PYTHON
    _TABLE = tuple(table)
    _PYTHON = python_getitem


def python_getitem():
    """The Python method handed over (for the tests' comparison)."""
    return _PYTHON


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


cdef object _python_choose = None


def install_choose(bot_class):
    """Put :func:`random_choose` on ``bot_class`` (RandomBot), keeping its own method for the tests' comparison."""
    global _python_choose
    _python_choose = bot_class.choose
    random_choose.__doc__ = _python_choose.__doc__
    bot_class.choose = random_choose


def python_choose():
    """The method ``install_choose`` replaced."""
    return _python_choose


def random_choose(self, view, legal, rng):
    r = rng.random()
    if type(r) is not float:  # a generator of another kind: the Python method says what it makes of it
        return _python_choose(self, view, legal, rng)
    cdef double x = r
    cdef Py_ssize_t n = len(legal)
    return legal[<Py_ssize_t>(x * n)]  # floor(random() * n) of RandomBot.choose: the same draw, the same action
