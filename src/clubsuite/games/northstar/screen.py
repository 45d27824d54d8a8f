"""The North Star CLUBS screen of ``clubs play`` and ``clubs watch``: the trick, the play to beat, bonus cards, scores.

A player sees only what their seat may know (:class:`~clubsuite.games.northstar.NorthstarView`): their own hand,
every play and pass, the cards each seat holds (how many), who went out with which bonus card and who called
double or nothing. The hands of the others are never shown, not even the cards a player is left holding at the end
of a round. A spectator (``clubs watch``) sees every hand as it is dealt.

Input: a play in notation (``7C 7H``, ``4H 5C 6D``, a wild 15 as ``7H 15S=7``) or by its values alone (``7 7``,
``4-5-6``, read against the player's hand), ``pass`` (``p``), ``double`` (``d``); ``?`` or ``h`` lists the legal
plays by kind and size, ``s`` shows the scores, ``q`` quits.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from rich.text import Text

from clubsuite.bots import SomeBot
from clubsuite.cards import Card, CardSet
from clubsuite.errors import ClubsError
from clubsuite.games.northstar import (
    BONUS_CARDS,
    Call,
    DoubleCalled,
    HandScored,
    Kind,
    NorthstarHand,
    NorthstarMatch,
    NorthstarOptions,
    NorthstarView,
    Passed,
    Play,
    Played,
    Teams,
    TrickWon,
    WentOut,
    club_points,
)
from clubsuite.games.northstar.combos import CLUB_MASK
from clubsuite.games.northstar.spectator import public_dict
from clubsuite.jsonform import JsonObject
from clubsuite.tui.render import Faces, card_text, english, score_table
from clubsuite.tui.table import Marked, Table

TEAM_LETTERS = "ABC"
"""Teams are called A, B, C on screen (team ``t`` is the seats ``s`` with ``s % n_teams == t``, NS-10)."""
GROUP_LIMIT = 12
"""At most this many plays of one kind and size are listed when there are more than :data:`LIST_ALL` in all."""
LIST_ALL = 60
"""Up to this many legal plays are all listed; beyond, each kind and size is cut to :data:`GROUP_LIMIT`."""


def sorted_by_value(cards: CardSet) -> list[Card]:
    """The cards from the lowest value to the highest (clubs, diamonds, hearts, spades within a value)."""
    return sorted(cards, key=lambda c: (c.rank, c.suit or 0))


def by_value_text(cards: CardSet, symbols: bool | Faces) -> Text:
    """The cards sorted by value, a wider gap between values, so that sets and runs stand out."""
    out = Text()
    last: int | None = None
    for c in sorted_by_value(cards):
        if last is not None:
            out.append("  " if c.rank != last else " ")
        out.append_text(card_text(c, symbols))
        last = c.rank
    return out


def play_text(play: Play, symbols: bool | Faces) -> Text:
    """A play in notation (``7C 7H``, ``15S=7``), coloured by suit."""
    out = Text()
    for i, (c, v) in enumerate(play.placed()):
        if i:
            out.append(" ")
        out.append_text(card_text(c, symbols))
        if c.rank != v:
            out.append(f"={v}")
    return out


def uses_wild(play: Play) -> bool:
    """Whether a 15 in the play stands for another value (NS-9)."""
    return any(c.rank != v for c, v in play.placed())


def value_ranges(points: Sequence[int]) -> str:
    """The club-points table in words: ``1-5: 3, 6-10: 2, 11-15: 1`` (consecutive values with equal points joined)."""
    parts = []
    start = 1
    for v in range(2, len(points) + 2):
        if v > len(points) or points[v - 1] != points[start - 1]:
            span = str(start) if start == v - 1 else f"{start}-{v - 1}"
            parts.append(f"{span}: {points[start - 1]}")
            start = v
    return ", ".join(parts)


class RoundScore(NamedTuple):
    """One seat's points for a round, by source (NS-2, NS-5, NS-8, NS-10): what the score line on screen says."""

    clubs: int
    """The points of the clubs the seat won (NS-2)."""
    bonus: int | None
    """The bonus card it took (0: the 0 card, NS-5), or None."""
    note: str
    """What changed the sum of the two, if anything (the 0 card, double or nothing, a team left holding cards)."""
    points: int
    """The seat's score for the round."""


