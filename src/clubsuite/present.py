"""What a seat to act is offered: its legal actions in the order a player is shown them, each with a note on what it
does, as each game declares it (its registry part ``present``, see :attr:`clubsuite.engine.GameInfo.parts`).

The rules give the legal actions in the engine's order, which bots, records and the learning code count on; a player
choosing among several readings of the same cards (a wild card that may stand for any value) should be offered the
strongest first and told what each does. That order and those notes are presentation: the game says
them once here, and the server sends them with the legal actions so that a page only words and lays them out. A note
is a :class:`~clubsuite.reasons.Reason` (a stable code, the ruling behind it, its parameters), worded in the
reader's language from the same catalog as a refusal.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from functools import partial
from typing import Any, Final, Literal, Protocol, runtime_checkable

from clubsuite import events as shared_events
from clubsuite.cards import Card, CardSet
from clubsuite.engine import SomeGame, SomeMatch
from clubsuite.events import Event
from clubsuite.i18n.render import reason_words
from clubsuite.jsonform import JsonObject, JsonValue
from clubsuite.reasons import Reason, template

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Offered:
    """One legal action as it is offered: its notation and, where the game has one, what it does."""

    text: str
    """The action in the game's notation, as ``format_action`` writes it (what a client sends back)."""
    note: Reason | None = None
    """What choosing it does, where the same cards could be played otherwise (None: nothing to add)."""


OfferedFn = Callable[[Any, Sequence[Any]], list[Offered]]
"""A game's ``offered`` part: ``(match, legal actions) -> the offered actions``, every legal action once."""

Recorded = tuple[Reason, int]
"""One line of what a record holds beyond an event: its words and how far it is indented under the event."""
RecordedFn = Callable[[Any, Event], list[Recorded]]
"""A game's ``recorded`` part: ``(the hand, an event of it) -> the lines a replay's account adds after the event``:
the hidden cards a record holds (a deal, a discard, a pass), which no event tells the table."""
RecordedLegalFn = Callable[[Any], "Reason | None"]
"""A game's ``recorded_legal`` part: ``(the legal actions at the end of an unfinished record) -> their words``, where
the game says them otherwise than one label each (None: one label each)."""


# -- the parts a game presents itself with (its table of parts, clubsuite.engine.GameParts) --------------------------
@runtime_checkable
class HasOffered(Protocol):
    """A game's parts that order the legal actions as a player is offered them, with what each does."""

    def offered(self) -> OfferedFn:
        """``offered_actions(match, legal)``."""
        ...


@runtime_checkable
class HasShown(Protocol):
    """A game's parts that say what a view shows beside the cards."""

    def shown(self) -> ShownFn:
        """``shown(view, options)``."""
        ...


@runtime_checkable
class HasAsked(Protocol):
    """A game's parts that say what the seat to act is asked."""

    def asked(self) -> AskedFn:
        """``asked(view, options, legal)``."""
        ...


@runtime_checkable
class HasLabel(Protocol):
    """A game's parts that say an action as its button says it."""

    def label(self) -> LabelFn:
        """``label(view, action)``."""
        ...


@runtime_checkable
class HasSaid(Protocol):
    """A game's parts that tell its own events."""

    def said(self) -> SaidFn:
        """``said(event, view)``."""
        ...


@runtime_checkable
class HasAccount(Protocol):
    """A game's parts that give a scored hand's account."""

    def account(self) -> AccountFn:
        """``account(hand)``."""
        ...


@runtime_checkable
class HasRecorded(Protocol):
    """A game's parts that tell a replay's account what a record holds beyond the events (the hidden cards)."""

    def recorded(self) -> RecordedFn:
        """``recorded(hand, event)``: the lines a replay's account adds after the event."""
        ...


@runtime_checkable
class HasRecordedLegal(Protocol):
    """A game's parts that word the legal actions at the end of an unfinished record otherwise than one by one."""

    def recorded_legal(self) -> RecordedLegalFn:
        """``recorded_legal(legal)``: the legal actions' words, or None for one label each."""
        ...


@runtime_checkable
class HasRulings(Protocol):
    """A game's parts that give its rulings in plain words, for a "why?"."""

    def rulings(self) -> Rulings:
        """The rulings by id."""
        ...


