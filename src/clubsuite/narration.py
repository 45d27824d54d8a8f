"""Telling a replayed match in words: the one driver of every game's account (``clubs replay``).

Every event is told in the words the game's presenter tells it (:func:`clubsuite.present.said_of`, the sentences
the page's replay shows), to anyone watching: the account never words an event of its own. What a record holds
beyond the table's events, the hidden cards (every deal, a discard, a pass), is told after the event that moved them
in the words of the game's presenter too (its part ``recorded``), and the table's public view is what its words may
read (its teams). ``clubs replay`` drives it: the header, then each hand as soon as it is replayed, then the ending,
so a long record is told as it goes, never held whole. A record holds every deal, so the account may name hidden
cards; it is never used for a seat's own view.

The account counts seats and hands from 1, as players do (``seat 1 (you)``, ``hand 1``): the record and its JSON
keep the engine's numbers from 0, and :func:`seat_number` and :func:`hand_number` are the one place that adds 1.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from clubsuite import events as shared_events
from clubsuite import present
from clubsuite.events import Event
from clubsuite.i18n import DEFAULT, Words
from clubsuite.i18n.render import reason_words
from clubsuite.naming import rules_words
from clubsuite.present import (
    HasLabel,
    HasRecorded,
    HasRecordedLegal,
    said_line,
    said_of,
    seat_items,
    shown_of,
    wire_form,
)
from clubsuite.reasons import Reason
from clubsuite.records import ReplayResult, match_result_json
from clubsuite.records.replay import Replay
from clubsuite.safetext import safe_lines, shown
from clubsuite.view_base import HasSpectator

NAME_SHOWN = 24
"""The most characters of a seat name repeated in the lines of the account (the header shows up to
:data:`clubsuite.safetext.SHOWN`), so that the account grows with the number of plays, not with a name's length."""
LEGAL_SHOWN = 40
"""At most this many legal actions are listed at the end of an unfinished match (a play of wild cards may be read
hundreds of ways)."""


def seat_number(seat: int) -> int:
    """Seat ``seat`` (the engine's, from 0) as the account counts it, from 1."""
    return seat + 1


def hand_number(hand: int) -> int:
    """Hand ``hand`` (the engine's, from 0) as the account counts it, from 1."""
    return hand + 1


