"""The ``clubs replay`` command: check a match record by replaying it and show what happened, as text or JSON.

The readable account is told hand by hand from the events of the replay: the exchange and the tricks (whist); the
auction, the chest, the handicaps and the pass (Free Clubs); the hands dealt, every play, pass and call of each
trick, who went out with which bonus card, the end of the round and its points (North Star's CLUBS).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import click

from clubsuite.cards import CardSet, card_at
from clubsuite.cli.common import BYTE_SIZE, handle_errors
from clubsuite.cli.play_northstar import TEAM_LETTERS, round_scores
from clubsuite.errors import InvalidRecordError
from clubsuite.games import free as fc
from clubsuite.games import northstar as ns
from clubsuite.games import partnership as pc
from clubsuite.games.whist.events import (
    CardPlayed,
    Decided,
    HandScored,
    HandStarted,
    MatchEnded,
    PlayStarted,
    TrickTaken,
)
from clubsuite.records import (
    MAX_RECORD_BYTES,
    ReplayResult,
    dumps_json,
    match_result_json,
    parse_record,
    read_record_bytes,
)
from clubsuite.records.replay import Replay
from clubsuite.safetext import safe_lines, shown

LEGAL_SHOWN = 40
"""At most this many legal actions of North Star's CLUBS are listed at the end of an unfinished match."""


def _teams(values: Sequence[int]) -> str:
    """Team totals named by the letters the screen uses, e.g. ``A +17, B +0`` (team ``t`` is seats ``s % n == t``)."""
    return ", ".join(f"{TEAM_LETTERS[t]} {v:+d}" for t, v in enumerate(values))


def _signed(values: Sequence[int]) -> str:
    """Scores with their signs, e.g. ``+1 +0 -1``."""
    return " ".join(f"{v:+d}" for v in values)


NAME_SHOWN = 24
"""The most characters of a seat name repeated in the lines of the account (the header shows up to
:data:`clubsuite.safetext.SHOWN`), so that the account grows with the number of plays, not with a name's length."""