def load_presentation(info: SomeGame) -> None:
    """Import every presenting part of ``info``'s game (what registers its words' templates): for a catalog's
    sources and the tests that read every template."""
    parts = info.parts
    if isinstance(parts, HasOffered):
        parts.offered()
    if isinstance(parts, HasShown):
        parts.shown()
    if isinstance(parts, HasSaid):
        parts.said()
    if isinstance(parts, HasAccount):
        parts.account()
    if isinstance(parts, HasAsked):
        parts.asked()
    if isinstance(parts, HasLabel):
        parts.label()
    if isinstance(parts, HasRecorded):
        parts.recorded()
    if isinstance(parts, HasRulings):
        parts.rulings()


def offered(info: SomeGame, match: SomeMatch) -> list[Offered]:
    """The legal actions of the seat to act, in the order its game offers them and with their notes; a game that
    declares nothing offers them in the engine's order, without notes."""
    legal = list(match.legal_actions())
    if not isinstance(info.parts, HasOffered):
        return [Offered(match.format_action(a)) for a in legal]
    return info.parts.offered()(match, legal)


# -- what a seat is shown beside the cards ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Badge:
    """A mark beside a seat's name ("team 2", "contract", "doubled"): its words and the look it takes."""

    words: Reason
    look: str = ""
    """A style, the same in every game: ``team-<n>`` (the n-th team's colour, from 0), ``contract`` (the seat that
    plays for a contract or with it), or empty (a plain badge)."""


@dataclass(frozen=True)
class Put:
    """What one seat has in front of it on the table now: the cards it played to the trick (or its last bid, its
    last play), with a word under them where it says more than the cards (``passed``, ``to beat``)."""

    seat: int
    cards: str
    """The cards in the game's notation (empty: nothing lies there, only the note)."""
    note: Reason | None = None
    to_beat: bool = False
    """Whether it is the play the others must beat (it is ringed)."""


@dataclass(frozen=True)
class Known:
    """Cards beside the hand that the seat knows (its bid cards, the chest, what it passed or received), under a
    title."""

    title: Reason
    cards: str
    playable: bool = False
    """Whether they are cards of the seat's that it may play from where they lie (bid cards), one click each."""
    folded: bool = False
    """Whether they are shown folded (a card count in the title) until opened: cards that are in the hand already."""


@dataclass(frozen=True)
class Fact:
    """One line beside the table: a label and what it says, one or several phrases (joined by ``joined``)."""

    label: Reason
    words: tuple[Reason, ...]
    joined: str = ", "


@dataclass(frozen=True)
class Shown:
    """What a view shows beside the cards, as its game declares it: every word a :class:`Reason` (worded in the
    reader's language by the page from the catalog), every seat a number (named by the page)."""

    badges: tuple[tuple[Badge, ...], ...]
    """Per seat, the game's marks beside its name (the page adds its own: you, dealer, away)."""
    stats: tuple[tuple[Reason, ...], ...]
    """Per seat, what it holds or has won that the game counts, after its cards and tricks (clubs won, bid cards,
    a bonus)."""
    front: tuple[Put, ...]
    """What lies in front of each seat now (seats with nothing are left out)."""
    known: tuple[Known, ...] = ()
    teams: tuple[tuple[int, ...], ...] = ()
    """The seats of each team, in the order of the view's ``team_totals`` (empty: everyone plays alone)."""
    facts: tuple[Fact, ...] = ()
    says: Reason | None = None
    """What the table says while nothing lies on it (who opens the auction, that the leader plays anything)."""
    sort: str = "suit"
    """How a hand is sorted unless its player chose otherwise: ``suit`` (by suit, then rank) or ``rank``."""
    ace_low: bool = False
    """Whether the ace ranks below the two (the hand is sorted so)."""
    select: bool = False
    """Whether a play is always made by selecting its cards, even one card (never played by one click)."""
    wild: str | None = None
    """The rank whose cards are wild at this table (each may stand for another value), or None."""
    beat: bool = False
    """Whether each play of a trick must beat the one before (the latest is the one to beat), rather than each seat
    adding one card."""

    def to_json(self) -> dict[str, Any]:
        """The form the protocol sends (``view["shown"]``; schema in :mod:`clubsuite.server.table.schemas`)."""
        return {
            "badges": [[{"words": b.words.words_json(), "look": b.look} for b in seat] for seat in self.badges],
            "stats": [[r.words_json() for r in seat] for seat in self.stats],
            "front": [
                {"seat": p.seat, "cards": p.cards, "note": _json(p.note), "to_beat": p.to_beat} for p in self.front
            ],
            "known": [
                {"title": k.title.words_json(), "cards": k.cards, "playable": k.playable, "folded": k.folded}
                for k in self.known
            ],
            "teams": [list(team) for team in self.teams],
            "facts": [
                {"label": f.label.words_json(), "words": [w.words_json() for w in f.words], "joined": f.joined}
                for f in self.facts
            ],
            "says": _json(self.says),
            "sort": self.sort,
            "ace_low": self.ace_low,
            "select": self.select,
            "wild": self.wild,
            "beat": self.beat,
        }


