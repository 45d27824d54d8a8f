# What every game's compiled hand (games/<game>/hand.pxi) builds its results with, in C: card sets and two-field
# events, each exactly the object the engine builds in Python. Included by the game's _core.pyx before its hand.pxi.

from cpython.object cimport PyObject, PyTypeObject

from clubsuite.cards import CardSet as _CompiledCardSet


cdef extern from "Python.h":
    object PyType_GenericAlloc(PyTypeObject *tp, Py_ssize_t n)
    void PyTuple_SET_ITEM(object t, Py_ssize_t i, object v)
    void Py_INCREF(object o)


cdef inline object card_set(uint64_t mask):
    """``CardSet`` of ``mask`` built as ``int.__new__(CardSet, mask)`` builds it, without the Python call."""
    cdef tuple args = (mask,)
    return (<PyTypeObject *>int).tp_new(_CompiledCardSet, <PyObject *>args, NULL)


cdef inline object event2(object tp, object a, object b):
    """An event of two fields (a tuple subclass, clubsuite.events) built in C: what ``tuple.__new__(tp, (a, b))``
    builds, without the call."""
    cdef object e = PyType_GenericAlloc(<PyTypeObject *>tp, 2)
    Py_INCREF(a)
    PyTuple_SET_ITEM(e, 0, a)
    Py_INCREF(b)
    PyTuple_SET_ITEM(e, 1, b)
    return e
