"""Tournaments: arenas and Swiss tournaments, made by any account or scheduled by the operator, entered by accounts,
paired and scored by :mod:`.pairing` and :mod:`.standings`, directed by :mod:`.directing`.

An *arena* runs for a fixed time: whoever is free is seated again as soon as their table ends, with people of like
rating; points by finishing place, doubled on a streak. A *Swiss* tournament plays rounds: everyone is seated each
round with people of like score whom they have not met. Both may fill a short table with bots (their seats score for
nobody) and may be rated (their tables count for ratings like any rated table). A tournament starts at its set time,
or when its host starts it; people enter before it starts and, in an arena or before a Swiss tournament's last
round, while it runs (late entrants start from nothing); they may withdraw (an arena's are paused: their points stay
and they may come back).

This module keeps the tournaments' rows: making one, entering, withdrawing, what anyone sees of one (its settings,
status and standings) and the list the lobby shows. Every change that its watchers should see grows the tournament's
``version``: a watcher compares versions and never the order messages came in (``community.watching``).

What stays private: tournament tables are private (their invite codes are never shown) and an entrant's seat token
is handed to that entrant only, by the account's session (``GET /tournaments/{id}/seat``).
"""

from __future__ import annotations

import asyncio
import csv
import io
import json
import math
import secrets
import time
import unicodedata
from dataclasses import asdict, dataclass, field
from typing import Literal, get_args

from sqlalchemy import func, insert, select, update
from sqlalchemy.engine import Connection

from clubsuite.bots.base import bot_names
from clubsuite.bots.levels import searches
from clubsuite.engine import resolve
from clubsuite.errors import InvalidOptionsError
from clubsuite.jsonform import JsonObject
from clubsuite.options import spec_of, split_spec
from clubsuite.ratings import pool, shown
from clubsuite.server.community.standings import Played, Row, arena_standings, swiss_standings
from clubsuite.server.decency import check as check_words
from clubsuite.server.people.accounts import User
from clubsuite.server.store import players
from clubsuite.server.store.database import StoredRow, lock_account
from clubsuite.server.store.dbschema import (
    TournamentFormat,
    TournamentStatus,
    match_players,
    tournament_entrants,
    tournament_tables,
    tournaments,
    users,
)
from clubsuite.server.store.handle import Database
from clubsuite.server.table.hub import Hub
from clubsuite.server.table.live import Refused
from clubsuite.server.table.settings import TableSettings
from clubsuite.server.tokens import new_id

FORMATS = (TournamentFormat.ARENA, TournamentFormat.SWISS)
"""The formats this module keeps (a club night is :mod:`.clubnight`'s)."""
TournamentUnit = Literal["hand", "short", "match"]
UNITS: tuple[TournamentUnit, ...] = get_args(TournamentUnit)
"""What each of a tournament's tables plays: one hand, a short match or a whole match (the game's own lengths of play,
:attr:`clubsuite.engine.GameInfo.units`; ``match`` always)."""
MINUTES_RANGE = (5, 240)
"""An arena lasts 5 minutes to 4 hours."""
ROUNDS_RANGE = (1, 15)
"""A Swiss tournament has 1 to 15 rounds."""
ENTRANTS_MAX = 1000
"""Entrants one tournament holds."""
OPEN_PER_HOST = 3
"""Tournaments an account may have made that are not over."""
MADE_PER_DAY = 6
"""Tournaments an account may make in a day (any 24 hours)."""
LISTED_LIVE = 100
"""Tournaments not over that the lobby's list shows: the site's own (the operator's, scheduled) first, all of them up
to this, then the others running, then those that start soonest, then those waiting for their hosts."""
TITLE_MAX = 60
"""Characters of a tournament's name."""
AHEAD_MAX = 30 * 24 * 3600.0
"""How far ahead a tournament may be set to start: 30 days."""
LISTED_OVER = 10
"""Finished tournaments the lobby's list shows (the latest)."""
STANDINGS_KEPT = 256
"""Tournaments whose worked-out standings a process keeps (those worked out least recently go first)."""
SEARCHING_KEPT = 10000
"""Tournaments with searching bots whose maker's address a process keeps, to count them against it."""
PAGE = 20
"""Rows of the standings a page (and each push to watchers) carries."""


