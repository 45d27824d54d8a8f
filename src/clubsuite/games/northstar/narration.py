"""What ``clubs replay`` adds to a round of North Star's CLUBS beside the table's events (told by
:mod:`clubsuite.narration` in the game's own words): the hands dealt, which a record holds, the teams' totals
(NS-10) and the legal plays, cut short, in the ending."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from clubsuite.cards import CardSet
from clubsuite.events import Event
from clubsuite.games.northstar import events as ns
from clubsuite.games.northstar.match import NorthstarMatch
from clubsuite.games.northstar.options import NorthstarOptions, Teams
from clubsuite.games.northstar.screen import TEAM_LETTERS
from clubsuite.games.northstar.spectator import public_dict
from clubsuite.narration import Narrator

LEGAL_SHOWN = 40
"""At most this many legal actions are listed at the end of an unfinished match."""


def team_totals(values: Sequence[int]) -> str:
    """Team totals named by the letters the screen uses, e.g. ``A +17, B +0`` (team ``t`` is seats ``s % n == t``)."""
    return ", ".join(f"{TEAM_LETTERS[t]} {v:+d}" for t, v in enumerate(values))


class NorthstarNarrator(Narrator):
    """The deal of each round, and the teams' totals in the ending (NS-10)."""

    def public_view(self) -> Mapping[str, Any]:
        """The table as a spectator sees it (:func:`clubsuite.games.northstar.spectator.public_dict`): its teams."""
        match = self.result.match
        if not isinstance(match, NorthstarMatch):
            raise TypeError(f"not a match of northstar: {type(match).__name__}")
        return public_dict(match)

    def after_event(self, ev: Event) -> None:
        """The cards dealt to each seat, after a round starts (a record holds every deal)."""
        if isinstance(ev, ns.HandStarted):
            hand = self.current
            for s in range(hand.n):
                cards = sorted(CardSet(int(hand.deal.hands[s])), key=lambda c: (c.rank, c.suit or 0))
                self.say(f"dealt to {self.seat(s)}: {' '.join(str(c) for c in cards)}")

    def totals_lines(self, data: dict[str, Any], over: bool) -> list[str]:
        """The seats' totals, and the teams' under team play (NS-10)."""
        lines = super().totals_lines(data, over)
        options = self.result.match.options
        if isinstance(options, NorthstarOptions) and options.teams is not Teams.NONE and "team_totals" in data:
            lines.append(f"{'final team totals' if over else 'team totals so far'}: {team_totals(data['team_totals'])}")
        return lines

    def legal_line(self, data: dict[str, Any]) -> str:
        """Plays contain spaces, and wild 15s can make hundreds of them: comma-separated, cut short."""
        legal = data["legal"]
        more = f", ... ({len(legal)} in all)" if len(legal) > LEGAL_SHOWN else ""
        return f"legal: {', '.join(legal[:LEGAL_SHOWN])}{more}"
