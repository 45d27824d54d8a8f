"""North Star's CLUBS as a seat to act is offered it: the readings of the same cards strongest first, each with what
it does (:mod:`clubsuite.present`).

With wild 15s (NS-9) one choice of cards may be played several ways: ``15H 15S`` as a pair of 15s, or as a pair of
14s, 13s... Only a play whose top card is a 15 played as itself takes the trick at once (NS-4, NS-9; never in Crazy
CLUBS, NS-11), so the reading that does is offered first, then the others from the highest value down. Each reading
says what it is (a set or a run, with its values; a lone 15's value is said beside it) and, where one of them takes
the trick at once, whether it does. Plays of other cards keep the engine's order among themselves.
"""

from __future__ import annotations

from collections.abc import Sequence

from clubsuite.games.northstar.combos import Kind, NorthstarAction, Play, wins_at_once
from clubsuite.games.northstar.match import NorthstarMatch
from clubsuite.present import Offered
from clubsuite.reasons import Reason, template

SET = template("northstar.offer_set", "{count} cards of {value}", rule="NS-3")
"""A reading as a set: ``count`` cards of ``value``."""
RUN = template("northstar.offer_run", "a run from {low} to {high}", rule="NS-3")
"""A reading as a run from ``low`` to ``high``."""
TAKES_AT_ONCE = template("northstar.offer_takes_at_once", "{reason}, takes the trick at once", rule="NS-4")
"""A set or run whose top card is a 15 played as itself, where another reading of the same cards would not be."""
NOT_AT_ONCE = template("northstar.offer_not_at_once", "{reason}, does not take the trick at once", rule="NS-9")
"""A set or run where a wild 15 stands for another value, where another reading of the same cards takes the trick."""
ONE_AT_ONCE = template("northstar.offer_one_at_once", "takes the trick at once", rule="NS-4")
"""A lone 15 played as itself (its value is said beside it)."""
ONE_NOT_AT_ONCE = template("northstar.offer_one_not_at_once", "does not take the trick at once", rule="NS-9")
"""A lone wild 15 standing for another value (its value is said beside it)."""


def offered_actions(match: NorthstarMatch, legal: Sequence[NorthstarAction]) -> list[Offered]:
    """Every legal action once: calls and plays in the engine's order, except that the readings of one choice of
    cards stand together (where the first of them stood), strongest first, each with its note where there are
    several."""
    crazy = match.options.crazy
    readings: dict[int, list[Play]] = {}
    order: list[NorthstarAction | int] = []  # a call, or the card mask standing for its readings
    for action in legal:
        if isinstance(action, Play):
            mask = int(action.cards)
            if mask not in readings:
                readings[mask] = []
                order.append(mask)
            readings[mask].append(action)
        else:
            order.append(action)
    out: list[Offered] = []
    for item in order:
        if not isinstance(item, int):
            out.append(Offered(match.format_action(item)))
            continue
        plays = readings[item]
        if len(plays) == 1:
            out.append(Offered(match.format_action(plays[0])))
            continue
        plays.sort(key=lambda p: (wins_at_once(p, crazy), p.high), reverse=True)  # stable: the engine's order else
        at_once = wins_at_once(plays[0], crazy)  # whether taking the trick at once tells these readings apart
        out.extend(Offered(match.format_action(p), note(p, crazy, at_once)) for p in plays)
    return out


def note(play: Play, crazy: bool, at_once: bool) -> Reason | None:
    """What one reading of several is (a set or a run, with its values; a single's value is said beside it) and,
    where another reading of the same cards takes the trick at once (``at_once``), whether this one does; None for a
    lone wild 15 where nothing takes the trick at once (Crazy CLUBS, NS-11: its value says it all)."""
    wins = wins_at_once(play, crazy)
    if play.kind is Kind.SINGLE:
        if not at_once:
            return None
        return Reason(ONE_AT_ONCE if wins else ONE_NOT_AT_ONCE)
    if play.kind is Kind.RUN:
        what = Reason(RUN, low=play.low, high=play.high)
    else:
        what = Reason(SET, count=play.size, value=play.high)
    if not at_once:
        return what
    return Reason(TAKES_AT_ONCE if wins else NOT_AT_ONCE, reason=what)
