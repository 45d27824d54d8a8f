"""An account's turn-based settings (``turn_prefs``): its time zone and playing hours, which reminders reach it (a
notice on the site's pages, Web Push, a daily e-mail digest), how many pushes a day, the digest's address and
language; and its vacations (``vacations``), during which every turn-based clock of its stops.

The sync functions (:func:`prefs_in`, :func:`hours_of`, :func:`vacations_of`) run inside a caller's transaction (the
clocks' keeper reads them so); :class:`Players` holds the changes a route asks for, each checked and bounded: a
stranger's account stores little (an address of at most :data:`EMAIL_MAX` characters, at most
:data:`PLANNED_MAX` vacations not yet over, those older than a year pruned).

Vacations are counted in whole hours: ``days`` may have a fraction (1.5 days: 36 hours), at least one day and at most
the operator's allowance (``--vacation-days``, 30 by default) in any 365 days. One starts now or later (at most
:data:`AHEAD_DAYS` days ahead); ended early, its unused part is given back (a vacation ended before it began is
cancelled). Every time is on the database's clock (:class:`~clubsuite.server.turns.dbclock.DbClock`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from email.errors import HeaderParseError
from email.headerregistry import Address

from sqlalchemy import delete, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

from clubsuite.errors import InvalidOptionsError
from clubsuite.i18n import LANGUAGES
from clubsuite.server.store.database import StoredRow
from clubsuite.server.store.dbschema import turn_prefs, vacations
from clubsuite.server.store.handle import Database
from clubsuite.server.tokens import new_id
from clubsuite.server.turns.clock import ALWAYS, PlayingHours, Span
from clubsuite.server.turns.config import TurnConfig
from clubsuite.server.turns.dbclock import DbClock

DAY = 86400.0
HOUR = 3600.0
YEAR = 365 * DAY
"""The period the vacation allowance counts over."""
AHEAD_DAYS = 90
"""A vacation starts at most this many days from now."""
PLANNED_MAX = 10
"""Vacations an account may hold that are not over yet."""
EMAIL_MAX = 254
"""The longest e-mail address kept (RFC 5321's path limit less its brackets)."""
PUSH_PER_DAY = (1, 50)
"""The bounds of an account's pushes a day."""
PUSH_PER_DAY_DEFAULT = 10
_DOMAIN = re.compile(
    r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+"
)
_LOCAL = re.compile(r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]{1,64}")


class PlayerRefused(Exception):  # noqa: N818 - a refusal, not an error of the server
    """A change of an account's turn-based settings refused: the HTTP status, a stable code and the words (which
    name the input and the rule)."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code = status, code


@dataclass(frozen=True)
class TurnPrefs:
    """An account's turn-based settings (the defaults where it has no row)."""

    zone: str = "UTC"
    day_start: int = 0
    day_end: int = 1440
    page: bool = True
    push: bool = True
    push_per_day: int = PUSH_PER_DAY_DEFAULT
    mail: bool = False
    email: str | None = None
    email_confirmed: bool = False
    lang: str = "en"

    @property
    def hours(self) -> PlayingHours:
        """The playing hours (ALWAYS where the stored ones no longer parse, as a zone the system dropped)."""
        try:
            return PlayingHours(self.zone, self.day_start, self.day_end)
        except InvalidOptionsError:
            return ALWAYS


DEFAULTS = TurnPrefs()
CHANGEABLE = ("zone", "day_start", "day_end", "page", "push", "push_per_day", "mail", "email", "lang")
"""The settings ``PUT /account/turns`` may change."""


@dataclass(frozen=True)
class Vacation:
    """One vacation: its id and span on the database's clock."""

    id: str
    starts: float
    ends: float


def _prefs(row: StoredRow) -> TurnPrefs:
    return TurnPrefs(
        zone=row.zone,
        day_start=row.day_start,
        day_end=row.day_end,
        page=bool(row.page),
        push=bool(row.push),
        push_per_day=row.push_per_day,
        mail=bool(row.mail),
        email=row.email,
        email_confirmed=bool(row.email_confirmed),
        lang=row.lang,
    )


def prefs_in(conn: Connection, user_id: str) -> TurnPrefs:
    """The account's settings, read in the caller's transaction (the defaults where it has none)."""
    row = conn.execute(select(turn_prefs).where(turn_prefs.c.user_id == user_id)).first()
    return DEFAULTS if row is None else _prefs(row)


def hours_of(conn: Connection, user_id: str) -> PlayingHours:
    """The account's playing hours (:data:`ALWAYS`, UTC and every hour, where it chose none)."""
    return prefs_in(conn, user_id).hours


def vacations_of(conn: Connection, user_id: str, since: float | None = None) -> list[Span]:
    """The account's vacations as spans, in order (those ending after ``since`` when given; an account holds
    those of the last year at most, so all of them are few)."""
    query = select(vacations.c.starts, vacations.c.ends).where(vacations.c.user_id == user_id)
    if since is not None:
        query = query.where(vacations.c.ends > since)
    return [(float(r.starts), float(r.ends)) for r in conn.execute(query.order_by(vacations.c.starts))]


def ensure_prefs(conn: Connection, user_id: str, lang: str = "en") -> None:
    """Make the account's row with the defaults where it has none, and hold it until the transaction ends (two
    changes of one account, from two processes, run one after the other)."""
    insert_new = postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert
    conn.execute(
        insert_new(turn_prefs)
        .values(
            user_id=user_id,
            zone=DEFAULTS.zone,
            day_start=DEFAULTS.day_start,
            day_end=DEFAULTS.day_end,
            page=DEFAULTS.page,
            push=DEFAULTS.push,
            push_per_day=DEFAULTS.push_per_day,
            push_count=0,
            mail=DEFAULTS.mail,
            email_confirmed=False,
            lang=lang if lang in LANGUAGES else "en",
            confirms_sent=0,
        )
        .on_conflict_do_nothing(index_elements=[turn_prefs.c.user_id])
    )
    conn.execute(select(turn_prefs.c.user_id).where(turn_prefs.c.user_id == user_id).with_for_update())


def check_email(value: object) -> str:
    """An e-mail address as kept, or :class:`PlayerRefused` naming the rule: at most :data:`EMAIL_MAX` characters,
    one plain ``local@domain.tld`` (ASCII; the domain a host name with a dot), as ``email.headerregistry`` reads it
    back unchanged."""
    if not isinstance(value, str):
        raise PlayerRefused(400, "bad_email", "email: expected text, an address such as ann@example.org")
    text = value.strip()
    if not 3 <= len(text) <= EMAIL_MAX:
        raise PlayerRefused(400, "bad_email", f"email: an address has 3 to {EMAIL_MAX} characters")
    local, at, domain = text.rpartition("@")
    if not at or not _LOCAL.fullmatch(local) or not _DOMAIN.fullmatch(domain) or ".." in local:
        raise PlayerRefused(
            400, "bad_email", "email: expected one address such as ann@example.org (ASCII letters, no spaces)"
        )
    try:
        parsed = Address(addr_spec=text)
    except (HeaderParseError, ValueError, IndexError):
        raise PlayerRefused(400, "bad_email", "email: expected one address such as ann@example.org") from None
    if parsed.addr_spec != text:
        raise PlayerRefused(400, "bad_email", "email: expected one address such as ann@example.org")
    return text


def check_changes(current: TurnPrefs, changes: dict[str, object]) -> dict[str, object]:
    """The column values ``changes`` (settings by name) make, checked against their rules with the rest of
    ``current``; a key that is not a setting is refused by name."""
    unknown = sorted(set(changes) - set(CHANGEABLE))
    if unknown:
        raise PlayerRefused(400, "unknown_setting", f"{unknown[0]}: not a setting (known: {', '.join(CHANGEABLE)})")
    made: dict[str, object] = {}
    zone = changes.get("zone", current.zone)
    start = changes.get("day_start", current.day_start)
    end = changes.get("day_end", current.day_end)
    if {"zone", "day_start", "day_end"} & set(changes):
        if not isinstance(zone, str) or len(zone) > 64:
            raise PlayerRefused(400, "bad_hours", "zone: expected an IANA time zone name such as Europe/Paris")
        try:
            PlayingHours(zone, start, end)  # type: ignore[arg-type]  # checked by PlayingHours itself
        except InvalidOptionsError as exc:
            raise PlayerRefused(400, "bad_hours", str(exc)) from None
        made.update(zone=zone, day_start=start, day_end=end)
    for name in ("page", "push", "mail"):
        if name in changes:
            if not isinstance(changes[name], bool):
                raise PlayerRefused(400, "bad_setting", f"{name}: expected true or false")
            made[name] = changes[name]
    if "push_per_day" in changes:
        count = changes["push_per_day"]
        low, high = PUSH_PER_DAY
        if isinstance(count, bool) or not isinstance(count, int) or not low <= count <= high:
            raise PlayerRefused(400, "bad_setting", f"push_per_day: expected a whole number from {low} to {high}")
        made["push_per_day"] = count
    if "lang" in changes:
        if changes["lang"] not in LANGUAGES:
            raise PlayerRefused(400, "bad_setting", f"lang: expected one of {', '.join(LANGUAGES)}")
        made["lang"] = changes["lang"]
    if "email" in changes:
        email = changes["email"]
        if email is None or email == "":
            made.update(email=None, email_confirmed=False, mail_key=None, mail=False)
        else:
            address = check_email(email)
            if address != current.email:
                made.update(email=address, email_confirmed=False, mail_key=None)
                made.setdefault("mail", changes.get("mail", True))
    if made.get("mail") and made.get("email", current.email) is None:
        raise PlayerRefused(400, "no_email", "mail: give an e-mail address (email) to receive the daily digest")
    return made


def taken(spans: list[Span], low: float, high: float) -> float:
    """Seconds of ``spans`` within ``[low, high)``."""
    return sum(max(0.0, min(b, high) - max(a, low)) for a, b in spans)


def fits(spans: list[Span], allowance: float) -> bool:
    """Whether no 365 days hold more than ``allowance`` seconds of ``spans``: the most any window holds is
    reached by one that ends where a span ends or begins where one begins."""
    for a, b in spans:
        if taken(spans, b - YEAR, b) > allowance + 1e-6 or taken(spans, a, a + YEAR) > allowance + 1e-6:
            return False
    return True


def days_left(spans: list[Span], now: float, allowance_days: int) -> float:
    """The days of vacation a vacation starting now may still last (the allowance less every kept vacation's
    hours after a year ago: a vacation of this length always fits), in hundredths of a day."""
    left = allowance_days * DAY - taken(spans, now - YEAR, float("inf"))
    return max(0.0, int(left / DAY * 100) / 100)


class Players:
    """The accounts' turn-based settings and vacations, over the store."""

    def __init__(self, database: Database, config: TurnConfig, clock: DbClock) -> None:
        self.database = database
        self.config = config
        self.clock = clock

    async def prefs(self, user_id: str) -> tuple[TurnPrefs, list[Vacation], float]:
        """The account's settings, its vacations not over and the time now."""

        def work(conn: Connection) -> tuple[TurnPrefs, list[Vacation], float]:
            now = self.clock.now_in(conn)
            rows = conn.execute(
                select(vacations)
                .where(vacations.c.user_id == user_id, vacations.c.ends > now - YEAR)
                .order_by(vacations.c.starts)
            ).all()
            return prefs_in(conn, user_id), [Vacation(r.id, r.starts, r.ends) for r in rows], now

        return await self.database.reading(work)

    def vacation(self, conn: Connection, user_id: str, days: float, starts: float | None) -> Vacation:
        """Take a vacation in the caller's transaction (the account's row held): ``days`` (rounded to whole hours)
        from ``starts`` (now when None), or :class:`PlayerRefused` naming the rule it breaks."""
        allowance = self.config.vacation_days
        if not 1 <= days <= allowance:
            raise PlayerRefused(400, "bad_vacation", f"days: a vacation lasts 1 to {allowance} days")
        now = self.clock.now_in(conn)
        begin = now if starts is None else float(starts)
        if begin < now - 60:
            raise PlayerRefused(400, "bad_vacation", "starts: a vacation starts now or later, not in the past")
        if begin > now + AHEAD_DAYS * DAY:
            raise PlayerRefused(400, "bad_vacation", f"starts: a vacation starts at most {AHEAD_DAYS} days from now")
        begin = max(begin, now)
        length = round(days * 24) * HOUR
        conn.execute(delete(vacations).where(vacations.c.user_id == user_id, vacations.c.ends < now - YEAR - DAY))
        kept = vacations_of(conn, user_id)
        if sum(1 for _, b in kept if b > now) >= PLANNED_MAX:
            raise PlayerRefused(409, "too_many_vacations", f"at most {PLANNED_MAX} vacations may be planned at once")
        span = (begin, begin + length)
        if any(a < span[1] and span[0] < b for a, b in kept):
            raise PlayerRefused(409, "vacation_overlaps", "starts: this vacation overlaps one you already have")
        if not fits([*kept, span], allowance * DAY):
            left = days_left(kept, now, allowance)
            raise PlayerRefused(
                409,
                "vacation_allowance",
                f"days: at most {allowance} days of vacation in any 365 days ({left:g} left for one starting now)",
            )
        made = Vacation(new_id(), span[0], span[1])
        conn.execute(insert(vacations).values(id=made.id, user_id=user_id, starts=made.starts, ends=made.ends))
        return made

    def end_vacation(self, conn: Connection, user_id: str, vacation_id: str) -> Vacation:
        """End one of the account's vacations now (one not begun is cancelled): the vacation as it is now (``ends``
        now, or its ``starts``: none of it taken)."""
        row = conn.execute(
            select(vacations).where(vacations.c.id == vacation_id, vacations.c.user_id == user_id)
        ).first()
        if row is None:
            raise PlayerRefused(404, "no_vacation", "this account has no such vacation")
        now = self.clock.now_in(conn)
        if row.ends <= now:
            raise PlayerRefused(409, "vacation_over", "this vacation is over already")
        if row.starts >= now:
            conn.execute(delete(vacations).where(vacations.c.id == vacation_id))
            return Vacation(row.id, row.starts, row.starts)
        conn.execute(update(vacations).where(vacations.c.id == vacation_id).values(ends=now))
        return Vacation(row.id, row.starts, now)
