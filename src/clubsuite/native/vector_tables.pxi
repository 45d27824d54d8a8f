# The vector environment's tables in a game's kernel, the same glue for every game that has them: included by the
# game's _core.pyx, over its vector.h, which names its table vector_table_t, gives the hooks of
# native/vector_episode.h and
#   VT_IDS          the action ids;
#   VT_SEATS        the most seats of a table;
#   VT_RULES        how many numbers the rules settings take (the game's _vector_rules checks them: see below);
#   VT_WEIGHTS      how many tuning constants its heuristic bot takes from Python (0 where it takes none);
#   VT_SCRATCH      how many bytes of working memory a step needs, shared by the batch's tables (0 where none);
#   VT_MAX_ACTIONS, VT_MAX_SPELLING  the longest legal list, and the most ids one action is spelled with;
#   vt_settings, vt_size (the observation's length for the table's settings).
# The game's _core.pyx defines, before it includes this file,
#   cdef int _vector_rules(tuple rules, int *out) except -1
# which checks the rules settings, writes them to out[0..VT_RULES) and returns the number of seats. The C trusts its
# arguments; everything is checked here first.

cdef extern from "vector.h":
    ctypedef struct vector_table_t:
        uint64_t base, episode
        int learner

    ctypedef struct pn_net_t:
        int layers
        int width[17]
        const float *w[16]
        const float *b[16]
        int most

    ctypedef struct vt_learned_t:
        const pn_net_t *net
        int *start
        int *ids
        int *ints
        float *base
        float *floats
        int8_t *mask

    enum:
        VT_IDS
        VT_SEATS
        VT_RULES
        VT_WEIGHTS
        VT_SCRATCH
        VT_MAX_ACTIONS
        VT_MAX_SPELLING
        VT_OUTSIDE
        VT_LEARNED
        PN_MAX_LAYERS
        PN_MAX_IDS
        PN_MAX_DEPTH
        PN_MAX_WIDTH

    void vt_settings(vector_table_t *v, const int *rules, int max_hands, int points, int seat, const int *lineup,
                     const double *weights) nogil
    int vt_size(const vector_table_t *v) nogil
    int vt_seats(const vector_table_t *v) nogil
    int vt_reset(vector_table_t *v, float *obs, int8_t *mask, void *scratch, vt_learned_t *L) nogil
    int vt_step(vector_table_t *v, int64_t id, float *obs, int8_t *mask, double *rewards, uint8_t *terminated,
                uint8_t *truncated, uint8_t *illegal, void *scratch, vt_learned_t *L) nogil
    size_t pn_search_floats(const pn_net_t *net) nogil
    size_t pn_search_ints(int actions) nogil


ACTION_IDS = VT_IDS
"""The game's action ids (vector.h)."""
SEAT_KINDS = {"random": 0, "heuristic": 1, "learned": VT_LEARNED, "outside": VT_OUTSIDE}
"""Who may play a seat of the tables (vector_episode.h)."""


def vector_table_bytes():
    """The size of one table of :class:`VectorTables` (for the memory figures)."""
    return sizeof(vector_table_t)


