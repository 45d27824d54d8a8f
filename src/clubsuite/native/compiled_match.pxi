# A match's hot paths over a game's compiled hand, included by the game's _core.pyx after its hand.pxi, which
# defines `cdef class CompiledHand` with
#   seat_to_act()          the seat to act, -1 once the hand is over;
#   quick_legal()          the legal actions in the common case (the card play), else None;
#   quick_apply(action)    the events of ``action`` of the seat to act in the common case (a card in play; any
#                          action but notation where the hand takes every one), else None, having changed nothing;
#   scored(events, score)  the hand's last events followed by the match's score events, as the match joins them.
# The game's match.py installs these where the kernel is built: each takes the common case of the match's own
# method in C (and `view` and `to_act`), and hands anything else (a hand of the Python engine, notation, a named
# seat, another phase, no hand) to that method, kept as it was. Each game's tests/<game>/test_compiled_hand_<game>.py
# plays matches through both and compares everything.

cimport cython


cdef object _python_apply = None
cdef object _python_legal_actions = None
cdef object _python_view = None


def install(match_class):
    """Put the compiled hot paths on ``match_class``, keeping its own methods as the fallback."""
    global _python_apply, _python_legal_actions, _python_view
    _python_apply = match_class.apply
    _python_legal_actions = match_class.legal_actions
    _python_view = match_class.view
    match_apply.__doc__ = _python_apply.__doc__
    match_legal_actions.__doc__ = _python_legal_actions.__doc__
    match_view.__doc__ = _python_view.__doc__
    match_class.apply = match_apply
    match_class.legal_actions = match_legal_actions
    match_class.view = match_view
    match_class.to_act = property(match_to_act, doc=match_class.to_act.__doc__)


def python_methods():
    """The methods ``install`` replaced (apply, legal_actions, view), for the tests' comparison."""
    return _python_apply, _python_legal_actions, _python_view


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
