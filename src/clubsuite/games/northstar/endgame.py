"""The exact search of a CLUBS round's end, every hand known (the registry part ``endgame``): what each legal action
of the seat to act is worth to it in round points, however the others play.

The trick games have a double-dummy solver; a climbing game needs its own search, because a trick here is any
number of plays and passes (NS-4), players go out and take bonus cards in order (NS-5), and the last player's final
turn decides who takes the cards on the table. The search plays the round to its end on copies of the round's state
through the engine's own rules (every legal play, pass and call), so it cannot disagree with them.

What it counts is the seat's score for the round (NS-2 clubs, NS-5 bonus and 0 card, NS-8 double or nothing), with
every other player playing to make it as low as possible (the *paranoid* reading of a game of more than two sides,
the same the trick games' solver makes): a value is what the seat can be sure of. Values are remembered by
everything the rest of the round depends on, so a position reached by two orders of play is searched once.

Rounds played in teams (NS-10) are not searched: a team's score is shared, and what a partner would do is not one
side's choice.
"""

from __future__ import annotations

from collections.abc import Hashable

from clubsuite.games.northstar.combos import NorthstarAction
from clubsuite.games.northstar.hand import NorthstarHand, club_points
from clubsuite.games.northstar.match import NorthstarMatch
from clubsuite.games.northstar.options import Teams
from clubsuite.solver.search import NodeLimitError


class EndgameSearch:
    """One search of one round, for one seat's score (see the module docstring)."""

    def __init__(self, hand: NorthstarHand, seat: int, node_limit: int | None) -> None:
        self.seat = seat
        self.limit = node_limit
        self.nodes = 0
        self.memo: dict[Hashable, int] = {}
        self.table = hand.options.club_points
        self.doubles = hand.options.double_or_nothing

    def key(self, h: NorthstarHand) -> Hashable:
        """Everything the seat's score from here depends on: the cards held, the trick in progress, who acts and
        how many passed, the last turn, the calls (and who may still call), who went out first, and what the seat
        has already won (its clubs' points and bonus card) and how many bonus cards are left."""
        s = self.seat
        return (
            tuple(h.hands),
            h.trick_cards,
            h.top,
            h.top_seat,
            h.passes,
            h.to_act,
            h.last_turn,
            tuple(h.doubled),
            tuple(h.started) if self.doubles else None,
            h.out_order[0] if h.out_order else None,
            club_points(h.won[s], self.table),
            h.bonus[s],
            len(h._bonus_left),
        )

    def value(self, h: NorthstarHand) -> int:
        """The seat's round score from ``h`` on, the seat playing its best and everyone else against it."""
        if h.scores is not None:
            return h.scores[self.seat]
        k = self.key(h)
        known = self.memo.get(k)
        if known is not None:
            return known
        self.nodes += 1
        if self.limit is not None and self.nodes > self.limit:
            raise NodeLimitError(f"the endgame needs more than {self.limit} positions searched")
        mine = h.to_act == self.seat
        best: int | None = None
        for action in h.legal_actions():
            v = self.value(_after(h, action))
            if best is None or (v > best if mine else v < best):
                best = v
        assert best is not None  # someone is to act, so something is legal (NS-4: a leader must play)
        self.memo[k] = best
        return best


def _after(h: NorthstarHand, action: NorthstarAction) -> NorthstarHand:
    child = h.clone()
    child.apply(action)
    return child


def searchable(match: object) -> NorthstarHand | None:
    """The round in progress where the search applies: a CLUBS round with someone to act, played without teams."""
    if not isinstance(match, NorthstarMatch) or match.options.teams is not Teams.NONE:
        return None
    hand = match.current
    if hand is None or hand.to_act is None:
        return None
    return hand


def action_values(match: object, node_limit: int | None = None) -> dict[object, int] | None:
    """Each legal action of the seat to act with the round score it can be sure of after it (see the module
    docstring); None where the search does not apply. :class:`~clubsuite.solver.search.NodeLimitError` past
    ``node_limit`` positions (the values of one position cost at most that many)."""
    hand = searchable(match)
    if hand is None:
        return None
    assert hand.to_act is not None
    search = EndgameSearch(hand, hand.to_act, node_limit)
    return {action: search.value(_after(hand, action)) for action in hand.legal_actions()}


def best_reply(match: object, seat: int, node_limit: int | None = None) -> object | None:
    """The action of the seat to act that holds ``seat``'s round score lowest (the first of equals in the order the
    engine lists them) when another seat is to act, or that makes it highest when ``seat`` is: the line a puzzle's
    solution is shown with. None where the search does not apply."""
    hand = searchable(match)
    if hand is None:
        return None
    to_act = hand.to_act
    search = EndgameSearch(hand, seat, node_limit)
    best: tuple[int, object] | None = None
    for action in hand.legal_actions():
        v = search.value(_after(hand, action))
        if best is None or (v > best[0] if to_act == seat else v < best[0]):
            best = (v, action)
    return None if best is None else best[1]
