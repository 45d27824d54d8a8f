"""How ``clubs replay`` tells a round of North Star's CLUBS: the hands dealt, each trick's plays, passes and calls
on one line with its winner, who went out with which bonus card, the end of the round and its points."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from clubsuite.cards import CardSet
from clubsuite.events import Event
from clubsuite.games.northstar import events as ns
from clubsuite.games.northstar.options import NorthstarOptions, Teams
from clubsuite.games.northstar.screen import TEAM_LETTERS, round_scores
from clubsuite.narration import Narrator, hand_number, seat_number, signed

LEGAL_SHOWN = 40
"""At most this many legal actions are listed at the end of an unfinished match."""


def team_totals(values: Sequence[int]) -> str:
    """Team totals named by the letters the screen uses, e.g. ``A +17, B +0`` (team ``t`` is seats ``s % n == t``)."""
    return ", ".join(f"{TEAM_LETTERS[t]} {v:+d}" for t, v in enumerate(values))


class NorthstarNarrator(Narrator):
    """A trick is one line of plays, passes and calls ending with its winner (NS-1..NS-11)."""

    def start_hand(self) -> None:
        """Start the round with no trick gathered."""
        self.flow: list[str] = []
        self.tricks_taken = 0

    def flush_flow(self) -> None:
        """Print the plays of a trick that was not taken (the record stops in the middle of it)."""
        if self.flow:
            self.say(f"trick {self.tricks_taken + 1:2d}: {', '.join(self.flow)}  (in progress)")
            self.flow = []

    def end_hand(self, tricks_done: int) -> None:
        """The trick in progress, if the record stops in it."""
        self.flush_flow()

    def event(self, ev: Event, tricks_done: int) -> int:
        """Describe one event of North Star's CLUBS."""
        hand = self.current
        n = hand.n
        if isinstance(ev, ns.HandStarted):
            self.lines.append("")
            number = hand_number(ev.hand_number)
            self.say(f"hand {number}: dealer {self.seat(ev.dealer)}, {self.seat((ev.dealer + 1) % n)} leads", 0)
            for s in range(n):
                cards = sorted(CardSet(int(hand.deal.hands[s])), key=lambda c: (c.rank, c.suit or 0))
                self.say(f"dealt to {self.seat(s)}: {' '.join(str(c) for c in cards)}")
            self.flow, self.tricks_taken = [], 0
        elif isinstance(ev, ns.Played):
            self.flow.append(f"seat {seat_number(ev.seat)} {ev.play}")
        elif isinstance(ev, ns.Passed):
            self.flow.append(f"seat {seat_number(ev.seat)} pass")
        elif isinstance(ev, ns.DoubleCalled):
            self.flow.append(f"seat {seat_number(ev.seat)} double (NS-8)")
        elif isinstance(ev, ns.WentOut):
            self.flow.append(f"seat {seat_number(ev.seat)} out (bonus {ev.bonus})")
        elif isinstance(ev, ns.LastTurn):
            self.flow.append(f"last turn: seat {seat_number(ev.seat)} (NS-5)")
        elif isinstance(ev, ns.TrickWon):
            self.tricks_taken += 1
            how = " at once (a 15, NS-4)" if ev.at_once else ""
            self.say(f"trick {self.tricks_taken:2d}: {', '.join(self.flow)} -> won by {self.seat(ev.seat)}{how}")
            self.flow = []
        elif isinstance(ev, ns.RoundEnded):
            self.flush_flow()
            if ev.team is not None:
                members = ", ".join(str(seat_number(s)) for s in range(n) if hand.options.team_of(s) == ev.team)
                self.say(
                    f"round over: only team {TEAM_LETTERS[ev.team]} (seats {members}) holds cards and scores nothing "
                    "(NS-10)"
                )
            elif ev.last is not None:
                held = hand.hands[ev.last].bit_count()
                zero = "takes the 0 card and scores nothing" if n > 2 else "scores only the clubs won"
                self.say(f"round over: {self.seat(ev.last)} is left holding {held} card(s) and {zero} (NS-5)")
        elif isinstance(ev, ns.HandScored):
            parts = round_scores(hand)
            self.say(f"clubs:      {' '.join(str(p.clubs) for p in parts)}")
            self.say(f"bonus:      {' '.join('-' if p.bonus is None else str(p.bonus) for p in parts)}")
            for s, p in enumerate(parts):
                if p.note:
                    self.say(f"seat {seat_number(s)}: {p.note}")
            self.say(f"scores:     {signed(ev.scores)}")
            self.say(f"totals:     {signed(ev.totals)}")
            if hand.options.teams is not Teams.NONE:
                self.say(f"team totals: {team_totals(ev.team_totals)}")
        elif isinstance(ev, ns.MatchEnded):
            pass  # the end of the match is told once, after the last hand
        else:
            return super().event(ev, tricks_done)
        return tricks_done

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