def round_scores(hand: NorthstarHand, tr: Callable[..., str] = english) -> list[RoundScore]:
    """The points of a scored round by source, as the engine scored them (NS-2, NS-5, NS-8, NS-10), with a note
    saying what changed the sum of clubs and bonus card (in the words of ``tr``, a table's)."""
    out = []
    for line in hand.score_lines:
        notes = []
        if line.zero_card:
            notes.append(tr("the 0 card scores nothing, NS-5"))
        if line.double is True:
            notes.append(tr("double or nothing and out first: doubled, NS-8"))
        elif line.double is False:
            notes.append(tr("double or nothing but not out first: nothing, NS-8"))
        if line.team_zero:
            notes.append(tr("the team left holding cards scores nothing, NS-10"))
        out.append(RoundScore(line.clubs, line.bonus, "; ".join(notes), line.points))
    return out


class NorthstarTable(Table[NorthstarMatch]):
    """The terminal screen of North Star's CLUBS, for a player (``human`` is a seat) or a spectator (None)."""

    move_help = "a play (7C 7H, 4H 5C 6D, 4-5-6, 7H 15S=7), pass (p) or double (d); h lists the legal plays too"
    title = Marked.tr("CLUBS (North Star)")
    rules_line = Marked.tr(
        "Play a single, a set or a run; follow with the same kind and as many cards, higher (NS-3), or pass and "
        "stay in the trick. A 15 wins at once (NS-4); going out takes the highest bonus card left (NS-5)."
    )
    help_line = Marked.tr(
        "Enter a play: cards such as 7C 7H or 4H 5C 6D (a wild 15 as 15S=7), or values alone such as 7 7 or "
        "4-5-6; pass (p); double (d) where double or nothing is played; ? or h legal plays, s scores, q quit."
    )

    def or_list(self, words: Sequence[str]) -> str:
        """Words as alternatives: ``pass or double``."""
        text = words[0] if words else ""
        for word in words[1:]:
            text = self.tr("{first} or {second}", first=text, second=word)
        return text

    # -- names -------------------------------------------------------------------------------------------
    def _options(self, match: NorthstarMatch) -> NorthstarOptions:
        return match.options

    def team_name(self, match: NorthstarMatch, team: int) -> str:
        """``Team A (You + Random 2)``."""
        opts = self._options(match)
        members = " + ".join(self.names[s] for s in range(opts.players) if opts.team_of(s) == team)
        return self.tr("Team {letter} ({members})", letter=TEAM_LETTERS[team], members=members)

    def _teams(self, match: NorthstarMatch) -> bool:
        return self._options(match).teams is not Teams.NONE

    def _team_totals(self, match: NorthstarMatch, short: bool = False) -> str:
        """``Team A (You + Random 2) 17, Team B (...) 8``, or ``A 17, B 8`` when ``short``."""
        if short:
            return ", ".join(f"{TEAM_LETTERS[t]} {v}" for t, v in enumerate(match.team_totals))
        return ", ".join(f"{self.team_name(match, t)} {v}" for t, v in enumerate(match.team_totals))

    def _totals(self, match: NorthstarMatch) -> str:
        return ", ".join(f"{self.names[s]} {t}" for s, t in enumerate(match.totals))

    # -- the start -----------------------------------------------------------------------------------------
    def show_intro(self, match: NorthstarMatch) -> None:
        """The rules of this match in brief (variants, bonus cards, club points, teams, target), then the help."""
        opts = self._options(match)
        if opts.crazy:
            self.say(
                self.tr(
                    "Crazy CLUBS: play a single, a set or a run; follow with the same kind (a single is a set of one) "
                    "and more cards, or as many with a higher top card, or pass and stay in the trick. A 15 does not "
                    "win at once (NS-11); going out takes the highest bonus card left (NS-5)."
                ),
                style="dim",
            )
        else:
            self.say(self.shown(self.rules_line), style="dim")
        params = {
            "bonus": " ".join(str(b) for b in BONUS_CARDS[opts.players]),
            "points": value_ranges(opts.club_points),
            "goal": opts.goal,
        }
        if opts.players > 2 and self._teams(match):
            bonus = self.tr(
                "Bonus cards: {bonus} and the 0 card for the player left holding cards, who scores nothing (NS-1, "
                "NS-5). Only clubs score: {points} (NS-2). The game ends once a team total reaches {goal}; the "
                "highest wins (NS-7).",
                **params,
            )
        elif opts.players > 2:
            bonus = self.tr(
                "Bonus cards: {bonus} and the 0 card for the player left holding cards, who scores nothing (NS-1, "
                "NS-5). Only clubs score: {points} (NS-2). The game ends once a total reaches {goal}; the highest "
                "wins (NS-7).",
                **params,
            )
        elif self._teams(match):
            bonus = self.tr(
                "Bonus cards: {bonus} (NS-1, NS-5). Only clubs score: {points} (NS-2). The game ends once a team "
                "total reaches {goal}; the highest wins (NS-7).",
                **params,
            )
        else:
            bonus = self.tr(
                "Bonus cards: {bonus} (NS-1, NS-5). Only clubs score: {points} (NS-2). The game ends once a total "
                "reaches {goal}; the highest wins (NS-7).",
                **params,
            )
        self.say(bonus, style="dim")
        if opts.wild_fifteens:
            self.say(
                self.tr("Wild 15s: a 15 may stand for any value, e.g. 15S=7 plays the 15 of spades as a 7 (NS-9).")
            )
        if opts.double_or_nothing:
            self.say(
                self.tr(
                    "Double or nothing: type double before your first card of the round; out first doubles your "
                    "points, otherwise you score nothing (NS-8)."
                )
            )
        if self._teams(match):
            teams = ", ".join(self.team_name(match, t) for t in range(opts.n_teams))
            self.say(
                self.tr("Teams (NS-10): {teams}; team totals count, first team to {goal}.", teams=teams, goal=opts.goal)
            )
        self.say(self.shown(self.help_line), style="dim")

    # -- events --------------------------------------------------------------------------------------------
    def trick_ended(self, events: Sequence[object]) -> bool:
        """A trick ends when it is won (NS-4)."""
        return any(isinstance(e, TrickWon) for e in events)

    # -- what happened: the game's words (clubsuite.tui.table.Table.show_events), and what this screen adds --------
    def public_view(self, match: NorthstarMatch) -> JsonObject:
        """The table as anyone watching sees it (:func:`clubsuite.games.northstar.spectator.public_dict`)."""
        return public_dict(match)

    def after_event(self, match: NorthstarMatch, event: object) -> None:
        """After a round's points, each seat's points by source and the score sheet."""
        if isinstance(event, HandScored):
            self._round_sheet(match, event)

    def _round_sheet(self, match: NorthstarMatch, ev: HandScored) -> None:
        """Each seat's points this round by source (NS-2, NS-5, NS-8, NS-10: :func:`round_scores`), the score sheet
        (the team totals are the round's event line's), and, where the top total is tied at the goal, that another
        round is played (NS-7)."""
        hand = match.hands[-1]
        width = max(len(n) for n in self.names)
        for s, rs in enumerate(round_scores(hand, self.tr)):
            won = CardSet(hand.won[s] & CLUB_MASK)
            clubs = Text()
            if won:
                for i, c in enumerate(sorted_by_value(won)):
                    if i:
                        clubs.append(" ")
                    clubs.append_text(card_text(c, self.faces))
                clubs.append(f" ({rs.clubs})")
            else:
                clubs.append(self.tr("none (0)"))
            if rs.note:
                words = self.tr("{name}  clubs {clubs} + bonus {bonus} {arrow} {points} ({note})")
            else:
                words = self.tr("{name}  clubs {clubs} + bonus {bonus} = {points}")
            line = self.styled(
                words,
                name=f"{self.names[s]:<{width}}",
                clubs=clubs,
                bonus=rs.bonus if rs.bonus is not None else self.tr("none"),
                arrow="→" if self.symbols else "->",
                points=rs.points,
                note=rs.note,
            )
            self.say(Text("  ").append_text(line))
        super().show_scores(match)  # the team totals were told with the round's points (NS-10): not again here
        top = max(ev.team_totals)
        if top >= self._options(match).goal and not match.is_over:
            self.say(self.tr("The top total, {top}, is tied: another round (NS-7).", top=top), style="bold")

    def show_scores(self, match: NorthstarMatch) -> None:
        """The score sheet (each round and the running totals), and the team totals in a team game."""
        self.console.print(
            score_table(self.names, match.hand_scores, match.totals, ascii_only=not self.symbols, tr=self.tr)
        )
        if self._teams(match):
            goal = self._options(match).goal
            self.say(
                self.tr("Team totals: {totals} (first team to {goal})", totals=self._team_totals(match), goal=goal)
            )

    # -- the player's screen -----------------------------------------------------------------------------
    def show_state(self, match: NorthstarMatch, seat: int) -> None:
        """Before a decision: round and totals, cards held, bonus cards, doubles, clubs won, the trick, what the seat
        is asked (the game's words: its lead, the play to beat, its last turn, double or nothing) and the hand sorted
        by value."""
        view = match.view(seat)
        opts = view.options
        self.say()
        if self._teams(match):
            round_line = self.tr(
                "Round {number} · dealer {name} · your team: {team}, with {partners} · team totals: {totals} "
                "(first team to {goal})",
                number=view.hand_number + 1,
                name=self.names[view.dealer],
                team=TEAM_LETTERS[view.team_of(seat)],
                partners=" + ".join(self.names[p] for p in view.partners()),
                totals=self._team_totals(match, True),
                goal=opts.goal,
            )
        else:
            round_line = self.tr(
                "Round {number} · dealer {name} · totals: {totals} (first to {goal})",
                number=view.hand_number + 1,
                name=self.names[view.dealer],
                totals=self._totals(match),
                goal=opts.goal,
            )
        self.say(round_line)
        self.say(self._held_line(view))
        self.say(self._bonus_line(view))
        won = self._clubs_won_line(view)
        if won is not None:
            self.say(won)
        self.say(self._trick_line(view))
        self.show_asked(match, seat)  # its lead, how to beat the play before it, its last turn, double or nothing
        self.say(self.styled(self.tr("Your hand: {cards}"), cards=by_value_text(view.hand, self.faces)))

    def _held_line(self, view: NorthstarView) -> str:
        parts = []
        for s, n in enumerate(view.hand_sizes):
            if n:
                parts.append(f"{self.names[s]} {n}")
            elif view.bonus[s] is not None:
                parts.append(self.tr("{name} out (bonus {bonus})", name=self.names[s], bonus=view.bonus[s]))
            else:
                parts.append(self.tr("{name} out", name=self.names[s]))
        return self.tr("Cards held: {held}", held=", ".join(parts))

    def _bonus_line(self, view: NorthstarView) -> str:
        left = list(BONUS_CARDS[view.players])
        taken = []
        for s in view.out_order:
            b = view.bonus[s]
            if b is not None:
                taken.append(f"{self.names[s]} {b}")
                if b in left:
                    left.remove(b)
        params = {
            "left": " ".join(map(str, left)) or self.tr("none"),
            "taken": ", ".join(taken) if taken else self.tr("none"),
            "doubled": ", ".join(self.names[s] for s in view.doubled) or self.tr("nobody"),
        }
        if view.options.double_or_nothing and view.players > 2:
            return self.tr(
                "Bonus cards left: {left} (0 for the last) · taken: {taken} · double called by: {doubled}", **params
            )
        if view.options.double_or_nothing:
            return self.tr("Bonus cards left: {left} · taken: {taken} · double called by: {doubled}", **params)
        if view.players > 2:
            return self.tr("Bonus cards left: {left} (0 for the last) · taken: {taken}", **params)
        return self.tr("Bonus cards left: {left} · taken: {taken}", **params)

    def _clubs_won_line(self, view: NorthstarView) -> Text | None:
        points = view.options.club_points
        line = Text()
        any_won = False
        for s, won in enumerate(view.won):
            clubs = CardSet(int(won) & CLUB_MASK)
            if not clubs:
                continue
            if any_won:
                line.append(", ")
            any_won = True
            line.append(f"{self.names[s]} ")
            for i, c in enumerate(sorted_by_value(clubs)):
                if i:
                    line.append(" ")
                line.append_text(card_text(c, self.faces))
            line.append(f" ({club_points(int(clubs), points)})")
        return self.styled(self.tr("Clubs won: {clubs}"), clubs=line) if any_won else None

    def _trick_line(self, view: NorthstarView) -> Text:
        """The trick so far, told from the round's events since the last trick was won: plays, passes, calls."""
        since: list[Any] = []
        for ev in view.history:
            if isinstance(ev, TrickWon):
                since = []
            else:
                since.append(ev)
        line = Text()
        parts: list[Text] = []
        for ev in since:
            name = self.names[ev.seat] if isinstance(ev, (Played, Passed, DoubleCalled)) else ""
            if isinstance(ev, Played):
                part = Text(f"{name} ")
                part.append_text(play_text(ev.play, self.faces))
                parts.append(part)
            elif isinstance(ev, Passed):
                parts.append(Text(self.either(ev.seat, self.tr("You pass"), self.tr("{name} passes", name=name))))
            elif isinstance(ev, DoubleCalled):
                parts.append(Text(self.either(ev.seat, self.tr("You double"), self.tr("{name} doubles", name=name))))
            elif isinstance(ev, WentOut) and parts:
                parts[-1].append(" " + self.tr("(out)"))
        if view.top is None:
            parts.append(Text(self.tr("(you lead)")))
        for i, part in enumerate(parts):
            if i:
                line.append(", ")
            line.append_text(part)
        return self.styled(self.tr("Trick so far: {cards}"), cards=line)

    def show_deal(self, match: NorthstarMatch) -> None:
        """For spectators: every seat's hand as dealt, sorted by value, and how many cards stay undealt."""
        hand = match.hands[-1]
        width = max(len(n) for n in self.names)
        for s in range(match.n_seats):
            line = Text(f"  {self.names[s]:<{width}}  ")
            line.append_text(by_value_text(CardSet(hand.hands[s]), self.faces))
            self.say(line)
        undealt = 60 - 10 * match.n_seats
        if undealt:
            self.say(
                "  " + self.trn("({n} card not dealt this round)", "({n} cards not dealt this round)", undealt),
                style="dim",
            )

    # -- input ---------------------------------------------------------------------------------------------
    def prompt(self, match: NorthstarMatch, seat: int) -> str:
        """A play when leading; a play or pass when following; double too while it may be called."""
        legal = match.legal_actions()
        if Call.PASS in legal and Call.DOUBLE in legal:
            return self.tr("Your play, pass or double:") + " "
        if Call.PASS in legal:
            return self.tr("Your play or pass:") + " "
        if Call.DOUBLE in legal:
            return self.tr("Your play or double:") + " "
        return self.tr("Your play:") + " "

    def legal_words(self, match: NorthstarMatch) -> list[str]:
        """The legal actions in notation: pass and double first, then the plays by kind, size and value."""
        return match.legal_notation()

    def show_legal(self, match: NorthstarMatch) -> None:
        """The legal plays grouped by kind and size; with more than :data:`LIST_ALL`, each group is cut short."""
        legal = match.legal_actions()
        calls = [str(a) for a in legal if isinstance(a, Call)]
        plays = [a for a in legal if isinstance(a, Play)]
        groups: dict[tuple[Kind, int], list[Play]] = {}
        for p in plays:
            groups.setdefault((Kind.SET if p.kind is Kind.SINGLE else p.kind, p.size), []).append(p)
        if not plays:
            top = match.hands[-1].top
            if top is not None:
                self.say(self.tr("Legal: {moves}: nothing you hold beats {top}", moves=self.or_list(calls), top=top))
            else:
                self.say(self.tr("Legal: {moves}", moves=self.or_list(calls)))
            return
        if calls:
            head = self.trn(
                "Legal: {n} play; or {calls}", "Legal: {n} plays; or {calls}", len(plays), calls=self.or_list(calls)
            )
        else:
            head = self.trn("Legal: {n} play", "Legal: {n} plays", len(plays))
        self.say(head)
        cut = len(plays) > LIST_ALL
        for (kind, size), group in sorted(groups.items(), key=lambda kv: (kv[0][0] is Kind.RUN, kv[0][1])):
            if size == 1:
                label = self.tr("singles")
            elif kind is Kind.RUN:
                label = self.tr("runs of {size}", size=size)
            else:
                label = self.tr("sets of {size}", size=size)
            if cut:
                # Plays of the cards as they are first: the wild 15s multiply the list (NS-9).
                group = sorted(group, key=uses_wild)
            shown = group[:GROUP_LIMIT] if cut else group
            line = Text(f"  {label}: ")
            for i, p in enumerate(shown):
                if i:
                    line.append(", ")
                line.append_text(play_text(p, self.faces))
            hidden = group[len(shown) :]
            if hidden:
                wild = sum(1 for p in hidden if uses_wild(p))
                if wild:
                    more = self.tr("... and {n} more ({wild} with a wild 15)", n=len(hidden), wild=wild)
                else:
                    more = self.tr("... and {n} more", n=len(hidden))
                line.append(", " + more)
            self.say(line)
        if cut:
            self.say(self.tr("(lists cut short: any play you type is checked)"), style="dim")

    def show_hint(self, match: NorthstarMatch, seat: int, hint_bot: SomeBot | None, rng: random.Random) -> None:
        """``h``: the legal plays, and the heuristic bot's choice once the game has one."""
        self.show_legal(match)
        if hint_bot is not None:
            move = self.action_words(match, hint_bot.choose(match.view(seat), match.legal_actions(), rng))
            self.say(self.tr("Hint: {move}", move=move))

    def read_action(self, match: NorthstarMatch, seat: int, text: str) -> object | None:
        """A play in notation or by values, pass or double; a notation error is said and None returned."""
        try:
            return match.parse_action(text)
        except ClubsError as exc:
            self.say(self.refusal(exc), style="red")
            return None