@dataclass(frozen=True)
class TournamentSettings:
    """What a tournament's maker chooses; checked by :meth:`read`."""

    format: str
    spec: str
    name: str
    minutes: int = 0
    """An arena's length."""
    rounds: int = 0
    """A Swiss tournament's rounds."""
    rated: bool = False
    bots: bool = True
    """Whether bots fill a table that would be short (their seats score for nobody)."""
    bot: str = "normal"
    bot_delay: float = 0.5
    starts_at: float | None = None
    """When it starts by itself (None: when its host starts it)."""
    unit: TournamentUnit = "match"
    """What each table plays (:data:`UNITS`); a tournament kept before there was a choice played whole matches."""

    @classmethod
    def read(
        cls,
        format: str,
        game: str,
        name: object = None,
        minutes: int | None = None,
        rounds: int | None = None,
        rated: bool = False,
        bots: bool = True,
        bot: str = "normal",
        bot_delay: float = 0.5,
        starts_at: float | None = None,
        now: float | None = None,
        unit: str | None = None,
    ) -> TournamentSettings:
        """Checked settings (:class:`InvalidOptionsError` naming the one out of bounds). Without a ``unit``, an arena's
        tables play one hand and a Swiss tournament's a short match, where the game has them and ``game`` does not set
        their options itself (a game given with its own target plays as written); a rated one's play whole matches,
        the only unit it may have (a rating pool rates whole matches)."""
        if format not in FORMATS:
            raise InvalidOptionsError(f"format={format!r}: a tournament is one of {', '.join(FORMATS)}")
        info, options = resolve(game)
        spec = spec_of(info.name, options)
        title = check_title(name) if name is not None else None
        if format == TournamentFormat.ARENA:
            minutes = 30 if minutes is None else minutes
            if rounds is not None:
                raise InvalidOptionsError("rounds: an arena has no rounds (it lasts minutes)")
            if not MINUTES_RANGE[0] <= minutes <= MINUTES_RANGE[1]:
                raise InvalidOptionsError(
                    f"minutes={minutes}: an arena lasts {MINUTES_RANGE[0]} to {MINUTES_RANGE[1]} minutes"
                )
        else:
            rounds = 5 if rounds is None else rounds
            if minutes is not None:
                raise InvalidOptionsError("minutes: a Swiss tournament has rounds, not a length in minutes")
            if not ROUNDS_RANGE[0] <= rounds <= ROUNDS_RANGE[1]:
                raise InvalidOptionsError(
                    f"rounds={rounds}: a Swiss tournament has {ROUNDS_RANGE[0]} to {ROUNDS_RANGE[1]} rounds"
                )
        units = [u for u in UNITS if u == "match" or u in info.units]
        chosen: TournamentUnit
        if unit is None:  # the kind's default, unless the spec itself sets what it would (say, the target)
            chosen = "hand" if format == TournamentFormat.ARENA else "short"
            chosen = chosen if chosen in units else "match"
            if chosen != "match" and set(split_spec(game)[1]) & set(info.units[chosen].options):
                chosen = "match"
        else:
            asked = next((u for u in units if u == unit), None)
            if asked is None:
                raise InvalidOptionsError(
                    f"unit={unit!r}: a table of {info.name} in a tournament plays {', '.join(units)}"
                )
            if rated and asked != "match":  # a rating pool rates whole matches: one hand or a short one would skew it
                raise InvalidOptionsError(
                    f"unit={unit!r}: a rated tournament's tables play whole matches (unit='match'); "
                    "choose rated=false to play shorter tables"
                )
            chosen = asked
        if rated:
            chosen = "match"  # ratings are for whole matches, whatever the kind's default
        known = bot_names(info.name)
        if bot not in known:
            raise InvalidOptionsError(f"bot={bot!r}: the bots of {info.name} are {', '.join(known)}")
        TableSettings(bot_delay=bot_delay, rated=rated)  # checked as any table's
        if starts_at is not None:
            now = time.time() if now is None else now
            if not math.isfinite(starts_at) or not now <= starts_at <= now + AHEAD_MAX:
                raise InvalidOptionsError("starts_at: a tournament starts between now and 30 days from now")
        default = f"{info.name} {format}"
        return cls(
            format,
            spec,
            title or default,
            minutes or 0,
            rounds or 0,
            rated,
            bots,
            bot,
            bot_delay,
            starts_at,
            chosen,
        )

    def to_json(self) -> str:
        """The settings as stored."""
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> TournamentSettings:
        """The settings as stored."""
        return cls(**json.loads(text))

    def table_settings(self) -> TableSettings:
        """The house rules of its tables: private (a tournament's tables are reached through it), rated or not. Only a
        whole match is rated (its pool rates whole matches): a rated tournament kept with a shorter unit (made before
        that was refused) plays its tables unrated."""
        rated = self.rated and self.unit == "match"
        return TableSettings(public=False, spectators=True, rated=rated, bot_delay=self.bot_delay)

    def table_spec(self) -> str:
        """The rules spec of its tables: the tournament's, with its unit's option values over them (a short match is
        the game with a lower target)."""
        info, _ = resolve(self.spec)
        found = info.units.get(self.unit)
        if found is None:
            return self.spec
        name, values = split_spec(self.spec)
        values.update(found.options)
        info, options = resolve(f"{name}({','.join(f'{k}={v}' for k, v in values.items())})")
        return spec_of(info.name, options)

    def unit_minutes(self) -> float:
        """About how long one of its tables takes people (0: not known)."""
        info, _ = resolve(self.spec)
        found = info.units.get(self.unit)
        return found.minutes if found is not None else info.match_minutes

    def seats(self) -> int:
        """Seats at each of its tables."""
        info, options = resolve(self.spec)
        return info.n_seats(options)

    def teams(self) -> tuple[tuple[int, ...], ...]:
        """Its game's partnerships, as seat tuples."""
        info, options = resolve(self.spec)
        return tuple(tuple(t) for t in info.teams_of(options))

    def pool(self) -> str:
        """The rating pool its entrants are paired by."""
        info, options = resolve(self.spec)
        return pool(info, options)


