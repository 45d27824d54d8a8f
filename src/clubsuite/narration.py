"""Telling a replayed match in words: the one driver of every game's account (``clubs replay``).

Every event is told in the words the game's presenter tells it (:func:`clubsuite.present.said_of`, the sentences
the page's replay shows), to anyone watching: the account never words an event of its own. A game's narrator (its
registry part ``narrator``, a :class:`Narrator` subclass) adds only what a record holds beyond the table's events:
the hidden cards (every deal, a discard, a pass), after the event that moved them, and the table's public view its
words may read (its teams). ``clubs replay`` drives it: the header, then each hand as soon as it is replayed, then
the ending, so a long record is told as it goes, never held whole. A record holds every deal, so a narrator may name
hidden cards; it is never used for a seat's own view.

The account counts seats and hands from 1, as players do (``seat 1 (you)``, ``hand 1``): the record and its JSON
keep the engine's numbers from 0, and :func:`seat_number` and :func:`hand_number` are the one place that adds 1.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from clubsuite import events as shared_events
from clubsuite.engine import SomeGame
from clubsuite.events import Event
from clubsuite.i18n import DEFAULT
from clubsuite.present import said_line, said_of, wire_form
from clubsuite.records import ReplayResult, match_result_json
from clubsuite.records.replay import Replay
from clubsuite.safetext import safe_lines, shown

NAME_SHOWN = 24
"""The most characters of a seat name repeated in the lines of the account (the header shows up to
:data:`clubsuite.safetext.SHOWN`), so that the account grows with the number of plays, not with a name's length."""


def seat_number(seat: int) -> int:
    """Seat ``seat`` (the engine's, from 0) as the account counts it, from 1."""
    return seat + 1


def hand_number(hand: int) -> int:
    """Hand ``hand`` (the engine's, from 0) as the account counts it, from 1."""
    return hand + 1


def signed(values: Sequence[int]) -> str:
    """Scores with their signs, e.g. ``+1 +0 -1``."""
    return " ".join(f"{v:+d}" for v in values)


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
        record's own name for a seat, ``seat 1`` from 0, is left out)."""
        seats = self.result.seats
        name = seats[seat].get("name") if 0 <= seat < len(seats) else None
        if not name or name == f"seat {seat}":
            return f"seat {seat_number(seat)}"
        return f"seat {seat_number(seat)} ({shown(name, NAME_SHOWN)})"

    def say(self, text: str, indent: int = 1) -> None:
        """Add one line."""
        self.lines.append("  " * indent + text)

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
        """The game, the variant, the seats, the first dealer and the seed."""
        r = self.result
        record = r.record
        self.say(f"{r.info.title}: {r.variant}", 0)
        if r.options_json:
            self.say("options: " + ", ".join(f"{k}={v}" for k, v in r.options_json.items()), 0)
        parts = []
        for i, s in enumerate(r.seats):
            kind = f" ({s['kind']})" if "kind" in s else ""
            if isinstance(s.get("bot"), str):
                kind = f" (bot {shown(s['bot'], NAME_SHOWN)})"  # the name at the table, then the bot it was
            named = "" if s["name"] == f"seat {i}" else f" {shown(s['name'])}"  # a record's own name for a seat
            parts.append(f"{seat_number(i)}{named}{kind}")
        self.say("seats: " + ", ".join(parts), 0)
        line = f"first dealer: {self.seat(int(record.get('first_dealer', 0)))}"
        if record.get("seed") is not None:
            line += f"; match seed {record['seed']}"
        self.say(line, 0)

    def hand(self, index: int, events: Sequence[Event]) -> None:
        """Hand ``index``, from the events the replay gave, handed to ``write`` at once."""
        self.hand_index = index
        view = self.public_view()
        for ev in events:
            self.event(ev, view)
            self.after_event(ev)
        self.flush()

    def public_view(self) -> Mapping[str, Any]:
        """The table as anyone watching it sees it at the end of the hand told: what an event's words may read of
        the table besides the event (its players, its teams)."""
        match = self.result.match
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
        """What a game's narrator adds after an event from the record, which holds every deal: the hidden cards
        (dealt, discarded, passed); nothing here."""

    def ending(self) -> None:
        """The winners, a draw, or who is to act and what they may do."""
        match = self.result.match
        data = match_result_json(match, self.result.variant, self.result.options_json, self.result.seats)
        self.lines.append("")
        over = bool(data["over"])
        for line in self.totals_lines(data, over):
            self.say(line, 0)
        if over:
            if data["draw"]:
                self.say("result: draw", 0)
            else:
                names = ", ".join(self.seat(s) for s in data["winners"])
                self.say(f"{'winner' if len(data['winners']) == 1 else 'winners'}: {names}", 0)
            return
        if data.get("awaiting") == "deal":
            self.say(
                f"the match is not over: awaiting the deal of hand {hand_number(len(match.hands))} "
                f"(dealer {self.seat(match.next_dealer)})",
                0,
            )
            return
        self.say(f"the match is not over: {self.seat(data['to_act'])} to act", 0)
        self.say(self.legal_line(data), 0)

    def totals_lines(self, data: dict[str, Any], over: bool) -> list[str]:
        """The totals in the ending (``data`` is the record's result JSON)."""
        return [f"{'final totals' if over else 'totals so far'}: {signed(data['totals'])}"]

    def legal_line(self, data: dict[str, Any]) -> str:
        """The legal actions of the seat to act at the end of an unfinished record."""
        return f"legal: {' '.join(data['legal'])}"


def describe_fields(ev: Event) -> str:
    """An event's fields as ``name=value`` pairs, for an event no narrator describes in words."""
    return ", ".join(f"{k}={v}" for k, v in ev._asdict().items())


@runtime_checkable
class HasNarrator(Protocol):
    """A game's parts that tell a replay more than its events (what the record holds that no event says)."""

    def narrator(self) -> type[Narrator]:
        """The narrator's class."""
        ...


def narrator_class(info: SomeGame) -> type[Narrator]:
    """The narrator of a game (its part ``narrator``), or the shared one when it has none."""
    return info.parts.narrator() if isinstance(info.parts, HasNarrator) else Narrator


def render_text(result: ReplayResult) -> str:
    """The readable account of a replay: header, each hand and the ending."""
    parts: list[str] = []
    narrator = narrator_class(result.info)(result, parts.append)
    narrator.header()
    for index, events in enumerate(result.events):
        narrator.hand(index, events)
    narrator.ending()
    narrator.flush()
    return "".join(parts)


def stream_text(run: Replay, write: Callable[[str], None]) -> None:
    """Replay ``run`` and tell it as it goes: the header, then each hand as soon as it is replayed, then the
    ending; memory holds the match, not the account. A broken rule would stop the account at the hand that breaks
    it (the error names it): ``clubs replay`` checks the record in a first replay so that never happens."""
    narrator = narrator_class(run.info)(run, write)
    narrator.header()
    narrator.flush()
    for index, events in enumerate(run.hands()):
        narrator.hand(index, events)
    run.check_result()
    narrator.ending()
    narrator.flush()
