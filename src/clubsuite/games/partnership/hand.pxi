# The state of one partnership hand in C (core.h's partnership_t), with the interface of hand.py's
# PartnershipHand: included by _core.pyx. The rules are core.h's (held to the engine by the kernel's differential
# tests); this class adds the engine's bookkeeping around them (the passes in the order chosen, the completed tricks
# in play order) and the same events, and takes its refusals and accounts (explain, action_log, score_lines,
# summary) from PartnershipHand itself, so their words are written once.
# tests/partnership/test_compiled_hand_partnership.py plays matches through both classes side by side and compares
# every state, view, event and error.

from clubsuite.cards import CARD_TABLE, Card, CardSet
from clubsuite.engine import Phase
from clubsuite.errors import GameOverError, IllegalActionError, InvalidOptionsError, NotYourTurnError
from clubsuite.games.partnership.events import (
    CardPlayed, CardsPassed, HandScored, PassChosen, PlayStarted, TrickTaken,
)
from clubsuite.games.partnership.hand import Direction, Pass, PartnershipHand, PartnershipPhase, PassChoices
from clubsuite.reasons import HAND_OVER, Reason, not_your_turn

cdef object _PLAY = Phase.PLAY
cdef object _OVER = Phase.OVER
cdef object _PASS_PHASE = PartnershipPhase.PASS
cdef tuple _CARDS = tuple(CARD_TABLE[:52])
cdef tuple _DIRECTIONS = (Direction.LEFT, Direction.RIGHT, Direction.NONE)
cdef object _Card = Card
cdef object _Pass = Pass
cdef object _CardSet = CardSet
cdef object _CardPlayed = CardPlayed
cdef object _TrickTaken = TrickTaken
cdef object _new_tuple = tuple.__new__
cdef object _new_object = object.__new__
cdef object _PassChosen = PassChosen


cdef extern from *:
    int __builtin_popcountll(unsigned long long) nogil
    int __builtin_ctzll(unsigned long long) nogil


cimport cython


cdef object _python_pass_at = PassChoices.__getitem__


@cython.binding(True)
def pass_choice_at(self, index):
    """The ``index``-th pass (negative from the end), found by counting combinations in C (core.h's
    ``p_pass_at``), as ``PassChoices.__getitem__`` finds it; anything but a whole number into a hand of the
    standard deck goes to that method."""
    if type(index) is not int or not 0 <= self.hand < 1 << 52:
        return _python_pass_at(self, index)
    cdef uint64_t hand = self.hand
    cdef int n = __builtin_popcountll(hand)
    cdef Py_ssize_t total = n * (n - 1) * (n - 2) // 6
    cdef Py_ssize_t asked = index
    cdef Py_ssize_t at = asked
    if at < 0:
        at += total
    if not 0 <= at < total:
        raise IndexError(f"pass choice {asked} out of range for {total} choices")
    return _Pass(card_set(p_pass_at(hand, <int>at)))


class CompiledPassChoices(PassChoices):
    """:class:`PassChoices` indexed in C (:func:`pass_choice_at`), the choices a compiled hand offers: the same
    passes in the same order, equal to the engine's choices of the same hand."""

    __slots__ = ()
    __getitem__ = pass_choice_at


