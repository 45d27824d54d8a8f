# The state of one whist hand in C (core.h's whist_t), with the interface of hand.py's WhistHand: included by
# _core.pyx. The rules are core.h's (held to the engine by the kernel's differential tests); this class adds the
# engine's bookkeeping around them (the decisions, the exchanged hands, the completed tricks, the version) and the
# same events and errors, the messages worded by the engine's own rules.py.
# tests/whist/test_compiled_hand_whist.py plays matches through both classes side by side and compares every state,
# view, event and error.

from clubsuite.cards import CARD_TABLE, Card, CardSet, card_at
from clubsuite.engine import Phase
from clubsuite.errors import GameOverError, IllegalActionError, InvalidOptionsError, NotYourTurnError
from clubsuite.games.whist import reasons as _reasons
from clubsuite.games.whist import rules as _rules
from clubsuite.games.whist.events import CardPlayed, Decided, HandScored, PlayStarted, TrickTaken
from clubsuite.games.whist.hand import QUOTA, Decision, WhistPhase
from clubsuite.games.whist.options import LeadAfterExchange, WhistOptions
from clubsuite.reasons import HAND_OVER, NOT_HELD, Reason, not_your_turn

cdef object _PLAY = Phase.PLAY
cdef object _OVER = Phase.OVER
cdef object _EXCHANGE_PHASE = WhistPhase.EXCHANGE
cdef object _KEEP = Decision.KEEP
cdef object _TAKE = Decision.EXCHANGE
cdef tuple _DECISIONS = (Decision.KEEP, Decision.EXCHANGE)
cdef tuple _CARDS = tuple(CARD_TABLE[:52])
cdef object _new_tuple = tuple.__new__
cdef object _Card = Card
cdef object _CardPlayed = CardPlayed
cdef object _TrickTaken = TrickTaken


