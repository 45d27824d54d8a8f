# The state of one round of North Star's CLUBS in C (core.h's ns_round_t), with the interface of hand.py's
# NorthstarHand: included by _core.pyx. The rules are core.h's (held to the engine by the kernel's differential
# tests); this class keeps beside them what the engine keeps in Python (the plays of the trick, the play to beat, the
# tricks taken, the order of going out, the history and the log) and builds the same events; its refusals, its
# score lines (read when asked, checked against the C's scores) and its accounts are hand.py's own methods called on
# it, so their words and sums are written once. Its legal actions are CompiledLegal, NorthstarLegal's sequence over the kernel's listing of the
# plays (core.h's ns_generate). tests/northstar/test_compiled_hand_northstar.py plays matches through both hands
# side by side and compares every state, view, event and error.

from libc.string cimport memcpy

from clubsuite.cards import CardSet
from clubsuite.engine import Phase
from clubsuite.errors import GameOverError, IllegalActionError, NotYourTurnError
from clubsuite.games.northstar import reasons as _reasons
from clubsuite.games.northstar.combos import Call, Kind, Play, play_fits
from clubsuite.games.northstar.combos import generate as _python_generate
from clubsuite.games.northstar.deal import python_hands_of_shuffle as _python_hands_of_shuffle
from clubsuite.games.northstar.events import (
    DoubleCalled, LastTurn, Passed, Played, RoundEnded, TrickWon, WentOut,
)
from clubsuite.games.northstar.hand import BONUS_CARDS, NO_ACTIONS, NorthstarHand, NorthstarLegal
from clubsuite.reasons import Reason

cdef object _PLAY = Phase.PLAY
cdef object _OVER = Phase.OVER
cdef object _PASS = Call.PASS
cdef object _DOUBLE = Call.DOUBLE
cdef tuple _KINDS = (Kind.SINGLE, Kind.SET, Kind.RUN)
cdef object _KIND_SINGLE = Kind.SINGLE
cdef object _KIND_SET = Kind.SET
cdef object _Play = Play
cdef object _Kind = Kind
cdef object _Played = Played
cdef object _TrickWon = TrickWon
cdef object _WentOut = WentOut
cdef object _LastTurn = LastTurn
cdef object _RoundEnded = RoundEnded
cdef tuple _PASSED = tuple(Passed(seat) for seat in range(6))
cdef tuple _PASS_ONLY = (Call.PASS,)
cdef tuple _PASS_DOUBLE = (Call.PASS, Call.DOUBLE)
cdef tuple _DOUBLE_ONLY = (Call.DOUBLE,)
cdef object _new_tuple = tuple.__new__
cdef ns_action_t _listed[8192]  # NS_MAX_ACTIONS: the plays of one listing (the GIL keeps it to one at a time)


cdef extern from *:
    int __builtin_popcountll(unsigned long long) nogil

cdef extern from "Python.h":
    ctypedef struct PyLongObject:
        pass
    int _PyLong_AsByteArray(PyLongObject *v, unsigned char *bytes, size_t n, int little_endian, int is_signed) except -1


cdef inline object _engine_mask(uint64_t cards):
    """The kernel's mask of North Star cards as the engine's (shifted by NUMBERED_BASE, 64)."""
    return (<object>cards) << 64




cdef inline object _play_of(const ns_action_t *a):
    """The engine's Play of a kernel's play: its cards, its kind and its top value."""
    return tuple3(_Play, wide_card_set(_engine_mask(a.cards)), _KINDS[a.kind], <int>a.high)


cdef int _action_of(object play, ns_action_t *out) except -1:
    """A canonical Play (a CardSet of North Star cards, a Kind, an int) as the kernel's play, read without a Python
    operation: the set's bits 64..127 (North Star's cards; a canonical play holds no others), its kind by identity."""
    cdef unsigned char raw[16]
    cdef object kind = play[1]
    if _PyLong_AsByteArray(<PyLongObject *>play[0], raw, 16, 1, 0) < 0:
        return -1
    memcpy(&out.cards, raw + 8, 8)  # little-endian bytes 8..15: the mask shifted right by 64
    out.kind = NS_SINGLE if kind is _KIND_SINGLE else NS_SET if kind is _KIND_SET else NS_RUN
    out.high = <int8_t>(<long>play[2])
    return 0


