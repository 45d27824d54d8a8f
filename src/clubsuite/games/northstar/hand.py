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

from typing import Any, NamedTuple

from clubsuite.cards import CardSet
from clubsuite.copying import clone_state
from clubsuite.engine import Events, Phase
from clubsuite.errors import GameOverError, IllegalActionError, NotYourTurnError
from clubsuite.events import Event
from clubsuite.games.northstar.combos import (
    CLUB_MASK,
    Call,
    Kind,
    NorthstarAction,
    Play,
    beats,
    check_play,
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
from clubsuite.games.northstar.legal import LegalPlays
from clubsuite.games.northstar.options import NorthstarOptions, Teams

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
        self._legal: LegalPlays | None = None
        self._teams = options.teams is not Teams.NONE

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
        n = self.n
        for step in range(1, n + 1):
            s = (seat + step) % n
            if self.hands[s]:
                return s
        raise AssertionError("nobody holds cards")

    def legal_actions(self) -> LegalPlays:
        """The legal actions of the seat to act: ``pass`` when following (NS-4), ``double`` while it may be called
        (NS-8), then the plays that may be made. Empty when the round is over. A lazy sequence (:mod:`.legal`):
        counting, indexing and ``in`` cost little; the whole list is built only when iterated."""
        legal = self._legal
        if legal is None:
            seat = self.to_act
            opts = self.options
            if seat is None:
                legal = LegalPlays((), 0, None, opts.wild_fifteens, opts.crazy)
            else:
                calls: tuple[Call, ...] = (Call.PASS,) if self.top is not None else ()
                if opts.double_or_nothing and not self.doubled[seat] and not self.started[seat]:
                    calls += (Call.DOUBLE,)
                legal = LegalPlays(calls, self.hands[seat], self.top, opts.wild_fifteens, opts.crazy)
            self._legal = legal
        return legal

    def explain(self, action: object) -> str | None:
        """Why ``action`` of the seat to act is illegal now, or None if it is legal. Names only that seat's cards."""
        seat = self.to_act
        if seat is None:
            return "the round is over"
        opts = self.options
        if action is Call.PASS or action == "pass":
            if self.top is None:
                return (
                    "you lead this trick, so you must play a single, a set or a run: there is nothing to pass on (NS-4)"
                )
            return None
        if action is Call.DOUBLE or action == "double":
            if not opts.double_or_nothing:
                return "double or nothing is not played in this game: it needs the option double_or_nothing (NS-8)"
            if self.doubled[seat]:
                return f"seat {seat} has already called double or nothing this round (NS-8)"
            if self.started[seat]:
                return "double or nothing must be called before you play your first card of the round (NS-8)"
            return None
        if not isinstance(action, Play):
            return f"{action!r} is not a CLUBS action: play cards (such as 7H or 7C 7H), pass, or double"
        reason = check_play(action, opts.wild_fifteens)
        if reason is not None:
            return reason
        action = Play(CardSet.from_mask(int(action.cards)), Kind(action.kind), action.high)  # canonical form
        missing = int(action.cards) & ~self.hands[seat]
        if missing:
            return f"{action} cannot be played: you do not hold {CardSet(missing)} (you play cards from your own hand)"
        if self.top is not None and not beats(action, self.top, opts.crazy):
            return why_not_beats(action, self.top, opts.crazy)
        return None

    # -- actions ---------------------------------------------------------------------------------------
    def apply(self, action: object, seat: int | None = None) -> Events:
        """Apply an action of the seat to act; returns the events. Raises, changing nothing, if it is illegal."""
        actor = self.to_act
        if actor is None:
            raise GameOverError(f"{action} cannot be played: the round is over")
        if seat is not None and seat != actor:
            raise NotYourTurnError(f"{action} is refused: it is seat {actor}'s turn, not seat {seat}'s")
        legal = self._legal
        if legal is None or not legal.vouches(action):  # what the list handed out is legal and canonical
            reason = self.explain(action)
            if reason is not None:
                raise IllegalActionError(reason)
            if isinstance(action, Play) and (type(action.kind) is not Kind or type(action.cards) is not CardSet):
                # A play built by hand with a kind's name or a plain mask: keep the canonical form in the state.
                action = Play(CardSet.from_mask(int(action.cards)), Kind(action.kind), action.high)
        self._legal = None
        if type(action) is Play:
            self._log.append(action)
            events = self._play(actor, action)
        elif action == Call.PASS:
            self._log.append(Call.PASS)
            events = self._pass(actor)
        else:  # explain refused everything but a play, pass and double
            self._log.append(Call.DOUBLE)
            self.doubled[actor] = True
            events = [DoubleCalled(actor)]
        self.history.extend(events)
        return tuple(events)

    def _play(self, seat: int, play: Play) -> list[Event]:
        mask = int(play.cards)
        self.hands[seat] &= ~mask
        self.started[seat] = True
        self.trick.append((seat, play))
        self.trick_cards |= mask
        self.top, self.top_seat, self.passes = play, seat, 0
        events: list[Event] = [Played(seat, play)]
        at_once = play.high == 15 and not self.options.crazy  # NS-4, NS-9, NS-11
        if self.last_turn is not None:
            # NS-5: the last player's final turn; the trick is theirs, and they score nothing even if now empty.
            events.append(self._take_trick(seat, at_once))
            return events + self._end(last=seat, team=None)
        if not self.hands[seat]:
            # NS-1: there is a bonus card for every player who can go out before the round ends (n - 1 of them).
            bonus = self._bonus_left.pop(0)
            self.bonus[seat] = bonus
            self.out_order.append(seat)
            events.append(WentOut(seat, bonus))
        if at_once:
            events.append(self._take_trick(seat, True))
        if self.hands[seat]:  # nobody went out: the holders (two or more, NS-5) and their teams are as they were
            self.to_act = seat if self.top is None else self.next_holder(seat)
            return events
        holders = self.holders()
        if self._teams:
            teams = {self.options.team_of(s) for s in holders}
            if len(teams) == 1:
                # NS-10 (checked before NS-5): only one team holds cards; an unfinished trick goes to the last player.
                if self.trick:
                    events.append(self._take_trick(seat, False))
                return events + self._end(last=None, team=teams.pop())
        if len(holders) == 1:
            last = holders[0]
            if self.top is None:
                return events + self._end(last=last, team=None)  # NS-5: no trick in progress, the round ends
            self.last_turn = last
            self.to_act = last
            events.append(LastTurn(last))
            return events
        if self.top is None:
            self.to_act = seat if self.hands[seat] else self.next_holder(seat)
        else:
            self.to_act = self.next_holder(seat)
        return events

    def _pass(self, seat: int) -> list[Event]:
        events: list[Event] = [Passed(seat)]
        top_seat = self.top_seat
        assert top_seat is not None
        if self.last_turn is not None:
            events.append(self._take_trick(top_seat, False))
            return events + self._end(last=seat, team=None)
        self.passes += 1
        hands = self.hands
        others = len([s for s in range(self.n) if hands[s] and s != top_seat])
        if self.passes >= others:
            # NS-4: everyone else still holding cards has passed since the last play.
            events.append(self._take_trick(top_seat, False))
            self.to_act = top_seat if self.hands[top_seat] else self.next_holder(top_seat)
        else:
            self.to_act = self.next_holder(seat)
        return events

    def _take_trick(self, winner: int, at_once: bool) -> TrickWon:
        cards = CardSet.from_mask(self.trick_cards)
        self.won[winner] |= self.trick_cards
        self.tricks.append((winner, cards))
        self.trick = []
        self.trick_cards = 0
        self.top, self.top_seat, self.passes = None, None, 0
        return TrickWon(winner, cards, at_once)

    def _end(self, last: int | None, team: int | None) -> list[Event]:
        """End the round and score it (NS-2, NS-5, NS-8, NS-10)."""
        n, opts = self.n, self.options
        self.to_act = None
        self.last_turn = None
        zero = last is not None and n > 2
        if zero:
            assert last is not None
            self.bonus[last] = ZERO_CARD
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
        self.score_lines = tuple(lines)
        self.scores = tuple(line.points for line in lines)
        self.ended = RoundEnded(last, team)
        return [self.ended]

    def summary(self) -> dict[str, Any]:
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
