# A Python generator's state in a kernel's generator and back: kernel.h's mt_t is CPython's Mersenne Twister, so a
# kernel can draw from the very state of a ``random.Random`` (``getstate()``) and hand back where it left it
# (``setstate()``). Included by the _core.pyx of every game whose kernel draws for a bot (after its mt_t is declared).


cdef int load_generator_state(object state, mt_t *mt) except -1:
    """``state`` (``random.Random.getstate()``) into the kernel's generator ``mt``."""
    words = state[1]
    if len(words) != 625:
        raise ValueError("state: a random.Random state (624 words and an index)")
    for i in range(624):
        mt.state[i] = words[i]
    mt.index = number_in(words[624], 0, 624, "the state's index")
    return 0


cdef object generator_state(object state, const mt_t *mt):
    """The kernel's generator ``mt`` as a state for ``random.Random.setstate`` (``state``'s version and gauss
    fields kept)."""
    return (state[0], tuple(mt.state[i] for i in range(624)) + (mt.index,), state[2])
