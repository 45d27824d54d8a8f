# cython: language_level=3, binding=True
"""A policy network's scores and choice in C (``policy.h``): the arithmetic :mod:`clubsuite.bots.policy` states in
NumPy and Python, the same bits, sooner. ``tests/test_policy_arithmetic.py`` compares the two."""

from libc.stdint cimport uint64_t
from libc.stdlib cimport free, malloc

import numpy as np

cdef extern from "policy.h":
    enum:
        PN_MAX_LAYERS
        PN_MAX_IDS
        PN_MAX_DEPTH
        PN_MAX_WIDTH

    ctypedef struct pn_net_t:
        int layers
        int width[17]
        const float *w[16]
        const float *b[16]
        int most

    ctypedef struct pn_search_t:
        const pn_net_t *net
        const float *base
        int picked, actions
        const int *start
        const int *ids
        int *ints
        float *floats

    void pn_row(const pn_net_t *net, const float *x, float *out, float *work) nogil
    size_t pn_search_floats(const pn_net_t *net) nogil
    size_t pn_search_ints(int actions) nogil
    int pn_search(pn_search_t *S) nogil


MAX_IDS = PN_MAX_IDS
"""The most action ids :meth:`Net.choose` takes."""
MAX_DEPTH = PN_MAX_DEPTH
"""The most ids :meth:`Net.choose` takes in one action's spelling."""
MAX_WIDTH = PN_MAX_WIDTH
"""The most inputs or outputs a layer of a :class:`Net` may have."""


cdef class Net:
    """The layers of a policy (``(weights, biases)`` pairs of float32 arrays, inputs by outputs, checked by the
    caller's reading of the weights file), kept for :meth:`scores` and :meth:`choose`."""

    cdef pn_net_t net
    cdef object kept
    cdef readonly int inputs, outputs

    def __cinit__(self, layers):
        cdef float[:, ::1] w
        cdef float[::1] b
        kept = []
        if not 1 <= len(layers) <= PN_MAX_LAYERS:
            raise ValueError(f"layers: from 1 to {PN_MAX_LAYERS}")
        self.net.layers = len(layers)
        self.net.most = 0
        for k, (weights, biases) in enumerate(layers):
            w = np.ascontiguousarray(weights, dtype=np.float32)
            b = np.ascontiguousarray(biases, dtype=np.float32)
            if k == 0:
                if not 1 <= w.shape[0] <= PN_MAX_WIDTH:
                    raise ValueError(f"layer 0: from 1 to {PN_MAX_WIDTH} inputs")
                self.net.width[0] = w.shape[0]
            if w.shape[0] != self.net.width[k] or b.shape[0] != w.shape[1] or not 1 <= w.shape[1] <= PN_MAX_WIDTH:
                raise ValueError(f"layer {k}: {w.shape[0]} by {w.shape[1]} weights, {b.shape[0]} biases")
            self.net.width[k + 1] = w.shape[1]
            self.net.w[k] = &w[0, 0]
            self.net.b[k] = &b[0]
            self.net.most = max(self.net.most, w.shape[1])
            kept.append((w, b))
        self.kept = kept
        self.inputs, self.outputs = self.net.width[0], self.net.width[self.net.layers]

    def scores(self, x):
        """The scores of each row of ``x`` (rows by inputs), float32, one row at a time in C."""
        cdef float[:, ::1] rows = np.ascontiguousarray(x, dtype=np.float32)
        if rows.shape[1] != self.inputs:
            raise ValueError(f"observations of {self.inputs} values, not {rows.shape[1]}")
        out = np.empty((rows.shape[0], self.outputs), np.float32)
        cdef float[:, ::1] o = out
        cdef Py_ssize_t i
        cdef float *work = <float *>malloc(3 * self.net.most * sizeof(float))
        if work == NULL:
            raise MemoryError()
        try:
            with nogil:
                for i in range(rows.shape[0]):
                    pn_row(&self.net, &rows[i, 0], &o[i, 0], work)
        finally:
            free(work)
        return out

    def choose(self, observation, int picked, spelled):
        """The index in ``spelled`` of the action the policy finds likeliest (``policy.h``'s search): ``observation``
        with nothing picked, its ``picked`` slot starting at ``picked``, ``spelled`` each legal action's ids."""
        cdef float[::1] base = np.ascontiguousarray(observation, dtype=np.float32)
        if base.shape[0] != self.inputs:
            raise ValueError(f"an observation of {self.inputs} values, not {base.shape[0]}")
        top = min(PN_MAX_IDS, self.outputs)
        if not 0 <= picked or picked + top > self.inputs:
            raise ValueError(f"picked: the slot of {top} ids within the observation")
        if any(base[picked + i] != 0 for i in range(top)):
            raise ValueError("observation: its picked slot must hold nothing (the search sets the ids it picks)")
        starts, ids = [0], []
        for seq in spelled:
            if not 1 <= len(seq) <= PN_MAX_DEPTH or not all(0 <= i < top for i in seq):
                raise ValueError(f"an action spelled {tuple(seq)!r}: 1 to {PN_MAX_DEPTH} ids below {top}")
            ids.extend(seq)
            starts.append(len(ids))
        if len(starts) < 2:
            raise ValueError("no actions to choose from")
        cdef int[::1] start_a = np.asarray(starts, np.intc)
        cdef int[::1] ids_a = np.asarray(ids, np.intc)
        cdef pn_search_t S
        S.net = &self.net
        S.base = &base[0]
        S.picked = picked
        S.actions = len(starts) - 1
        S.start = &start_a[0]
        S.ids = &ids_a[0]
        cdef float[::1] floats = np.empty(pn_search_floats(&self.net), np.float32)
        cdef int[::1] ints = np.empty(pn_search_ints(S.actions), np.intc)
        S.floats = &floats[0]
        S.ints = &ints[0]
        with nogil:
            found = pn_search(&S)
        return found
