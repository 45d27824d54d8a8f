# A match's hot paths over a game's compiled hand, included by the game's _core.pyx after its hand.pxi, which
# defines `cdef class CompiledHand` with
#   seat_to_act()          the seat to act, -1 once the hand is over;
#   quick_legal()          the legal actions in the common case (the card play), else None;
#   quick_apply(action)    the events of ``action`` of the seat to act in the common case (a card in play; any
#                          action but notation where the hand takes every one), else None, having changed nothing;
#   scored(events, score)  the hand's last events followed by the match's score events, as the match joins them.
# `match_class(python)` makes the compiled match class of a game once, a subclass of its engine class: its hands are
# compiled hands, and each of `apply`, `legal_actions`, `view` and `to_act` takes the common case in C and hands
# anything else (notation, a named seat, another phase, no hand) to the engine class's own method, which nothing
# changes. The game's match factory chooses between the two classes when a match is made (clubsuite.native
# .match_class_for). Each game's tests/<game>/test_compiled_hand_<game>.py plays matches through both and compares
# everything.

cimport cython


cdef object _python_apply = None
cdef object _python_legal_actions = None
cdef object _python_view = None
cdef object _made = None


def match_class(python):
    """The compiled match class of this game: a subclass of ``python`` (the engine's match class) named
    ``Compiled`` + its name in its module (where the module keeps it, so that a match pickles), made once."""
    global _python_apply, _python_legal_actions, _python_view, _made
    if _made is not None:
        return _made
    _python_apply = python.apply
    _python_legal_actions = python.legal_actions
    _python_view = python.view
    name = "Compiled" + python.__name__
    _made = type(python)(name, (python,), {
        "__module__": python.__module__,
        "__qualname__": name,
        "__made_by__": __name__,
        "__doc__": f"{python.__name__} with the compiled core's hot paths (clubsuite.native): the same results, sooner.",
        "hand_class": CompiledHand,
        "apply": match_apply,
        "legal_actions": match_legal_actions,
        "view": match_view,
        "to_act": property(match_to_act, doc=python.to_act.__doc__),
    })
    match_apply.__doc__ = _python_apply.__doc__
    match_legal_actions.__doc__ = _python_legal_actions.__doc__
    match_view.__doc__ = _python_view.__doc__
    return _made


@cython.binding(True)
def match_to_act(self):
    cur = self._cur
    if type(cur) is CompiledHand:
        seat = (<CompiledHand>cur).seat_to_act()
        return seat if seat >= 0 else None
    return cur.to_act if cur is not None else None


@cython.binding(True)
def match_legal_actions(self):
    cur = self._cur
    if type(cur) is CompiledHand:
        legal = (<CompiledHand>cur).quick_legal()
        if legal is not None:
            return legal
    return _python_legal_actions(self)


@cython.binding(True)
def match_apply(self, action, seat=None):
    cur = self._cur
    if seat is None and type(cur) is CompiledHand:
        hand = <CompiledHand>cur
        events = hand.quick_apply(action)
        if events is not None:
            if hand.scores is None:
                return events
            self._cur = None
            return hand.scored(events, self._score(cur))
    return _python_apply(self, action, seat)


@cython.binding(True)
def match_view(self, seat):
    if type(seat) is int and seat >= 0:
        views = self._views
        if seat < len(views):
            return views[seat]
    return _python_view(self, seat)
