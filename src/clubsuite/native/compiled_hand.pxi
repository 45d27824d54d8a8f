# What every game's compiled hand (games/<game>/hand.pxi) builds its results with, in C: card sets and two-field
# events and plays, each exactly the object the engine builds in Python. Included by the game's _core.pyx before its hand.pxi.

cimport cython
from cpython.object cimport PyObject, PyTypeObject

from clubsuite.cards import CardSet as _CompiledCardSet


cdef extern from "Python.h":
    object PyType_GenericAlloc(PyTypeObject *tp, Py_ssize_t n)
    void PyTuple_SET_ITEM(object t, Py_ssize_t i, object v)
    void Py_INCREF(object o)
    void PyObject_GC_UnTrack(object o)


cdef inline object card_set(uint64_t mask):
    """``CardSet`` of ``mask`` built as ``int.__new__(CardSet, mask)`` builds it, without the Python call, and left
    out of the cycle collector's watch (see :func:`wide_card_set`)."""
    return wide_card_set(mask)


cdef inline object wide_card_set(object mask):
    """``CardSet`` of an int ``mask`` of any width, built as ``int.__new__(CardSet, mask)`` builds it, without the
    Python call, and left out of the cycle collector's watch: a card set is an int (its ``__slots__`` are empty), so it
    refers to nothing but its class and can be part of no cycle; CPython tracks every instance of a class defined in
    Python all the same, and the engine makes card sets by the thousand per second."""
    cdef tuple args = (mask,)
    cdef object made = (<PyTypeObject *>int).tp_new(_CompiledCardSet, <PyObject *>args, NULL)
    PyObject_GC_UnTrack(made)
    return made


cdef inline object immutable(object e):
    """``e``, a tuple subclass holding only values that hold nothing back (numbers, card sets, enum members, tuples of
    cards, plays), untracked by the cycle collector: it can be part of no cycle, as CPython judges of a plain tuple of
    such values (it untracks those itself, but never a subclass's). The engine's events and plays are built by the
    thousand per second; watched, they would set off a collection every few hundred actions."""
    PyObject_GC_UnTrack(e)
    return e


cdef inline object event2(object tp, object a, object b):
    """An event of two fields (a tuple subclass, clubsuite.events) built in C: what ``tuple.__new__(tp, (a, b))``
    builds, without the call, and left out of the cycle collector's watch (see :func:`immutable`)."""
    cdef object e = PyType_GenericAlloc(<PyTypeObject *>tp, 2)
    Py_INCREF(a)
    PyTuple_SET_ITEM(e, 0, a)
    Py_INCREF(b)
    PyTuple_SET_ITEM(e, 1, b)
    return immutable(e)


cdef inline object tuple3(object tp, object a, object b, object c):
    """A three-field tuple subclass (an event, a play) built in C, as ``tuple.__new__(tp, (a, b, c))``, and left out
    of the cycle collector's watch (see :func:`immutable`)."""
    cdef object e = PyType_GenericAlloc(<PyTypeObject *>tp, 3)
    Py_INCREF(a)
    PyTuple_SET_ITEM(e, 0, a)
    Py_INCREF(b)
    PyTuple_SET_ITEM(e, 1, b)
    Py_INCREF(c)
    PyTuple_SET_ITEM(e, 2, c)
    return immutable(e)
