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
from collections.abc import Sequence
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
    HandStarted,
    Kind,
    LastTurn,
    MatchEnded,
    NorthstarHand,
    NorthstarMatch,
    NorthstarOptions,
    NorthstarView,
    Passed,
    Play,
    Played,
    RoundEnded,
    Teams,
    TrickWon,
    WentOut,
    club_points,
)
from clubsuite.games.northstar.combos import CLUB_MASK
from clubsuite.tui.render import card_text, score_table
from clubsuite.tui.table import Table

TEAM_LETTERS = "ABC"
"""Teams are called A, B, C on screen (team ``t`` is the seats ``s`` with ``s % n_teams == t``, NS-10)."""
GROUP_LIMIT = 12
"""At most this many plays of one kind and size are listed when there are more than :data:`LIST_ALL` in all."""
LIST_ALL = 60
"""Up to this many legal plays are all listed; beyond, each kind and size is cut to :data:`GROUP_LIMIT`."""


def sorted_by_value(cards: CardSet) -> list[Card]:
    """The cards from the lowest value to the highest (clubs, diamonds, hearts, spades within a value)."""
    return sorted(cards, key=lambda c: (c.rank, c.suit or 0))


def by_value_text(cards: CardSet, symbols: bool) -> Text:
    """The cards sorted by value, a wider gap between values, so that sets and runs stand out."""
    out = Text()
    last: int | None = None
    for c in sorted_by_value(cards):
        if last is not None:
            out.append("  " if c.rank != last else " ")
        out.append_text(card_text(c, symbols))
        last = c.rank
    return out


def play_text(play: Play, symbols: bool) -> Text:
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


def count_word(n: int, one: str, many: str | None = None) -> str:
    """``1 card``, ``3 cards``."""
    return f"{n} {one if n == 1 else many or one + 's'}"


def play_shape(play: Play) -> str:
    """``a single 7``, ``a set of two 7s``, ``a run of 3 up to 6``."""
    if play.kind is Kind.SINGLE:
        return f"a single {play.high}"
    if play.kind is Kind.SET:
        return f"a set of {play.size} {play.high}s"
    return f"a run of {play.size} from {play.low} to {play.high}"


def beat_words(play: Play, crazy: bool) -> str:
    """What may follow ``play`` (NS-3; Crazy CLUBS, NS-11)."""
    if not crazy:
        if play.kind is Kind.RUN:
            return f"a run of {play.size} cards with a top card higher than {play.high} (NS-3)"
        kind = "single" if play.kind is Kind.SINGLE else f"set of {play.size}"
        return f"a {kind} higher than {play.high} (NS-3)"
    if play.kind is Kind.SINGLE:
        return f"a set of 2 or more cards, or a single higher than {play.high} (NS-11)"
    kind = "run" if play.kind is Kind.RUN else "set"
    return (
        f"a {kind} of {play.size + 1} or more cards, or of {play.size} with a top card higher than {play.high} (NS-11)"
    )


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


def round_scores(hand: NorthstarHand) -> list[RoundScore]:
    """The points of a scored round by source, as the engine scored them (NS-2, NS-5, NS-8, NS-10), with a note
    saying what changed the sum of clubs and bonus card."""
    out = []
    for line in hand.score_lines:
        notes = []
        if line.zero_card:
            notes.append("the 0 card scores nothing, NS-5")
        if line.double is True:
            notes.append("double or nothing and out first: doubled, NS-8")
        elif line.double is False:
            notes.append("double or nothing but not out first: nothing, NS-8")
        if line.team_zero:
            notes.append("the team left holding cards scores nothing, NS-10")
        out.append(RoundScore(line.clubs, line.bonus, "; ".join(notes), line.points))
    return out


CRAZY_RULES_LINE = (
    "Crazy CLUBS: play a single, a set or a run; follow with the same kind (a single is a set of one) and more cards, "
    "or as many with a higher top card, or pass and stay in the trick. A 15 does not win at once (NS-11); going out "
    "takes the highest bonus card left (NS-5)."
)
"""The first rules line of a Crazy CLUBS match, in place of :attr:`NorthstarTable.rules_line`."""


