"""One round of North Star's CLUBS: plays and passes until one player (or one team) is left holding cards.

The rules as implemented (``docs/rules/northstar.md``): the seat to the dealer's left leads; a leader plays any
single, set or run, the others in turn play a higher one of the same kind and size or pass, and passing never drops a
player out of the trick (NS-3, NS-4). A 15 wins at once (NS-4; not in Crazy CLUBS, NS-11); otherwise the trick goes
to the last player who played once every other player still holding cards has passed since. Playing your last card
takes the highest bonus card left (NS-1, NS-5). When one player is left holding cards they have a last turn on the
trick, then take the 0 card and score nothing (NS-5); with teams, the round ends as soon as only one team holds
cards, and that team scores nothing (NS-10). Double or nothing is a call that does not use up the turn (NS-8).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import NamedTuple, overload

from clubsuite.cards import CardSet
from clubsuite.copying import clone_state
from clubsuite.engine import Events, Phase
from clubsuite.errors import GameOverError, IllegalActionError, NotYourTurnError
from clubsuite.events import Event
from clubsuite.games.northstar import reasons
from clubsuite.games.northstar.combos import (
    CLUB_MASK,
    Call,
    Kind,
    NorthstarAction,
    Play,
    beats,
    check_play,
    generate,
    play_fits,
    value_of,
    why_not_beats,
)
from clubsuite.games.northstar.deal import NorthstarDeal, NorthstarShuffle
from clubsuite.games.northstar.events import (
    DoubleCalled,
    LastTurn,
    Passed,
    Played,
    RoundEnded,
    TrickWon,
    WentOut,
)
from clubsuite.games.northstar.options import MAX_PLAYERS, NorthstarOptions, Teams
from clubsuite.jsonform import JsonObject
from clubsuite.reasons import Reason, cards_param

_event = tuple.__new__
_card_set = int.__new__
"""Building events and card sets without the Python-level constructors, on the path every action takes."""

BONUS_CARDS: dict[int, tuple[int, ...]] = {
    6: (12, 10, 8, 5, 2),
    5: (10, 8, 5, 2),
    4: (8, 5, 2),
    3: (5, 2),
    2: (5,),
}
"""The bonus cards taken by players going out, highest first, by player count; with 3 or more players the 0 card
goes to the last player as well (NS-1)."""
ZERO_CARD = 0


def club_points(won: int, table: tuple[int, ...]) -> int:
    """The points of the clubs in ``won`` (a mask) by the club-points table (NS-2)."""
    total = 0
    mask = won & CLUB_MASK
    while mask:
        low = mask & -mask
        total += table[value_of(low.bit_length() - 1) - 1]
        mask ^= low
    return total


def _canonical(play: Play) -> bool:
    """Whether a play is in the form the engine keeps: a :class:`CardSet`, a :class:`Kind` and an ``int`` top."""
    return type(play.cards) is CardSet and type(play.kind) is Kind and type(play.high) is int


_PASSED: tuple[Passed, ...] = tuple(_event(Passed, (seat,)) for seat in range(MAX_PLAYERS))
"""Every seat's pass event, made once: events are immutable values, so one serves every pass."""
_NEXT: tuple[tuple[int, ...], ...] = tuple(tuple((s + 1) % n for s in range(n)) for n in range(MAX_PLAYERS + 1))
"""For each number of players, the seat to the left of each seat (clockwise)."""

_PASS_ONLY: tuple[NorthstarAction, ...] = (Call.PASS,)
_PASS_DOUBLE: tuple[NorthstarAction, ...] = (Call.PASS, Call.DOUBLE)
_DOUBLE_ONLY: tuple[NorthstarAction, ...] = (Call.DOUBLE,)
"""The calls that may be made: pass when following (NS-4), double while it may be called (NS-8), pass first."""


