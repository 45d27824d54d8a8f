"""The partnership screen of ``clubs play`` and ``clubs watch``: the pass, the trick, the partnerships' points.

A player sees only what their seat may know (:class:`~clubsuite.games.partnership.PartnershipView`): their own
hand, the three cards they passed and, once all four have chosen, the three they received (CP-2), and the cards
played. Totals and points are shown per partnership (CP-3). A spectator (``clubs watch``) sees every hand and every
pass.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from rich import box
from rich.table import Table as RichTable
from rich.text import Text

from clubsuite.cards import CardSet
from clubsuite.errors import ClubsError
from clubsuite.games.partnership import TEAMS, CardsPassed, Direction, HandScored, PartnershipMatch, Pass, receiver
from clubsuite.games.partnership.hand import PartnershipHand, ScoreLine
from clubsuite.games.partnership.present import TRANSFER
from clubsuite.games.partnership.spectator import public_dict
from clubsuite.games.partnership.view import PartnershipView
from clubsuite.jsonform import JsonObject
from clubsuite.reasons import Reason
from clubsuite.safetext import quoted
from clubsuite.tui.render import cards_text, hand_text, score_table, sorted_hand
from clubsuite.tui.table import Marked, Table


def point_rows(lines: Sequence[ScoreLine], tr: Callable[..., str]) -> list[tuple[str, tuple[int, ...]]]:
    """A hand's points by source for the two partnerships (CP-3): one row per source, then the hand's total; the
    labels in the words of ``tr`` (the table's)."""
    return [
        (tr("tricks (1 each)"), tuple(line.tricks for line in lines)),
        (tr("clubs (1 each)"), tuple(line.clubs for line in lines)),
        (tr("Ruby Dame QD (5)"), tuple(line.ruby_dame for line in lines)),
        (tr("all 13 tricks (5)"), tuple(line.sweep for line in lines)),
        (tr("hand"), tuple(line.total for line in lines)),
    ]


class PartnershipTable(Table[PartnershipMatch]):
    """The terminal screen of the partnership game, for a player (``human`` is a seat) or a spectator (None)."""

    move_help = (
        "a card or its number; to pass, three cards (pass 2C 7H QS) or three numbers; your partner, opposite you, "
        "is a bot"
    )
    title = Marked.tr("Clubs (partnership)")
    rules_line = Marked.tr(
        "Partners sit opposite. Clubs are trumps; lead anything, follow suit if you can. A point a trick and a "
        "club, 5 for the queen of diamonds, 5 more for all 13 tricks; first partnership to the target wins."
    )
    help_line = Marked.tr(
        "Enter a card (e.g. {card}) or its number; to pass, three cards (pass 2C 7H 9S) or three numbers; "
        "? legal moves, h hint, s scores, q quit."
    )

    def _direction(self, direction: Direction) -> str:
        """Where the cards go, as a hand's first line says it (CP-2)."""
        if direction is Direction.LEFT:
            return self.tr("pass to the left")
        if direction is Direction.RIGHT:
            return self.tr("pass to the right")
        return self.tr("no pass")

    def team_name(self, team: int) -> str:
        """The partnership's players, ``You + Cleo`` (the human's partnership first where it is one)."""
        return " + ".join(self.names[s] for s in TEAMS[team])

    def _team_totals(self, match: PartnershipMatch) -> str:
        return ", ".join(f"{self.team_name(t)} {total}" for t, total in enumerate(match.team_totals))

    def show_scores(self, match: PartnershipMatch) -> None:
        """The score sheet per partnership: every hand's points and the running totals."""
        names = [self.team_name(0), self.team_name(1)]
        sheet = [(scores[0], scores[1]) for scores in match.hand_scores]
        self.console.print(score_table(names, sheet, match.team_totals, ascii_only=not self.symbols, tr=self.tr))

    # -- what happened: the game's words (clubsuite.tui.table.Table.show_events), and what this screen adds --------
    def public_view(self, match: PartnershipMatch) -> JsonObject:
        """The table as anyone watching sees it (:func:`clubsuite.games.partnership.spectator.public_dict`)."""
        return public_dict(match)

    def after_event(self, match: PartnershipMatch, event: object) -> None:
        """Once all four have passed, the cards that moved, for whoever may see them (CP-2); after a hand's points,
        the points by source and the score sheet (CP-3)."""
        if isinstance(event, CardsPassed):
            self._cards_passed(match)
        elif isinstance(event, HandScored):
            self._points_sheet(match)

    def _cards_passed(self, match: PartnershipMatch) -> None:
        """The cards passed, in the game's words: a player's own three and the three it received, as the page shows
        them beside its hand (the cards no other seat may see, CP-2); a spectator, who sees every hand, every
        seat's."""
        if self.human is not None:
            for known in self.known(match, self.human):
                cards = cards_text(sorted_hand(CardSet.parse(known.cards)), self.faces)
                line = self.styled(self.tr("{label}: {words}"), label=self.worded((known.title,)), words=cards)
                self.say(Text("  ").append_text(line))
            return
        hand = match.hands[-1]
        for giver in range(match.n_seats):
            passed = tuple(str(c) for c in sorted_hand(CardSet(hand.passed[giver])))
            moved = Reason(TRANSFER, from_seat=giver, to_seat=receiver(giver, hand.direction), cards=passed)
            self.say("  " + self.worded((moved,)))

    def _points_sheet(self, match: PartnershipMatch) -> None:
        """The hand's points by source for each partnership (CP-3), then the score sheet."""
        hand: PartnershipHand = match.hands[-1]
        sheet = RichTable(title=self.tr("This hand"), box=box.ASCII if not self.symbols else box.HEAVY_HEAD)
        sheet.add_column(self.tr("points"))
        for team in range(len(TEAMS)):
            sheet.add_column(self.team_name(team), justify="right")
        rows = point_rows(hand.score_lines(), self.tr)
        for i, (label, row) in enumerate(rows):
            total = i == len(rows) - 1
            sheet.add_row(label, *(str(v) if v or total else "." for v in row))
        self.console.print(sheet)
        self.show_scores(match)

    # -- the human's screen ----------------------------------------------------------------------------
    def show_state(self, match: PartnershipMatch, seat: int) -> None:
        """The human's screen before a decision: the pass or the trick, the points so far, what the seat is asked
        and the hand."""
        view = match.view(seat)
        self.say()
        self.say(
            self.tr(
                "Hand {number} · dealer {name} · {where} · totals: {totals} (target {target})",
                number=view.hand_number + 1,
                name=self.names[view.dealer],
                where=self._direction(view.direction),
                totals=self._team_totals(match),
                target=view.target,
            )
        )
        legal = match.legal_actions()
        if view.pass_to is not None and view.received is None:
            self.show_asked(match, seat)  # the three cards to pass, and to whom (CP-2), in the game's words
            cards = hand_text(view.hand, numbered=True, symbols=self.faces)
            self.say(self.styled(self.tr("Your hand: {cards}"), cards=cards))
            return
        self._play_state(view)
        self.show_asked(match, seat)  # its lead or how to follow (CP-1), in the game's words
        cards = hand_text(view.hand, legal if isinstance(legal, CardSet) else None, symbols=self.faces)
        self.say(self.styled(self.tr("Your hand: {cards}"), cards=cards))

    def _play_state(self, view: PartnershipView) -> None:
        given, received = view.given, view.received
        if given is not None and received is not None and view.pass_to is not None and view.pass_from is not None:
            words = self.tr("You passed to {receiver}: {given} · received from {giver}: {received}")
            self.say(
                self.styled(
                    words,
                    receiver=self.names[view.pass_to],
                    giver=self.names[view.pass_from],
                    given=cards_text(sorted_hand(given), self.faces),
                    received=cards_text(sorted_hand(received), self.faces),
                )
            )
        points = view.points
        tricks = ", ".join(f"{self.team_name(t)} {line.tricks}" for t, line in enumerate(points))
        taken = ", ".join(f"{self.team_name(t)} {line.total}" for t, line in enumerate(points))
        self.say(
            self.tr(
                "Trick {number}/13 · tricks: {tricks} · points so far: {points}",
                number=len(view.tricks) + 1,
                tricks=tricks,
                points=taken,
            )
        )
        played = Text()
        if view.trick:
            for i, (s, c) in enumerate(view.trick):
                if i:
                    played.append(", ")
                played.append(f"{self.names[s]} ")
                played.append_text(cards_text([c], self.faces))
        else:
            played.append(self.tr("(you lead)"))
        self.say(self.styled(self.tr("Trick so far: {cards}"), cards=played))

    def show_deal(self, match: PartnershipMatch) -> None:
        """For spectators: the four hands as dealt."""
        hand = match.hands[-1]
        for s in range(len(self.names)):
            line = Text(f"  {self.names[s]}: ")
            line.append_text(hand_text(hand.hand_of(s), numbered=False, symbols=self.faces))
            self.say(line)

    # -- input -----------------------------------------------------------------------------------------
    def prompt(self, match: PartnershipMatch, seat: int) -> str:
        """Three cards to pass, or a card to play."""
        view = match.view(seat)
        if view.pass_to is not None and view.received is None:
            return (
                self.tr("Your three cards to pass to {name} (cards or numbers):", name=self.names[view.pass_to]) + " "
            )
        return self.tr("Your card:") + " "

    def after_legal(self, match: PartnershipMatch) -> None:
        """The input help."""
        self.say(self.shown(self.help_line), style="dim")

    def legal_words(self, match: PartnershipMatch) -> list[str]:
        """The legal cards in hand order; in the pass, any three cards of the hand."""
        legal = match.legal_actions()
        if isinstance(legal, CardSet):
            return [self.card_words(c) for c in sorted_hand(legal)]
        seat = match.to_act
        assert seat is not None
        return [self.tr("any three of your cards:"), *(self.card_words(c) for c in sorted_hand(match.view(seat).hand))]

    def read_action(self, match: PartnershipMatch, seat: int, text: str) -> object | None:
        """A card in notation or by number; in the pass three cards, in notation or by number (CP-2)."""
        view = match.view(seat)
        shown = sorted_hand(view.hand)
        words = text.replace(",", " ").split()
        if words and words[0].lower() in ("pass", "p"):
            words = words[1:]
        try:
            if words and all(re.fullmatch(r"[0-9]+", w) for w in words):
                picked = []
                for w in words:
                    number = int(w)
                    if not 1 <= number <= len(shown):
                        self.say(self.no_card_number(number, len(shown)), style="red")
                        return None
                    picked.append(shown[number - 1])
                if (
                    len(picked) == 1
                    and match.legal_actions() is not None
                    and isinstance(match.legal_actions(), CardSet)
                ):
                    return picked[0]
                if len(set(picked)) != len(picked):
                    self.say(
                        self.tr(
                            "{input} names a card twice: pass three different cards (CP-2).", input=quoted(text.strip())
                        ),
                        style="red",
                    )
                    return None
                return Pass(CardSet(picked))
            return match.parse_action(text)
        except ClubsError as exc:
            self.say(self.refusal(exc), style="red")
            return None
