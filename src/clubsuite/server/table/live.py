"""One table in play: the match rebuilt from the durable log, its seats, its connections and its timers.

Every change goes through :meth:`LiveTable.apply`, under the table's lock: the action is read and judged by the
engine (the refusal words are the engine's, naming the rule), applied to the match, written to the database (with
the other tables' actions of the moment in one commit, ``commits``; the last action of a match with its record in a
commit of its own), and only then told to the clients. If the write fails
the match is put back as it was: nothing changed and nobody heard of it.

Bots, the turn clock and the take-over of an absent player's seat are timers (:meth:`LiveTable.reschedule`): after
every change the table looks at who is to act and waits for the right thing. A bot's decision runs in a worker
thread on a copy of the match, with the view of its own seat only, so the event loop never waits for a bot.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import time
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from clubsuite import tabletalk
from clubsuite.bots.base import SomeBot, make_bot
from clubsuite.bots.levels import searches
from clubsuite.bots.personas import level_words, persona_names
from clubsuite.engine import Events, SomeGame, SomeMatch, resolve
from clubsuite.errors import ClubsError
from clubsuite.jsonform import JsonObject, JsonValue
from clubsuite.present import rulings, with_shown
from clubsuite.ratings import pool
from clubsuite.reasons import reason_of
from clubsuite.records.writer import record_from_match
from clubsuite.seeding import derive_seed
from clubsuite.server.people.results import Outcome, SeatAtEnd
from clubsuite.server.store.commits import GroupCommit
from clubsuite.server.store.database import ActionRow, MatchRow, SeatRow, Store, TableRow
from clubsuite.server.store.dbschema import SeatKind
from clubsuite.server.table.chat import ChatRoom
from clubsuite.server.table.connection import Connection
from clubsuite.server.table.protocol import encode, joined
from clubsuite.server.table.settings import TableSettings
from clubsuite.server.table.thinking import Thinkers, imagined
from clubsuite.tabletalk import AFTER_TRICK, advance, choose, message, start_match
from clubsuite.view_base import HasSpectator

T = TypeVar("T")
log = logging.getLogger("clubsuite.server")
RECENT = 256
"""How many recent versions' events a table keeps for clients that come back (older ones get a full state)."""
THINKING = ThreadPoolExecutor(max_workers=4, thread_name_prefix="clubs-think")
"""Worker threads for the instant bots' decisions (random, heuristic, easy, normal, learned) and every hint:
however many tables want one at once, no more threads than this think (the others wait their turn), and never on the
event loop. The searching bots think in worker processes (:mod:`clubsuite.server.table.thinking`), apart from these,
so that tables of searching bots wait for one another and never hold up a hint or an instant bot."""


class Refused(Exception):  # noqa: N818 - a refusal, not an error of the server
    """An action or request the table does not accept; ``code`` says why in one word, the message in words."""

    def __init__(self, code: str, text: str) -> None:
        super().__init__(text)
        self.code = code
        self.reason = reason_of(text)
        """Where the rules refused: the reason as data (its code, ruling and parameters), for the page's words."""


@dataclass
class SeatState:
    """A seat as the table keeps it while it runs."""

    seat: int
    kind: SeatKind
    """``person`` or ``bot``."""
    bot: str
    """The bot that plays the seat: always for a bot seat, for a person's seat while they are away."""
    name: str | None
    token_hash: str | None
    connections: int = 0
    away_since: float | None = None
    """When the seat's last connection closed (monotonic clock), or None."""
    player: SomeBot | None = field(default=None, repr=False)
    user_id: str | None = None
    """The account holding the seat (None: a guest, nobody, or a bot)."""

    def row(self) -> SeatRow:
        """The stored form."""
        return SeatRow(self.seat, self.kind, self.bot, self.name, self.token_hash, self.user_id)


Db = Callable[..., Awaitable[Any]]
"""Runs a store call in the database worker: ``await db(store.method, *args)``."""


Recent = tuple[int, str, bool, bool]
"""One version's public events as a table keeps them for clients that come back: the version, the events encoded,
whether a trick or a hand just ended (a bot waits a moment), whether a hand was scored. A plain tuple of plain
values, which the cycle collector stops tracking the first time it looks at it (it keeps tracking an instance of a
class, a named tuple's included, for as long as it lives)."""


def recent(version: int, events: Events, info: SomeGame, view: JsonObject) -> Recent:
    """The events of ``version`` as a table keeps them (:data:`Recent`), each with how the table tells it
    (:func:`clubsuite.present.said`; ``view``: the public view after them)."""
    settled, scored = tabletalk.settles(events)
    return (version, encode(tabletalk.told(info, events, view)), settled, scored)