def hands_of_shuffle(tuple order, int players, int dealer, stock, discards):
    """The hands (card sets by seat) the shuffle ``order`` gives ``players`` players from ``dealer``'s left when
    ``stock`` is undealt and ``discards`` lie on the pile: deal.py's ``python_hands_of_shuffle`` in C (core.h's
    ns_deal_order, the kernel's own deal), for arguments deal_from_shuffle has checked. Anything else (an order
    that is not 60 North Star cards, too few cards to deal) goes to the Python, which says what is wrong."""
    cdef int cards[60]
    cdef uint64_t hands[6]
    cdef Py_ssize_t k
    cdef long card
    if len(order) != 60 or not 2 <= players <= 6 or not 0 <= dealer < players:
        return _python_hands_of_shuffle(order, players, dealer, stock, discards)
    for k in range(60):
        item = order[k]
        if type(item) is not int:
            return _python_hands_of_shuffle(order, players, dealer, stock, discards)
        card = <long>item - 64
        if not 0 <= card < 60:
            return _python_hands_of_shuffle(order, players, dealer, stock, discards)
        cards[k] = <int>card
    if ns_deal_order(cards, players, dealer, <uint64_t>(stock >> 64), <uint64_t>(discards >> 64), hands) < 10 * players:
        return _python_hands_of_shuffle(order, players, dealer, stock, discards)
    return tuple([wide_card_set(_engine_mask(hands[k])) for k in range(players)])