class NorthstarTable(Table[NorthstarMatch]):
    """The terminal screen of North Star's CLUBS, for a player (``human`` is a seat) or a spectator (None)."""

    move_help = "a play (7C 7H, 4H 5C 6D, 4-5-6, 7H 15S=7), pass (p) or double (d); h lists the legal plays too"
    title = "CLUBS (North Star)"
    rules_line = (
        "Play a single, a set or a run; follow with the same kind and as many cards, higher (NS-3), or pass and stay "
        "in the trick. A 15 wins at once (NS-4); going out takes the highest bonus card left (NS-5)."
    )
    help_line = (
        "Enter a play: cards such as 7C 7H or 4H 5C 6D (a wild 15 as 15S=7), or values alone such as 7 7 or 4-5-6; "
        "pass (p); double (d) where double or nothing is played; ? or h legal plays, s scores, q quit."
    )

    # -- names -------------------------------------------------------------------------------------------
    def _options(self, match: NorthstarMatch) -> NorthstarOptions:
        return match.options

    def team_name(self, match: NorthstarMatch, team: int) -> str:
        """``Team A (You + Random 2)``."""
        opts = self._options(match)
        members = " + ".join(self.names[s] for s in range(opts.players) if opts.team_of(s) == team)
        return f"Team {TEAM_LETTERS[team]} ({members})"

    def _teams(self, match: NorthstarMatch) -> bool:
        return self._options(match).teams is not Teams.NONE

    def _team_totals(self, match: NorthstarMatch, short: bool = False) -> str:
        """``Team A (You + Random 2) 17, Team B (...) 8``, or ``A 17, B 8`` when ``short``."""
        if short:
            return ", ".join(f"{TEAM_LETTERS[t]} {v}" for t, v in enumerate(match.team_totals))
        return ", ".join(f"{self.team_name(match, t)} {v}" for t, v in enumerate(match.team_totals))

    def _totals(self, match: NorthstarMatch) -> str:
        return ", ".join(f"{self.names[s]} {t}" for s, t in enumerate(match.totals))

    def _goal(self, match: NorthstarMatch) -> str:
        return f"first {'team ' if self._teams(match) else ''}to {self._options(match).goal}"

    # -- the start -----------------------------------------------------------------------------------------
    def show_intro(self, match: NorthstarMatch) -> None:
        """The rules of this match in brief (variants, bonus cards, club points, teams, target), then the help."""
        opts = self._options(match)
        if opts.crazy:
            self.say(CRAZY_RULES_LINE, style="dim")
        else:
            self.say(self.rules_line, style="dim")
        bonus = " ".join(str(b) for b in BONUS_CARDS[opts.players])
        zero = " and the 0 card for the player left holding cards, who scores nothing" if opts.players > 2 else ""
        self.say(
            f"Bonus cards: {bonus}{zero} (NS-1, NS-5). Only clubs score: {value_ranges(opts.club_points)} (NS-2). "
            f"The game ends once a {'team ' if self._teams(match) else ''}total reaches {opts.goal}; the highest "
            "wins (NS-7).",
            style="dim",
        )
        if opts.wild_fifteens:
            self.say("Wild 15s: a 15 may stand for any value, e.g. 15S=7 plays the 15 of spades as a 7 (NS-9).")
        if opts.double_or_nothing:
            self.say(
                "Double or nothing: type double before your first card of the round; out first doubles your "
                "points, otherwise you score nothing (NS-8)."
            )
        if self._teams(match):
            teams = ", ".join(self.team_name(match, t) for t in range(opts.n_teams))
            self.say(f"Teams (NS-10): {teams}; team totals count, {self._goal(match)}.")
        self.say(self.help_line, style="dim")

    # -- events --------------------------------------------------------------------------------------------
    def trick_ended(self, events: Sequence[object]) -> bool:
        """A trick ends when it is won (NS-4)."""
        return any(isinstance(e, TrickWon) for e in events)

    def show_events(self, match: NorthstarMatch, events: Sequence[object]) -> None:
        """Describe what just happened: public facts only (plays, passes, calls, bonus cards, tricks, scores)."""
        for ev in events:
            if isinstance(ev, HandStarted):
                self._round_started(match, ev)
            elif isinstance(ev, Played):
                line = Text(f"{self.act(ev.seat, 'play')} ")
                line.append_text(play_text(ev.play, self.symbols))
                self.say(line)
            elif isinstance(ev, Passed):
                self.say(f"{self.act(ev.seat, 'pass')}.")
            elif isinstance(ev, DoubleCalled):
                self.say(f"{self.act(ev.seat, 'call')} double or nothing (NS-8).", style="bold")
            elif isinstance(ev, WentOut):
                self._went_out(ev)
            elif isinstance(ev, TrickWon):
                self._trick_won(match, ev)
            elif isinstance(ev, LastTurn):
                self._last_turn(match, ev)
            elif isinstance(ev, RoundEnded):
                self._round_ended(match, ev)
            elif isinstance(ev, HandScored):
                self._round_scored(match, ev)
            elif isinstance(ev, MatchEnded):
                self._match_ended(match, ev)

    def _round_started(self, match: NorthstarMatch, ev: HandStarted) -> None:
        leader = (ev.dealer + 1) % match.n_seats
        teams = self._teams(match)
        totals = f"Team totals: {self._team_totals(match, True)}" if teams else f"Totals: {self._totals(match)}"
        self.say()
        self.say(
            f"=== Round {ev.hand_number + 1}: {self.act(ev.dealer, 'deal')}, {self.names[leader]} "
            f"{'lead' if leader == self.human else 'leads'}. {totals} ({self._goal(match)}) ===",
            style="bold",
        )

    def _went_out(self, ev: WentOut) -> None:
        who = "You go" if ev.seat == self.human else f"{self.names[ev.seat]} goes"
        self.say(f"{who} out and {'take' if ev.seat == self.human else 'takes'} the bonus card {ev.bonus} (NS-5).")

    def _trick_won(self, match: NorthstarMatch, ev: TrickWon) -> None:
        clubs = CardSet(int(ev.cards) & CLUB_MASK)
        points = club_points(int(clubs), self._options(match).club_points)
        line = Text(f"  {self.act(ev.seat, 'win')} the trick")
        if ev.at_once:
            line.append(" at once with a 15 (NS-4)")
        line.append(f": {count_word(len(ev.cards), 'card')}")
        if clubs:
            line.append(", clubs ")
            for i, c in enumerate(sorted_by_value(clubs)):
                if i:
                    line.append(" ")
                line.append_text(card_text(c, self.symbols))
            line.append(f" for {count_word(points, 'point')}")
        self.say(line, style="cyan")

    def _last_turn(self, match: NorthstarMatch, ev: LastTurn) -> None:
        who = "you hold" if ev.seat == self.human else f"{self.names[ev.seat]} holds"
        then = "then the 0 card" if match.n_seats > 2 else "then the round ends"
        self.say(f"Only {who} cards now: one last turn on this trick, {then} (NS-5).")

    def _round_ended(self, match: NorthstarMatch, ev: RoundEnded) -> None:
        hand = match.hands[-1]
        if ev.team is not None:
            self.say(
                f"Round over: only {self.team_name(match, ev.team)} still holds cards, so that team scores nothing "
                "this round and the bonus cards left are not handed out (NS-10).",
                style="bold",
            )
        elif ev.last is not None:
            left = hand.hands[ev.last].bit_count()
            you = ev.last == self.human
            who = "You were" if you else f"{self.names[ev.last]} was"
            held = f"left holding {count_word(left, 'card')}" if left else "the last to hold cards"
            if match.n_seats > 2:
                take = "take" if you else "takes"
                self.say(f"Round over: {who} {held}: {take} the 0 card and no points (NS-5).", style="bold")
            else:
                score = "score" if you else "scores"
                self.say(f"Round over: {who} {held}: {score} only the clubs won (NS-5).", style="bold")

    def _round_scored(self, match: NorthstarMatch, ev: HandScored) -> None:
        hand = match.hands[-1]
        width = max(len(n) for n in self.names)
        for s, rs in enumerate(round_scores(hand)):
            won = CardSet(hand.won[s] & CLUB_MASK)
            line = Text(f"  {self.names[s]:<{width}}  clubs ")
            if won:
                for i, c in enumerate(sorted_by_value(won)):
                    if i:
                        line.append(" ")
                    line.append_text(card_text(c, self.symbols))
                line.append(f" ({rs.clubs})")
            else:
                line.append("none (0)")
            line.append(f" + bonus {rs.bonus if rs.bonus is not None else 'none'}")
            if rs.note:
                line.append(f" {'→' if self.symbols else '->'} {rs.points} ({rs.note})")
            else:
                line.append(f" = {rs.points}")
            self.say(line)
        self.show_scores(match)
        opts = self._options(match)
        top = max(ev.team_totals)
        if top >= opts.goal and not match.is_over:
            self.say(f"The top total, {top}, is tied: another round (NS-7).", style="bold")

    def _match_ended(self, match: NorthstarMatch, ev: MatchEnded) -> None:
        opts = self._options(match)
        if self._teams(match):
            team = opts.team_of(ev.winners[0])
            total = match.team_totals[team]
            self.say(
                f"Game over: {self.team_name(match, team)} wins with {total} ({self._goal(match)}, NS-10)!",
                style="bold",
            )
        else:
            w = ev.winners[0]
            self.say(
                f"Game over: {self.act(w, 'win')} with {ev.totals[w]} ({self._goal(match)} or more, NS-7)!",
                style="bold",
            )
        self.say(f"Final totals: {self._totals(match)}")

    def show_scores(self, match: NorthstarMatch) -> None:
        """The score sheet (each round and the running totals), and the team totals in a team game."""
        self.console.print(score_table(self.names, match.hand_scores, match.totals, ascii_only=not self.symbols))
        if self._teams(match):
            self.say(f"Team totals: {self._team_totals(match)} ({self._goal(match)})")

    # -- the player's screen -----------------------------------------------------------------------------
    def show_state(self, match: NorthstarMatch, seat: int) -> None:
        """Before a decision: round and totals, cards held, bonus cards, doubles, clubs won, the trick, the play to
        beat and the hand sorted by value."""
        view = match.view(seat)
        opts = view.options
        self.say()
        teams = self._teams(match)
        totals = f"team totals: {self._team_totals(match, True)}" if teams else f"totals: {self._totals(match)}"
        team = ""
        if teams:
            partners = " + ".join(self.names[p] for p in view.partners())
            team = f" · your team: {TEAM_LETTERS[view.team_of(seat)]}, with {partners}"
        self.say(
            f"Round {view.hand_number + 1} · dealer {self.names[view.dealer]}{team} · {totals} ({self._goal(match)})"
        )
        self.say(self._held_line(view))
        self.say(self._bonus_line(view))
        won = self._clubs_won_line(view)
        if won is not None:
            self.say(won)
        self.say(self._trick_line(view))
        top = view.top
        if top is not None:
            assert view.top_seat is not None
            line = Text("To beat: ")
            line.append_text(play_text(top, self.symbols))
            line.append(f" by {self.names[view.top_seat]}, {play_shape(top)}: play {beat_words(top, opts.crazy)}")
            line.append(", or pass")
            self.say(line)
        if view.last_turn == seat:
            self.say("Your last turn: you alone hold cards; win the trick or pass (NS-5).", style="bold")
        if opts.double_or_nothing and Call.DOUBLE in view.legal_actions():
            self.say("You may call double or nothing before your first card (NS-8).")
        line = Text("Your hand: ")
        line.append_text(by_value_text(view.hand, self.symbols))
        self.say(line)

    def _held_line(self, view: NorthstarView) -> str:
        parts = []
        for s, n in enumerate(view.hand_sizes):
            if n:
                parts.append(f"{self.names[s]} {n}")
            else:
                bonus = view.bonus[s]
                parts.append(f"{self.names[s]} out" + (f" (bonus {bonus})" if bonus is not None else ""))
        return "Cards held: " + ", ".join(parts)

    def _bonus_line(self, view: NorthstarView) -> str:
        left = list(BONUS_CARDS[view.players])
        taken = []
        for s in view.out_order:
            b = view.bonus[s]
            if b is not None:
                taken.append(f"{self.names[s]} {b}")
                if b in left:
                    left.remove(b)
        zero = " (0 for the last)" if view.players > 2 else ""
        text = f"Bonus cards left: {' '.join(map(str, left)) or 'none'}{zero}"
        text += f" · taken: {', '.join(taken) if taken else 'none'}"
        if view.options.double_or_nothing:
            doubled = ", ".join(self.names[s] for s in view.doubled)
            text += f" · double called by: {doubled or 'nobody'}"
        return text

    def _clubs_won_line(self, view: NorthstarView) -> Text | None:
        points = view.options.club_points
        line = Text("Clubs won: ")
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
                line.append_text(card_text(c, self.symbols))
            line.append(f" ({club_points(int(clubs), points)})")
        return line if any_won else None

    def _trick_line(self, view: NorthstarView) -> Text:
        """The trick so far, told from the round's events since the last trick was won: plays, passes, calls."""
        since: list[Any] = []
        for ev in view.history:
            if isinstance(ev, TrickWon):
                since = []
            else:
                since.append(ev)
        line = Text("Trick so far: ")
        parts: list[Text] = []
        for ev in since:
            if isinstance(ev, Played):
                part = Text(f"{self.names[ev.seat]} ")
                part.append_text(play_text(ev.play, self.symbols))
                parts.append(part)
            elif isinstance(ev, Passed):
                parts.append(Text(f"{self.names[ev.seat]} pass{'' if ev.seat == self.human else 'es'}"))
            elif isinstance(ev, DoubleCalled):
                parts.append(Text(f"{self.names[ev.seat]} double{'' if ev.seat == self.human else 's'}"))
            elif isinstance(ev, WentOut) and parts:
                parts[-1].append(" (out)")
        if view.top is None:
            lead = "you lead" if view.to_act == view.seat else f"{self.names[view.to_act or 0]} leads"
            parts.append(Text(f"({lead}: any single, set or run; the leader may not pass, NS-4)"))
        for i, part in enumerate(parts):
            if i:
                line.append(", ")
            line.append_text(part)
        return line

    def show_deal(self, match: NorthstarMatch) -> None:
        """For spectators: every seat's hand as dealt, sorted by value, and how many cards stay undealt."""
        hand = match.hands[-1]
        width = max(len(n) for n in self.names)
        for s in range(match.n_seats):
            line = Text(f"  {self.names[s]:<{width}}  ")
            line.append_text(by_value_text(CardSet(hand.hands[s]), self.symbols))
            self.say(line)
        undealt = 60 - 10 * match.n_seats
        if undealt:
            self.say(f"  ({undealt} cards not dealt this round)", style="dim")

    # -- input ---------------------------------------------------------------------------------------------
    def prompt(self, match: NorthstarMatch, seat: int) -> str:
        """A play when leading; a play or pass when following; double too while it may be called."""
        legal = match.legal_actions()
        words = ["play"]
        if Call.PASS in legal:
            words.append("pass")
        if Call.DOUBLE in legal:
            words.append("double")
        return "Your " + (" or ".join(words) if len(words) < 3 else "play, pass or double") + ": "

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
            beaten = f": nothing you hold beats {top}" if top is not None else ""
            self.say(f"Legal: {' or '.join(calls)}{beaten}")
            return
        head = f"Legal: {count_word(len(plays), 'play')}"
        if calls:
            head += "; or " + " or ".join(calls)
        self.say(head)
        cut = len(plays) > LIST_ALL
        for (kind, size), group in sorted(groups.items(), key=lambda kv: (kv[0][0] is Kind.RUN, kv[0][1])):
            label = "singles" if size == 1 else f"{'runs' if kind is Kind.RUN else 'sets'} of {size}"
            if cut:
                # Plays of the cards as they are first: the wild 15s multiply the list (NS-9).
                group = sorted(group, key=uses_wild)
            shown = group[:GROUP_LIMIT] if cut else group
            line = Text(f"  {label}: ")
            for i, p in enumerate(shown):
                if i:
                    line.append(", ")
                line.append_text(play_text(p, self.symbols))
            hidden = group[len(shown) :]
            if hidden:
                wild = sum(1 for p in hidden if uses_wild(p))
                line.append(f", ... and {len(hidden)} more" + (f" ({wild} with a wild 15)" if wild else ""))
            self.say(line)
        if cut:
            self.say("(lists cut short: any play you type is checked)", style="dim")

    def show_hint(self, match: NorthstarMatch, seat: int, hint_bot: SomeBot | None, rng: random.Random) -> None:
        """``h``: the legal plays, and the heuristic bot's choice once the game has one."""
        self.show_legal(match)
        if hint_bot is not None:
            self.say(f"Hint: {match.format_action(hint_bot.choose(match.view(seat), match.legal_actions(), rng))}")

    def read_action(self, match: NorthstarMatch, seat: int, text: str) -> object | None:
        """A play in notation or by values, pass or double; a notation error is said and None returned."""
        try:
            return match.parse_action(text)
        except ClubsError as exc:
            self.say(str(exc), style="red")
            return None