def check_title(name: object) -> str:
    """A tournament's name made tidy (compatibility forms folded, spaces collapsed), or :class:`InvalidOptionsError`:
    1 to :data:`TITLE_MAX` characters, letters, digits, spaces and common punctuation, nothing unprintable."""
    if not isinstance(name, str):
        raise InvalidOptionsError("name: a tournament's name must be text")
    tidy = " ".join(unicodedata.normalize("NFKC", name).split())
    if not 1 <= len(tidy) <= TITLE_MAX:
        raise InvalidOptionsError(f"name: a tournament's name has 1 to {TITLE_MAX} characters (got {len(tidy)})")
    for ch in tidy:
        if not (ch.isalnum() or ch in " -_.,'!?&()#:/+") or unicodedata.category(ch).startswith("C"):
            raise InvalidOptionsError(
                f"name: a tournament's name holds letters, digits, spaces and - _ . , ' ! ? & ( ) # : / + (not {ch!a})"
            )
    check_words(tidy, "name: a tournament's name")
    return tidy


@dataclass
class Entrant:
    """An entrant as the director and the standings read one."""

    id: str
    user_id: str | None
    name: str
    rating: int
    active: bool
    byes: int
    joined_at: float


@dataclass
class TableRow:
    """A table a tournament seated."""

    table_id: str
    round: int
    seats: tuple[str | None, ...]
    started_at: float
    finished_at: float | None
    places: tuple[int, ...] | None
    counted: bool
    won: tuple[int, ...] | None = None
    """The seats its table named as winners (``server/people/results``), once it ended (None: not read)."""


@dataclass
class _Standing:
    """A tournament's standings and entrants as worked out at one version."""

    version: int
    rows: list[Row]
    entrants: dict[str, Entrant]
    by_user: dict[str, str]
    row_of: dict[str, Row] = field(default_factory=dict)

    def line(self, user_id: str) -> JsonObject | None:
        """An account's own line (None: not an entrant)."""
        entrant = self.by_user.get(user_id)
        if entrant is None:
            return None
        if not self.row_of:  # made once per version: every watcher's line is then a look-up
            self.row_of.update((r.entrant, r) for r in self.rows)
        return _row_json(self.row_of[entrant], self.entrants[entrant])


@dataclass
class Tournament:
    """A tournament's row."""

    id: str
    host_id: str | None
    settings: TournamentSettings
    state: JsonObject
    status: str
    starts_at: float | None
    ends_at: float | None
    created_at: float
    version: int


