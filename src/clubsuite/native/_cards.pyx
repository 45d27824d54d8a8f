# cython: language_level=3, binding=True
"""Card sets indexed in C: ``CardSet.__getitem__`` (the random bot's hot path: one call per decision), the k-th card
of a set in index order, as :class:`clubsuite.cards.CardSet` states it in Python.

``clubsuite.cards`` installs :func:`nth_card` in place of its own method where this module is built (and
``CLUBS_PURE_PYTHON`` is not set when it is imported), handing it the table of cards by index and its own method,
which still serves the sets of more than 64 bits (the numbered deck's indices start at 64). ``tests/test_cards.py``
compares the two on many sets and positions, errors included.
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