@cython.no_gc  # it refers to no object that can refer back to it (cards, plays, calls, the frozen options)
cdef class CompiledLegal:
    """The legal actions of one decision, as :class:`~clubsuite.games.northstar.hand.NorthstarLegal` (registered as
    one): the same sequence, equal to it, with the same checks of ``action in legal``; the plays are listed by the
    kernel (core.h's ns_generate, the engine's order) as compact codes, so counting them builds nothing and reading
    one by its index builds that play alone. Iterating, slicing, comparing or hashing builds the whole list as the
    engine does (``combos.generate``)."""

    cdef uint64_t hand  # the kernel's mask of the seat's cards
    cdef object hand_mask  # the engine's, once made
    cdef object _top
    cdef tuple _calls
    cdef object _options
    cdef object _items
    cdef readonly object _handed  # the item last read by its index (what the round takes unchecked)
    cdef ns_action_t handed_code  # that item as the kernel's play, where it was built from the listing
    cdef bint handed_is_code
    cdef ns_action_t top_code  # the play to beat as the kernel's, when `has_top`
    cdef bint has_top
    cdef ns_action_t *codes  # `few`, or a buffer of its own for a longer list
    cdef ns_action_t few[32]
    cdef int n_codes  # -1: not listed yet
    cdef bint wild, crazy

    def __cinit__(self):
        self.codes = NULL
        self.n_codes = -1

    def __dealloc__(self):
        if self.codes != self.few:
            free(self.codes)

    def __init__(self, hand, top, tuple calls, options):
        self.hand = <uint64_t>(hand >> 64)
        self.hand_mask = hand
        self._top = top
        self._calls = calls
        self._options = options
        self._items = None
        self._handed = None
        self.handed_is_code = False
        self.has_top = top is not None
        if self.has_top:
            _action_of(top, &self.top_code)
        self.wild = options.wild_fifteens
        self.crazy = options.crazy

    @property
    def _hand(self):
        if self.hand_mask is None:
            self.hand_mask = _engine_mask(self.hand)
        return self.hand_mask

    cdef int _list(self) except -1:
        """List the plays as codes (once); -1 where the kernel cannot (then the engine's list is built)."""
        cdef ns_list_t l
        if self.n_codes >= 0:
            return self.n_codes
        l.out = _listed
        l.n = l.overflow = 0
        ns_generate(&l, self.hand, &self.top_code if self.has_top else NULL, self.wild, self.crazy)
        if l.overflow:
            self._build()
            return -1
        if l.n <= 32:
            self.codes = self.few
        else:
            self.codes = <ns_action_t *>malloc(l.n * sizeof(ns_action_t))
            if self.codes == NULL:
                raise MemoryError()
        memcpy(self.codes, _listed, l.n * sizeof(ns_action_t))
        self.n_codes = l.n
        return l.n

    def _build(self):
        """The whole list, as the engine builds it: the calls, then ``combos.generate``'s plays."""
        if self._items is None:
            self._items = self._calls + tuple(_python_generate(self._hand, self._top, self.wild, self.crazy))
        return self._items

    def __len__(self):
        if self._items is not None:
            return len(self._items)
        cdef int n = self._list()
        if n < 0:
            return len(self._items)
        return len(self._calls) + n

    def __getitem__(self, index):
        cdef Py_ssize_t k, total, calls
        if type(index) is not int or self._items is not None:
            items = self._build()
            if type(index) is int:
                item = items[index]
                self._handed = item
                self.handed_is_code = False
                return item
            return items[index]
        if self._list() < 0:
            item = self._items[index]
            self._handed = item
            self.handed_is_code = False
            return item
        calls = len(self._calls)
        total = calls + self.n_codes
        k = index
        if k < 0:
            k += total
        if not 0 <= k < total:
            raise IndexError("tuple index out of range")
        if k < calls:
            item = self._calls[k]
            self.handed_is_code = False
        else:
            self.handed_code = self.codes[k - calls]
            item = _play_of(&self.handed_code)
            self.handed_is_code = True
        self._handed = item
        return item

    def __iter__(self):
        return iter(self._build())

    def __contains__(self, item):
        if type(item) is _Play:
            if type(item[0]) is _CompiledCardSet and type(item[1]) is _Kind and type(item[2]) is int:
                return play_fits(item, self._hand, self._top, self.wild, self.crazy)
        elif item is _PASS or item is _DOUBLE:
            return item in self._calls
        return item in self._build()

    def __eq__(self, other):
        if isinstance(other, NorthstarLegal):
            return self._build() == other._build()
        if isinstance(other, tuple):
            return self._build() == other
        return NotImplemented

    def __hash__(self):
        return hash(self._build())

    def __repr__(self):
        return f"NorthstarLegal{self._build()!r}"

    def __reduce__(self):
        """Pickled as the engine's NorthstarLegal of the same decision (a server's worker processes receive it)."""
        return (NorthstarLegal, (self._hand, self._top, self._calls, self._options))

    def index(self, value, start=0, stop=None):
        """As a tuple's ``index`` (Sequence's mixin method)."""
        items = self._build()
        return items.index(value, start, len(items) if stop is None else stop)

    def count(self, value):
        """As a tuple's ``count`` (Sequence's mixin method)."""
        return self._build().count(value)

    def __reversed__(self):
        return reversed(self._build())

    cdef CompiledLegal copied(self):
        cdef CompiledLegal other = _compiled_legal(self.hand, self._top, &self.top_code if self.has_top else NULL,
                                                   self._calls, self._options, self.wild, self.crazy)
        other.hand_mask = self.hand_mask
        other._items = self._items
        other._handed = self._handed
        other.handed_code = self.handed_code
        other.handed_is_code = self.handed_is_code
        return other

    def __clone_state__(self):
        """A copy of this decision's list (:func:`clubsuite.copying.clone_state`)."""
        return self.copied()


cdef CompiledLegal _compiled_legal(uint64_t hand, object top, const ns_action_t *top_code, tuple calls, object options,
                                   bint wild, bint crazy):
    """A CompiledLegal made in C (what ``CompiledLegal(hand, top, calls, options)`` makes, without the call), the
    play to beat given both as the engine's and as the kernel's (``top_code``, NULL when ``top`` is None)."""
    cdef CompiledLegal legal = CompiledLegal.__new__(CompiledLegal)
    legal.hand = hand
    legal.hand_mask = None
    legal._top = top
    legal.has_top = top_code != NULL
    if legal.has_top:
        legal.top_code = top_code[0]
    legal._calls = calls
    legal._options = options
    legal._items = None
    legal._handed = None
    legal.handed_is_code = False
    legal.wild = wild
    legal.crazy = crazy
    return legal