class Tournaments:
    """The tournaments of one server (their state in the store)."""

    def __init__(self, database: Database, hub: Hub) -> None:
        self.database = database
        """The tournaments' rows."""
        self.hub = hub
        """The tables: those a tournament's maker holds count against its address (:meth:`Hub.searching_tables`)."""
        self._standings: dict[str, _Standing] = {}
        """Each tournament's standings as last worked out, by its version (worked out once per version)."""
        self._searching: dict[str, str] = {}
        """The tournaments with searching bots made here, and the address each was made from (gone once over)."""

    # -- reading ------------------------------------------------------------------------------------------------
    async def load(self, tournament_id: str) -> Tournament:
        """A tournament's row (:class:`Refused` ``no_tournament`` when there is none)."""
        rows = await self.database.read(
            select(tournaments).where(tournaments.c.id == tournament_id, tournaments.c.format.in_(FORMATS)),
        )
        if not rows:  # a club night is another format, kept by its own routes
            raise Refused("no_tournament", "there is no such tournament")
        return _tournament(rows[0])

    async def entrants(self, tournament_id: str) -> list[Entrant]:
        """Its entrants, in the order they entered; one whose account was deleted since is not active (never seated
        again: its seats would be played by bots under a name the account no longer holds)."""
        rows = await self.database.read(
            select(tournament_entrants, users.c.deleted_at)
            .outerjoin(users, users.c.id == tournament_entrants.c.user_id)
            .where(tournament_entrants.c.tournament_id == tournament_id)
            .order_by(tournament_entrants.c.joined_at, tournament_entrants.c.entrant),
        )
        return [
            Entrant(r.entrant, r.user_id, r.name, r.rating, r.active and r.deleted_at is None, r.byes, r.joined_at)
            for r in rows
        ]

    async def tables(self, tournament_id: str, playing: bool = False) -> list[TableRow]:
        """The tables it seated (``playing``: those whose match has not ended), in the order they started."""
        query = select(tournament_tables).where(tournament_tables.c.tournament_id == tournament_id)
        if playing:
            query = query.where(tournament_tables.c.finished_at.is_(None))
        query = query.order_by(tournament_tables.c.started_at, tournament_tables.c.table_id)

        def work(conn: Connection) -> list[TableRow]:
            rows = conn.execute(query).all()
            ended = [r.table_id for r in rows if r.places is not None]
            won: dict[str, list[int]] = {}
            for i in range(0, len(ended), 500):  # the winners the tables named, as their pages said
                for w in conn.execute(
                    select(match_players.c.table_id, match_players.c.seat, match_players.c.won).where(
                        match_players.c.table_id.in_(ended[i : i + 500]), match_players.c.match_no == 0
                    )
                ):
                    seats = won.setdefault(w.table_id, [])
                    if w.won:
                        seats.append(w.seat)
            # A table with its players' rows names its winners (none: a draw); one kept without them (ended before
            # its winners were read, or its rows gone) gets None, so a first place alone counts as the win.
            return [_table_row(r, tuple(sorted(won[r.table_id])) if r.table_id in won else None) for r in rows]

        found: list[TableRow] = await self.database.reading(work)
        return found

    async def seat_of(self, tournament_id: str, user_id: str) -> JsonObject:
        """The table the account plays at now in the tournament, from the store (so any process answers):
        ``{"tournament", "table", "seat", "round"}``, or ``{"tournament", "table": None}`` between tables. No token:
        the page asks the table for one (``POST /tables/{id}/seat``)."""
        mine = await self.database.read(
            select(tournament_entrants.c.entrant).where(
                tournament_entrants.c.tournament_id == tournament_id, tournament_entrants.c.user_id == user_id
            ),
        )
        if mine:
            entrant = mine[0].entrant
            for x in reversed(await self.tables(tournament_id, playing=True)):
                if entrant in x.seats:
                    return {
                        "tournament": tournament_id,
                        "table": x.table_id,
                        "seat": x.seats.index(entrant),
                        "round": x.round,
                    }
        return {"tournament": tournament_id, "table": None}

    async def of_table(self, table_id: str) -> JsonObject:
        """The tournament a table was seated for (``tournament_tables``), from the store so that any process
        answers: ``{"table", "tournament": {"id", "format"}}``, the format ``clubnight`` for a club night's table;
        ``"tournament": None`` alike for a table of no tournament and an id no table has (tournament tables are
        public, and no other table is told apart from a made-up id)."""
        rows = await self.database.read(
            select(tournament_tables.c.tournament_id, tournaments.c.format)
            .join(tournaments, tournaments.c.id == tournament_tables.c.tournament_id)
            .where(tournament_tables.c.table_id == table_id)
            .order_by(tournament_tables.c.started_at)
            .limit(1),
        )
        found = {"id": rows[0].tournament_id, "format": rows[0].format} if rows else None
        return {"table": table_id, "tournament": found}

    async def standings(self, t: Tournament) -> list[Row]:
        """The standings at its present version (worked out once per version)."""
        return (await self._worked_out(t)).rows

    async def _worked_out(self, t: Tournament) -> _Standing:
        """The standings and entrants at ``t``'s version, read and worked out once per version."""
        kept = self._standings.get(t.id)
        if kept is not None and kept.version == t.version:
            return kept
        entrants = await self.entrants(t.id)
        played = await self.tables(t.id)
        rows = await asyncio.to_thread(standings_of, t.settings, entrants, played)  # off the event loop
        by_id = {e.id: e for e in entrants}
        kept = _Standing(t.version, rows, by_id, {e.user_id: e.id for e in entrants if e.user_id is not None})
        self._standings.pop(t.id, None)
        self._standings[t.id] = kept  # the newest last: the least recently worked out go first
        while len(self._standings) > STANDINGS_KEPT:
            del self._standings[next(iter(self._standings))]
        return kept

    async def view(self, tournament_id: str, user: User | None = None, page: int = 0) -> JsonObject:
        """What anyone sees of a tournament: its settings, status, times, entrants' count, a page of the standings
        (names, places, points, no table ids or tokens), and, for a signed-in entrant, their own line and state."""
        t = await self.load(tournament_id)
        worked = await self._worked_out(t)
        out = summary(t, len(worked.entrants))
        rows = worked.rows
        out["standings"] = [_row_json(r, worked.entrants[r.entrant]) for r in rows[page * PAGE : (page + 1) * PAGE]]
        out["page"] = page
        out["pages"] = max(1, math.ceil(len(rows) / PAGE))
        out["now"] = time.time()  # the server's clock: a page counts the time left with it, not its own
        if user is not None:
            me = worked.line(user.id)
            if me is not None:
                out["me"] = me
            out["host"] = t.host_id == user.id
        return out

    async def line_of(self, tournament_id: str, version: int, user_id: str) -> JsonObject | None:
        """An account's own line in a tournament's standings at ``version`` (None: not an entrant), from what the
        last view of that version worked out (read afresh when it was another version)."""
        kept = self._standings.get(tournament_id)
        if kept is None or kept.version != version:
            kept = await self._worked_out(await self.load(tournament_id))
        return kept.line(user_id)

    async def listing(self, now: float | None = None) -> list[JsonObject]:
        """The lobby's list: tournaments not over (the site's own first, then running, then soonest, those without a
        start time last; :data:`LISTED_LIVE`) and the latest finished ones."""

        def work(conn: Connection) -> list[JsonObject]:
            counts = (
                select(tournament_entrants.c.tournament_id, func.count().label("n"))
                .group_by(tournament_entrants.c.tournament_id)
                .subquery()
            )
            joined = tournaments.outerjoin(counts, counts.c.tournament_id == tournaments.c.id)
            order = (  # running first, then by start time, those without one (their hosts start them) last
                tournaments.c.status.desc(),
                tournaments.c.starts_at.is_(None),
                tournaments.c.starts_at,
                tournaments.c.created_at,
                tournaments.c.id,
            )
            live = (
                select(tournaments, counts.c.n).select_from(joined).where(tournaments.c.status != TournamentStatus.OVER)
            )
            own = conn.execute(live.where(tournaments.c.host_id.is_(None)).order_by(*order).limit(LISTED_LIVE)).all()
            others = conn.execute(
                live.where(tournaments.c.host_id.is_not(None)).order_by(*order).limit(LISTED_LIVE - len(own))
            ).all()
            over = conn.execute(
                select(tournaments, counts.c.n)
                .select_from(joined)
                .where(tournaments.c.status == TournamentStatus.OVER)
                .order_by(tournaments.c.ends_at.desc())
                .limit(LISTED_OVER)
            ).all()
            return [listed(r, r.n or 0) for r in [*own, *others, *over]]

        return await self.database.reading(work)

    # -- changing -----------------------------------------------------------------------------------------------
    async def create(self, host: User | None, settings: TournamentSettings, address: str | None = None) -> str:
        """A new tournament made by ``host`` (None: the operator's) from ``address``; its id. An account may have
        :data:`OPEN_PER_HOST` tournaments that are not over and make :data:`MADE_PER_DAY` a day; a tournament whose
        bots search counts against its address's share of tables with searching bots (:meth:`_searching_share`)."""
        now = time.time()
        searching = settings.bots and searches(settings.bot) and address is not None
        placeholder = f"making:{secrets.token_hex(8)}"
        if searching and address is not None:
            await self._searching_share(address, placeholder)

        def work(conn: Connection) -> str:
            if host is not None:
                lock_account(conn, host.id)  # one tournament made by the account at a time: OPEN_PER_HOST holds
                mine = conn.execute(
                    select(func.count())
                    .select_from(tournaments)
                    .where(
                        tournaments.c.host_id == host.id,
                        tournaments.c.status != TournamentStatus.OVER,
                        tournaments.c.format.in_(FORMATS),
                    )
                ).scalar_one()
                if mine >= OPEN_PER_HOST:
                    raise Refused(
                        "too_many_tournaments",
                        f"you have {mine} tournaments that are not over, the most you may have: wait for one to end",
                    )
                today = conn.execute(
                    select(func.count())
                    .select_from(tournaments)
                    .where(
                        tournaments.c.host_id == host.id,
                        tournaments.c.created_at > now - 24 * 3600.0,
                        tournaments.c.format.in_(FORMATS),
                    )
                ).scalar_one()
                if today >= MADE_PER_DAY:
                    raise Refused(
                        "too_many_today",
                        f"you have made {today} tournaments in the last 24 hours, the most an account may: "
                        "make the next one tomorrow",
                    )
            return new_tournament(conn, host.id if host is not None else None, settings, now)

        try:
            made: str = await self.database.write(work)
        finally:
            self._searching.pop(placeholder, None)
        if searching and address is not None:
            self._searching[made] = address
            while len(self._searching) > SEARCHING_KEPT:  # the oldest go first (most are over long since)
                del self._searching[next(iter(self._searching))]
        return made

    def searching_address(self, tournament_id: str) -> str | None:
        """The address a tournament with searching bots was made from, where this process made it (None
        elsewhere, and for the operator's): its tables with searching bots count against that address."""
        return self._searching.get(tournament_id)

    async def _searching_share(self, address: str, placeholder: str) -> None:
        """Refuse (``too_many_tables``) a tournament with searching bots from an address that has as many tables with
        searching bots open (its own and its tournaments'), and such tournaments not over or being made, as one
        address may have (``ServerLimits.search_tables_per_address``); otherwise hold its place under
        ``placeholder`` until it is written. The count and the place held follow one another with nothing awaited
        between, so requests made at once are counted one after another. Counted in this process, like the tables
        (addresses are never stored)."""
        mine = [made for made, at in self._searching.items() if at == address and not made.startswith("making:")]
        if mine:
            rows = await self.database.read(
                select(tournaments.c.id).where(
                    tournaments.c.id.in_(mine), tournaments.c.status != TournamentStatus.OVER
                ),
            )
            live = {r.id for r in rows}
            for made in mine:
                if made not in live:
                    self._searching.pop(made, None)
        # from here to the place held, nothing is awaited
        held = sum(1 for at in self._searching.values() if at == address) + self.hub.searching_tables(address)
        if held >= self.hub.limits.search_tables_per_address:
            raise Refused(
                "too_many_tables",
                f"your address already has {held} tables or tournaments with searching bots (hard, expert, pimc, "
                "ismcts), the most it may have: give this tournament instant bots, or wait until one of those ends",
            )
        self._searching[placeholder] = address

    async def join(self, tournament_id: str, user: User) -> None:
        """Enter (or, withdrawn, come back to) a tournament as ``user``: before it starts, or while an arena runs or
        before a Swiss tournament's last round; paired by the account's rating in the tournament's pool."""
        t = await self.load(tournament_id)
        skill = await players.skill_of(self.database, f"user:{user.id}", t.settings.pool())
        rating = shown(skill)[0]
        now = time.time()

        def work(conn: Connection) -> None:
            row = _locked(conn, tournament_id)
            if row.status == TournamentStatus.OVER:
                raise Refused("over", "this tournament is over")
            state = json.loads(row.state)
            settings = TournamentSettings.from_json(row.settings)
            if settings.format == TournamentFormat.SWISS and state.get("round", 0) >= settings.rounds:
                raise Refused("last_round", "the last round of this tournament has begun: entries are closed")
            found = conn.execute(
                select(tournament_entrants.c.entrant, tournament_entrants.c.active).where(
                    tournament_entrants.c.tournament_id == tournament_id, tournament_entrants.c.user_id == user.id
                )
            ).first()
            if found is not None:
                if found.active:
                    raise Refused("already_entered", "you have entered this tournament already")
                conn.execute(
                    update(tournament_entrants)
                    .where(
                        tournament_entrants.c.tournament_id == tournament_id,
                        tournament_entrants.c.entrant == found.entrant,
                    )
                    .values(active=True, joined_at=now)
                )
            else:
                count = conn.execute(
                    select(func.count())
                    .select_from(tournament_entrants)
                    .where(tournament_entrants.c.tournament_id == tournament_id)
                ).scalar_one()
                if count >= ENTRANTS_MAX:
                    raise Refused("full", f"this tournament has {ENTRANTS_MAX} entrants, the most it holds")
                conn.execute(
                    insert(tournament_entrants).values(
                        tournament_id=tournament_id,
                        entrant=new_id(6),
                        user_id=user.id,
                        name=user.name,
                        token_hash=None,
                        bot=None,
                        rating=rating,
                        joined_at=now,
                        active=True,
                        byes=0,
                    )
                )
            _bump(conn, tournament_id)

        await self.database.write(work)

    async def withdraw(self, tournament_id: str, user: User) -> None:
        """Withdraw ``user`` (an arena's entrant is paused: their points stay, and joining again brings them back);
        the table they sit at plays on (their seat is theirs until it ends)."""

        def work(conn: Connection) -> None:
            row = _locked(conn, tournament_id)
            if row.status == TournamentStatus.OVER:
                raise Refused("over", "this tournament is over")
            done = conn.execute(
                update(tournament_entrants)
                .where(
                    tournament_entrants.c.tournament_id == tournament_id,
                    tournament_entrants.c.user_id == user.id,
                    tournament_entrants.c.active.is_(True),
                )
                .values(active=False)
            ).rowcount
            if not done:
                raise Refused("not_entered", "you are not playing in this tournament")
            _bump(conn, tournament_id)

        await self.database.write(work)

    async def start(self, tournament_id: str, user: User) -> None:
        """Its host starts it now (its director pairs it at its next round of work)."""

        def work(conn: Connection) -> None:
            row = _locked(conn, tournament_id)
            if row.host_id != user.id:
                raise Refused("not_host", "only the tournament's host starts it")
            if row.status != TournamentStatus.OPEN:
                raise Refused("started", "this tournament has started already")
            conn.execute(update(tournaments).where(tournaments.c.id == tournament_id).values(starts_at=time.time()))
            _bump(conn, tournament_id)

        await self.database.write(work)

    async def csv(self, tournament_id: str) -> str:
        """The whole standings as CSV (place, name, points, tables, wins and the format's tie-break)."""
        t = await self.load(tournament_id)
        rows = await self.standings(t)
        names = {e.id: e.name for e in await self.entrants(t.id)}
        out = io.StringIO()
        writer = csv.writer(out)
        tie = "performance" if t.settings.format == TournamentFormat.ARENA else "buchholz"
        writer.writerow(["place", "name", "points", "tables", "wins", tie, "rating"])
        for r in rows:
            name = names[r.entrant]
            if name[:1] in ("=", "+", "-", "@"):  # never a formula in a spreadsheet
                name = "'" + name
            writer.writerow([r.place, name, r.score, r.tables, r.wins, getattr(r, tie), r.rating])
        return out.getvalue()

    async def standings_json(self, tournament_id: str) -> JsonObject:
        """The whole standings as JSON (the download)."""
        t = await self.load(tournament_id)
        rows = await self.standings(t)
        entrants = {e.id: e for e in await self.entrants(t.id)}
        return {**summary(t, len(entrants)), "standings": [_row_json(r, entrants[r.entrant]) for r in rows]}