class NorthstarLegal(Sequence[NorthstarAction]):
    """The legal actions at one decision: ``pass`` when following (NS-4), ``double`` while it may be called (NS-8),
    then the plays (:func:`~clubsuite.games.northstar.combos.generate`'s order).

    A read-only sequence, like the tuple it stands for (it compares equal to the tuple of the same actions), built
    lazily: ``action in legal`` checks the one action against the rules (its cards are in the hand, it is a single,
    set or run, and it beats the play on the table) in time proportional to the size of the play, like
    python-chess's ``move in board.legal_moves``; the list itself is built the first time it is iterated, counted
    or indexed, and kept. It holds a snapshot of the decision (the seat's cards and the play to beat), not the
    round, so it keeps its answers after the round moves on, as a tuple would. It remembers the last action read by
    its index, which the round applies without another check while this is still the list of its decision.
    """

    __slots__ = ("_calls", "_hand", "_handed", "_items", "_options", "_top")

    def __init__(
        self, hand: int, top: Play | None, calls: tuple[NorthstarAction, ...], options: NorthstarOptions
    ) -> None:
        # The decision: the cards of the seat to act (a mask), the play to beat (None: the seat leads), the calls
        # that may be made (pass when following, NS-4; double while it may be called, NS-8), and the rules.
        self._hand = hand
        self._top = top
        self._calls = calls
        self._options = options
        self._items: tuple[NorthstarAction, ...] | None = None  # the list, once built
        self._handed: NorthstarAction | None = None
        """The last action read from the list by its index: a legal action of this decision, known without a check
        (the round trusts it when it is applied while this is still its decision)."""

    def _build(self) -> tuple[NorthstarAction, ...]:
        items = self._items
        if items is None:
            top, calls, opts = self._top, self._calls, self._options
            plays = generate(self._hand, top, opts.wild_fifteens, opts.crazy)
            items = self._items = calls + tuple(plays)  # no calls: the tuple of the plays itself
        return items

    def __contains__(self, item: object) -> bool:
        if type(item) is Play:
            if _canonical(item):
                opts = self._options
                return play_fits(item, self._hand, self._top, opts.wild_fifteens, opts.crazy)
        elif item is Call.PASS or item is Call.DOUBLE:
            return item in self._calls
        return item in self._build()  # anything else (a play written with plain values, "pass"): as a tuple answers

    def __len__(self) -> int:
        items = self._items
        if items is None:  # _build() written out: a random bot counts the list at every decision
            opts, calls = self._options, self._calls
            plays = generate(self._hand, self._top, opts.wild_fifteens, opts.crazy)
            items = self._items = calls + tuple(plays)
        return len(items)

    def __iter__(self) -> Iterator[NorthstarAction]:
        return iter(self._items or self._build())

    @overload
    def __getitem__(self, index: int) -> NorthstarAction: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[NorthstarAction, ...]: ...

    def __getitem__(self, index: int | slice) -> NorthstarAction | tuple[NorthstarAction, ...]:
        items = self._items or self._build()
        if type(index) is int:
            item = self._handed = items[index]
            return item
        return items[index]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, NorthstarLegal):
            return self._build() == other._build()
        if isinstance(other, tuple):
            return self._build() == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._build())

    def __repr__(self) -> str:
        return f"NorthstarLegal{self._build()!r}"


NO_ACTIONS = NorthstarLegal(0, None, (), NorthstarOptions())
"""The legal actions when nobody is to act (between rounds, after the end): none."""


class ScoreLine(NamedTuple):
    """One seat's points for a round, by source (NS-2, NS-5, NS-8, NS-10)."""

    clubs: int
    """The points of the clubs the seat won (NS-2)."""
    bonus: int | None
    """The bonus card it took (0: the 0 card), or None (NS-1, NS-5)."""
    zero_card: bool
    """It was left holding cards and took the 0 card: it scores nothing (NS-5)."""
    double: bool | None
    """Double or nothing (NS-8): None without a call, True when the caller went out first (doubled), else False (0)."""
    team_zero: bool
    """Its team alone still held cards when the round ended: it scores nothing (NS-10)."""
    points: int
    """The seat's score for the round."""