class _Account:
    """Builds the readable account of a replay, line by line, from the events of each hand, and hands the lines to
    ``write`` hand by hand, so that a long record is told as it is replayed, never held whole."""

    def __init__(self, result: Replay | ReplayResult, write: Callable[[str], None]) -> None:
        """Start an empty account of ``result`` (a replay under way or done)."""
        self.result = result
        self.write = write
        self.lines: list[str] = []
        self.trick: list[tuple[int, str]] = []
        self.decisions: list[str] = []
        self.calls: list[str] = []
        """Free Clubs: the auction of the hand so far, gathered until it ends."""
        self.hand_index = 0
        self.handicap_index = 0
        self.flow: list[str] = []
        """North Star's CLUBS: the plays, passes and calls of the trick in progress."""
        self.ns_tricks = 0
        """North Star's CLUBS: the tricks taken so far in the hand."""

    def seat(self, seat: int) -> str:
        """A seat with its player's name, e.g. ``seat 1 (heuristic)``."""
        seats = self.result.seats
        name = seats[seat].get("name") if 0 <= seat < len(seats) else None
        if not name or name == f"seat {seat}":
            return f"seat {seat}"
        return f"seat {seat} ({shown(name, NAME_SHOWN)})"

    def say(self, text: str, indent: int = 1) -> None:
        """Add one line."""
        self.lines.append("  " * indent + text)

    def flush(self) -> None:
        """Hand the lines gathered so far to ``write`` (escaped once more, as everything printed from outside)."""
        if self.lines:
            self.write(safe_lines("\n".join(self.lines)) + "\n")
            self.lines = []

    def header(self) -> None:
        """The game, the variant, the seats, the first dealer and the seed."""
        r = self.result
        record = r.record
        self.say(f"{r.info.title}: {r.variant}", 0)
        if r.options_json:
            self.say("options: " + ", ".join(f"{k}={v}" for k, v in r.options_json.items()), 0)
        parts = []
        for i, s in enumerate(r.seats):
            kind = f" ({s['kind']})" if "kind" in s else ""
            parts.append(f"{i} {shown(s['name'])}{kind}")
        self.say("seats: " + ", ".join(parts), 0)
        line = f"first dealer: {self.seat(int(record.get('first_dealer', 0)))}"
        if record.get("seed") is not None:
            line += f"; match seed {record['seed']}"
        self.say(line, 0)

    def flush_decisions(self) -> None:
        """Print the exchange decisions gathered so far on one line."""
        if self.decisions:
            self.say("exchange: " + ", ".join(self.decisions))
            self.decisions = []

    def flush_trick(self, number: int, winner: int | None) -> None:
        """Print the trick gathered so far: the leader, the cards in order, and the winner (if it is complete)."""
        if not self.trick:
            return
        leader = self.trick[0][0]
        cards = " ".join(c for _, c in self.trick)
        end = f" -> won by {self.seat(winner)}" if winner is not None else "  (in progress)"
        self.say(f"trick {number:2d}: {self.seat(leader)} leads; {cards}{end}")
        self.trick = []

    def flush_auction(self) -> None:
        """Print the Free Clubs auction gathered so far on one line."""
        if self.calls:
            self.say("auction: " + ", ".join(self.calls))
            self.calls = []

    def free_event(self, ev: Any) -> bool:
        """Describe one Free Clubs event that has no whist counterpart; False if ``ev`` is not one of them.

        A record holds every deal, so the account names the hidden cards too: the chest, each handicap's cards
        and the pass before play.
        """
        from clubsuite.cli.play_free import contract_words, handicap_words

        hand = self.result.match.hands[self.hand_index]
        names = [self.seat(s) for s in range(3)]
        if isinstance(ev, fc.BidMade):
            self.calls.append(f"{self.seat(ev.seat)} {ev.card}")
        elif isinstance(ev, fc.AuctionPassed):
            self.calls.append(f"{self.seat(ev.seat)} pass")
        elif isinstance(ev, fc.AuctionWon):
            self.flush_auction()
            joker = f"; Joker team with {self.seat(ev.partner)}" if ev.partner is not None else ""
            self.say(f"{self.seat(ev.seat)} wins the auction with {ev.bid}{joker}")
            self.say("contract: " + contract_words(names, ev.seat, ev.partner))
        elif isinstance(ev, fc.ChestTaken):
            self.say(f"{self.seat(ev.seat)} takes the chest ({ev.size} cards): {CardSet(int(hand.deal.chest))}")
        elif isinstance(ev, fc.HandicapResolved):
            _, _, removed, _ = hand.handicaps[self.handicap_index]
            self.handicap_index += 1
            to = None if ev.to is None else self.seat(ev.to)
            cards = f": {CardSet(removed)}" if removed else ""
            self.say(f"handicap {self.seat(ev.seat)} {ev.bid}: {handicap_words(ev.bid, ev.removed, to)}{cards}")
        elif isinstance(ev, fc.HandScored):
            from clubsuite.cli.play_free import score_rows

            self.say(f"tricks won: {' '.join(str(t) for t in ev.tricks)}")
            for label, row in score_rows(hand)[1:]:
                if any(row):
                    self.say(f"{label}: {_signed(row)}")
            self.say(f"scores:     {_signed(ev.scores)}")
            self.say(f"totals:     {_signed(ev.totals)}")
        elif isinstance(ev, fc.events.NoMisplay):
            held = f"{self.seat(ev.seat)} held none of the suit led"
            self.say(f"{self.seat(ev.caller)} calls {ev.card}: no misplay, {held} (FC-10)")
        elif isinstance(ev, fc.events.MisplayCalled):
            self.say(
                f"{self.seat(ev.caller)} calls {ev.card}: a misplay by {self.seat(ev.seat)}, stage {ev.stage} (FC-10)"
            )
        elif isinstance(ev, fc.events.HandRescored):
            self.say(f"scored again: {_signed(ev.scores)}; totals {_signed(ev.totals)} (FC-10)")
        elif isinstance(ev, fc.PassStarted):
            pass  # told with the cards once they move
        elif isinstance(ev, fc.CardsPassed):
            moves = [(g, r, c) for g, r, c in hand.passed if r == (g - 1) % 3]
            self.say("pass to the right: " + ", ".join(f"{self.seat(g)} gives {card_at(c)}" for g, _, c in moves))
        else:
            return False
        return True

    def team(self, team: int) -> str:
        """A partnership with its players, e.g. ``seats 0 + 2 (ann, cy)``."""
        seats = pc.TEAMS[team]
        names = [shown(self.result.seats[s].get("name", ""), NAME_SHOWN) for s in seats]
        return f"seats {seats[0]} + {seats[1]} ({', '.join(names)})"

    def partnership_event(self, ev: Any) -> bool:
        """Describe one partnership event that has no whist counterpart; False if ``ev`` is not one of them.

        A record holds every deal, so the account names the cards each player passed (CP-2).
        """
        hand = self.result.match.hands[self.hand_index]
        if isinstance(ev, pc.HandStarted):
            self.lines.append("")
            where = "no pass" if ev.direction == pc.Direction.NONE else f"pass to the {ev.direction}"
            self.say(f"hand {ev.hand_number}: dealer {self.seat(ev.dealer)}; {where} (CP-2)", 0)
        elif isinstance(ev, pc.PassChosen):
            pass  # told with the cards once all four have chosen
        elif isinstance(ev, pc.CardsPassed):
            gives = [
                f"{self.seat(g)} gives {CardSet(hand.passed[g])} to {self.seat(pc.receiver(g, hand.direction))}"
                for g in hand.pass_choices
            ]
            self.say(f"pass to the {ev.direction}: " + "; ".join(gives))
        elif isinstance(ev, pc.HandScored):
            self.say(f"tricks won: {' '.join(str(t) for t in ev.tricks)}")
            for team, line in enumerate(hand.score_lines()):
                parts = [f"{line.tricks} tricks", f"{line.clubs} clubs"]
                if line.ruby_dame:
                    parts.append(f"Ruby Dame {line.ruby_dame}")
                if line.sweep:
                    parts.append(f"all 13 tricks {line.sweep}")
                self.say(f"points {self.team(team)}: {' + '.join(parts)} = {line.total}")
            self.say(f"totals:     {ev.totals[0]} to {ev.totals[1]}")
        else:
            return False
        return True

    def northstar_event(self, ev: Any) -> None:
        """Describe one event of North Star's CLUBS (NS-1..NS-11): a trick is one line of plays, passes and calls
        ending with its winner; the round's end and its points follow. A record holds every deal, so the account
        shows the hands as dealt."""
        hand = self.result.match.hands[self.hand_index]
        n = hand.n
        if isinstance(ev, ns.HandStarted):
            self.lines.append("")
            self.say(f"hand {ev.hand_number}: dealer {self.seat(ev.dealer)}, {self.seat((ev.dealer + 1) % n)} leads", 0)
            for s in range(n):
                cards = sorted(CardSet(int(hand.deal.hands[s])), key=lambda c: (c.rank, c.suit or 0))
                self.say(f"dealt to {self.seat(s)}: {' '.join(str(c) for c in cards)}")
            self.flow, self.ns_tricks = [], 0
        elif isinstance(ev, ns.Played):
            self.flow.append(f"seat {ev.seat} {ev.play}")
        elif isinstance(ev, ns.Passed):
            self.flow.append(f"seat {ev.seat} pass")
        elif isinstance(ev, ns.DoubleCalled):
            self.flow.append(f"seat {ev.seat} double (NS-8)")
        elif isinstance(ev, ns.WentOut):
            bonus = f"bonus {ev.bonus}"
            self.flow.append(f"seat {ev.seat} out ({bonus})")
        elif isinstance(ev, ns.LastTurn):
            self.flow.append(f"last turn: seat {ev.seat} (NS-5)")
        elif isinstance(ev, ns.TrickWon):
            self.ns_tricks += 1
            how = " at once (a 15, NS-4)" if ev.at_once else ""
            self.say(f"trick {self.ns_tricks:2d}: {', '.join(self.flow)} -> won by {self.seat(ev.seat)}{how}")
            self.flow = []
        elif isinstance(ev, ns.RoundEnded):
            self.flush_northstar_trick()
            if ev.team is not None:
                members = ", ".join(str(s) for s in range(n) if hand.options.team_of(s) == ev.team)
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
                    self.say(f"seat {s}: {p.note}")
            self.say(f"scores:     {_signed(ev.scores)}")
            self.say(f"totals:     {_signed(ev.totals)}")
            if hand.options.teams is not ns.Teams.NONE:
                self.say(f"team totals: {_teams(ev.team_totals)}")
        elif isinstance(ev, ns.MatchEnded):
            pass  # the end of the match is told once, after the last hand

    def flush_northstar_trick(self) -> None:
        """Print the plays of a trick that was not taken (the record stops in the middle of it)."""
        if self.flow:
            self.say(f"trick {self.ns_tricks + 1:2d}: {', '.join(self.flow)}  (in progress)")
            self.flow = []

    def event(self, ev: Any, tricks_done: int) -> int:
        """Describe one event; returns the number of completed tricks of the hand after it."""
        if self.result.info.name == "northstar":
            self.northstar_event(ev)
            return tricks_done
        if self.free_event(ev) or self.partnership_event(ev):
            return tricks_done
        if isinstance(ev, fc.TrickTaken):
            self.trick = [(s, str(c)) for s, c in ev.cards]
            self.flush_trick(ev.number, ev.seat)
            return int(ev.number)
        if isinstance(ev, fc.CardPlayed | pc.CardPlayed):
            self.trick.append((ev.seat, str(ev.card)))
            return tricks_done
        if isinstance(ev, pc.TrickTaken):
            self.flush_trick(ev.number, ev.seat)
            return int(ev.number)
        if isinstance(ev, HandStarted | fc.HandStarted):
            self.lines.append("")
            self.say(f"hand {ev.hand_number}: dealer {self.seat(ev.dealer)}", 0)
        elif isinstance(ev, Decided):
            self.decisions.append(f"{self.seat(ev.seat)} {'exchanges' if ev.exchanged else 'keeps'}")
        elif isinstance(ev, PlayStarted | fc.PlayStarted | pc.PlayStarted):
            self.flush_decisions()
            self.say(f"{self.seat(ev.leader)} leads the first trick")
        elif isinstance(ev, CardPlayed):
            self.trick.append((ev.seat, str(ev.card)))
        elif isinstance(ev, TrickTaken):
            self.flush_trick(ev.number, ev.seat)
            return int(ev.number)
        elif isinstance(ev, HandScored):
            self.say(f"tricks won: {' '.join(str(t) for t in ev.tricks)}")
            self.say(f"scores:     {_signed(ev.scores)}")
            self.say(f"totals:     {_signed(ev.totals)}")
        elif isinstance(ev, MatchEnded | fc.MatchEnded | pc.MatchEnded):
            pass  # the end of the match is told once, after the last hand
        else:
            fields = getattr(ev, "_asdict", None)
            detail = ", ".join(f"{k}={v}" for k, v in fields().items()) if fields is not None else str(ev)
            self.say(f"{type(ev).__name__}: {detail}")
        return tricks_done

    def hand(self, index: int, events: Sequence[Any]) -> None:
        """Hand ``index``, from the events the replay gave, handed to ``write`` at once."""
        self.hand_index, self.handicap_index = index, 0
        done = 0
        for ev in events:
            done = self.event(ev, done)
        self.flush_decisions()
        self.flush_auction()
        self.flush_trick(done + 1, None)
        self.flush_northstar_trick()
        self.flush()

    def ending(self) -> None:
        """The winners, a draw, or who is to act and what they may do."""
        match = self.result.match
        data = match_result_json(match, self.result.variant, self.result.options_json, self.result.seats)
        self.lines.append("")
        partnership = "team_totals" in data and self.result.info.name == "partnership"
        if partnership:
            teams_text = ", ".join(f"{self.team(t)} {total}" for t, total in enumerate(data["team_totals"]))
            self.say(f"{'final totals' if data['over'] else 'totals so far'}: {teams_text}", 0)
        teams = data.get("team_totals") if getattr(match.options, "teams", "none") != "none" else None
        if data["over"]:
            if not partnership:
                self.say(f"final totals: {_signed(data['totals'])}", 0)
            if teams is not None:
                self.say(f"final team totals: {_teams(teams)}", 0)
            if data["draw"]:
                self.say("result: draw", 0)
            else:
                names = ", ".join(self.seat(s) for s in data["winners"])
                self.say(f"{'winner' if len(data['winners']) == 1 else 'winners'}: {names}", 0)
            return
        if not partnership:
            self.say(f"totals so far: {_signed(data['totals'])}", 0)
        if teams is not None:
            self.say(f"team totals so far: {_teams(teams)}", 0)
        if data.get("awaiting") == "deal":
            self.say(
                f"the match is not over: awaiting the deal of hand {len(match.hands)} "
                f"(dealer {self.seat(match.next_dealer)})",
                0,
            )
            return
        self.say(f"the match is not over: {self.seat(data['to_act'])} to act", 0)
        legal_actions = match.legal_actions()
        if isinstance(legal_actions, pc.PassChoices):  # 286 passes: say what they are rather than list them
            self.say(f"legal: pass any three of {CardSet(legal_actions.hand)} (CP-2)", 0)
            return
        legal = data["legal"]
        if self.result.info.name == "northstar":
            # North Star plays contain spaces, and wild 15s can make hundreds of them: comma-separated, cut short.
            more = f", ... ({len(legal)} in all)" if len(legal) > LEGAL_SHOWN else ""
            self.say(f"legal: {', '.join(legal[:LEGAL_SHOWN])}{more}", 0)
            return
        self.say(f"legal: {' '.join(legal)}", 0)