def new_tournament(conn: Connection, host_id: str | None, settings: TournamentSettings, now: float) -> str:
    """Keep a new tournament (``host_id`` None: the operator's, scheduled) in the caller's transaction; its id."""
    tournament_id = new_id()
    conn.execute(
        insert(tournaments).values(
            id=tournament_id,
            format=settings.format,
            host_id=host_id,
            name=settings.name,
            spec=settings.spec,
            settings=settings.to_json(),
            state=json.dumps({"round": 0}),
            status=TournamentStatus.OPEN,
            starts_at=settings.starts_at,
            ends_at=None,
            created_at=now,
            version=1,
        )
    )
    return tournament_id


def standings_of(settings: TournamentSettings, entrants: list[Entrant], played: list[TableRow]) -> list[Row]:
    """The standings of a tournament from its entrants and tables (the counted ones, in the order they ended)."""
    teams = settings.teams()
    games = [
        Played(t.seats, t.places, teams, t.round, t.won)
        for t in sorted(played, key=lambda t: (t.finished_at or 0.0, t.table_id))
        if t.counted and t.places is not None
    ]
    ratings_of = {e.id: e.rating for e in entrants}
    if settings.format == TournamentFormat.ARENA:
        return arena_standings(ratings_of, games)
    sides = len(Played((None,) * settings.seats(), (1,) * settings.seats(), teams).sides())
    return swiss_standings(ratings_of, games, {e.id: e.byes for e in entrants if e.byes}, bye_points=sides - 1)