cdef class CompiledHand:
    """One hand of Clubs (partnership) from the deal to the score, its state in C: the same attributes, methods,
    events and errors as :class:`clubsuite.games.partnership.hand.PartnershipHand`, several times sooner per action.

    Read-only views of the C state (``hands``, ``to_act``, ``leader``, ``tricks_won``, ``taken``,
    ``pass_choices``) are built when asked; the rest is kept as the engine keeps it."""

    cdef partnership_t p
    cdef int trick[4]
    cdef public object deal
    cdef public int dealer
    cdef public object direction
    cdef public object phase
    cdef public tuple passed
    cdef public tuple play_start_hands
    cdef public list tricks
    cdef public object scores
    cdef public object team_scores

    def __init__(self, deal, dealer=0, direction=Direction.LEFT):
        cdef uint64_t h[4]
        if type(dealer) is not int or not 0 <= dealer < 4:
            raise InvalidOptionsError(f"dealer {dealer!r} is not a seat: expected 0, 1, 2 or 3")
        self.deal = deal
        self.dealer = dealer
        self.direction = Direction(direction)
        for s in range(4):
            h[s] = int(deal.hands[s])
        partnership_start(&self.p, h, dealer, _DIRECTIONS.index(self.direction))
        self.passed = ()
        self.tricks = []
        self.scores = None
        self.team_scores = None
        if self.p.phase == 1:  # CP-2: a no-pass hand starts in play
            self.phase = _PLAY
            self.play_start_hands = self._hands_now()
        else:
            self.phase = _PASS_PHASE
            self.play_start_hands = ()

    cdef tuple _hands_now(self):
        return (self.p.hands[0], self.p.hands[1], self.p.hands[2], self.p.hands[3])

    # -- for the match's compiled paths (native/compiled_match.pxi) ----------------------------------------
    cdef inline int seat_to_act(self):
        return self.p.to_act

    cdef inline object quick_legal(self):
        if self.p.phase == 1:
            return card_set(partnership_legal(&self.p))
        return None

    cdef inline object quick_apply(self, action):
        if self.p.phase == 1 and type(action) is _Card:
            return self._play(action)
        return None

    cdef inline tuple scored(self, tuple events, tuple score):
        return events[:len(events) - 1] + score  # the hand's score event gives way to the match's

    # -- the C state, read -------------------------------------------------------------------------------
    @property
    def to_act(self):
        """The seat to act, None once the hand is scored."""
        return self.p.to_act if self.p.to_act >= 0 else None

    @property
    def hands(self):
        """Each seat's cards as a mask (hidden information: a new list at every read)."""
        return list(self._hands_now())

    @property
    def leader(self):
        """The leader of the trick in progress (-1 in the pass)."""
        return self.p.leader

    @property
    def tricks_won(self):
        """Tricks taken so far by each seat (a new list at every read)."""
        return [self.p.tricks_won[s] for s in range(4)]

    @property
    def taken(self):
        """The cards of the tricks each seat won, as masks (a new list at every read)."""
        return [self.p.taken[s] for s in range(4)]

    @property
    def pass_choices(self):
        """The cards each seat chose to pass, in the order chosen (a new dictionary at every read)."""
        first = (self.dealer + 1) % 4
        chosen = [(first + k) % 4 for k in range(self.p.n_chosen)]
        return {s: self.p.chosen[s] for s in chosen}

    @property
    def is_over(self):
        """Whether all thirteen tricks have been played and scored."""
        return self.scores is not None

    @property
    def trick(self):
        """The trick in progress as (seat, card) pairs in play order."""
        lead = self.p.leader
        return tuple(((lead + k) % 4, _CARDS[self.trick[k]]) for k in range(self.p.trick_len))

    @property
    def trick_indices(self):
        """The card indices of the trick in progress."""
        return tuple(self.trick[k] for k in range(self.p.trick_len))

    @property
    def _trick(self):
        return [self.trick[k] for k in range(self.p.trick_len)]

    @property
    def _led(self):
        return self.p.led

    @property
    def winning(self):
        """The seat winning the trick in progress so far (-1 when no card is on the table)."""
        return self.p.winning if self.p.trick_len else -1

    def hand_of(self, int seat):
        """The cards ``seat`` holds now (hidden information: for the engine, views and tests only)."""
        if not 0 <= seat < 4:
            raise IndexError(f"seat {seat} is not a seat: expected 0 to 3")
        return card_set(self.p.hands[seat])

    def legal_mask(self):
        """The cards the seat to act may play (0 once the hand is over)."""
        if self.p.to_act < 0:
            return 0
        return partnership_legal(&self.p)

    def legal_actions(self):
        """The legal actions of the seat to act: any three cards in the pass, a :class:`CardSet` in play."""
        if self.p.phase == 1:
            return card_set(partnership_legal(&self.p))
        if self.p.phase == 0:
            return self._pass_choices()
        return ()

    cdef object _pass_choices(self):
        """``PassChoices(hand of the seat to act)``, its tuple of cards listed in C."""
        cdef uint64_t hand = self.p.hands[self.p.to_act]
        cdef uint64_t m = hand
        cards = []
        while m:
            cards.append(__builtin_ctzll(m))
            m &= m - 1
        choices = _new_object(CompiledPassChoices)
        choices.hand = hand
        choices._cards = tuple(cards)
        return choices

    # The engine's own words: these read only what this class shows under the same names.
    explain = PartnershipHand.explain
    _refuse_card = PartnershipHand._refuse_card
    _explain_pass = PartnershipHand._explain_pass
    action_log = PartnershipHand.action_log
    score_lines = PartnershipHand.score_lines
    summary = PartnershipHand.summary

    # -- actions ---------------------------------------------------------------------------------------
    def apply(self, action, seat=None):
        """Apply the action of the seat to act (``seat``, if given, must be that seat) and return the events."""
        if self.scores is not None:
            raise GameOverError(Reason(HAND_OVER, action=str(action)))
        if seat is not None and seat != self.p.to_act:
            raise NotYourTurnError(not_your_turn(seat, action, self.to_act))
        if self.p.phase == 1 and action.__class__ is _Card:
            return self._play(action)
        if self.p.phase == 0 and action.__class__ is _Pass and type(action[0]) is _CardSet:
            cards = action[0]
            if 0 <= cards < 1 << 52 and __builtin_popcountll(cards) == 3 and not cards & ~self.p.hands[self.p.to_act]:
                return self._choose_pass(cards)  # three cards it holds: the rest of the checks (CP-2) hold
        reason = self.explain(action)
        if reason is not None:
            raise IllegalActionError(reason)
        return self._choose_pass(int(action.cards))

    def _choose_pass(self, uint64_t mask):
        """The seat to act chooses the three cards ``mask`` (checked by the caller); they move once all four chose
        (CP-2)."""
        cdef int seat = self.p.to_act
        chosen = _new_tuple(_PassChosen, (seat,))
        if partnership_pass(&self.p, mask) == 0:
            return (chosen,)
        self.passed = tuple(self.p.chosen[s] for s in range(4))
        self.phase = _PLAY
        self.play_start_hands = self._hands_now()
        return (chosen, CardsPassed(self.direction.value), PlayStarted(self.p.leader))

    cpdef _play(self, card):
        """A card of the seat to act (play phase); raises :class:`IllegalActionError` and changes nothing when it
        may not be played."""
        cdef int seat = self.p.to_act
        cdef int idx = card[0]
        cdef int leader = self.p.leader
        cdef int before = self.p.trick_len
        if idx < 0 or idx >= 52 or not (partnership_legal(&self.p) >> idx) & 1:
            raise IllegalActionError(self._refuse_card(seat, card))
        self.trick[before] = idx
        cdef int event = partnership_play(&self.p, idx)
        played = event2(_CardPlayed, seat, card)
        if event == 0:
            return (played,)
        cdef int winner = self.p.leader
        cards = (self.trick[0], self.trick[1], self.trick[2], self.trick[3])
        self.tricks.append((leader, cards, winner))
        taken = _new_tuple(_TrickTaken, (winner, self.p.tricks_done, (_CARDS[cards[0]], _CARDS[cards[1]],
                                                                       _CARDS[cards[2]], _CARDS[cards[3]])))
        if event != 3:
            return (played, taken)
        team = (self.p.team_scores[0], self.p.team_scores[1])
        self.team_scores = team
        self.scores = (team[0], team[1], team[0], team[1])
        self.phase = _OVER
        return (played, taken, HandScored(tuple(self.tricks_won), self.scores, (), team))

    def clone(self):
        """An independent copy (for search): the C state copied, the list of tricks copied (its items are
        immutable), everything else shared."""
        cdef CompiledHand other = CompiledHand.__new__(CompiledHand)
        other.p = self.p
        other.trick = self.trick
        other.deal = self.deal
        other.dealer = self.dealer
        other.direction = self.direction
        other.phase = self.phase
        other.passed = self.passed
        other.play_start_hands = self.play_start_hands
        other.tricks = self.tricks.copy()
        other.scores = self.scores
        other.team_scores = self.team_scores
        return other

    def __reduce__(self):
        """Pickled as its deal and actions, and rebuilt by replaying them (a server's worker processes receive
        matches so): the C struct is never written out."""
        return (_replayed_hand, (self.deal, self.dealer, self.direction, tuple(self.action_log())))

    def __clone_state__(self):
        """The copy :func:`clubsuite.copying.clone_state` makes of this state (it cannot look inside a C type)."""
        return self.clone()


def _replayed_hand(deal, dealer, direction, actions):
    """A compiled hand dealt ``deal`` with ``actions`` applied (how a pickled hand is rebuilt)."""
    hand = CompiledHand(deal, dealer, direction)
    for action in actions:
        hand.apply(action)
    return hand
