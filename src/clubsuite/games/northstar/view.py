"""What one seat may know in North Star's CLUBS: its own cards and the public table.

Public: every play and pass, the cards each seat has won, who went out with which bonus card, who called double or
nothing, how many cards each seat holds, and how many cards were undealt or discarded before each deal (NS-6).
Private to this seat: its own hand (and, from earlier rounds, the hands it was dealt). No other hand is ever shown;
a player left holding cards at the end of a round does not show them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from clubsuite.cards import CardSet
from clubsuite.events import Event
from clubsuite.games.northstar.combos import Play
from clubsuite.jsonform import JsonObject
from clubsuite.view_base import S, ViewBase

if TYPE_CHECKING:
    from clubsuite.games.northstar.hand import NorthstarHand
    from clubsuite.games.northstar.options import NorthstarOptions


class _MatchFacts(Protocol):
    """What the view reads of its match, named structurally so that the view needs no import of the match module
    (the match builds its views: importing it back would make a cycle)."""

    @property
    def options(self) -> NorthstarOptions: ...

    n_seats: int
    packs: list[tuple[int, int]]

    @property
    def team_totals(self) -> tuple[int, ...]: ...

    @property
    def hands(self) -> Sequence[NorthstarHand]: ...


class NorthstarView(ViewBase["NorthstarHand"]):
    """One seat's knowledge, read live from the match (the shared part is in :class:`ViewBase`)."""

    __slots__ = ()
    _match: _MatchFacts  # type: ignore[assignment]

    # -- match level -----------------------------------------------------------------------------------
    @property
    def options(self) -> NorthstarOptions:
        """The rules options of the match (public)."""
        return self._match.options

    @property
    def players(self) -> int:
        """The number of players."""
        return self._match.n_seats

    def team_of(self, seat: int) -> int:
        """The team of ``seat`` (each player is a team of one without team play) (NS-10)."""
        return self._match.options.team_of(seat)

    def partners(self) -> tuple[int, ...]:
        """The other members of this seat's team (empty without team play)."""
        opts = self._match.options
        me = opts.team_of(self.seat)
        return tuple(s for s in range(self.players) if s != self.seat and opts.team_of(s) == me)

    @property
    def team_totals(self) -> tuple[int, ...]:
        """The running total of each team (NS-10)."""
        return self._match.team_totals

    # -- round level: public table ---------------------------------------------------------------------
    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """How many cards each seat holds."""
        return tuple(h.bit_count() for h in self._cur().hands)

    @property
    def trick(self) -> tuple[tuple[int, Play], ...]:
        """The plays of the trick in progress, in order."""
        return tuple(self._cur().trick)

    @property
    def top(self) -> Play | None:
        """The play to beat, or None if the next play leads a trick."""
        return self._cur().top

    @property
    def top_seat(self) -> int | None:
        """Who made the play to beat."""
        return self._cur().top_seat

    @property
    def passes(self) -> int:
        """Passes since the last play."""
        return self._cur().passes

    @property
    def won(self) -> tuple[CardSet, ...]:
        """The cards each seat has won this round."""
        return tuple(CardSet.from_mask(m) for m in self._cur().won)

    @property
    def played(self) -> CardSet:
        """Every card played this round."""
        h = self._cur()
        mask = h.trick_cards
        for m in h.won:
            mask |= m
        return CardSet.from_mask(mask)

    @property
    def bonus(self) -> tuple[int | None, ...]:
        """The bonus card each seat has taken (None: none yet) (NS-1, NS-5)."""
        return tuple(self._cur().bonus)

    @property
    def out_order(self) -> tuple[int, ...]:
        """The seats that have gone out, in order."""
        return tuple(self._cur().out_order)

    @property
    def doubled(self) -> tuple[int, ...]:
        """The seats that called double or nothing this round (NS-8)."""
        h = self._cur()
        return tuple(s for s in range(h.n) if h.doubled[s])

    @property
    def started(self) -> bool:
        """Whether this seat has played a card this round (after which it cannot call double or nothing, NS-8)."""
        return self._cur().started[self.seat]

    @property
    def last_turn(self) -> int | None:
        """The last player holding cards, during their final turn (NS-5)."""
        return self._cur().last_turn

    @property
    def history(self) -> tuple[Event, ...]:
        """Every event of this round so far (all public)."""
        return self._grown("history", self._cur().history, _same)

    @property
    def tricks(self) -> tuple[tuple[int, CardSet], ...]:
        """The tricks taken this round: (winner, cards)."""
        return self._grown("tricks", self._cur().tricks, _same)

    # -- what earlier rounds tell this seat (NS-6) -----------------------------------------------------
    def rounds(self) -> int:
        """How many rounds have been dealt (the current one included)."""
        return len(self._match.hands)

    def pack_before(self, index: int) -> tuple[int, int]:
        """How many cards were undealt and how many on the discard pile before round ``index`` was dealt (public)."""
        return self._match.packs[index]

    def seen_in_round(self, index: int) -> CardSet:
        """The cards this seat saw in round ``index``: the hand it was dealt and every card played."""
        h = self._match.hands[index]
        mask = int(h.deal.hands[self.seat]) | h.trick_cards
        for m in h.won:
            mask |= m
        return CardSet.from_mask(mask)

    def left_holding(self, index: int) -> int:
        """How many cards the other seats still held when round ``index`` ended (cards nobody else saw)."""
        h = self._match.hands[index]
        return sum(m.bit_count() for s, m in enumerate(h.hands) if s != self.seat)

    def to_dict(self) -> JsonObject:
        """A JSON-ready snapshot of this view."""
        h = self._cur()
        return {
            "game": "northstar",
            "seat": self.seat,
            "players": self.players,
            "phase": self.phase.value,
            "hand_number": self.hand_number,
            "dealer": h.dealer,
            "to_act": self.to_act,
            "totals": list(self.totals),
            "team_totals": list(self.team_totals),
            "goal": self.options.goal,
            "hand": str(self.hand),
            "hand_sizes": list(self.hand_sizes),
            "trick": [{"seat": s, "play": str(p)} for s, p in self.trick],
            "passes": self.passes,
            "won": [str(c) for c in self.won],
            "bonus": list(self.bonus),
            "out_order": list(self.out_order),
            "doubled": list(self.doubled),
            "last_turn": self.last_turn,
            "legal": [str(a) for a in self.legal_actions()],
        }


def _same(item: S) -> S:
    """An item shown as it is (immutable already)."""
    return item
