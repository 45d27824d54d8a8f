"""A finished match's results, written in the commit of its last action: every seat's place and points (the history
profiles list) and, at a rated table, the new ratings of everyone who played.

Who is rated for a seat: the account that held it at the end; an account that left the match before its end (it
finishes last, whatever its points, and its bot's play does not count for anyone); otherwise the bot that played it,
as ``bot:<level>``, on the same scale as people. A bot level that played several seats of one match moves by the
mean of those seats' changes (one match is one result for it, not several).

Matches ending at once: a rating is read, moved and written back in the transaction of the match's last action, and
another match may move the same rating at the same time (a bot level plays at many tables; a person may play two
rated tables). So each rating row is made first where it is missing (at its start) and locked before it is read
(``SELECT ... FOR UPDATE`` on PostgreSQL; SQLite writes one transaction at a time), one row after another in the order
of their names so that two matches never wait on each other: the later match moves what the earlier one wrote, and
neither move is lost.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass

from sqlalchemy import insert, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

from clubsuite.bots.calibrated import calibrated
from clubsuite.jsonform import JsonObject
from clubsuite.ratings import START, Skill, finishing_ranks, provisional, rate, shown
from clubsuite.server.store.database import StoredRow
from clubsuite.server.store.dbschema import SeatKind, leavers, match_players, rating_history, ratings, users


def rating_json(mu: float, sigma: float, matches: int, person: bool = True) -> JsonObject:
    """A rating as people read it: one number, its ± (95%), how many matches it rests on, and whether it is still
    provisional (a person's, before ``PROVISIONAL_MATCHES`` rated matches; a bot's never is: it starts from its
    calibration)."""
    value, plus_minus = shown(Skill(mu, sigma))
    return {
        "rating": value,
        "plus_minus": plus_minus,
        "matches": matches,
        "provisional": person and provisional(matches),
    }


@dataclass(frozen=True)
class SeatAtEnd:
    """A seat as the match ended: a person's (with their account, if any) or a bot's."""

    seat: int
    kind: SeatKind
    name: str
    user_id: str | None
    bot: str


@dataclass(frozen=True)
class Outcome:
    """What a finished match's results are written from."""

    table_id: str
    match_no: int
    at: float
    game: str
    pool: str
    rated: bool
    teams: tuple[tuple[int, ...], ...]
    summary: JsonObject
    seats: tuple[SeatAtEnd, ...]
    lost: tuple[int, ...] = ()
    """Seats that lost on time (a turn-based table's clock ran out where its maker chose so): the match ended
    there, and they finish last whatever their points, rated or not."""

    def write(self, conn: Connection) -> None:
        """Write the history rows and, when rated, the ratings (inside the caller's transaction)."""
        left = {
            r.seat: r.user_id
            for r in conn.execute(
                select(leavers.c.seat, leavers.c.user_id).where(
                    leavers.c.table_id == self.table_id, leavers.c.match_no == self.match_no
                )
            )
        }
        n = len(self.seats)
        last = (set(left) if self.rated else set()) | set(self.lost)
        ranks = finishing_ranks(self.summary, n, self.teams, left=last)
        totals = self.summary.get("totals")
        winners = self.summary.get("winners")
        won = set(winners) if isinstance(winners, list) else set()
        names = _names(conn, set(left.values()))
        for s in self.seats:
            user = left.get(s.seat) or (s.user_id if s.kind == SeatKind.PERSON else None)
            points = totals[s.seat] if isinstance(totals, list) else 0
            conn.execute(
                insert(match_players).values(
                    table_id=self.table_id,
                    match_no=self.match_no,
                    seat=s.seat,
                    game=self.game,
                    pool=self.pool,
                    user_id=user,
                    name=names.get(left[s.seat], s.name) if s.seat in left else s.name,
                    bot=s.bot if s.kind == SeatKind.BOT or s.user_id is None else None,
                    place=ranks[s.seat] + 1,
                    points=float(points) if isinstance(points, int | float) else 0.0,
                    hand_points=json.dumps(_hand_points(self.summary, s.seat)),
                    won=s.seat in won and s.seat not in left and s.seat not in self.lost,
                    rated=self.rated,
                    left=s.seat in left,
                    finished_at=self.at,
                )
            )
        if self.rated:
            self._rate(conn, ranks, left)

    def subjects(self, left: dict[int, str]) -> list[str]:
        """Who is rated for each seat (see the module's words)."""
        out = []
        for s in self.seats:
            if s.seat in left:
                out.append(f"user:{left[s.seat]}")
            elif s.kind == SeatKind.PERSON and s.user_id is not None:
                out.append(f"user:{s.user_id}")
            else:
                out.append(f"bot:{s.bot}")
        return out

    def _rate(self, conn: Connection, ranks: list[int], left: dict[int, str]) -> None:
        subjects = self.subjects(left)
        stored = self._lock_ratings(conn, subjects)
        before = [Skill(stored[x].mu, stored[x].sigma) for x in subjects]
        after = rate(before, ranks, self.teams)
        moves: dict[str, list[tuple[Skill, Skill]]] = defaultdict(list)
        for subject, old, new in zip(subjects, before, after, strict=True):
            moves[subject].append((old, new))
        for subject, pairs in moves.items():
            old = pairs[0][0]
            mu = old.mu + sum(new.mu - was.mu for was, new in pairs) / len(pairs)
            sigma = sum(new.sigma for _, new in pairs) / len(pairs)
            conn.execute(
                update(ratings)
                .where(ratings.c.pool == self.pool, ratings.c.subject == subject)
                .values(mu=mu, sigma=sigma, matches=stored[subject].matches + 1, updated_at=self.at)
            )
            conn.execute(
                insert(rating_history).values(
                    pool=self.pool,
                    subject=subject,
                    table_id=self.table_id,
                    match_no=self.match_no,
                    at=self.at,
                    mu=mu,
                    sigma=sigma,
                    mu_before=old.mu,
                    sigma_before=old.sigma,
                    matches_before=stored[subject].matches,
                )
            )

    def _lock_ratings(self, conn: Connection, subjects: list[str]) -> dict[str, StoredRow]:
        """The stored rating of each subject in the pool, each row locked until the transaction ends (a missing
        one made first, at the subject's start, with no match counted): one row after another, in the order of the
        subjects' names, so that two transactions locking some of the same rows never wait on each other."""
        start = calibrated(self.pool)
        insert_new = postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert
        stored: dict[str, StoredRow] = {}
        for subject in sorted(set(subjects)):
            skill = _start(subject, start)
            conn.execute(
                insert_new(ratings)
                .values(pool=self.pool, subject=subject, mu=skill.mu, sigma=skill.sigma, matches=0, updated_at=self.at)
                .on_conflict_do_nothing(index_elements=[ratings.c.pool, ratings.c.subject])
            )
            stored[subject] = conn.execute(
                select(ratings).where(ratings.c.pool == self.pool, ratings.c.subject == subject).with_for_update()
            ).one()
        return stored


