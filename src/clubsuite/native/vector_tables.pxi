# The vector environment's tables in a game's kernel, the same glue for every game that has them: included by the
# game's _core.pyx, over its vector.h, which names its table vector_table_t and gives
#   VT_IDS      the action ids;
#   VT_OTHERS   the most seats besides the learner's;
#   VT_RULES    how many numbers the rules settings take (the game's _vector_rules checks them: see below);
#   VT_WEIGHTS  how many tuning constants its heuristic bot takes from Python (0 where it takes none);
#   VT_SCRATCH  how many bytes of working memory a step needs, shared by the batch's tables (0 where none);
#   vt_settings, vt_size (the observation's length for the table's settings), vt_reset and vt_step.
# The game's _core.pyx defines, before it includes this file,
#   cdef int _vector_rules(tuple rules, int *out) except -1
# which checks the rules settings, writes them to out[0..VT_RULES) and returns the number of seats. The C trusts its
# arguments; everything is checked here first.

cdef extern from "vector.h":
    ctypedef struct vector_table_t:
        uint64_t base, episode
        int learner

    enum:
        VT_IDS
        VT_OTHERS
        VT_RULES
        VT_WEIGHTS
        VT_SCRATCH

    void vt_settings(vector_table_t *v, const int *rules, int max_hands, int points, int seat, const int *lineup,
                     const double *weights) nogil
    int vt_size(const vector_table_t *v) nogil
    void vt_reset(vector_table_t *v, float *obs, int8_t *mask, void *scratch) nogil
    void vt_step(vector_table_t *v, int64_t id, float *obs, int8_t *mask, double *reward, uint8_t *terminated,
                 uint8_t *truncated, uint8_t *illegal, void *scratch) nogil


ACTION_IDS = VT_IDS
"""The game's action ids (vector.h)."""


def vector_table_bytes():
    """The size of one table of :class:`VectorTables` (for the memory figures)."""
    return sizeof(vector_table_t)


cdef class VectorTables:
    """``n`` tables of one learner against bots (the game's vector.h), stepped together; every array is the caller's,
    one row per table, written in place (checked by shape first). ``rules``: the game's rules settings as numbers
    (its vector.py makes them from the options); ``lineup``: the bots of the other seats in increasing seat order
    (0 the random bot, 1 the heuristic bot); ``seat``: the learner's seat, or -1 to draw it for each episode;
    ``points``: the learner's score of each hand as its reward, else +1/-1/0 for the match's result; ``weights``:
    the heuristic bot's tuning constants where the game's bot takes them from Python (bot.py), else empty.
    ``size``: the length of an observation (a row of ``obs``)."""

    cdef vector_table_t *tables
    cdef void *scratch
    cdef readonly int n, size

    def __cinit__(self, int n, rules, int max_hands, bint points, int seat, lineup, weights=()):
        cdef int kinds[8]
        cdef int settings[32]
        cdef double constants[32]
        number_in(n, 1, 1 << 20, "n")
        if not isinstance(rules, tuple):
            raise TypeError("rules: a tuple of the rules settings")
        seats = _vector_rules(rules, settings)
        number_in(max_hands, 1, 1 << 30, "max_hands")
        number_in(seat, -1, seats - 1, "seat")
        checked = [number_in(k, 0, 1, "lineup") for k in lineup]
        if len(checked) != seats - 1 or seats - 1 > VT_OTHERS:
            raise ValueError(f"lineup: one bot for each of the {seats - 1} other seats")
        for k in range(seats - 1):
            kinds[k] = checked[k]
        values = [float(x) for x in weights]
        if len(values) != VT_WEIGHTS or VT_WEIGHTS > 32:
            raise ValueError(f"weights: the heuristic bot's {VT_WEIGHTS} constants")
        for k in range(VT_WEIGHTS):
            constants[k] = values[k]
        self.tables = <vector_table_t *>calloc(n, sizeof(vector_table_t))
        self.scratch = calloc(1, VT_SCRATCH) if VT_SCRATCH else NULL
        if self.tables == NULL or (VT_SCRATCH and self.scratch == NULL):
            raise MemoryError()
        self.n = n
        for i in range(n):
            vt_settings(&self.tables[i], settings, max_hands, points, seat, kinds, constants)
        self.size = vt_size(&self.tables[0])

    def __dealloc__(self):
        free(self.tables)
        free(self.scratch)

    def reset(self, bases, float[:, ::1] obs, int8_t[:, ::1] mask, int64_t[::1] seats):
        """Start episode 0 of every table, table i from the base seed ``bases[i]``; the bots play to the learner's
        turn. Writes each table's observation, mask and learner's seat."""
        cdef int i
        table_arrays(self.n, {"obs": self.size, "mask": VT_IDS}, {"obs": (obs.shape[0], obs.shape[1]),
                     "mask": (mask.shape[0], mask.shape[1]), "seats": (seats.shape[0],), "bases": (len(bases),)})
        for i in range(self.n):
            self.tables[i].base = number_in(bases[i], 0, (1 << 63) - 1, "bases")
            self.tables[i].episode = 0
            with nogil:
                vt_reset(&self.tables[i], &obs[i, 0], &mask[i, 0], self.scratch)
            seats[i] = self.tables[i].learner

    def step(self, int64_t[::1] actions, float[:, ::1] obs, int8_t[:, ::1] mask, double[::1] rewards,
             uint8_t[::1] terminated, uint8_t[::1] truncated, uint8_t[::1] illegal, int64_t[::1] seats):
        """One id of the learner at every table, then the bots to its next turn (vector.h's step: the next-step
        autoreset, and -1 ending the episode for an id the mask does not allow)."""
        cdef Py_ssize_t i
        table_arrays(self.n, {"obs": self.size, "mask": VT_IDS}, {
            "actions": (actions.shape[0],), "obs": (obs.shape[0], obs.shape[1]), "mask": (mask.shape[0], mask.shape[1]),
            "rewards": (rewards.shape[0],), "terminated": (terminated.shape[0],),
            "truncated": (truncated.shape[0],), "illegal": (illegal.shape[0],),
            "seats": (seats.shape[0],)})
        with nogil:
            for i in range(self.n):
                vt_step(&self.tables[i], actions[i], &obs[i, 0], &mask[i, 0], &rewards[i], &terminated[i],
                        &truncated[i], &illegal[i], self.scratch)
                seats[i] = self.tables[i].learner