class Narrator:
    """Builds the readable account of a replay, line by line, from the events of each hand, and hands the lines to
    ``write`` hand by hand."""

    def __init__(self, result: Replay | ReplayResult, write: Callable[[str], None], lang: str = DEFAULT) -> None:
        """Start an empty account of ``result`` (a replay under way or done)."""
        self.result = result
        self.write = write
        self.lines: list[str] = []
        self.hand_index = 0
        self.lang = lang
        """The language the events are told in (the catalog's words: English by default)."""

    # -- words -----------------------------------------------------------------------------------------
    def seat(self, seat: int) -> str:
        """A seat, counted from 1, with its player's name, e.g. ``seat 2 (heuristic)`` for the engine's seat 1 (a
        record's own name for a seat, ``seat 1`` from 0, is left out), in the account's language."""
        seats = self.result.seats
        name = seats[seat].get("name") if 0 <= seat < len(seats) else None
        numbered = Words(self.lang).get("seat {n}", "seat").format(n=seat_number(seat))
        if not name or name == f"seat {seat}":
            return numbered
        return f"{numbered} ({shown(name, NAME_SHOWN)})"

    def say(self, text: str, indent: int = 1) -> None:
        """Add one line."""
        self.lines.append("  " * indent + text)

    def tell(self, reason: Reason, indent: int = 1) -> None:
        """Add one line in the account's words: ``reason`` worded in its language, each seat named as the account
        names it, cards by their letters (as the events' lines write them)."""
        self.say(reason_words(reason, self.lang, self.seat, symbols=False), indent)

    def flush(self) -> None:
        """Hand the lines gathered so far to ``write`` (escaped once more, as everything printed from outside)."""
        if self.lines:
            self.write(safe_lines("\n".join(self.lines)) + "\n")
            self.lines = []

    @property
    def current(self) -> Any:
        """The hand being told."""
        return self.result.match.hands[self.hand_index]

    # -- the account -----------------------------------------------------------------------------------
    def header(self) -> None:
        """The game, the variant, the rules that differ from the game's usual ones (in the lobby's plain words),
        the seats, the first dealer and the seed."""
        r = self.result
        record = r.record
        self.say(f"{r.info.title}: {r.variant}", 0)
        rules = rules_words(r.info, r.match.options, Words(self.lang))
        self.tell(
            Reason(present.RECORD_RULES, rules=", ".join(rules)) if rules else Reason(present.RECORD_RULES_USUAL), 0
        )
        self.tell(Reason(present.RECORD_SEATS, seat_items=tuple(self.seat_words(i) for i in range(len(r.seats)))), 0)
        dealer = int(record.get("first_dealer", 0))
        if record.get("seed") is not None:
            self.tell(Reason(present.FIRST_DEALER_SEED, seat=dealer, seed=str(record["seed"])), 0)
        else:
            self.tell(Reason(present.FIRST_DEALER, seat=dealer), 0)

    def seat_words(self, i: int) -> Reason:
        """Seat ``i`` in the header: its number from 1, the record's name for it (left out where it is the
        default, ``seat i``), and who played it (a person, a bot, the bot behind a name at the table)."""
        s = self.result.seats[i]
        name = s["name"]
        who = f"{seat_number(i)}" if name == f"seat {i}" else f"{seat_number(i)} {shown(name)}"
        if isinstance(s.get("bot"), str):
            return Reason(present.RECORD_SEAT_BOT_NAMED, who=who, bot=shown(s["bot"], NAME_SHOWN))
        kind = s.get("kind")
        if kind == "human":
            return Reason(present.RECORD_SEAT_HUMAN, who=who)
        if kind == "bot":
            return Reason(present.RECORD_SEAT_BOT, who=who)
        return Reason(present.RECORD_SEAT, who=who)

    def hand(self, index: int, events: Sequence[Event]) -> None:
        """Hand ``index``, from the events the replay gave, handed to ``write`` at once."""
        self.hand_index = index
        view = self.public_view()
        for ev in events:
            self.event(ev, view)
            self.after_event(ev)
        self.flush()

    def public_view(self) -> Mapping[str, Any]:
        """The table as anyone watching it sees it at the end of the hand told (its game's spectator view): what an
        event's words may read of the table besides the event (its players, its teams)."""
        match = self.result.match
        parts = self.result.info.parts
        if isinstance(parts, HasSpectator):
            return parts.spectator()(match)
        return {"players": match.n_seats, "hand_sizes": [0] * match.n_seats, "totals": list(match.totals)}

    def event(self, ev: Event, view: Mapping[str, Any]) -> None:
        """One event, in the words the game's presenter tells it to anyone watching (the page's replay says the
        same), each seat named as the account names it; a new hand after a blank line. The match's end is told
        once, after the last hand (:meth:`ending`)."""
        if isinstance(ev, shared_events.MatchEnded):
            return
        told = said_of(self.result.info, wire_form(ev), view)
        if told is None:
            self.say(f"{type(ev).__name__}: {describe_fields(ev)}")
            return
        line = said_line(told, None, self.lang, self.seat, symbols=False)
        if told.kind == "deal":
            self.lines.append("")
            self.say(line, 0)
        else:
            self.say(line)

    def after_event(self, ev: Event) -> None:
        """What the record holds beyond ``ev``, which no event tells the table: the hidden cards it dealt or moved
        (dealt, discarded, passed), as the game's presenter words them (nothing where the game has no such part)."""
        parts = self.result.info.parts
        if isinstance(parts, HasRecorded):
            for reason, indent in parts.recorded()(self.current, ev):
                self.tell(reason, indent)

    def ending(self) -> None:
        """The totals, then the winners, a draw, or who is to act and what they may do."""
        match = self.result.match
        data = match_result_json(match, self.result.variant, self.result.options_json, self.result.seats)
        self.lines.append("")
        over = bool(data["over"])
        for reason in self.totals_words(data, over):
            self.tell(reason, 0)
        if over:
            winners = [int(s) for s in data["winners"]]
            if data["draw"] or not winners:
                self.tell(Reason(present.RESULT_DRAW), 0)
            elif len(winners) == 1:
                self.tell(Reason(present.WINNER, seat=winners[0]), 0)
            else:
                self.tell(Reason(present.WINNERS, seats=tuple(winners)), 0)
            return
        if data.get("awaiting") == "deal":
            self.tell(Reason(present.AWAITING_DEAL, number=hand_number(len(match.hands)), seat=match.next_dealer), 0)
            return
        self.tell(Reason(present.TO_ACT, seat=int(data["to_act"])), 0)
        self.tell(self.legal_words(data), 0)

    def totals_words(self, data: dict[str, Any], over: bool) -> list[Reason]:
        """The totals in the ending (``data`` is the record's result JSON): each seat's, unless partners share one
        (a partnership game), and each team's where the table has teams (as its view shows them)."""
        out = []
        if not self.result.info.fixed_teams:
            out.append(
                Reason(present.FINAL_TOTALS if over else present.TOTALS_SO_FAR, total_items=seat_items(data["totals"]))
            )
        found = shown_of(self.result.info, self.public_view(), self.result.match.options)
        teams = found.teams if found is not None else ()
        if teams and "team_totals" in data:
            items = tuple(
                Reason(present.SEATS_POINTS, seats=seats, points=present.signed(int(total)))
                for seats, total in zip(teams, data["team_totals"], strict=True)
            )
            out.append(Reason(present.FINAL_TEAM_TOTALS if over else present.TEAM_TOTALS_SO_FAR, total_items=items))
        return out

    def legal_words(self, data: dict[str, Any]) -> Reason:
        """The legal actions of the seat to act at the end of an unfinished record, each as its button says it
        (the game's labels, read against that seat's view), cut short after :data:`LEGAL_SHOWN`, or as the game's
        presenter says them together (a pass of any three cards)."""
        parts = self.result.info.parts
        if isinstance(parts, HasRecordedLegal):
            together = parts.recorded_legal()(self.result.match.legal_actions())
            if together is not None:
                return together
        legal = [str(a) for a in data["legal"]]
        if isinstance(parts, HasLabel):
            label = parts.label()
            view = self.result.match.view(int(data["to_act"])).to_dict()
            items = tuple(label(view, a) for a in legal[:LEGAL_SHOWN])
        else:
            items = tuple(present.play_label(a) for a in legal[:LEGAL_SHOWN])
        if len(legal) > LEGAL_SHOWN:
            return Reason(present.LEGAL_CUT, action_items=items, n=len(legal))
        return Reason(present.LEGAL, action_items=items)


def describe_fields(ev: Event) -> str:
    """An event's fields as ``name=value`` pairs, for an event the game's presenter does not word."""
    return ", ".join(f"{k}={v}" for k, v in ev._asdict().items())


def render_text(result: ReplayResult, lang: str = DEFAULT) -> str:
    """The readable account of a replay in ``lang``: header, each hand and the ending."""
    parts: list[str] = []
    narrator = Narrator(result, parts.append, lang)
    narrator.header()
    for index, events in enumerate(result.events):
        narrator.hand(index, events)
    narrator.ending()
    narrator.flush()
    return "".join(parts)


def stream_text(run: Replay, write: Callable[[str], None], lang: str = DEFAULT) -> None:
    """Replay ``run`` and tell it as it goes, in ``lang``: the header, then each hand as soon as it is replayed,
    then the ending; memory holds the match, not the account. A broken rule would stop the account at the hand that
    breaks it (the error names it): ``clubs replay`` checks the record in a first replay so that never happens."""
    narrator = Narrator(run, write, lang)
    narrator.header()
    narrator.flush()
    for index, events in enumerate(run.hands()):
        narrator.hand(index, events)
    run.check_result()
    narrator.ending()
    narrator.flush()