def _json(reason: Reason | None) -> dict[str, Any] | None:
    return None if reason is None else reason.words_json()


ShownFn = Callable[[Mapping[str, Any], Any], Shown]
"""A game's ``shown`` part: ``(a view's to_dict() or the spectator's view, the table's options) -> what it shows
beside the cards``. Made of the view and the options alone, so that it can tell nobody anything their view does
not."""


def shown(info: SomeGame, view: Mapping[str, Any], options: object) -> dict[str, Any] | None:
    """What ``view`` (a seat's ``to_dict()`` or the spectator's view, of ``info``'s game played with ``options``)
    shows beside the cards, in its protocol form; None for a game that declares nothing (the page then shows the
    cards alone)."""
    found = shown_of(info, view, options)
    return None if found is None else found.to_json()


def shown_of(info: SomeGame, view: Mapping[str, Any], options: object) -> Shown | None:
    """What ``view`` shows beside the cards, as its game declares it (the page's table, the terminal's facts);
    None for a game that declares nothing."""
    return info.parts.shown()(view, options) if isinstance(info.parts, HasShown) else None


def with_shown(info: SomeGame, view: dict[str, Any], options: object) -> dict[str, Any]:
    """``view`` with what it shows beside the cards added under ``shown`` (in place, and returned); a fault in the
    game's part costs the words (``None``, logged by its kind only), never what is sent with them."""
    view["shown"] = contained(lambda: shown(info, view, options), info, "shown")
    return view


def contained(make: Callable[[], Any], info: SomeGame, part: str) -> Any:
    """``make()``, or None where it fails: the words of a table are never worth the table (the exception's kind is
    logged, never its message, which may name a card)."""
    try:
        return make()
    except Exception as exc:
        log.warning("%s: the part %s failed (%s)", info.name, part, type(exc).__name__)
        return None


# -- what every game shows alike --------------------------------------------------------------------------------------
DEALER = template("shown.dealer", "Dealer")
"""A fact's label: who dealt this hand."""
MATCH = template("shown.match", "Match")
"""A fact's label: what wins the match."""
TEAMS = template("shown.teams", "Teams")
"""A fact's label: the teams and their points."""
SEAT = template("shown.seat", "{seat}")
"""A seat's name alone (the page's own seat: "you")."""
SEATS = template("shown.seats", "{seats}")
"""Seats' names as a list ("Ann, Bob and you")."""
TO_POINTS = template("shown.to_points", "to {target} points")
"""A match played until a seat reaches ``target`` points."""
TEAM = template("shown.team", "team {number}")
"""A team's badge, counted from 1."""
TEAM_POINTS = template("shown.team_points", "{seats} {points}")
"""A team's seats and their points."""


def is_viewer(view: Mapping[str, Any], seat: object) -> bool:
    """Whether ``seat`` is the seat whose view this is (its sentences are worded for "you"); never in a spectator's
    view."""
    return view.get("seat") is not None and view.get("seat") == seat


def seats_of(view: Mapping[str, Any]) -> int:
    """How many seats the view's table has."""
    return len(view["hand_sizes"])