cdef class VectorTables:
    """``n`` tables of seats played from outside among bots, stepped together (native/vector_episode.h); every
    array is the caller's, one row per table, written in place (checked by shape first). ``rules``: the game's rules
    settings as numbers (its vector.py makes them from the options); ``seat``: the learner's seat (played from outside),
    or -1 to draw it for each episode; ``lineup``: who plays each other seat in increasing seat order (a kind of
    :data:`SEAT_KINDS`); ``points``: each hand's score as the reward, else +1/-1/0 for the match's result; ``weights``:
    the heuristic bot's tuning constants where the game's bot takes them from Python (bot.py), else empty; ``layers``:
    the learned seats' policy, ``(weights, biases)`` float32 pairs (bots/policy.py's, checked there), where a seat is
    learned. ``size``: the length of an observation (a row of ``obs``); ``seats``: the number of seats."""

    cdef vector_table_t *tables
    cdef void *scratch
    cdef pn_net_t net
    cdef vt_learned_t learned
    cdef object kept
    cdef readonly int n, size, seats

    def __cinit__(self, int n, rules, int max_hands, bint points, int seat, lineup, weights=(), layers=None):
        cdef int kinds[VT_SEATS]
        cdef int settings[32]
        cdef double constants[32]
        number_in(n, 1, 1 << 20, "n")
        if not isinstance(rules, tuple):
            raise TypeError("rules: a tuple of the rules settings")
        seats = _vector_rules(rules, settings)
        number_in(max_hands, 1, 1 << 30, "max_hands")
        number_in(seat, -1, seats - 1, "seat")
        checked = [number_in(k, 0, VT_OUTSIDE, "lineup") for k in lineup]
        if len(checked) != seats - 1 or seats > VT_SEATS:
            raise ValueError(f"lineup: one kind for each of the {seats - 1} other seats")
        for k in range(seats - 1):
            kinds[k] = checked[k]
        values = [float(x) for x in weights]
        if len(values) != VT_WEIGHTS or VT_WEIGHTS > 32:
            raise ValueError(f"weights: the heuristic bot's {VT_WEIGHTS} constants")
        for k in range(VT_WEIGHTS):
            constants[k] = values[k]
        if (VT_LEARNED in checked) != (layers is not None):
            raise ValueError("layers: the learned seats' policy, given where and only where a seat is learned")
        self.kept = []
        if layers is not None:
            self._take_layers(layers)
        self.tables = <vector_table_t *>calloc(n, sizeof(vector_table_t))
        self.scratch = calloc(1, VT_SCRATCH) if VT_SCRATCH else NULL
        if self.tables == NULL or (VT_SCRATCH and self.scratch == NULL):
            raise MemoryError()
        self.n = n
        for i in range(n):
            vt_settings(&self.tables[i], settings, max_hands, points, seat, kinds, constants)
        self.size = vt_size(&self.tables[0])
        self.seats = vt_seats(&self.tables[0])
        if layers is not None and (self.net.width[0] != self.size or self.net.width[self.net.layers] != VT_IDS):
            raise ValueError(f"layers: a policy of {self.size} inputs and {VT_IDS} outputs")

    cdef _take_layers(self, layers):
        """Keep the policy's layers, and the memory of one learned decision (NumPy's arrays: imported only here, a
        table with no learned seat, like the game's other paths, needs none)."""
        import numpy as np

        cdef float[:, ::1] w
        cdef float[::1] b
        if not 1 <= len(layers) <= PN_MAX_LAYERS or <int>VT_IDS > <int>PN_MAX_IDS or <int>VT_MAX_SPELLING > <int>PN_MAX_DEPTH:
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
            self.kept.append((w, b))
        cdef int[::1] start = np.empty(VT_MAX_ACTIONS + 1, np.intc)
        cdef int[::1] ids = np.empty(VT_MAX_ACTIONS * VT_MAX_SPELLING, np.intc)
        cdef int[::1] ints = np.empty(pn_search_ints(VT_MAX_ACTIONS), np.intc)
        cdef float[::1] base = np.empty(self.net.width[0], np.float32)
        cdef float[::1] floats = np.empty(pn_search_floats(&self.net), np.float32)
        cdef int8_t[::1] mask = np.empty(VT_IDS, np.int8)
        self.kept.extend((start, ids, ints, base, floats, mask))
        self.learned.net = &self.net
        self.learned.start, self.learned.ids, self.learned.ints = &start[0], &ids[0], &ints[0]
        self.learned.base, self.learned.floats, self.learned.mask = &base[0], &floats[0], &mask[0]

    def __dealloc__(self):
        free(self.tables)
        free(self.scratch)

    def reset(self, bases, float[:, ::1] obs, int8_t[:, ::1] mask, int64_t[::1] seats):
        """Start episode 0 of every table, table i from the base seed ``bases[i]``, played to the first turn of a seat
        played from outside. Writes each table's seat shown (that seat, or the learner's where the episode ended),
        its observation and mask."""
        cdef int i
        table_arrays(self.n, {"obs": self.size, "mask": VT_IDS}, {"obs": (obs.shape[0], obs.shape[1]),
                     "mask": (mask.shape[0], mask.shape[1]), "seats": (seats.shape[0],), "bases": (len(bases),)})
        for i in range(self.n):
            self.tables[i].base = number_in(bases[i], 0, (1 << 63) - 1, "bases")
            self.tables[i].episode = 0
            with nogil:
                seats[i] = vt_reset(&self.tables[i], &obs[i, 0], &mask[i, 0], self.scratch, &self.learned)

    def step(self, int64_t[::1] actions, float[:, ::1] obs, int8_t[:, ::1] mask, double[:, ::1] rewards,
             uint8_t[::1] terminated, uint8_t[::1] truncated, uint8_t[::1] illegal, int64_t[::1] seats):
        """One id at every table, of the seat to act there, then the seats not played from outside to the next turn
        of one that is (vector_episode.h's step: the next-step autoreset, and -1 ending the episode for an id the
        mask does not allow). ``rewards``: each seat's, one column per seat."""
        cdef Py_ssize_t i
        table_arrays(self.n, {"obs": self.size, "mask": VT_IDS, "rewards": self.seats}, {
            "actions": (actions.shape[0],), "obs": (obs.shape[0], obs.shape[1]), "mask": (mask.shape[0], mask.shape[1]),
            "rewards": (rewards.shape[0], rewards.shape[1]), "terminated": (terminated.shape[0],),
            "truncated": (truncated.shape[0],), "illegal": (illegal.shape[0],),
            "seats": (seats.shape[0],)})
        with nogil:
            for i in range(self.n):
                seats[i] = vt_step(&self.tables[i], actions[i], &obs[i, 0], &mask[i, 0], &rewards[i, 0],
                                   &terminated[i], &truncated[i], &illegal[i], self.scratch, &self.learned)