cdef class CompiledHand:
    """One hand of Clubs (whist group) from the deal to the score, its state in C: the same attributes, methods,
    events and errors as :class:`clubsuite.games.whist.hand.WhistHand`, several times sooner per action.

    Read-only views of the C state (``hands``, ``bid``, ``to_act``, ``leader``, ``clubs_broken``, ``tricks_won``)
    are built when asked; the rest is kept as the engine keeps it."""

    cdef whist_t w
    cdef public object deal
    cdef public object options
    cdef public object phase
    cdef public object scores
    cdef public tuple play_start_hands
    cdef public int dealer
    cdef public long version
    cdef public list decisions
    cdef public dict given_up
    cdef public list tricks

    def __init__(self, deal, dealer=0, options=None):
        cdef uint64_t h[3]
        if type(dealer) is not int or not 0 <= dealer < 3:
            raise InvalidOptionsError(f"dealer {dealer!r} is not a seat: expected 0, 1 or 2")
        self.options = options or WhistOptions()
        self.deal = deal
        self.dealer = dealer
        for s in range(3):
            h[s] = int(deal.hands[s])
        rule = 0 if self.options.lead_after_exchange is LeadAfterExchange.LAST_EXCHANGER else 1
        whist_start(&self.w, h, int(deal.bid), dealer, rule)
        self.phase = _EXCHANGE_PHASE
        self.decisions = []
        self.given_up = {}
        self.play_start_hands = ()
        self.tricks = []
        self.scores = None
        self.version = 0

    # -- for the match's compiled paths (native/compiled_match.pxi) ----------------------------------------
    cdef inline int seat_to_act(self):
        return self.w.to_act

    cdef inline object quick_legal(self):
        if self.w.phase == 1:
            return card_set(whist_legal(&self.w))
        return None

    cdef inline object quick_apply(self, action):
        if self.w.phase == 1 and type(action) is _Card:
            return self._play(action)
        return None

    cdef inline tuple scored(self, tuple events, tuple score):
        return events[:len(events) - 1] + score  # the hand's score event gives way to the match's

    # -- the C state, read -------------------------------------------------------------------------------
    @property
    def to_act(self):
        """The seat to act, None once the hand is scored."""
        return self.w.to_act if self.w.to_act >= 0 else None

    @property
    def hands(self):
        """Each seat's cards as a mask (hidden information: a new list at every read)."""
        return [self.w.hands[0], self.w.hands[1], self.w.hands[2]]

    @property
    def bid(self):
        """The bid hand as a mask (hidden information)."""
        return self.w.bid

    @property
    def leader(self):
        """The leader of the trick in progress (-1 in the exchange round)."""
        return self.w.leader

    @property
    def clubs_broken(self):
        """Whether clubs are broken (CW-2)."""
        return self.w.t.broken != 0

    @property
    def tricks_won(self):
        """Tricks taken so far by each seat (a new list at every read)."""
        return [self.w.tricks_won[0], self.w.tricks_won[1], self.w.tricks_won[2]]

    @property
    def is_over(self):
        """Whether all thirteen tricks have been played and scored."""
        return self.scores is not None

    @property
    def trick(self):
        """The trick in progress as (seat, card) pairs in play order."""
        lead = self.w.leader
        return tuple(((lead + k) % 3, _CARDS[self.w.trick[k]]) for k in range(self.w.trick_len))

    @property
    def trick_indices(self):
        """The card indices of the trick in progress."""
        return tuple(self.w.trick[k] for k in range(self.w.trick_len))

    def hand_of(self, int seat):
        """The cards ``seat`` holds now (hidden information: for the engine, views and tests only)."""
        if not 0 <= seat < 3:
            raise IndexError(f"seat {seat} is not a seat: expected 0, 1 or 2")
        return card_set(self.w.hands[seat])

    def legal_mask(self):
        """The legal cards of the seat to act as a mask (0 once the hand is over)."""
        if self.w.to_act < 0:
            return 0
        return whist_legal(&self.w)

    def legal_actions(self):
        """The legal actions of the seat to act: a :class:`CardSet` in play, the two decisions in the exchange."""
        if self.w.phase == 1:
            return card_set(whist_legal(&self.w))
        if self.w.phase == 0:
            return _DECISIONS
        return ()

    def explain(self, action):
        """Why ``action`` is illegal now, or None if it is legal. Never changes the state."""
        if self.scores is not None:
            return Reason(HAND_OVER, action=str(action))
        seat = self.w.to_act
        if self.w.phase == 0:
            if isinstance(action, Decision):
                return None
            return Reason(_reasons.NOT_A_DECISION, action=str(action), seat=seat)
        if not isinstance(action, Card):
            return Reason(_reasons.NOT_A_CARD, action=str(action), seat=seat)
        index = action.index
        hand = int(self.w.hands[seat])
        if not hand >> index & 1:
            return Reason(NOT_HELD, card=str(action))
        if whist_legal(&self.w) >> index & 1:
            return None
        if self.w.trick_len == 0:
            return _rules.explain_lead(hand, index)
        return _rules.explain_follow(hand, index, self.w.t.led, self.w.t.top_led, self.w.t.top_club)

    # -- actions ---------------------------------------------------------------------------------------
    def apply(self, action, seat=None):
        """Apply the action of the seat to act (``seat``, if given, must be that seat) and return the events."""
        if self.scores is not None:
            raise GameOverError(Reason(HAND_OVER, action=str(action)))
        if seat is not None and seat != self.w.to_act:
            raise NotYourTurnError(not_your_turn(seat, action, self.to_act))
        if self.w.phase == 1 and isinstance(action, Card):
            return self._play(action)
        reason = self.explain(action)
        if reason is not None:
            raise IllegalActionError(reason)
        return self._decide(action is _TAKE)

    def _decide(self, bint exchange):
        """An exchange decision of the seat to act (CW-4), checked by the caller."""
        cdef int seat = self.w.to_act
        if exchange:
            self.given_up[seat] = self.w.hands[seat]
        whist_decide(&self.w, exchange)
        self.decisions.append((seat, bool(exchange)))
        self.version += 1
        if seat != self.dealer:
            return (Decided(seat, bool(exchange)),)
        self.phase = _PLAY
        self.play_start_hands = (self.w.hands[0], self.w.hands[1], self.w.hands[2])
        return (Decided(seat, bool(exchange)), PlayStarted(self.w.leader))

    cpdef _play(self, card):
        """A card of the seat to act (play phase); raises :class:`IllegalActionError` and changes nothing when it
        may not be played."""
        cdef int seat = self.w.to_act
        cdef int idx = card[0]
        cdef int leader = self.w.leader
        if idx < 0 or idx >= 52 or not (whist_legal(&self.w) >> idx) & 1:
            raise IllegalActionError(self.explain(card) or f"{card} is illegal")
        cdef int event = whist_play(&self.w, idx)
        self.version += 1
        played = event2(_CardPlayed, seat, card)
        if event == 0:
            return (played,)
        cdef int winner = self.w.leader
        cards = (self.w.trick[0], self.w.trick[1], self.w.trick[2])
        self.tricks.append((leader, cards, winner))
        taken = _new_tuple(_TrickTaken, (winner, self.w.tricks_done, (_CARDS[cards[0]], _CARDS[cards[1]],
                                                                       _CARDS[cards[2]])))
        if event != 3:
            return (played, taken)
        tricks_won = (self.w.tricks_won[0], self.w.tricks_won[1], self.w.tricks_won[2])
        self.scores = (tricks_won[0] - QUOTA, tricks_won[1] - QUOTA, tricks_won[2] - QUOTA)
        self.phase = _OVER
        return (played, taken, HandScored(tricks_won, self.scores, ()))

    def action_log(self):
        """Every action applied to this hand, in order (the record of the hand)."""
        log = [_TAKE if x else _KEEP for _, x in self.decisions]
        for _, cards, _ in self.tricks:
            log.extend(_CARDS[c] for c in cards)
        log.extend(_CARDS[self.w.trick[k]] for k in range(self.w.trick_len))
        return log

    def summary(self):
        """A JSON-ready account of the hand: dealer, exchanges, leader, tricks, scores."""
        return {
            "dealer": self.dealer,
            "exchanged": [s for s, x in self.decisions if x],
            "tricks_won": self.tricks_won,
            "scores": list(self.scores) if self.scores is not None else None,
            "complete": self.scores is not None,
        }

    def clone(self):
        """An independent copy (for search): the C state copied, the lists and the dictionary of the engine's
        bookkeeping copied (their items are immutable), everything else shared."""
        cdef CompiledHand other = CompiledHand.__new__(CompiledHand)
        other.w = self.w
        other.deal = self.deal
        other.options = self.options
        other.phase = self.phase
        other.scores = self.scores
        other.play_start_hands = self.play_start_hands
        other.dealer = self.dealer
        other.version = self.version
        other.decisions = self.decisions.copy()
        other.given_up = self.given_up.copy()
        other.tricks = self.tricks.copy()
        return other

    def __reduce__(self):
        """Pickled as its deal and actions, and rebuilt by replaying them (a server's worker processes receive
        matches so): the C struct is never written out."""
        return (_replayed_hand, (self.deal, self.dealer, self.options, tuple(self.action_log())))

    def __clone_state__(self):
        """The copy :func:`clubsuite.copying.clone_state` makes of this state (it cannot look inside a C type)."""
        return self.clone()


def _replayed_hand(deal, dealer, options, actions):
    """A compiled hand dealt ``deal`` with ``actions`` applied (how a pickled hand is rebuilt)."""
    hand = CompiledHand(deal, dealer, options)
    for action in actions:
        hand.apply(action)
    return hand