def dealer_fact(view: Mapping[str, Any]) -> tuple[Fact, ...]:
    """Who dealt, as a fact (none before the first deal)."""
    dealer = view.get("dealer")
    return () if dealer is None else (Fact(Reason(DEALER), (Reason(SEAT, seat=dealer),)),)


def trick_front(view: Mapping[str, Any]) -> tuple[Put, ...]:
    """The cards of the trick in progress, each in front of the seat that played it (a view's ``trick``: a list of
    ``{"seat", "card"}``)."""
    return tuple(Put(p["seat"], p["card"]) for p in view.get("trick") or ())


def team_badges(n: int, teams: Sequence[Sequence[int]]) -> tuple[tuple[Badge, ...], ...]:
    """Each seat's team badge ("team 2" in the team's colour), for ``teams`` (their seats); none without teams."""
    badge: dict[int, Badge] = {}
    for number, seats in enumerate(teams):
        for seat in seats:
            badge[seat] = Badge(Reason(TEAM, number=number + 1), f"team-{number}")
    return tuple((badge[s],) if s in badge else () for s in range(n))


def team_fact(view: Mapping[str, Any], teams: Sequence[Sequence[int]]) -> tuple[Fact, ...]:
    """The teams and their points, as a fact (none without teams or totals)."""
    totals = view.get("team_totals")
    if not teams or not totals:
        return ()
    words = tuple(
        Reason(TEAM_POINTS, seats=tuple(seats), points=total) for seats, total in zip(teams, totals, strict=False)
    )
    return (Fact(Reason(TEAMS), words, " \u00b7 "),)


# -- what the seat to act is asked, and why ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Ruling:
    """A ruling in plain words, for a "why?": a short title and what it says."""

    title: Reason
    text: Reason

    def to_json(self) -> dict[str, Any]:
        """The form the protocol sends."""
        return {"title": self.title.words_json(), "text": self.text.words_json()}


@dataclass(frozen=True)
class Asked:
    """What the seat to act is asked, in sentences, and the rule behind it: a ruling's id (its words in the game's
    :data:`Rulings`), or a basic rule every text states alike (``why``, with no id)."""

    words: tuple[Reason, ...]
    rule: str | None = None
    why: Ruling | None = None

    def to_json(self) -> dict[str, Any]:
        """The form the protocol sends (``asked``)."""
        return {
            "words": [w.words_json() for w in self.words],
            "rule": self.rule,
            "why": None if self.why is None else self.why.to_json(),
        }


Rulings = Mapping[str, Ruling]
"""A game's ``rulings`` part: its rulings in plain words, by id."""
AskedFn = Callable[[Mapping[str, Any], Any, Sequence[str]], Asked]
"""A game's ``asked`` part: ``(the seat's view, the table's options, its legal actions in notation) -> Asked``."""
LabelFn = Callable[[Mapping[str, Any], str], Reason]
"""A game's ``label`` part: ``(a view, an action in notation) -> the action as a button says it``."""


def asked_of(info: SomeGame, view: Mapping[str, Any], options: object, legal: Sequence[str]) -> Asked | None:
    """What the seat whose view this is, to act now, is asked and why; None for a game that declares nothing. The
    page (:func:`asked`) and the terminal table both say it."""
    return info.parts.asked()(view, options, legal) if isinstance(info.parts, HasAsked) else None


def asked(info: SomeGame, view: Mapping[str, Any], options: object, legal: Sequence[str]) -> dict[str, Any] | None:
    """What the seat to act is asked and why (:func:`asked_of`), in protocol form."""
    found = asked_of(info, view, options, legal)
    return None if found is None else found.to_json()


def rulings(info: SomeGame) -> dict[str, Any]:
    """The game's rulings in plain words, by id, in protocol form (empty for a game that declares none)."""
    found = rulings_of(info)
    return {k: v.to_json() for k, v in found.items()}


def rulings_of(info: SomeGame) -> Rulings:
    """The game's rulings in plain words, by id (empty for a game that declares none)."""
    return info.parts.rulings() if isinstance(info.parts, HasRulings) else {}


def labels(info: SomeGame, view: Mapping[str, Any], actions: Sequence[str]) -> dict[str, Any]:
    """Each of ``actions`` (in notation) as a button says it, in protocol form; empty for a game that declares
    nothing."""
    if not isinstance(info.parts, HasLabel):
        return {}
    label = info.parts.label()
    return {a: label(view, a).words_json() for a in actions}