class NorthstarHand:
    """The state of one round. Act through :class:`~clubsuite.games.northstar.match.NorthstarMatch`."""

    def __init__(
        self,
        deal: NorthstarDeal,
        dealer: int,
        options: NorthstarOptions,
        dealt_from: NorthstarShuffle | None = None,
    ) -> None:
        n = options.players
        self.deal = deal
        """The cards as dealt."""
        self.dealt_from = dealt_from
        """The shuffle the deal was made from, when it was made from one (a seeded deal)."""
        self.dealer = dealer
        self.options = options
        self.n = n
        self.hands: list[int] = [int(h) for h in deal.hands]
        """Each seat's cards now (masks)."""
        self.won: list[int] = [0] * n
        """The cards each seat has won in tricks (public: every play is seen)."""
        self.bonus: list[int | None] = [None] * n
        """The bonus card each seat took, if any (NS-1, NS-5)."""
        self.out_order: list[int] = []
        """The seats in the order they went out."""
        self.doubled: list[bool] = [False] * n
        """Who called double or nothing (NS-8)."""
        self.started: list[bool] = [False] * n
        """Who has played a card this round."""
        self.trick: list[tuple[int, Play]] = []
        """The plays of the trick in progress."""
        self.trick_cards = 0
        self.top: Play | None = None
        """The play to beat, or None when the next play leads a trick."""
        self.top_seat: int | None = None
        self.passes = 0
        """Passes since the last play."""
        self.tricks: list[tuple[int, CardSet]] = []
        """Every trick taken: (winner, cards)."""
        self.to_act: int | None = (dealer + 1) % n
        self.last_turn: int | None = None
        """The last player holding cards, during their final turn (NS-5)."""
        self.ended: RoundEnded | None = None
        self.scores: tuple[int, ...] | None = None
        self.score_lines: tuple[ScoreLine, ...] = ()
        """Each seat's points by source, once the round is scored."""
        self.history: list[Event] = []
        """Every event of the round, in order (all public)."""
        self._log: list[NorthstarAction] = []
        self._bonus_left = list(BONUS_CARDS[n])
        self._legal: NorthstarLegal | None = None
        """The legal actions of the seat to act, once asked for (dropped by every action)."""
        self._teams = options.teams is not Teams.NONE
        self._holding = sum(1 for h in self.hands if h)
        """How many seats still hold cards."""
        self._next = _NEXT[n]
        """The seat to the left of each seat (clockwise)."""

    # -- queries ---------------------------------------------------------------------------------------
    @property
    def phase(self) -> Phase:
        """``play`` until the round ends, then ``over``."""
        return Phase.OVER if self.scores is not None else Phase.PLAY

    @property
    def is_over(self) -> bool:
        """Whether the round has ended and been scored."""
        return self.scores is not None

    def action_log(self) -> list[NorthstarAction]:
        """Every action applied to the round, in order."""
        return list(self._log)

    def holders(self) -> list[int]:
        """The seats still holding cards."""
        return [s for s in range(self.n) if self.hands[s]]

    def next_holder(self, seat: int) -> int:
        """The next seat clockwise after ``seat`` that still holds cards (empty hands are skipped)."""
        n, hands = self.n, self.hands
        s = seat
        for _ in range(n):
            s = s + 1 if s + 1 < n else 0
            if hands[s]:
                return s
        raise AssertionError("nobody holds cards")

    def legal_actions(self) -> NorthstarLegal:
        """The legal actions of the seat to act: the plays that may be made, ``pass`` when following (NS-4) and
        ``double`` while it may be called (NS-8). Empty when the round is over. A lazy sequence
        (:class:`NorthstarLegal`): asking whether an action is in it does not list the plays."""
        legal = self._legal
        if legal is None:
            seat = self.to_act
            opts = self.options
            if seat is None:
                legal = NO_ACTIONS
            else:
                top = self.top
                if opts.double_or_nothing and not self.doubled[seat] and not self.started[seat]:
                    calls = _PASS_DOUBLE if top is not None else _DOUBLE_ONLY
                else:
                    calls = _PASS_ONLY if top is not None else ()
                legal = NorthstarLegal(self.hands[seat], top, calls, opts)
            self._legal = legal
        return legal

    def explain(self, action: object) -> Reason | None:
        """Why ``action`` of the seat to act is illegal now, or None if it is legal. Names only that seat's cards."""
        seat = self.to_act
        if seat is None:
            return Reason(reasons.ROUND_OVER)
        opts = self.options
        if action is Call.PASS or action == "pass":
            if self.top is None:
                return Reason(reasons.NOTHING_TO_PASS)
            return None
        if action is Call.DOUBLE or action == "double":
            if not opts.double_or_nothing:
                return Reason(reasons.DOUBLE_NOT_PLAYED)
            if self.doubled[seat]:
                return Reason(reasons.ALREADY_DOUBLED, seat=seat)
            if self.started[seat]:
                return Reason(reasons.DOUBLE_TOO_LATE)
            return None
        if not isinstance(action, Play):
            return Reason(reasons.NOT_AN_ACTION, action=repr(action))
        reason = check_play(action, opts.wild_fifteens)
        if reason is not None:
            return reason
        action = Play(CardSet.from_mask(int(action.cards)), Kind(action.kind), action.high)  # canonical form
        missing = int(action.cards) & ~self.hands[seat]
        if missing:
            missing_cards = cards_param(CardSet(missing))
            return Reason(reasons.NOT_HELD, play_cards=action.notations(), missing_cards=missing_cards)
        if self.top is not None and not beats(action, self.top, opts.crazy):
            return why_not_beats(action, self.top, opts.crazy)
        return None

    # -- actions ---------------------------------------------------------------------------------------
    def apply(self, action: object, seat: int | None = None) -> Events:
        """Apply an action of the seat to act; returns the events. Raises, changing nothing, if it is illegal."""
        actor = self.to_act
        if actor is None:
            raise GameOverError(Reason(reasons.ROUND_OVER_ACTION, action=str(action)))
        if seat is not None and seat != actor:
            raise NotYourTurnError(Reason(reasons.NOT_YOUR_TURN, action=str(action), turn_seat=actor, seat=seat))
        legal = self._legal
        handed = legal._handed if legal is not None else None
        if action is handed and handed is not None:
            # Read from this decision's own list by its index (what a bot does): legal by construction, since every
            # action drops the list, so the commonest way to act costs no check at all.
            self._legal = None
            self._log.append(handed)
            if type(handed) is Play:
                events = self._play(actor, handed)
            elif handed is Call.PASS:
                events = self._pass(actor)
            else:
                self.doubled[actor] = True
                events = (DoubleCalled(actor),)
        elif (
            type(action) is Play
            and type(action.cards) is CardSet
            and type(action.kind) is Kind
            and type(action.high) is int
        ):
            # As listed, or as read from notation: checked directly, in a few mask operations, never against the
            # list of legal plays; explain() words the refusal (the two agree: test_northstar_legal.py).
            opts = self.options
            if not play_fits(action, self.hands[actor], self.top, opts.wild_fifteens, opts.crazy):
                raise IllegalActionError(self.explain(action) or Reason(reasons.CANNOT_PLAY_NOW, action=str(action)))
            self._legal = None
            self._log.append(action)
            events = self._play(actor, action)
        elif action is Call.PASS and self.top is not None:
            self._legal = None
            self._log.append(action)
            events = self._pass(actor)
        else:
            action = self._checked(action)
            self._legal = None
            self._log.append(action)
            if isinstance(action, Play):
                events = self._play(actor, action)
            elif action == Call.PASS:
                events = self._pass(actor)
            else:
                self.doubled[actor] = True
                events = (DoubleCalled(actor),)
        self.history += events
        return events

    def _checked(self, action: object) -> NorthstarAction:
        """``action`` if ``explain`` finds it legal, a play in canonical form (a play built by hand with a kind's
        name or a plain mask is kept in the state as the engine writes it); raises, naming the rule, if not."""
        reason = self.explain(action)
        if reason is not None:
            raise IllegalActionError(reason)
        if isinstance(action, Play):
            return Play(CardSet.from_mask(int(action.cards)), Kind(action.kind), action.high)
        return Call.PASS if action == Call.PASS else Call.DOUBLE  # explain accepts no other call

    def _play(self, seat: int, play: Play) -> Events:
        mask = play.cards + 0  # a plain mask (cheaper than int())
        hands = self.hands
        left = hands[seat] = hands[seat] & ~mask
        self.started[seat] = True
        self.trick.append((seat, play))
        self.trick_cards |= mask
        self.top, self.top_seat, self.passes = play, seat, 0
        played = _event(Played, (seat, play))
        at_once = play.high == 15 and not self.options.crazy  # NS-4, NS-9, NS-11
        if self.last_turn is not None:
            # NS-5: the last player's final turn; the trick is theirs, and they score nothing even if now empty.
            return (played, self._take_trick(seat, at_once), *self._end(last=seat, team=None))
        if left:
            # Still holding cards: nobody went out, so the round goes on (NS-5 and NS-10 wait for someone to go out).
            if at_once:
                self.to_act = seat  # NS-4: the trick winner leads
                return played, self._take_trick(seat, True)
            nxt = self._next[seat]
            self.to_act = nxt if hands[nxt] else self.next_holder(nxt)
            return (played,)
        events: list[Event] = [played]
        self._holding -= 1
        # NS-1: there is a bonus card for every player who can go out before the round ends (n - 1 of them).
        bonus = self._bonus_left.pop(0)
        self.bonus[seat] = bonus
        self.out_order.append(seat)
        events.append(WentOut(seat, bonus))
        if at_once:
            events.append(self._take_trick(seat, True))
        holders = self.holders()
        if self._teams:
            teams = {self.options.team_of(s) for s in holders}
            if len(teams) == 1:
                # NS-10 (checked before NS-5): only one team holds cards; an unfinished trick goes to the last player.
                if self.trick:
                    events.append(self._take_trick(seat, False))
                return (*events, *self._end(last=None, team=teams.pop()))
        if len(holders) == 1:
            last = holders[0]
            if self.top is None:
                return (*events, *self._end(last=last, team=None))  # NS-5: no trick in progress, the round ends
            self.last_turn = last
            self.to_act = last
            events.append(LastTurn(last))
            return tuple(events)
        self.to_act = self.next_holder(seat)  # NS-4: the player who went out leads no more, nor follows
        return tuple(events)

    def _pass(self, seat: int) -> Events:
        passed = _PASSED[seat]
        top_seat = self.top_seat
        assert top_seat is not None
        if self.last_turn is not None:
            return (passed, self._take_trick(top_seat, False), *self._end(last=seat, team=None))
        self.passes = passes = self.passes + 1
        hands = self.hands
        if passes >= self._holding - (1 if hands[top_seat] else 0):
            # NS-4: everyone else still holding cards has passed since the last play.
            self.to_act = top_seat if hands[top_seat] else self.next_holder(top_seat)
            return passed, self._take_trick(top_seat, False)
        nxt = self._next[seat]
        self.to_act = nxt if hands[nxt] else self.next_holder(nxt)
        return (passed,)

    def _take_trick(self, winner: int, at_once: bool) -> TrickWon:
        cards = _card_set(CardSet, self.trick_cards)
        self.won[winner] |= self.trick_cards
        self.tricks.append((winner, cards))
        self.trick = []
        self.trick_cards = 0
        self.top, self.top_seat, self.passes = None, None, 0
        return _event(TrickWon, (winner, cards, at_once))

    def _end(self, last: int | None, team: int | None) -> list[Event]:
        """End the round and score it (NS-2, NS-5, NS-8, NS-10)."""
        self.to_act = None
        self.last_turn = None
        if last is not None and self.n > 2:
            self.bonus[last] = ZERO_CARD  # NS-5: the last player takes the 0 card
        self.score_lines = self._lines(last, team)
        self.scores = tuple(line.points for line in self.score_lines)
        self.ended = RoundEnded(last, team)
        return [self.ended]

    def _lines(self, last: int | None, team: int | None) -> tuple[ScoreLine, ...]:
        """Each seat's points by source for the round ended with ``last`` left holding cards and ``team`` alone
        holding cards (NS-2, NS-5, NS-8, NS-10), the 0 card already given (a pure reading of the finished round)."""
        n, opts = self.n, self.options
        zero = last is not None and n > 2
        first_out = self.out_order[0] if self.out_order else None
        lines = []
        for s in range(n):
            clubs = club_points(self.won[s], opts.club_points)
            points = clubs + (self.bonus[s] or 0)
            took_zero = zero and s == last
            if took_zero:
                points = 0  # NS-5: the 0 card scores nothing, clubs included
            double = None
            if self.doubled[s]:
                double = s == first_out
                points = points * 2 if double else 0  # NS-8
            team_zero = team is not None and opts.team_of(s) == team
            if team_zero:
                points = 0  # NS-10: the team left holding cards scores nothing, bonus cards included
            lines.append(ScoreLine(clubs, self.bonus[s], took_zero, double, team_zero, points))
        return tuple(lines)

    def summary(self) -> JsonObject:
        """A JSON-ready account of the round: dealer, who went out in which order, bonus cards, tricks, scores."""
        return {
            "dealer": self.dealer,
            "out_order": list(self.out_order),
            "bonus": list(self.bonus),
            "doubled": [s for s in range(self.n) if self.doubled[s]],
            "tricks": [{"winner": w, "cards": str(c)} for w, c in self.tricks],
            "last": self.ended.last if self.ended else None,
            "team_out": self.ended.team if self.ended else None,
            "scores": list(self.scores) if self.scores is not None else None,
            "complete": self.scores is not None,
        }

    def clone(self) -> NorthstarHand:
        """An independent copy (for search and perft): every mutable container copied, immutable values shared
        (:func:`clubsuite.copying.clone_state`, so a field added later is copied without being listed)."""
        return clone_state(self)