def install_legal(legal_class):
    """Make :class:`CompiledLegal` a ``legal_class`` (NorthstarLegal) for ``isinstance``."""
    legal_class.register(CompiledLegal)


cdef class _KernelOptions:
    """A NorthstarOptions as the kernel's struct, made once per options (they are frozen)."""

    cdef ns_options_t o


cdef dict _KERNEL_OPTIONS = {}


cdef object _kernel_options_of(options):
    made = _KERNEL_OPTIONS.get(options)
    if made is None:
        from clubsuite.games.northstar.bulk import kernel_options

        made = _KernelOptions()
        (<_KernelOptions>made).o = _options(kernel_options(options))
        if len(_KERNEL_OPTIONS) >= 256:
            _KERNEL_OPTIONS.clear()
        _KERNEL_OPTIONS[options] = made
    return made


cdef class CompiledHand:
    """One round of North Star's CLUBS, its state in C: the same attributes, methods, events and errors as
    :class:`clubsuite.games.northstar.hand.NorthstarHand`, several times sooner per action.

    Read-only views of the C state (``hands``, ``won``, ``bonus``, ``doubled``, ``started``, ``to_act``, ...) are
    built when asked; the rest is kept as the engine keeps it."""

    cdef ns_round_t r
    cdef ns_options_t o
    cdef public object deal
    cdef public object dealt_from
    cdef public int dealer
    cdef public object options
    cdef public int n
    cdef public list out_order
    cdef public list trick
    cdef public object top
    cdef public list tricks
    cdef public object ended
    cdef public object scores
    cdef object _lines  # the score lines, once read (None before)
    cdef int end_last, end_team  # how the round ended (-1: none), for the score lines
    cdef public list history
    cdef public list _log
    cdef public object _legal

    def __init__(self, deal, int dealer, options, dealt_from=None):
        cdef uint64_t h[6]
        cdef int n = options.players
        self.deal = deal
        self.dealt_from = dealt_from
        self.dealer = dealer
        self.options = options
        self.n = n
        for s in range(n):
            h[s] = <uint64_t>(int(deal.hands[s]) >> 64)
        ns_round_start(&self.r, h, n, dealer)
        self.o = (<_KernelOptions>_kernel_options_of(options)).o
        self.out_order = []
        self.trick = []
        self.top = None
        self.tricks = []
        self.ended = None
        self.scores = None
        self._lines = None
        self.end_last = self.end_team = -1
        self.history = []
        self._log = []
        self._legal = None

    # -- for the match's compiled paths (native/compiled_match.pxi) ----------------------------------------
    cdef inline int seat_to_act(self):
        return self.r.to_act

    cdef inline object quick_legal(self):
        return self._legal_now()

    cdef inline object quick_apply(self, action):
        if type(action) is str:  # notation: the match reads it
            return None
        return self._apply(action, None)

    cdef inline tuple scored(self, tuple events, tuple score):
        return events + score

    # -- the C state, read -------------------------------------------------------------------------------
    @property
    def to_act(self):
        """The seat to act, None once the round is over."""
        return self.r.to_act if self.r.to_act >= 0 else None

    @property
    def last_turn(self):
        """The last player holding cards, during their final turn (NS-5)."""
        return self.r.last_turn if self.r.last_turn >= 0 else None

    @property
    def hands(self):
        """Each seat's cards now (masks: hidden information, a new list at every read)."""
        return [_engine_mask(self.r.hands[s]) for s in range(self.n)]

    @property
    def won(self):
        """The cards each seat has won in tricks (a new list at every read)."""
        return [_engine_mask(self.r.won[s]) for s in range(self.n)]

    @property
    def bonus(self):
        """The bonus card each seat took, if any (NS-1, NS-5; a new list at every read)."""
        return [self.r.bonus[s] if self.r.bonus[s] >= 0 else None for s in range(self.n)]

    @property
    def doubled(self):
        """Who called double or nothing (NS-8; a new list at every read)."""
        return [bool(self.r.doubled >> s & 1) for s in range(self.n)]

    @property
    def started(self):
        """Who has played a card this round (a new list at every read)."""
        return [bool(self.r.started >> s & 1) for s in range(self.n)]

    @property
    def trick_cards(self):
        """The cards of the trick in progress (a mask)."""
        return _engine_mask(self.r.trick_cards)

    @property
    def top_seat(self):
        """The seat of the play to beat, None when the next play leads."""
        return self.r.top_seat if self.r.top_seat >= 0 else None

    @property
    def passes(self):
        """Passes since the last play."""
        return self.r.passes

    @property
    def _holding(self):
        return self.r.holding

    @property
    def _bonus_left(self):
        return list(BONUS_CARDS[self.n][self.r.n_out:])

    @property
    def _teams(self):
        return self.o.teams != 0

    @property
    def phase(self):
        """``play`` until the round ends, then ``over``."""
        return _OVER if self.scores is not None else _PLAY

    @property
    def is_over(self):
        """Whether the round has ended and been scored."""
        return self.scores is not None

    # The engine's own methods: these read only what this class shows under the same names.
    action_log = NorthstarHand.action_log
    holders = NorthstarHand.holders
    next_holder = NorthstarHand.next_holder
    explain = NorthstarHand.explain
    _checked = NorthstarHand._checked
    summary = NorthstarHand.summary

    def legal_actions(self):
        """The legal actions of the seat to act (see NorthstarHand.legal_actions), NorthstarLegal as the engine
        makes it."""
        return self._legal_now()

    cdef object _legal_now(self):
        legal = self._legal
        if legal is None:
            seat = self.r.to_act
            if seat < 0:
                legal = NO_ACTIONS
            else:
                top = self.top
                if self.o.double_or_nothing and not (self.r.doubled >> seat & 1) and not (self.r.started >> seat & 1):
                    calls = _PASS_DOUBLE if top is not None else _DOUBLE_ONLY
                else:
                    calls = _PASS_ONLY if top is not None else ()
                legal = _compiled_legal(self.r.hands[seat], top, &self.r.top if top is not None else NULL, calls,
                                        self.options, self.o.wild, self.o.crazy)
            self._legal = legal
        return legal

    # -- actions ---------------------------------------------------------------------------------------
    def apply(self, action, seat=None):
        """Apply an action of the seat to act; returns the events. Raises, changing nothing, if it is illegal."""
        return self._apply(action, seat)

    cdef tuple _apply(self, action, seat):
        cdef int actor = self.r.to_act
        if actor < 0:
            raise GameOverError(Reason(_reasons.ROUND_OVER_ACTION, action=str(action)))
        if seat is not None and seat != actor:
            raise NotYourTurnError(Reason(_reasons.NOT_YOUR_TURN, action=str(action), turn_seat=actor, seat=seat))
        cdef CompiledLegal listed = self._legal if type(self._legal) is CompiledLegal else None
        if listed is not None and action is listed._handed and action is not None:
            # Read from this decision's own list by its index (what a bot does): legal by construction, and, where
            # the kernel listed it, already the kernel's play.
            self._legal = None
            self._log.append(action)
            events = self._act(actor, action, &listed.handed_code if listed.handed_is_code else NULL)
        elif (
            type(action) is _Play
            and type(action[0]) is _CompiledCardSet
            and type(action[1]) is _Kind
            and type(action[2]) is int
        ):
            if not play_fits(action, _engine_mask(self.r.hands[actor]), self.top, self.o.wild != 0, self.o.crazy != 0):
                raise IllegalActionError(self.explain(action) or Reason(_reasons.CANNOT_PLAY_NOW, action=str(action)))
            self._legal = None
            self._log.append(action)
            events = self._act(actor, action, NULL)
        elif action is _PASS and self.top is not None:
            self._legal = None
            self._log.append(action)
            events = self._act(actor, action, NULL)
        else:
            action = self._checked(action)
            self._legal = None
            self._log.append(action)
            events = self._act(actor, action, NULL)
        self.history += events
        return events

    cdef tuple _act(self, int seat, action, const ns_action_t *code):
        """A legal action of ``seat`` (to act), with the kernel's statement of it where known (``code``, else
        NULL): the C round takes it; the events and the engine's bookkeeping follow from what it reports (core.h's
        NS_EV_* bits)."""
        cdef ns_action_t a
        cdef ns_events_t ev
        cdef int flags
        if action is _DOUBLE:
            a.kind = NS_DOUBLE
            ns_apply(&self.r, &self.o, &a, &ev)
            return (DoubleCalled(seat),)
        if action is _PASS:
            a.kind = NS_PASS
            first = _PASSED[seat]
        else:
            if code != NULL:
                a = code[0]
            else:
                _action_of(action, &a)
            first = event2(_Played, seat, action)
            self.trick.append((seat, action))
            self.top = action
        flags = ns_apply(&self.r, &self.o, &a, &ev)
        if flags == 0:
            return (first,)
        events = [first]
        if flags & NS_EV_OUT:
            self.out_order.append(ev.out_seat)
            events.append(event2(_WentOut, ev.out_seat, ev.bonus))
        if flags & NS_EV_TRICK:
            cards = wide_card_set(_engine_mask(ev.trick_cards))
            self.tricks.append((ev.trick_seat, cards))
            self.trick = []
            self.top = None
            events.append(tuple3(_TrickWon, ev.trick_seat, cards, bool(ev.at_once)))
        if flags & NS_EV_LAST_TURN:
            events.append(_new_tuple(_LastTurn, (ev.last_turn,)))
        if flags & NS_EV_ENDED:  # NS-2, NS-5, NS-8, NS-10: scored by the C; the score lines are read when asked
            self.end_last, self.end_team = ev.end_last, ev.end_team
            self.scores = tuple([self.r.scores[s] for s in range(self.n)])
            self.ended = _new_tuple(_RoundEnded, (self._last_or_none(), self._team_or_none()))
            events.append(self.ended)
        return tuple(events)

    cdef object _last_or_none(self):
        return self.end_last if self.end_last >= 0 else None

    cdef object _team_or_none(self):
        return self.end_team if self.end_team >= 0 else None

    @property
    def score_lines(self):
        """Each seat's points by source once the round is scored (hand.py's own reading of the finished round:
        NorthstarHand._lines), () before."""
        if self.scores is None:
            return ()
        if self._lines is None:
            lines = NorthstarHand._lines(self, self._last_or_none(), self._team_or_none())
            if tuple([line.points for line in lines]) != self.scores:
                raise AssertionError("the kernel and the engine score the round differently")
            self._lines = lines
        return self._lines

    def clone(self):
        """An independent copy (for search): the C state copied, the engine's lists copied (their items are
        immutable), everything else shared."""
        cdef CompiledHand other = CompiledHand.__new__(CompiledHand)
        other.r = self.r
        other.o = self.o
        other.deal = self.deal
        other.dealt_from = self.dealt_from
        other.dealer = self.dealer
        other.options = self.options
        other.n = self.n
        other.out_order = self.out_order.copy()
        other.trick = self.trick.copy()
        other.top = self.top
        other.tricks = self.tricks.copy()
        other.ended = self.ended
        other.scores = self.scores
        other._lines = self._lines
        other.end_last = self.end_last
        other.end_team = self.end_team
        other.history = self.history.copy()
        other._log = self._log.copy()
        legal = self._legal
        other._legal = (<CompiledLegal>legal).copied() if type(legal) is CompiledLegal else legal
        return other

    def __reduce__(self):
        """Pickled as its deal and actions, and rebuilt by replaying them: the C struct is never written out."""
        return (_replayed_hand, (self.deal, self.dealer, self.options, self.dealt_from, tuple(self._log)))

    def __clone_state__(self):
        """The copy :func:`clubsuite.copying.clone_state` makes of this state (it cannot look inside a C type)."""
        return self.clone()


def _replayed_hand(deal, dealer, options, dealt_from, actions):
    """A compiled round dealt ``deal`` with ``actions`` applied (how a pickled round is rebuilt)."""
    hand = CompiledHand(deal, dealer, options, dealt_from)
    for action in actions:
        hand.apply(action)
    return hand