def suit_key(letter: str) -> str:
    """A suit's key (``hearts``) from its letter (``H``), as a reason's ``suit`` parameter takes it."""
    return {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}[letter]


PLAY = template("shown.play", "Play {cards}")
"""The label of a play of cards."""
PASS = template("shown.pass", "Pass")
"""The label of a pass."""


def play_label(action: str) -> Reason:
    """A play of the cards of ``action`` (in notation), as its button says it."""
    return Reason(PLAY, cards=tuple(action.split()))


# -- what happened, told ----------------------------------------------------------------------------------------------
SaidKind = Literal["deal", "put", "trick", "scored", ""]
"""What an event does to the table in the words every game shares (:attr:`Said.kind`): a closed set, so that a face
matching it is checked, never a string written again by hand."""


@dataclass(frozen=True)
class Said:
    """An event as the table tells it: its sentences as anyone watching reads them, the same sentences told to each
    seat the event is about ("You play 7♥." where others read "Ann plays 7♥."), and what it does to the table in
    the words every game shares (:attr:`kind`)."""

    words: tuple[Reason, ...]
    mine: Mapping[int, tuple[Reason, ...]] = field(default_factory=dict)
    kind: SaidKind = ""
    """``deal`` (a new hand is dealt), ``put`` (``seat`` put ``cards`` on the table), ``trick`` (``seat`` took the
    trick, or won it with ``cards``), ``scored`` (the hand was scored), or empty."""
    seat: int | None = None
    cards: str = ""

    def to_json(self) -> dict[str, Any]:
        """The form the protocol sends (an event's ``said``)."""
        return {
            "words": [w.words_json() for w in self.words],
            "mine": {str(s): [w.words_json() for w in ws] for s, ws in self.mine.items()},
            "kind": self.kind,
            "seat": self.seat,
            "cards": self.cards,
        }


SaidFn = Callable[[Mapping[str, Any], Mapping[str, Any]], "Said | None"]
"""A game's ``said`` part: ``(an event in its wire form, the table's public view) -> Said``, or None for an event the
shared words tell (:func:`said_alike`)."""

HAND_DEALT = template("said.hand_dealt", "Hand {number} is dealt by {seat}.")
HAND_DEALT_YOU = template("said.hand_dealt_you", "Hand {number} is dealt by you.")
LEADS = template("said.leads", "{seat} leads.")
LEADS_YOU = template("said.leads_you", "You lead.")
PLAYS = template("said.plays", "{seat} plays {card}.")
PLAYS_YOU = template("said.plays_you", "You play {card}.")
TAKES = template("said.takes", "{seat} takes trick {number}.")
TAKES_YOU = template("said.takes_you", "You take trick {number}.")
DRAW = template("said.draw", "The match ends in a draw.")
WIN_SEATS = template("said.win_seats", "The match is over: {seats} win.")
WIN_SEATS_YOU = template("said.win_seats_you", "The match is over: {seats} and you win.")
WINS = template("said.wins", "The match is over: {seat} wins.")
WIN_YOU = template("said.win_you", "The match is over: You win.")
FINAL = template("said.final", "Final totals: {total_items}.")
SEAT_POINTS = template("said.seat_points", "{seat} {points}")
SEATS_POINTS = template("said.seats_points", "{seats} {points}")
HAND_OVER = template("said.hand_over", "The hand is over. Points: {point_items}. Tricks: {trick_items}.")
HAND_OVER_POINTS = template("said.hand_over_points", "The hand is over. Points: {point_items}.")


def signed(value: int) -> str:
    """A score with its sign: ``+3``, ``-2``, ``0``."""
    return f"+{value}" if value > 0 else str(value)


def seat_items(values: Sequence[int], sign: bool = True) -> tuple[Reason, ...]:
    """Each seat with a number ("Ann +3, you -2")."""
    return tuple(Reason(SEAT_POINTS, seat=s, points=signed(v) if sign else str(v)) for s, v in enumerate(values))


