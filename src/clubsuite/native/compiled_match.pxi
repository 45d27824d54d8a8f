# A match's hot paths over a game's compiled hand, included by the game's _core.pyx after its hand.pxi, which
# defines `cdef class CompiledHand` with `seat_to_act()` (-1 once over), `in_play()`, `legal_cards()` (a mask, in
# play) and `_play(card)` (the engine's hand's fast path, with its events and errors). The game's match.py installs
# these where the kernel is built: each takes the common case of the match's own method in C (a card played by the
# seat to act, the legal cards in play, the seat to act, a view) and hands anything else (a hand of the Python
# engine, notation, a named seat, another phase, no hand) to that method, kept as it was. Each game's
# tests/<game>/test_compiled_hand_<game>.py plays matches through both and compares everything.

cimport cython

from clubsuite.cards import Card as _MatchCard

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
    if type(cur) is CompiledHand and (<CompiledHand>cur).in_play():
        return card_set((<CompiledHand>cur).legal_cards())
    return _python_legal_actions(self)


@cython.binding(True)
def match_apply(self, action, seat=None):
    cur = self._cur
    if seat is None and type(cur) is CompiledHand and type(action) is _MatchCard:
        hand = <CompiledHand>cur
        if hand.in_play():
            events = hand._play(action)
            if hand.scores is None:
                return events
            self._cur = None
            return events[:len(events) - 1] + self._score(cur)  # every event but the hand's score, then the match's
    return _python_apply(self, action, seat)


@cython.binding(True)
def match_view(self, seat):
    if type(seat) is int and seat >= 0:
        views = self._views
        if seat < len(views):
            return views[seat]
    return _python_view(self, seat)