class LiveTable:
    """A table while the server runs: rebuilt from the store by :meth:`restore`, changed only by :meth:`apply`."""

    def __init__(
        self, row: TableRow, seats: list[SeatRow], store: Store, db: Db, thinkers: Thinkers, commits: GroupCommit
    ) -> None:
        self.id = row.id
        self.commits = commits
        """Where the table's ordinary actions are written, with other tables' (the last of a match on its own)."""
        self.thinkers = thinkers
        self.on_action: Callable[[str, float], None] | None = None
        """Told of every accepted action: who made it (its source) and the seconds from its arrival until every
        client was told (the server's figures)."""
        self.spec = row.game
        self.invite = row.invite
        self.created_at = row.created_at
        self.settings = TableSettings.from_json(row.settings)
        self.info, self.options = resolve(row.game)
        self.n_seats = self.info.n_seats(self.options)
        self.seats = [
            SeatState(s.seat, s.kind, s.bot or "random", s.name, s.token_hash, user_id=s.user_id) for s in seats
        ]
        self.store, self.db = store, db
        self.match_no = row.match_no
        self.seed = 0
        self.match: SomeMatch
        self.logged = 0
        """Actions in the log of the match in progress (their rows are in the database, not kept here)."""
        self._earlier_actions = 0
        """Actions of the table's finished matches (they count in the version)."""
        self.version = 0
        self.turn_started = time.time()
        self.lock = asyncio.Lock()
        self.connections: set[Connection] = set()
        self.recent: deque[Recent] = deque(maxlen=RECENT)
        """The last versions' public events, for a client that comes back (:meth:`catchup`): kept as text, which the
        cycle collector never walks, since a table holds up to :data:`RECENT` of them for as long as it runs."""
        self.chat = ChatRoom()
        """The table's chat: kept here in memory only, never in the store or a record."""
        self.present_at_end: dict[int, frozenset[int]] = {}
        """For each match that ended while this process served the table: the seats with a socket open then."""
        self._timer: asyncio.Task[None] | None = None
        self._public: Callable[[SomeMatch], JsonObject] | None = None
        self._public_made: tuple[int, SomeMatch, JsonObject] | None = None
        """The spectators' view of the version and match it was made for (:meth:`public_view`)."""
        self._lesson: tuple[int, JsonObject | None] | None = None
        """The scripted first hand's step of the version it was worked out on (:meth:`lesson_step`)."""
        self.closed = False
        """Closed (nobody was at it for long): no longer served; a change waiting for its lock is refused."""
        self.parked = False
        """Parked (a turn-based table): closed here, kept in the database, woken by the next request about it."""
        self.quiet_since: float | None = time.monotonic()
        """Since when nobody has been connected (monotonic clock), or None while someone is: a table quiet for
        long enough is closed (a turn-based one is parked: kept in the database only)."""
        # -- a turn-based table (``settings.pace``): its clocks are kept by ``server.turns``, which sets these
        self.turn_part: Callable[[LiveTable], JsonObject | None] | None = None
        """The clock of a turn-based table as its messages carry it (``turn``), for this version."""
        self.on_turn: Callable[[LiveTable], None] | None = None
        """Told after every change of a turn-based table (an action, a rematch, an adjournment, a loss on time),
        once its clients were told: its clock is written and the player to act reminded."""
        self.on_chat: Callable[[LiveTable, JsonObject, str | None, frozenset[str]], None] | None = None
        """Told of every line said on the players' channel of a turn-based table, with its speaker's account and the
        accounts at the table then: kept in the database, for the players' next visits."""
        self.autoplay: set[int] = set()
        """The seats whose forced moves (one legal action) are played at once."""
        self.seen: dict[int, int] = {}
        """The version each seat's player last saw (what ``away`` tells them)."""
        self.adjourned = False
        """A clock ran out at a table whose maker chose to adjourn: no clock runs until a player goes on."""
        self.ended: JsonObject | None = None
        """How the match ended other than by its rules: ``{"lost": seat}``, that seat's clock ran out."""

    def add_connection(self, conn: Connection) -> None:
        """A client connected (a seat's player, or a spectator)."""
        self.connections.add(conn)
        self.quiet_since = None
        if conn.seat is not None:
            state = self.seats[conn.seat]
            state.connections += 1
            state.away_since = None

    def remove_connection(self, conn: Connection) -> None:
        """A client's connection closed."""
        if conn not in self.connections:
            return
        self.connections.discard(conn)
        if not self.connections:
            self.quiet_since = time.monotonic()
        if conn.seat is not None:
            state = self.seats[conn.seat]
            state.connections -= 1
            self.saw(conn.seat)
            if state.connections == 0:
                state.away_since = time.monotonic()
                if self.settings.turn_based:
                    self.turned()  # what they saw is written now; left with their move to make, they are reminded

    def saw(self, seat: int) -> None:
        """``seat``'s player has seen the table as it is now (at a turn-based table: kept in memory here, written
        by ``server.turns`` at its next beat and when the table is parked, for ``away``)."""
        if self.settings.turn_based:
            self.seen[seat] = self.version

    @property
    def over(self) -> bool:
        """Whether the match in progress has ended: by its rules, or by a player's loss on time."""
        return self.match.is_over or self.ended is not None

    def away(self, seat: int) -> JsonObject | None:
        """At a turn-based table, what ``seat``'s player missed: the public events of the versions after the one
        they last saw (as far as they are kept), or None when they missed nothing."""
        since = self.seen.get(seat)
        if not self.settings.turn_based or since is None or since >= self.version:
            return None
        kept: list[JsonValue] = [
            {"version": v, "events": json.loads(events)} for v, events, _, _ in self.recent if v > since
        ]
        return {"since": since, "updates": kept} if kept else None

    # -- building ------------------------------------------------------------------------------------------
    def restore(self, matches: list[MatchRow], actions: list[ActionRow], earlier_actions: int) -> None:
        """Rebuild the match in progress from its seed and its logged actions (every earlier match is settled:
        ``earlier_actions`` says how many actions they had, for the version)."""
        current = matches[-1]
        self.match_no = current.match_no
        self.seed = current.seed
        self.match, _ = start_match(self.info, self.options, self.match_no, self.seed)
        # a turn-based table keeps the public events of its last moves, for a player coming back after days
        told_from = len(actions) - RECENT if self.settings.turn_based else len(actions)
        base = earlier_actions + self.match_no
        for i, row in enumerate(actions):
            events = self.match.apply(self.match.parse_action(row.action), row.seat)
            events += advance(self.match, self.info, self.seed)
            if i >= told_from:
                self.version = base + i + 1
                self.recent.append(recent(self.version, events, self.info, self.public_view()))
        if current.finished_at is not None and not self.match.is_over:
            self.ended = {"lost": None}  # ended on time: which seat lost is the turn-based table's (server.turns)
        self.logged = len(actions)
        self.turn_started = actions[-1].at if actions else current.started_at
        self._earlier_actions = earlier_actions
        self.version = earlier_actions + len(actions) + self.match_no
        now = time.monotonic()
        for seat in self.seats:
            if seat.kind == SeatKind.PERSON and seat.token_hash is not None:
                seat.away_since = now  # nobody is connected after a restart: the grace period starts again

    @property
    def abandoned(self) -> bool:
        """Whether everyone left once play had begun: the table has people's seats and none is held (play begins
        only once every person's seat is taken, so these were all given up). The lobby says nobody is playing."""
        people = [s for s in self.seats if s.kind == SeatKind.PERSON]
        return bool(people) and not self.waiting and all(s.token_hash is None for s in people)

    @property
    def waiting(self) -> bool:
        """Whether the table waits for players: before the first action of its first match, while a person's seat
        has not been taken. Once play has begun, a seat its player left is played by its bot."""
        return (
            self.match_no == 0
            and self.logged == 0
            and any(s.kind == SeatKind.PERSON and s.token_hash is None for s in self.seats)
        )

    @property
    def has_spectator_view(self) -> bool:
        """Whether the game gives a view for spectators (every game of the suite does)."""
        return isinstance(self.info.parts, HasSpectator)

    def public_view(self) -> JsonObject:
        """What a spectator sees now: the game's spectator part (no hidden card), with what it shows beside the
        cards (:func:`clubsuite.present.shown`). Made once per version (the update's events are worded from it, and
        the spectators are sent it): read it, never change it."""
        if self._public is None:
            if not isinstance(self.info.parts, HasSpectator):
                raise ClubsError(f"{self.info.name} has no spectator view")
            self._public = self.info.parts.spectator()
        made = self._public_made
        if made is not None and made[0] == self.version and made[1] is self.match:
            return made[2]
        view = with_shown(self.info, self._public(self.match), self.options)
        self._public_made = (self.version, self.match, view)
        return view

    # -- what clients see ---------------------------------------------------------------------------------
    def seat_names(self) -> list[JsonObject]:
        """Every seat as anyone may see it: kind, name, whether someone is connected, whether a bot plays it."""
        now = time.monotonic()
        bots = self.bot_names()
        out: list[JsonObject] = []
        for s in self.seats:
            row: JsonObject = {
                "seat": s.seat,
                "kind": s.kind,
                "name": s.name if s.kind == SeatKind.PERSON else bots[s.seat],
                "taken": s.kind == SeatKind.BOT or s.token_hash is not None,
                "connected": s.connections > 0,
                "bot_playing": s.kind == SeatKind.BOT or self._bot_plays(s, now),
            }
            if s.kind == SeatKind.BOT:  # "Ada, hard bot": the bot's name, and its level in words beside it
                row["bot"] = s.bot
                row["level"] = level_words(s.bot)
            out.append(row)
        return out

    def summary(self) -> JsonObject:
        """The table as the lobby lists it (public), with its name in words (:mod:`naming`).

        Its host is the person in the lowest-numbered person's seat that is taken now (the creator, where they sat
        first), until they leave it: then the next person's seat taken, or nobody."""
        free = [s.seat for s in self.seats if s.kind == SeatKind.PERSON and s.token_hash is None]
        host = next((s.name for s in self.seats if s.kind == SeatKind.PERSON and s.token_hash is not None), None)
        return {
            "id": self.id,
            "game": self.spec,
            **tabletalk.named(self.info, self.options, host),
            "seats": self.seat_names(),
            "free_seats": free,
            "pool": pool(self.info, self.options),
            "abandoned": self.abandoned,
            "spectators": sum(1 for c in self.connections if c.seat is None),
            "settings": self.settings.to_json(),
            "match_no": self.match_no,
            "version": self.version,
            "over": self.match.is_over,
            "waiting": self.waiting,
        }

    def clock(self) -> JsonValue:
        """The turn clock of the seat to act, when a clock runs: its seat and the seconds left."""
        seat = self.match.to_act
        if self.settings.clock is None or seat is None or self.seats[seat].kind != SeatKind.PERSON:
            return None
        left = self.turn_started + self.settings.clock - time.time()
        return {"seat": seat, "seconds_left": round(max(0.0, left), 3)}

    def _for(self, seat: int | None) -> JsonObject:
        """The part of a state or an update that depends on the receiver: its view and, to act, its legal actions."""
        if seat is None:
            part: JsonObject = {"view": self.public_view(), "legal": None}
        else:
            coached = self.settings.coach and self.seats[seat].kind == SeatKind.PERSON and self.match.to_act == seat
            step = self.lesson_step(seat) if coached else None
            part = tabletalk.seat_part(self.info, self.match, self.options, seat, step)
        if self.settings.turn_based:
            part["turn"] = self.turn(seat)
        return part

    def lesson_step(self, seat: int) -> JsonObject | None:
        """The step of the scripted first hand (:mod:`clubsuite.lesson`) for ``seat``, to act now at a coached
        table: the choice the game's instant heuristic bot makes from the seat's own view (as a hint would, the
        same every time), pointed at and said why; past the steps, in the rest of the first hand, ``{"step": null}``
        (the hand is the player's own now); None after it. Worked out once per version (the instant bot decides in
        microseconds; a searching bot never runs here); a fault in it costs the step, never the table."""
        if self._lesson is not None and self._lesson[0] == self.version:
            return self._lesson[1]
        step: JsonObject | None = None
        rng = tabletalk.hint_rng(self.seed, self.match_no, self.version, seat)  # as a hint's
        try:
            step = tabletalk.lesson_step(self.info, self.match, seat, self.match_no, rng)
        except Exception as exc:  # the kind only: its message may name a card of the seat's
            log.warning("table %s: the lesson's step could not be made (%s)", self.id, type(exc).__name__)
        self._lesson = (self.version, step)
        return step

    def result(self) -> JsonValue:
        """The match's result once it is over (the winning seats, whether it was a draw, the totals), else None."""
        return tabletalk.result(self.match)

    def hands_played(self) -> list[JsonValue]:
        """The account of every complete hand of the match in progress (public: each is settled and its play was on
        the table), for the score sheet of a client that joins late or comes back."""
        return tabletalk.hands_played(self.info, self.match)

    def state(self, seat: int | None, resync: bool = False, hidden: frozenset[str] = frozenset()) -> JsonObject:
        """Everything ``seat`` (None: a spectator) may see now (the chat without the lines of the accounts in
        ``hidden``, which the receiver blocked or muted)."""
        return message(
            "state",
            version=self.version,
            seat=seat,
            resync=resync,
            table=self.summary(),
            to_act=self.match.to_act,
            over=self.over,
            clock=self.clock(),
            hands=self.hands_played(),
            result=self.result(),
            chat=self.chat.history(seat, hidden),
            rulings=rulings(self.info),
            **self._away(seat),
            **self._for(seat),
        )

    def _away(self, seat: int | None) -> JsonObject:
        """A state's ``away`` for ``seat`` (what its player missed, at a turn-based table), its player now having
        seen the table as it is."""
        if seat is None or not self.settings.turn_based:
            return {}
        missed = self.away(seat)
        self.saw(seat)
        return {"away": missed} if missed is not None else {}

    def tell_state(self) -> None:
        """Send every connection the whole state again (after a change that is no action: a rematch, a loss on time,
        a turn-based clock adjourned, resumed or worked out again)."""
        for conn in list(self.connections):
            conn.send(self.state(conn.seat, hidden=conn.hidden))

    def catchup(self, since: int) -> JsonObject | None:
        """The public events after version ``since``, or None when they are no longer kept."""
        if since >= self.version:
            return message("catchup", since=since, updates=[])
        if not self.recent or self.recent[0][0] > since + 1:
            return None
        kept: list[JsonValue] = [
            {"version": v, "events": json.loads(events)} for v, events, _, _ in self.recent if v > since
        ]
        return message("catchup", since=since, updates=kept)

    def post_chat(self, conn: Connection, text: str) -> None:
        """Say ``text`` (normalised and checked already) in the table's chat from ``conn``: a seat's line reaches
        every connection of the table, a spectator's only the spectators; :class:`ProtocolError` ``rate_limited``
        (nothing said) over the chat rate. The line is kept in memory with the table (:class:`ChatRoom`), never
        stored. The speaker's own copy says ``mine`` (a spectator has no other way to know its label)."""
        seat_name = self.seats[conn.seat].name if conn.seat is not None else None
        # who is at the table as the line is said: only their reports of it count toward an automatic mute
        present = {s.user_id for s in self.seats if s.user_id is not None}
        present.update(c.user_id for c in self.connections if c.user_id is not None)
        line = self.chat.say(conn, seat_name, text, frozenset(present))
        if self.on_chat is not None and line["channel"] == "players":
            self.on_chat(self, line, conn.user_id, frozenset(present))
        msg = message("chat", **line)
        for other in list(self.connections):
            if other is conn:
                other.send({**msg, "mine": True})
            elif ChatRoom.reaches(line, other) and not self.chat.hides(line, other):
                other.send(msg)

    def broadcast_presence(self) -> None:
        """Tell everyone who is here."""
        msg = message("presence", version=self.version, seats=self.seat_names(), waiting=self.waiting)
        for conn in self.connections:
            conn.send(msg)

    def _broadcast_update(self, events: str, source: str, seat: int, scored: bool) -> None:
        """Tell every client of the table about the version just committed: the part every client gets (``events``
        already encoded) is encoded once, each seat's own part (its view and legal actions) once per seat, and each
        connection is sent the two joined, as text."""
        extra: JsonObject = {}
        if scored:  # a hand ended: its account, for the score sheet
            played = self.hands_played()
            if played:
                extra["scored"] = played[-1]
        common = message(
            "update",
            version=self.version,
            by={"seat": seat, "source": source},
            to_act=self.match.to_act,
            over=self.over,
            clock=self.clock(),
            seats=self.seat_names(),
            waiting=self.waiting,
            result=self.result(),
            **extra,
        )
        head = joined(encode(common), f'{{"events":{events}}}')
        texts: dict[int | None, str] = {}  # one text per seat, however many connections it has
        for conn in list(self.connections):
            text = texts.get(conn.seat)
            if text is None:
                try:
                    text = texts[conn.seat] = joined(head, encode(self._for(conn.seat)))
                except Exception:  # a fault in a view must not stop the table: that client resyncs
                    log.exception("table %s: the view of seat %s could not be made", self.id, conn.seat)
                    conn.send_close()
                    continue
            conn.send(text)

    # -- changes ------------------------------------------------------------------------------------------
    async def apply(self, seat: int, text: str, version: int, source: str = "seat") -> None:
        """Apply ``seat``'s action ``text`` chosen on ``version``: judged, applied, committed, then told.

        Raises :class:`Refused` (nothing changed) for a stale version, out of turn, an action the rules refuse,
        after the end, or a failed write. The work runs as a task of its own that the caller's cancellation (a
        client gone, a timer replaced) does not stop: once the write is under way, the table always learns how it
        ended, so the match in memory and the log on disk never part.
        """
        await unstoppable(self._timed(seat, text, version, source, time.perf_counter()))

    async def _timed(self, seat: int, text: str, version: int, source: str, started: float) -> None:
        """:meth:`_apply`, then the action counted (``on_action``) from inside the unstoppable task: a bot's move is
        applied from the bot's own timer task, which the table's next timer cancels as the move ends, and an action
        counted by that task would go uncounted."""
        await self._apply(seat, text, version, source)
        if self.on_action is not None:
            self.on_action(source, time.perf_counter() - started)

    async def _apply(self, seat: int, text: str, version: int, source: str) -> None:
        async with self.lock:
            match = self.match
            if self.closed:
                raise Refused("no_table", "the table was closed")
            if version != self.version:
                raise Refused(
                    "stale", f"the table has moved on to version {self.version} (you acted on {version}): look again"
                )
            if match.is_over or self.ended is not None:
                raise Refused("over", "the match is over: no more actions (a rematch starts a new one)")
            if match.to_act != seat:
                raise Refused("not_your_turn", f"it is seat {match.to_act}'s turn, not seat {seat}'s")
            if source == "takeover" and not self._bot_plays(self.seats[seat], time.monotonic()):
                # the player came back while their bot was deciding: the decision is theirs (docs/protocol.md)
                raise Refused("stale", "the seat's player is back: the bot's choice is not played")
            try:
                action = match.parse_action(text)
            except ClubsError as exc:
                raise Refused("illegal", reason_of(exc) or str(exc)) from None
            reason = match.explain(action, seat)
            if reason is not None:
                raise Refused("illegal", reason)
            trial = match.clone()  # changed aside: until the write is done, everyone still sees the table as it was
            try:
                events = trial.apply(action, seat) + advance(trial, self.info, self.seed)
            except ClubsError as exc:
                raise Refused("illegal", reason_of(exc) or str(exc)) from None
            now = time.time()
            row = ActionRow(self.logged, seat, trial.format_action(action), source, now)
            finished = (now, json.dumps(self.record(trial))) if trial.is_over else None
            results = self.outcome(trial, now).write if trial.is_over else None
            if trial.is_over:  # who was at the table when its match ended (a tournament pauses the others)
                self.present_at_end[self.match_no] = frozenset(s.seat for s in self.seats if s.connections > 0)
            try:
                if finished is None:  # in the next group of actions, committed together (``commits``)
                    await self.commits.append(self.id, self.match_no, row)
                else:  # the last action of the match, with its record and results, in its own transaction
                    await self.db(self.store.append_action, self.id, self.match_no, row, finished, results)
            except Exception as exc:
                log.error("table %s: action %d could not be saved: %s", self.id, row.seq, exc)
                raise Refused("server", "the action could not be saved, so it was not played: try again") from None
            self.match, old = trial, self.match
            old.release()  # nobody reads the replaced state again: freed now, not by the cycle collector
            self.logged += 1
            self.version += 1
            self.turn_started = now
            self.adjourned = False  # a move made at an adjourned table goes on with the match
            try:
                _, shown, _, scored = kept = recent(self.version, events, self.info, self.public_view())
                self.recent.append(kept)
                self._broadcast_update(shown, source, seat, scored)
                if self.settings.turn_based:
                    for state in self.seats:
                        if state.connections > 0:
                            self.saw(state.seat)
            finally:
                self.reschedule()  # whatever happens in telling, the table goes on
                self.turned()

    def turned(self) -> None:
        """A turn-based table changed: its clock is written and the player to act reminded (``on_turn``)."""
        if self.on_turn is not None:
            try:
                self.on_turn(self)
            except Exception:  # the clock is put right when the table is next loaded or swept
                log.exception("table %s: its turn-based clock could not be set", self.id)

    def turn(self, seat: int | None) -> JsonValue:
        """The turn-based clock as ``seat`` (None: a spectator) is sent it, or None at a live table."""
        if self.turn_part is None or not self.settings.turn_based:
            return None
        part = self.turn_part(self)
        if part is None:
            return None
        if seat is None:
            return part
        return {**part, "autoplay": seat in self.autoplay}

    async def forfeit(self, seat: int, version: int) -> bool:
        """A turn-based player's clock ran out where its maker chose ``lose``: the match ends now, ``seat``
        finishing last (at a rated table that decides the ratings); its record is the match as it stands (a record
        may end in the middle of a hand: docs/records.md). False where the table moved on meanwhile."""
        return await unstoppable(self._forfeit(seat, version))

    async def _forfeit(self, seat: int, version: int) -> bool:
        async with self.lock:
            match = self.match
            if self.closed or version != self.version or self.over or match.to_act != seat:
                return False
            now = time.time()
            finished = (now, json.dumps(self.record(match)))
            await self.db(
                self.store.finish_match, self.id, self.match_no, finished, self.outcome(match, now, (seat,)).write
            )
            self.ended = {"lost": seat}
            self.present_at_end[self.match_no] = frozenset(s.seat for s in self.seats if s.connections > 0)
            self.tell_state()
            self.reschedule()
            self.turned()
            return True

    async def rematch(self) -> None:
        """Start the next match with the same seats (after the end only)."""
        await unstoppable(self._rematch())

    async def _rematch(self) -> None:
        async with self.lock:
            if self.closed:
                raise Refused("no_table", "the table was closed")
            if not self.over:
                raise Refused("not_over", "a rematch starts only when the match is over")
            match_no = self.match_no + 1
            seed = derive_seed(int.from_bytes(random.SystemRandom().randbytes(8), "big"), match_no)
            row = MatchRow(match_no, seed, time.time(), None, None)
            match, events = start_match(self.info, self.options, match_no, seed)
            await self.db(self.store.start_match, self.id, row)
            self._earlier_actions += self.logged
            self.match.release()
            self.match, self.match_no, self.seed, self.logged = match, match_no, seed, 0
            self.ended = None
            self.adjourned = False
            self.version += 1
            self.turn_started = row.started_at
            self.recent.append(recent(self.version, events, self.info, self.public_view()))
            self.tell_state()
            self.reschedule()
            self.turned()

    def outcome(self, match: SomeMatch, at: float, lost: tuple[int, ...] = ()) -> Outcome:
        """What the results of a match just ended are written from (history, and ratings at a rated table);
        ``lost``: the seats that lost on time (last, whatever their points)."""
        return Outcome(
            self.id,
            self.match_no,
            at,
            self.info.name,
            pool(self.info, self.options),
            self.settings.rated,
            tuple(tuple(t) for t in self.info.teams_of(self.options)),
            match.summary(),
            tuple(SeatAtEnd(s.seat, s.kind, self.seat_name(s), s.user_id, s.bot) for s in self.seats),
            lost,
        )

    def seat_name(self, seat: SeatState) -> str:
        """What a seat was called at the table: its person's name, or its bot's (``Cleo``, as :meth:`seat_names`
        names it); a person's seat never taken, by its number."""
        if seat.kind == SeatKind.PERSON:
            return seat.name or f"seat {seat.seat + 1}"
        return self.bot_names()[seat.seat]

    def bot_names(self) -> dict[int, str]:
        """The name of each bot's seat: the one it was made with (a club night's bot entrant keeps its name from
        table to table), else one chosen from the table (:func:`persona_names`), never like a person's or another
        bot's there."""
        return bot_names_at(self.id, [(s.seat, s.kind, s.name) for s in self.seats])

    def record(self, match: SomeMatch | None = None) -> JsonObject:
        """The record of the match in progress or just ended (seeded: its deals follow from the seed)."""
        seats: list[JsonObject] = []
        for s in self.seats:  # named as the table named them; a bot's seat says which bot it was (``bot``)
            seats.append(
                {"name": self.seat_name(s), "kind": "human"}
                if s.kind == SeatKind.PERSON
                else {"name": self.seat_name(s), "kind": "bot", "bot": s.bot}
            )
        return record_from_match(match or self.match, seats, seed=self.seed, seeded_hands=True)

    # -- timers: bots, the clock, absent players ----------------------------------------------------------
    def _bot_plays(self, seat: SeatState, now: float) -> bool:
        """Whether a bot plays a person's seat now: nobody holds it, or its player has been away past the grace."""
        if seat.kind == SeatKind.BOT:
            return True
        if seat.token_hash is None:
            return not self.waiting  # a seat its player left is played by its bot until someone takes it
        if self.settings.turn_based:
            return False  # a turn-based player away is never replaced: their clock runs (server.turns)
        return seat.connections == 0 and seat.away_since is not None and now - seat.away_since >= self.settings.grace

    def reschedule(self) -> None:
        """Look at who is to act and set the one timer that fits: a bot's move, the end of the turn clock, or the
        end of an absent player's grace period."""
        if self._timer is not None and not self._timer.done():
            self._timer.cancel()
        self._timer = None
        seat_no = self.match.to_act
        if self.over or seat_no is None or self.waiting:
            return
        seat = self.seats[seat_no]
        now = time.monotonic()
        version = self.version
        if self.settings.turn_based:  # bots move at once; a forced move is played where its player asked
            if self._bot_plays(seat, now) or (seat_no in self.autoplay and self._forced()):
                source = "auto" if seat.kind == SeatKind.PERSON and seat.token_hash is not None else "bot"
                self._timer = asyncio.create_task(self._bot_move(seat_no, version, 0.0, source))
            return
        if self._bot_plays(seat, now):
            source = "bot" if seat.kind == SeatKind.BOT or seat.token_hash is None else "takeover"
            # everyone left and nobody watches: there is nobody to show the play to
            pause = 0.0 if self.abandoned and not self.connections else self.settings.bot_delay
            if self.recent and self.recent[-1][0] == version and self.recent[-1][2]:
                pause += min(AFTER_TRICK, 2 * pause)  # a trick or a hand just ended: the table sees who won it
            # counted from the last change, not from now: a timer set again (someone connects, leaves, joins) does
            # not hold the bot back
            delay = max(0.0, self.turn_started + pause - time.time())
            self._timer = asyncio.create_task(self._bot_move(seat_no, version, delay, source))
            return
        waits: list[tuple[float, str]] = []
        if self.settings.clock is not None:
            waits.append((self.turn_started + self.settings.clock - time.time(), "clock"))
        if seat.connections == 0 and seat.away_since is not None:
            waits.append((seat.away_since + self.settings.grace - now, "takeover"))
        if waits:
            delay, source = min(waits)
            self._timer = asyncio.create_task(self._bot_move(seat_no, version, max(0.0, delay), source))

    async def bot_moves(self, seat: int, version: int, source: str) -> None:
        """Let ``seat``'s bot choose and play at once, on ``version`` (a turn-based clock ran out: ``timeout``)."""
        await self._bot_move(seat, version, 0.0, source)

    def moving(self) -> bool:
        """Whether a bot's move (or a forced move played for a seat) is under way or due."""
        return self._timer is not None and not self._timer.done()

    def _forced(self) -> bool:
        """Whether the seat to act has one legal action only."""
        legal = self.match.legal_actions()
        return len(legal) == 1

    async def _bot_move(self, seat_no: int, version: int, delay: float, source: str) -> None:
        """After ``delay``, let the seat's bot choose (an instant bot in a worker thread, a searching one in a worker
        process, on a copy) and apply its choice, unless
        the table moved on or the player came back."""
        await asyncio.sleep(delay)
        if self.version != version:
            return
        seat = self.seats[seat_no]
        if source == "takeover":
            self.broadcast_presence()
        # A published match is never changed (an action is applied to a copy that replaces it), and nobody else
        # can act while a bot seat is to act, so its bot reads the match itself; a person's seat played by its bot
        # may be taken back mid-decision, so that bot reads a copy.
        copy = self.match if seat.kind == SeatKind.BOT else self.match.clone()
        seed = derive_seed(self.seed, self.match_no, version)
        loop = asyncio.get_running_loop()
        try:
            if searches(seat.bot):  # in a worker process, sent a match the seat cannot tell from this one
                view, legal = await loop.run_in_executor(THINKING, imagined, copy, seat_no, seed)
                key = (self.id, self.match_no, version, seat_no)
                action = await self.thinkers.choose(key, seat.bot, self.info.name, view, legal, seed)
            else:
                if seat.player is None:
                    seat.player = make_bot(seat.bot, self.info.name)
                action = await loop.run_in_executor(THINKING, choose, seat.player, copy, seat_no, random.Random(seed))
        except Exception as exc:  # whatever went wrong, the table must go on
            # no more than the kind of failure: a bot's message may name cards (the log is not a player's, but
            # hidden cards stay out of every log)
            log.warning(
                "the %s bot of seat %d at table %s could not decide (%s): the game's instant bot plays instead",
                seat.bot, seat_no, self.id, type(exc).__name__,
            )  # fmt: skip
            instant = make_bot(tabletalk.instant_bot_name(self.info), self.info.name)
            action = await loop.run_in_executor(THINKING, choose, instant, copy, seat_no, random.Random(seed))
        text = copy.format_action(action)
        if copy is not self.match:
            copy.release()
        if self.version != version:
            return
        if source == "takeover" and not self._bot_plays(seat, time.monotonic()):
            return  # the player came back: the decision is theirs again
        with contextlib.suppress(Refused):
            await self.apply(seat_no, text, version, source)

    async def hint(self, seat: int, version: int) -> str:
        """The hint for ``seat`` on ``version``: what the game's heuristic bot (the seat's own bot where the game has
        none) would play, chosen from the seat's own view in a worker thread on a copy. Refused where the table gives
        no hints, on a stale version, out of turn and after the end."""
        if not self.settings.hints:
            raise Refused("no_hints", "this table gives no hints (its creator switched them off)")
        if version != self.version:
            raise Refused("stale", f"the table has moved on to version {self.version} (you asked on {version})")
        match = self.match
        if match.is_over:
            raise Refused("over", "the match is over: there is nothing to hint")
        if match.to_act != seat:
            raise Refused("not_your_turn", f"it is seat {match.to_act}'s turn, not seat {seat}'s")
        copy = match.clone()
        rng = tabletalk.hint_rng(self.seed, self.match_no, version, seat)
        try:
            return await asyncio.get_running_loop().run_in_executor(
                THINKING, tabletalk.hint, self.info, copy, seat, self.seats[seat].bot, rng
            )
        finally:
            copy.release()

    def stop(self) -> None:
        """Cancel the table's timer (the server is stopping)."""
        if self._timer is not None:
            self._timer.cancel()


def bot_names_at(table_id: str, seats: list[tuple[int, str, str | None]]) -> dict[int, str]:
    """The name of each bot's seat of table ``table_id`` from its seats' (seat, kind, name): the one it was made with,
    else one chosen from the table (:func:`persona_names`), never like a person's or another bot's there (a table
    in memory, and one read from the database alike)."""
    named = {seat: name for seat, kind, name in seats if kind == SeatKind.BOT and name}
    people = [name for _, kind, name in seats if kind == SeatKind.PERSON and name] + list(named.values())
    unnamed = [seat for seat, kind, name in seats if kind == SeatKind.BOT and not name]
    return {**persona_names(table_id, unnamed, people), **named}


async def unstoppable(work: Coroutine[Any, Any, T]) -> T:
    """Run ``work`` as a task of its own and wait for it: cancelling the caller does not stop it (a change that
    has begun writing always finishes, in memory as on disk)."""
    task = asyncio.create_task(work)
    task.add_done_callback(_retrieved)
    return await asyncio.shield(task)


def _retrieved(task: asyncio.Task[Any]) -> None:
    """Take a finished change's outcome, so that a refusal nobody waited for is not reported as lost."""
    if not task.cancelled():
        task.exception()