def summary(t: Tournament, entrants: int) -> JsonObject:
    """A tournament as lists show it."""
    s = t.settings
    return {
        "id": t.id,
        "format": s.format,
        "name": s.name,
        "game": s.spec,
        "minutes": s.minutes or None,
        "rounds": s.rounds or None,
        "round": t.state.get("round", 0),
        "rated": s.rated,
        "bots": s.bots,
        "bot": s.bot,
        "unit": s.unit,
        "unit_minutes": s.unit_minutes(),
        "status": t.status,
        "finishing": bool(t.state.get("finishing")) and t.status == TournamentStatus.RUNNING,
        "cancelled": bool(t.state.get("cancelled")),
        "starts_at": t.starts_at,
        "ends_at": t.ends_at,
        "entrants": entrants,
        "scheduled": t.host_id is None,
        "version": t.version,
    }


def listed(row: StoredRow, entrants: int) -> JsonObject:
    """A tournament row of any format as the lobby's list shows it: what every format has (its settings read for
    the length or the rounds where it has them), so that a format kept elsewhere (the club nights) is listed too."""
    settings = json.loads(row.settings)
    state = json.loads(row.state)
    return {
        "id": row.id,
        "format": row.format,
        "name": row.name,
        "game": row.spec,
        "minutes": settings.get("minutes") or None,
        "rounds": settings.get("rounds") or None,
        "round": state.get("round", 0),
        "rated": bool(settings.get("rated", False)),
        "unit": settings.get("unit", "match"),
        "status": row.status,
        "starts_at": row.starts_at,
        "ends_at": row.ends_at,
        "entrants": entrants,
        "scheduled": row.host_id is None,
        "version": row.version,
    }