def told(seat: int, words: tuple[Reason, ...], yours: tuple[Reason, ...], kind: SaidKind = "", cards: str = "") -> Said:
    """An event about ``seat``: ``words`` for everyone, ``yours`` told to that seat."""
    return Said(words, {seat: yours}, kind, seat, cards)


HAND_SCORED: Final[Literal["HandScored"]] = "HandScored"
"""The wire name every game's own ``HandScored`` event declares (a hand's points, told alike where the game adds
nothing): each game's class is its own, so the shared words know it by the name they all declare."""


def said_alike(ev: Mapping[str, Any]) -> Said | None:
    """The events every game shares, told alike: a hand dealt, the first lead, a card played, a trick taken, the
    match's end, a hand's points; None for another event."""
    kind = ev.get("type")
    if kind == shared_events.HandStarted.wire:
        seat, number = ev["dealer"], ev["hand_number"] + 1
        return told(
            seat, (Reason(HAND_DEALT, number=number, seat=seat),), (Reason(HAND_DEALT_YOU, number=number),), "deal"
        )
    if kind == shared_events.PlayStarted.wire:
        return told(ev["leader"], (Reason(LEADS, seat=ev["leader"]),), (Reason(LEADS_YOU),))
    if kind == shared_events.CardPlayed.wire:
        seat, card = ev["seat"], str(ev["card"])
        return told(seat, (Reason(PLAYS, seat=seat, card=card),), (Reason(PLAYS_YOU, card=card),), "put", card)
    if kind == shared_events.TrickTaken.wire:
        seat, number = ev["seat"], ev["number"]
        return told(seat, (Reason(TAKES, seat=seat, number=number),), (Reason(TAKES_YOU, number=number),), "trick")
    if kind == shared_events.MatchEnded.wire:
        return match_ended(ev, tuple(Reason(SEAT_POINTS, seat=s, points=str(v)) for s, v in enumerate(ev["totals"])))
    if kind == HAND_SCORED:
        points = seat_items(ev["scores"])
        if ev.get("tricks"):
            tricks = seat_items(ev["tricks"], sign=False)
            return Said((Reason(HAND_OVER, point_items=points, trick_items=tricks),), kind="scored")
        return Said((Reason(HAND_OVER_POINTS, point_items=points),), kind="scored")
    return None


def match_ended(ev: Mapping[str, Any], totals: tuple[Reason, ...]) -> Said:
    """The match's end: who won (or a draw), and the final totals (``totals``, one item per seat or team)."""
    final = (Reason(FINAL, total_items=totals),) if totals else ()
    winners = list(ev.get("winners") or ())
    if ev.get("draw") or not winners:
        return Said((Reason(DRAW), *final))
    if len(winners) > 1:  # told to each winner with "you" (its verb agrees in every language)
        mine = {s: (Reason(WIN_SEATS_YOU, seats=tuple(w for w in winners if w != s)), *final) for s in winners}
        return Said((Reason(WIN_SEATS, seats=tuple(winners)), *final), mine)
    return told(winners[0], (Reason(WINS, seat=winners[0]), *final), (Reason(WIN_YOU), *final))


def said_of(info: SomeGame, ev: Mapping[str, Any], view: Mapping[str, Any]) -> Said | None:
    """An event (its wire form) as the table tells it: as its game tells it, else as every game tells the events
    they share; None for an event nobody tells. Every face words events from this: the page (:func:`said`, in
    protocol form), the terminal table and the replay's account (:func:`said_line`)."""
    told_here = info.parts.said()(ev, view) if isinstance(info.parts, HasSaid) else None
    return said_alike(ev) if told_here is None else told_here


def said(info: SomeGame, ev: Mapping[str, Any], view: Mapping[str, Any]) -> dict[str, Any] | None:
    """An event (its wire form) as the table tells it, in protocol form (:func:`said_of`)."""
    told_here = said_of(info, ev, view)
    return None if told_here is None else told_here.to_json()