def render_text(result: ReplayResult) -> str:
    """The readable account of a replay: header, each hand (exchange or auction and handicaps, tricks, scores)
    and the ending."""
    parts: list[str] = []
    account = _Account(result, parts.append)
    account.header()
    for index, events in enumerate(result.events):
        account.hand(index, events)
    account.ending()
    account.flush()
    return "".join(parts)


def stream_text(run: Replay, write: Callable[[str], None]) -> None:
    """Replay ``run`` and tell it as it goes: the header, then each hand as soon as it is replayed, then the
    ending; memory holds the match, not the account. A broken rule would stop the account at the hand that breaks
    it (the error names it): ``clubs replay`` checks the record in a first replay so that never happens."""
    account = _Account(run, write)
    account.header()
    account.flush()
    for index, events in enumerate(run.hands()):
        account.hand(index, events)
    run.check_result()
    account.ending()
    account.flush()


@click.command("replay")
@click.argument("file", metavar="FILE")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON instead of a readable account.")
@click.option(
    "--max-size",
    type=BYTE_SIZE,
    default=MAX_RECORD_BYTES,
    metavar="SIZE",
    help="The largest record read (default 16M), in bytes or with a suffix K, M or G (powers of 1024); a larger "
    "one is refused with status 2 before it is replayed.",
)
@handle_errors
def replay_command(file: str, as_json: bool, max_size: int) -> None:
    """Replay the match record FILE (- for standard input), checking every rule, and show what happened.

    The whole record is checked first; the account is then printed hand by hand as it is told. Exit status 2 with a
    message naming the hand, action, seat and rule if the record is malformed or breaks a rule (nothing else is
    printed then), and for a file that is not a regular file (a folder, a named pipe, a device) or is larger than
    --max-size.
    """
    data, source = read_record_bytes(file, max_size, hint="raise the limit with --max-size if you trust it")
    if not data.strip():
        raise InvalidRecordError(f"{source} is empty: expected a record (a JSON object)")
    record = parse_record(data, source)
    del data
    # First the whole record is checked, keeping no events, so that a broken record prints nothing but its error;
    # then it is replayed again and told hand by hand, so the account is never held whole.
    checked = Replay(record)
    for _ in checked.hands():
        pass
    checked.check_result()
    if as_json:
        data_json = match_result_json(checked.match, checked.variant, checked.options_json, checked.seats)
        click.echo(dumps_json(data_json), nl=False)
        return
    header = checked.checked
    del checked
    stream_text(Replay(record, header), lambda text: click.echo(text, nl=False))