def _row_json(row: Row, entrant: Entrant) -> JsonObject:
    return {
        "place": row.place,
        "name": entrant.name,
        "rating": row.rating,
        "points": row.score,
        "tables": row.tables,
        "wins": row.wins,
        "fire": row.fire,
        "performance": row.performance,
        "buchholz": row.buchholz,
        "byes": row.byes,
        "results": row.results[-12:],
        "active": entrant.active,
    }


def _tournament(row: StoredRow) -> Tournament:
    return Tournament(
        row.id,
        row.host_id,
        TournamentSettings.from_json(row.settings),
        json.loads(row.state),
        row.status,
        row.starts_at,
        row.ends_at,
        row.created_at,
        row.version,
    )


def _table_row(r: StoredRow, won: tuple[int, ...] | None = None) -> TableRow:
    return TableRow(
        r.table_id,
        r.round,
        tuple(json.loads(r.seats)),
        r.started_at,
        r.finished_at,
        tuple(json.loads(r.places)) if r.places is not None else None,
        r.counted,
        won,
    )


def _locked(conn: Connection, tournament_id: str) -> StoredRow:
    """The tournament's row, held until the transaction ends (``FOR UPDATE`` on PostgreSQL; SQLite writes one
    transaction at a time), so that changes made at once are made one after the other."""
    found = select(tournaments).where(tournaments.c.id == tournament_id, tournaments.c.format.in_(FORMATS))
    row = conn.execute(found.with_for_update()).first()
    if row is None:
        raise Refused("no_tournament", "there is no such tournament")
    return row


def _bump(conn: Connection, tournament_id: str, **values: object) -> None:
    """Grow the tournament's version (its watchers are sent the change), with ``values`` written beside."""
    conn.execute(
        update(tournaments).where(tournaments.c.id == tournament_id).values(version=tournaments.c.version + 1, **values)
    )