def wire_value(value: object) -> JsonValue:
    """An event field in its wire form: cards and card sets in notation, enums by value, tuples as lists (a play of
    several cards, a named tuple, by its notation). The one place it is written: the server sends events in this
    form (:func:`wire_form`)."""
    if value is None or isinstance(value, bool | str | float):
        return value
    if isinstance(value, CardSet | Card):
        return str(value)
    if isinstance(value, Enum):
        return wire_value(value.value)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, tuple) and type(value) is not tuple and hasattr(value, "_fields"):
        return str(value)  # a play of several cards (a named tuple): its notation
    if isinstance(value, tuple | list):
        return [wire_value(v) for v in value]
    return str(value)


def wire_form(event: Event) -> JsonObject:
    """An engine event as the table sends it (``{"type": its declared wire name, field: value, ...}``): what the
    game's ``said`` reads, so that a face holding the engine's events (the terminal, a replay's account) words them
    from the very form the page's are worded from (the server's
    :func:`clubsuite.server.table.protocol.event_json` is this)."""
    out: JsonObject = {"type": type(event).wire}
    for name, value in zip(event._fields, event, strict=True):
        out[name] = wire_value(value)
    return out


def told_to(told_here: Said, reader: int | None) -> tuple[Reason, ...]:
    """An event's sentences as ``reader`` reads them: as told to that seat where the event is about it, else as
    anyone watching reads them (``reader`` None: a spectator, a replay's account)."""
    mine = told_here.mine.get(reader) if reader is not None else None
    return mine or told_here.words


def said_line(told_here: Said, reader: int | None, lang: str, name: Callable[[int], str], symbols: bool = True) -> str:
    """An event's sentences in ``lang`` on one line, as ``reader`` reads them (:func:`told_to`), each seat named by
    ``name`` (the reader's own seat in a sentence: "you"), cards with their suits' symbols or letters: the line the
    page shows for it (its ``eventWords``), worded by the same catalog."""
    return " ".join(reason_words(r, lang, name, symbols) for r in told_to(told_here, reader))


def with_said(
    info: SomeGame, events: list[dict[str, Any]], view: Mapping[str, Any], mine: bool = True
) -> list[dict[str, Any]]:
    """``events`` (wire form) each with how the table tells it under ``said`` (in place, and returned); without
    ``mine`` (a replay, watched by nobody seated) only as anyone reads it. A fault costs the words only."""
    for ev in events:
        told_json = contained(partial(said, info, ev, view), info, "said")
        if told_json is not None and not mine:
            told_json["mine"] = {}
        ev["said"] = told_json
    return events


PASSES = template("said.passes", "{seat} passes.")
PASSES_YOU = template("said.passes_you", "You pass.")


AccountFn = Callable[[Mapping[str, Any]], Said]
"""A game's ``account`` part: ``(a complete hand's summary) -> the hand in words`` (its phrases, for the score
sheet's details; told to each seat it names as "you")."""
ITEMS = template("said.items", "{point_items}")
"""Items alone ("Ann and Cy 12, Bob and you 19")."""
TOOK = template("said.took", "{seat} took {n} trick", plural="{seat} took {n} tricks", count="n")
TOOK_YOU = template("said.took_you", "you took {n} trick", plural="you took {n} tricks", count="n")


def tricks_words(tricks: Sequence[int], me: int | None = None) -> Reason:
    """The tricks each seat took in a hand, seat by seat in plain words ("Ann took 5 tricks, you took 4 tricks, Cy
    took 4 tricks"), told to ``me`` as "you" where given (a hand's account, read at the end of a hand)."""
    took = tuple(Reason(TOOK_YOU, n=n) if s == me else Reason(TOOK, seat=s, n=n) for s, n in enumerate(tricks))
    return Reason(ITEMS, point_items=took)


def account_of(info: SomeGame, hand: Mapping[str, Any]) -> Said | None:
    """A complete hand's account in words, as its game gives it (the page's score sheet, the terminal's after a
    hand); None for a game that gives none."""
    return info.parts.account()(hand) if isinstance(info.parts, HasAccount) else None


def account(info: SomeGame, hand: Mapping[str, Any]) -> dict[str, Any] | None:
    """A complete hand's account in words (:func:`account_of`), in protocol form."""
    found = account_of(info, hand)
    return None if found is None else found.to_json()


def with_account(info: SomeGame, hand: dict[str, Any]) -> dict[str, Any]:
    """``hand`` (a summary) with its account in words under ``said`` (in place, and returned)."""
    hand["said"] = contained(lambda: account(info, hand), info, "account")
    return hand