def _start(subject: str, start: dict[str, tuple[float, float]]) -> Skill:
    """Where a subject's rating starts: a bot level at its calibration (when the pool has one), anyone else at a
    newcomer's."""
    level = subject.removeprefix("bot:")
    if subject.startswith("bot:") and level in start:
        return Skill(*start[level])
    return START


def _hand_points(summary: JsonObject, seat: int) -> list[float]:
    """A seat's points in each scored hand of the match (what a club night compares across its tables)."""
    hands = summary.get("hands")
    out: list[float] = []
    for h in hands if isinstance(hands, list) else []:
        scores = h.get("scores") if isinstance(h, dict) else None
        if isinstance(scores, list) and seat < len(scores) and isinstance(scores[seat], int | float):
            out.append(float(scores[seat]))
    return out


def _names(conn: Connection, user_ids: set[str]) -> dict[str, str]:
    if not user_ids:
        return {}
    return {r.id: r.name for r in conn.execute(select(users.c.id, users.c.name).where(users.c.id.in_(user_ids)))}


@dataclass(frozen=True)
class SeatResult:
    """One seat of a finished match as its end-of-match box shows it: its place and points and, at a rated table,
    the rating it was rated with before and after (``None`` where the match was not rated)."""

    seat: int
    name: str
    bot: str | None
    place: int
    points: float
    won: bool
    left: bool
    person: bool
    before: tuple[Skill, int] | None
    """The skill and the rated matches it rested on before this match."""
    after: tuple[Skill, int] | None
    """The same after it."""


def match_results(conn: Connection, table_id: str, match_no: int | None) -> tuple[int, bool, list[SeatResult]]:
    """The results of a finished match (the table's last finished one when ``match_no`` is None): its number,
    whether it was rated, and every seat's result in seat order; no seats where the match has no result (not
    over, or no such match)."""
    query = select(match_players).where(match_players.c.table_id == table_id)
    if match_no is None:
        last = conn.execute(
            select(match_players.c.match_no)
            .where(match_players.c.table_id == table_id)
            .order_by(match_players.c.match_no.desc())
            .limit(1)
        ).scalar()
        if last is None:
            return 0, False, []
        match_no = int(last)
    rows = list(conn.execute(query.where(match_players.c.match_no == match_no).order_by(match_players.c.seat)))
    rated = bool(rows) and all(r.rated for r in rows)
    out: list[SeatResult] = []
    for r in rows:
        before = after = None
        if rated:
            subject = f"user:{r.user_id}" if r.user_id is not None else f"bot:{r.bot}"
            before, after = _rating_around(conn, r.pool, subject, table_id, match_no)
        person = r.user_id is not None or r.bot is None
        out.append(SeatResult(r.seat, r.name, r.bot, r.place, r.points, r.won, r.left, person, before, after))
    return match_no, rated, out


def _rating_around(
    conn: Connection, pool: str, subject: str, table_id: str, match_no: int
) -> tuple[tuple[Skill, int] | None, tuple[Skill, int] | None]:
    """A subject's rating just before and just after one rated match, each with the rated matches it rested on, as
    the match's own rating history row keeps them (written in the commit that rated it, so two matches finishing at
    once each show the change they made); no "before" in a row older than that record."""
    history = rating_history.c
    row = conn.execute(
        select(history.mu, history.sigma, history.mu_before, history.sigma_before, history.matches_before).where(
            history.pool == pool,
            history.subject == subject,
            history.table_id == table_id,
            history.match_no == match_no,
        )
    ).first()
    if row is None:
        return None, None
    if row.mu_before is None or row.sigma_before is None or row.matches_before is None:
        return None, None  # rated before the history kept where it moved from: no change to show
    n = int(row.matches_before)
    return (Skill(row.mu_before, row.sigma_before), n), (Skill(row.mu, row.sigma), n + 1)
