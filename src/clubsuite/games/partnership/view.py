"""What one seat may know in Clubs (partnership): its own cards, the public table, and its own side of the pass.

A view is a live, read-only window on the match for one seat: the match keeps one per seat, and ``to_dict()`` takes
a snapshot. Public: who has chosen a pass, every card played and every trick (so the points each partnership has
taken), the suits a seat has shown it lacks, and how many cards each seat holds. Private to this seat: its own
cards, the three it chose to pass, and, once all four have chosen, the three it received (CP-2). The cards it gave
are known to lie with the receiver until they are played; nothing else of another hand ever shows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from clubsuite.cards import FULL_STANDARD, Card, CardSet, Suit, card_at
from clubsuite.games.partnership.deal import N_SEATS
from clubsuite.games.partnership.hand import Direction, PassChoices, ScoreLine, giver, receiver, team_of
from clubsuite.jsonform import JsonObject
from clubsuite.view_base import ViewBase

if TYPE_CHECKING:
    from clubsuite.games.partnership.hand import PartnershipHand
    from clubsuite.games.partnership.options import PartnershipOptions


class _MatchFacts(Protocol):
    """What the view reads of its match, named structurally so that the view needs no import of the match module
    (the match builds its views: importing it back would make a cycle)."""

    @property
    def options(self) -> PartnershipOptions: ...

    @property
    def team_totals(self) -> tuple[int, int]: ...


class PartnershipView(ViewBase["PartnershipHand"]):
    """One seat's knowledge, read live from the match (the shared part is in :class:`ViewBase`)."""

    __slots__ = ()
    _match: _MatchFacts  # type: ignore[assignment]

    # -- match level -----------------------------------------------------------------------------------
    @property
    def options(self) -> PartnershipOptions:
        """The rules options of the match (public)."""
        return self._match.options

    @property
    def target(self) -> int:
        """The target score of the match (CP-4)."""
        return self._match.options.target

    @property
    def partner(self) -> int:
        """The seat opposite, this seat's partner."""
        return (self.seat + 2) % N_SEATS

    @property
    def team(self) -> int:
        """This seat's partnership: 0 for seats 0 and 2, 1 for seats 1 and 3."""
        return team_of(self.seat)

    @property
    def team_totals(self) -> tuple[int, int]:
        """The running totals of partnership 0 and partnership 1 (public)."""
        return self._match.team_totals

    # -- hand level: the pass --------------------------------------------------------------------------
    @property
    def direction(self) -> Direction:
        """Where the cards go this hand: left, right or none (CP-2, public)."""
        return self._cur().direction

    @property
    def pass_to(self) -> int | None:
        """The seat this seat passes to this hand, or None in a no-pass hand."""
        d = self.direction
        return None if d is Direction.NONE else receiver(self.seat, d)

    @property
    def pass_from(self) -> int | None:
        """The seat this seat receives from this hand, or None in a no-pass hand."""
        d = self.direction
        return None if d is Direction.NONE else giver(self.seat, d)

    @property
    def chosen(self) -> tuple[int, ...]:
        """The seats that have chosen their pass, in the order they chose (public; the cards are not)."""
        return tuple(self._cur().pass_choices)

    @property
    def given(self) -> CardSet | None:
        """The three cards this seat chose to pass (from its choice on), or None before it chose."""
        mask = self._cur().pass_choices.get(self.seat)
        return CardSet(mask) if mask is not None else None

    @property
    def received(self) -> CardSet | None:
        """The three cards this seat received, once all four chose and the cards moved (CP-2); else None."""
        h = self._cur()
        if not h.passed:
            return None
        return CardSet(h.passed[giver(self.seat, h.direction)])

    # -- hand level: public ----------------------------------------------------------------------------
    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """How many cards each seat holds (public)."""
        return tuple(x.bit_count() for x in self._cur().hands)

    @property
    def leader(self) -> int:
        """The leader of the trick in progress (-1 during the pass)."""
        return self._cur().leader

    @property
    def trick(self) -> tuple[tuple[int, Card], ...]:
        """The trick in progress as (seat, card)."""
        return self._cur().trick

    @property
    def winning(self) -> int:
        """The seat winning the trick in progress so far (-1 when no card is on the table)."""
        return self._cur().winning

    @property
    def tricks(self) -> tuple[tuple[int, tuple[Card, ...], int], ...]:
        """The completed tricks: (leader, cards in play order, winner)."""
        return self._grown("tricks", self._cur().tricks, _trick_of)

    @property
    def tricks_won(self) -> tuple[int, ...]:
        """Tricks taken so far by each seat (public)."""
        return tuple(self._cur().tricks_won)

    @property
    def points(self) -> tuple[ScoreLine, ...]:
        """Each partnership's points taken so far in this hand, by source (CP-3; public, tricks are face up)."""
        return self._cur().score_lines()

    @property
    def played(self) -> CardSet:
        """Every card played so far in this hand."""
        h = self._cur()
        mask = 0
        for taken in h.taken:
            mask |= taken
        for i in h.trick_indices:
            mask |= 1 << i
        return CardSet(mask)

    def voids(self) -> tuple[tuple[Suit, ...], ...]:
        """For each seat, the suits it has shown it lacks by not following suit (public), in suit order."""
        return shown_voids(self._cur())

    def known_cards(self) -> dict[int, CardSet]:
        """Cards this seat knows to be in another hand now: those it passed, with the receiver until played."""
        h = self._cur()
        if not h.passed:
            return {}
        left = h.passed[self.seat] & ~int(self.played)
        return {receiver(self.seat, h.direction): CardSet(left)} if left else {}

    def unseen(self) -> CardSet:
        """Cards whose place this seat does not know (in the other hands)."""
        known = 0
        for cs in self.known_cards().values():
            known |= int(cs)
        return CardSet(FULL_STANDARD & ~self._cur().hands[self.seat] & ~int(self.played) & ~known)

    def to_dict(self) -> JsonObject:
        """A JSON-ready snapshot of this view."""
        h = self._cur()
        given, received = self.given, self.received
        return {
            "game": "partnership",
            "seat": self.seat,
            "partner": self.partner,
            "phase": self.phase.value,
            "hand_number": self.hand_number,
            "dealer": h.dealer,
            "to_act": self.to_act,
            "totals": list(self.totals),
            "team_totals": list(self.team_totals),
            "target": self.target,
            "pass": self.direction.value,
            "pass_to": self.pass_to,
            "pass_from": self.pass_from,
            "chosen": list(self.chosen),
            "given": str(given) if given is not None else None,
            "received": str(received) if received is not None else None,
            "hand": str(self.hand),
            "hand_sizes": list(self.hand_sizes),
            "leader": h.leader,
            "trick": [{"seat": s, "card": str(c)} for s, c in self.trick],
            "tricks": [{"leader": lead, "cards": [str(c) for c in cs], "winner": win} for lead, cs, win in self.tricks],
            "tricks_won": list(self.tricks_won),
            "points": [line._asdict() | {"total": line.total} for line in self.points],
            "voids": ["".join(s.letter for s in v) for v in self.voids()],
            "known_cards": {str(k): str(v) for k, v in self.known_cards().items()},
            "legal": self._legal_words(),
        }

    def _legal_words(self) -> list[str]:
        """The legal actions in a snapshot: the cards in play; a pass of any three cards is described, not listed."""
        legal = self.legal_actions()
        if isinstance(legal, PassChoices):
            return ["pass any three cards of the hand"]
        return [str(a) for a in legal]

    def __repr__(self) -> str:
        return f"<PartnershipView seat={self.seat} of {N_SEATS}>"


def shown_voids(h: PartnershipHand) -> tuple[tuple[Suit, ...], ...]:
    """For each seat, the suits it has shown it lacks in hand ``h`` by not following suit (public), in suit order.

    A player who did not follow the suit led held none of it then, and hands only shrink in play. Every seat's view
    and the spectator's (:mod:`clubsuite.games.partnership.spectator`) show the same.
    """
    out = [0, 0, 0, 0]
    plays = [(lead, cs) for lead, cs, _ in h.tricks]
    if h.trick_indices:
        plays.append((h.leader, h.trick_indices))
    for lead, cs in plays:
        led = cs[0] // 13
        for k, c in enumerate(cs[1:], start=1):
            if c // 13 != led:
                out[(lead + k) % N_SEATS] |= 1 << led
    return tuple(tuple(s for s in Suit if m >> s & 1) for m in out)


def _trick_of(entry: tuple[int, tuple[int, ...], int]) -> tuple[int, tuple[Card, ...], int]:
    """A completed trick as the view shows it: (leader, cards in play order, winner)."""
    lead, cards, winner = entry
    return (lead, tuple(map(card_at, cards)), winner)