# -- a record's account (clubs replay): what a record holds beyond the table's events ---------------------------------
RECORD_RULES = template("said.record_rules", "rules: {rules}")
"""The rules a record was played with where they differ from the game's usual ones, in plain words ("wild 15s, to
9 points"; the record's own option values are in ``clubs replay --json``)."""
RECORD_RULES_USUAL = template("said.record_rules_usual", "rules: the usual ones")
"""A record played with the game's usual rules."""
RECORD_SEATS = template("said.record_seats", "seats: {seat_items}")
RECORD_SEAT = template("said.record_seat", "{who}")
"""A seat of a record's header: its number from 1 and the record's name for it (``who``), without more."""
RECORD_SEAT_HUMAN = template("said.record_seat_human", "{who} (human)")
RECORD_SEAT_BOT = template("said.record_seat_bot", "{who} (bot)")
RECORD_SEAT_BOT_NAMED = template("said.record_seat_bot_named", "{who} (bot {bot})")
"""A seat a bot played under another name at the table (``bot``: the bot it was)."""
FIRST_DEALER = template("said.record_first_dealer", "first dealer: {seat}")
FIRST_DEALER_SEED = template("said.record_first_dealer_seed", "first dealer: {seat}; match seed {seed}")
TOTALS_SO_FAR = template("said.record_totals_so_far", "totals so far: {total_items}")
FINAL_TOTALS = template("said.record_final_totals", "final totals: {total_items}")
TEAM_TOTALS_SO_FAR = template("said.record_team_totals_so_far", "team totals so far: {total_items}")
FINAL_TEAM_TOTALS = template("said.record_final_team_totals", "final team totals: {total_items}")
RESULT_DRAW = template("said.record_draw", "result: draw")
WINNER = template("said.record_winner", "winner: {seat}")
WINNERS = template("said.record_winners", "winners: {seats}")
AWAITING_DEAL = template(
    "said.record_awaiting_deal", "the match is not over: awaiting the deal of hand {number} (dealer {seat})"
)
TO_ACT = template("said.record_to_act", "the match is not over: {seat} to act")
LEGAL = template("said.record_legal", "legal: {action_items}")
LEGAL_CUT = template("said.record_legal_cut", "legal: {action_items}, ... ({n} in all)")
"""The legal actions cut short (a list too long to read in full)."""
DEALT = template("said.record_dealt", "{seat} is dealt {cards}.")
"""A seat's cards as a record deals them (hidden at the table; a record's account shows every deal)."""
GIVES = template("said.record_gives", "{seat} gives {cards} to {to_seat}")
PASSED = template("said.record_passed", "Cards passed: {pass_items}.")
"""The cards each seat passed, which only the two seats of each pass saw at the table."""


def dealt_words(seat: int, cards: Sequence[Card | str]) -> Reason:
    """``seat`` is dealt ``cards`` (a record's account)."""
    return Reason(DEALT, seat=seat, cards=tuple(str(c) for c in cards))


def passed_words(moves: Sequence[tuple[int, int, Sequence[Card | str]]]) -> Reason:
    """The cards passed, ``(giver, receiver, cards)`` each, in one sentence (a record's account)."""
    gives = tuple(Reason(GIVES, seat=g, to_seat=r, cards=tuple(str(c) for c in cards)) for g, r, cards in moves)
    return Reason(PASSED, pass_items=gives)


def ruling(game: str, rule: str, title: str, text: str) -> Ruling:
    """A ruling's words, its templates registered as ``<game>.ruling_<id>`` (the title) and ``..._text``."""
    return Ruling(
        Reason(template(f"{game}.ruling_{rule}", title)), Reason(template(f"{game}.ruling_{rule}_text", text))
    )


def all_hands(match: SomeMatch) -> list[JsonValue]:
    """Every seat's cards now, from each seat's own view (what a replay and an exact puzzle's line show: the record
    holds every deal)."""
    out: list[JsonValue] = []
    for seat in range(match.n_seats):
        view = match.view(seat).to_dict()
        out.append(view.get("hand"))
    return out
