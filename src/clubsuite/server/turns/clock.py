"""The arithmetic of turn-based clocks: how much clock time a player has used, when their move's time runs out, and
why their clock is stopped now.

A turn-based match is played over days (like Board Game Arena's turn-based mode or lichess correspondence games): each
player has ``pace`` seconds of clock time per move, and that clock runs only during the player's *playing hours* and
not at all during a *vacation*. Nobody should lose a move because they slept, so the playing hours are read on the
player's own local clock (an IANA time zone): 09:00-21:00 stays 09:00-21:00 on the wall across a daylight-saving
change, and the real seconds of that day's window are counted (11 or 13 hours when the change falls inside it).

Playing hours must span at least :data:`MIN_WINDOW` (8 hours) a day, so that a move's clock, even the longest pace,
always runs out within a bounded number of days: an opponent can never be made to wait for ever by hours that
hardly ever open.

Times are floats, seconds since the Unix epoch (UTC). Everything here is pure (standard library only, no I/O): the
callers (``keeper``, the pages) read the time and store the results.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from functools import lru_cache
from typing import Literal, get_args
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from clubsuite.errors import InvalidOptionsError
from clubsuite.server.table import settings

OnTimeout = Literal["bot", "adjourn", "lose"]
"""What a player's clock running out does: their seat's bot plays the move, the match is adjourned (no clock runs
until a player goes on), or their seat loses the match."""
ON_TIMEOUT: tuple[OnTimeout, ...] = get_args(OnTimeout)

_HOUR = 3600.0
_DAY = 86400.0
assert ON_TIMEOUT == settings.ON_TIMEOUT  # the table's settings check what its maker chose; these name them
PACES: tuple[float, ...] = settings.PACES
"""The paces a host may choose: seconds of clock time per move (12 hours to 14 days; the table's settings')."""

Span = tuple[float, float]
"""A vacation: the clock is stopped from its start (included) to its end (excluded)."""

MIN_WINDOW = 8 * 60
"""Minutes: a player's playing hours span at least 8 hours a day (so a move's clock always ends within a few days)."""
MAX_DAYS = 4000
"""How many local days :func:`deadline` and :func:`resumes` walk at most before they give up (cannot happen with
valid hours and finite vacations; a guard against a clock that would never run out)."""

_ZONE_NAME = re.compile(r"[A-Za-z0-9_+\-]+(?:/[A-Za-z0-9_+\-]+)*")
_NOT_ZONES = frozenset({"localtime", "posixrules"})  # files on some systems' zone path, not IANA names


def pace_words(pace: float) -> str:
    """A pace in English words: ``"12 hours"``, ``"1 day"``, ``"3 days"`` (for docs and logs; pages word their own)."""
    for unit, seconds in (("day", _DAY), ("hour", _HOUR), ("minute", 60.0)):
        if pace >= seconds and pace % seconds == 0:
            count = int(pace // seconds)
            return f"{count} {unit}" + ("" if count == 1 else "s")
    return f"{pace:g} second" + ("" if pace == 1 else "s")


def check_pace(value: object) -> float:
    """``value`` as a pace (seconds per move): it must equal one of :data:`PACES`."""
    if isinstance(value, int | float) and not isinstance(value, bool) and value in PACES:
        return float(value)
    choices = ", ".join(pace_words(pace) for pace in PACES)
    seconds = ", ".join(f"{pace:.0f}" for pace in PACES)
    raise InvalidOptionsError(f"pace={value!r}: expected one of {choices} (in seconds: {seconds})")


def check_on_timeout(value: object) -> OnTimeout:
    """``value`` as what happens when a clock runs out: one of :data:`ON_TIMEOUT`."""
    for choice in ON_TIMEOUT:
        if value == choice and isinstance(value, str):
            return choice
    raise InvalidOptionsError(
        f"on_timeout={value!r}: expected 'bot' (the seat's bot plays the move), 'adjourn' (no clock runs until a "
        "player goes on) or 'lose' (the seat whose clock ran out loses the match)"
    )


def _zone(name: object) -> ZoneInfo:
    """The time zone called ``name``, or InvalidOptionsError naming it."""
    problem = ""
    if not isinstance(name, str):
        problem = "expected a time zone name (text)"
    elif not name:
        problem = "the name is empty"
    elif len(name) > 64:
        problem = "the name is longer than 64 characters"
    elif not name.isascii() or not _ZONE_NAME.fullmatch(name) or name in _NOT_ZONES:
        problem = "not a time zone name (letters, digits, '_', '+', '-' and '/' between parts)"
    else:
        try:
            return ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError, OSError):
            problem = "no such time zone"
    raise InvalidOptionsError(
        f"playing hours zone={name!r}: {problem}; expected an IANA time zone name such as 'Europe/Paris' or 'UTC'"
    )


def _hhmm(minute: int) -> str:
    return f"{minute // 60:02d}:{minute % 60:02d}"


@dataclass(frozen=True)
class PlayingHours:
    """When a player's clock runs each day, on their own local clock."""

    zone: str = "UTC"
    """The player's IANA time zone name (``Europe/Paris``)."""
    start: int = 0
    """Minutes after local midnight when the clock starts running, 0 to 1439."""
    end: int = 1440
    """Minutes after local midnight when it stops, 1 to 1440; ``end < start`` means the window runs over midnight
    (18:00 to 02:00: the window of a day ends on the next)."""

    def __post_init__(self) -> None:
        _zone(self.zone)
        for name, low, high in (("start", 0, 1439), ("end", 1, 1440)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise InvalidOptionsError(
                    f"playing hours {name}={value!r}: expected a whole number of minutes after local midnight "
                    f"from {low} to {high}"
                )
        if self.start == self.end:
            raise InvalidOptionsError(
                f"playing hours start={self.start}, end={self.end}: the window must not start and end at the same "
                "minute (for a clock that runs at every hour, give start=0, end=1440)"
            )
        if self.minutes < MIN_WINDOW:
            raise InvalidOptionsError(
                f"playing hours {self} (start={self.start}, end={self.end}): the "
                f"window is {self.minutes} minutes; the clock must run at least {MIN_WINDOW // 60} hours "
                f"({MIN_WINDOW} minutes) a day"
            )

    def __str__(self) -> str:
        return f"{_hhmm(self.start)}-{_hhmm(self.end)} {self.zone}"

    @property
    def minutes(self) -> int:
        """The window's length in minutes of local wall time (1440 when the clock runs at every hour)."""
        return self.end - self.start if self.end > self.start else self.end + 1440 - self.start


ALWAYS = PlayingHours()
"""Playing hours at which the clock runs at every hour."""


def _merge(vacations: Sequence[Span]) -> list[Span]:
    """The vacations sorted and merged (overlapping or touching ones joined; empty or backwards ones dropped)."""
    merged: list[Span] = []
    for start, end in sorted((float(s), float(e)) for s, e in vacations if e > s):
        if merged and start <= merged[-1][1]:
            if end > merged[-1][1]:
                merged[-1] = (merged[-1][0], end)
        else:
            merged.append((start, end))
    return merged


def _out_of_range(when: float) -> InvalidOptionsError:
    return InvalidOptionsError(f"time {when!r}: out of the range of dates a clock can count (years 1 to 9999)")


def _local_date(when: float, tz: ZoneInfo) -> date:
    """The local date at the instant ``when``."""
    try:
        return datetime.fromtimestamp(when, tz).date()
    except (OverflowError, ValueError, OSError):
        raise _out_of_range(when) from None


def _next_day(day: date, days: int = 1) -> date:
    """The day ``days`` after ``day`` (before it when negative)."""
    try:
        return day + timedelta(days=days)
    except OverflowError:
        raise InvalidOptionsError(f"{days} days after {day}: out of the range of dates a clock can count") from None


def _instant(day: date, minute: int, tz: ZoneInfo) -> float:
    """The instant of local wall time ``minute`` (0 to 1440) on ``day``: the first one when the wall clock shows it
    twice (fold=0), the instant the clock jumps at when it never shows it (a spring-forward gap)."""
    if minute == 1440:
        day = _next_day(day)
        minute = 0
    wall = datetime(day.year, day.month, day.day, minute // 60, minute % 60, tzinfo=tz)
    later = wall.timestamp()  # in a gap, fold=0 reads the wall with the offset before the jump: after the jump
    if datetime.fromtimestamp(later, tz).replace(tzinfo=None) == wall.replace(tzinfo=None):
        return later
    # A gap: the jump lies in (earlier, later]; find its second (zone changes fall on whole seconds).
    low = math.floor(wall.replace(fold=1).timestamp())
    high = math.ceil(later)
    after = datetime.fromtimestamp(high, tz).utcoffset()
    while high - low > 1:
        middle = (low + high) // 2
        if datetime.fromtimestamp(middle, tz).utcoffset() == after:
            high = middle
        else:
            low = middle
    return float(high)


@lru_cache(maxsize=8192)
def _window(day: date, hours: PlayingHours) -> Span:
    """The UTC instants of the window of the local ``day``: it opens on that day and may close on the next."""
    tz = ZoneInfo(hours.zone)
    opens = _instant(day, hours.start, tz)
    closes = _instant(_next_day(day) if hours.end <= hours.start else day, hours.end, tz)
    return opens, max(opens, closes)


def _pieces(since: float, hours: PlayingHours, vacations: Sequence[Span], limit: int | None) -> Iterator[Span]:
    """The spans from ``since`` on during which the clock runs, in order, walking one local day's window at a time
    (and jumping over vacations); stops after ``limit`` windows with InvalidOptionsError, or when a vacation never
    ends."""
    if not math.isfinite(since):
        raise _out_of_range(since)
    tz = ZoneInfo(hours.zone)
    merged = _merge(vacations)
    ends = [end for _, end in merged]
    day = _next_day(_local_date(since, tz), -1)  # an over-midnight window of the day before may hold `since`
    walked = 0
    while True:
        walked += 1
        if limit is not None and walked > limit:
            raise InvalidOptionsError(
                f"a clock with playing hours {hours} does not run out within {limit} days of {since!r} "
                f"({len(merged)} vacations)"
            )
        opens, closes = _window(day, hours)
        day = _next_day(day)
        low = max(opens, since)
        index = bisect_right(ends, low)  # the first vacation that ends after `low`
        while low < closes:
            if index < len(merged) and merged[index][0] <= low:  # `low` is in a vacation: skip to its end
                low = merged[index][1]
                index += 1
                continue
            high = min(closes, merged[index][0]) if index < len(merged) else closes
            yield low, high
            low = high
        if low > closes:  # a vacation runs past the window: go on from its end
            if not math.isfinite(low):
                return
            since = low
            day = max(day, _next_day(_local_date(low, tz), -1))


def running(a: float, b: float, hours: PlayingHours, vacations: Sequence[Span] = ()) -> float:
    """Seconds in ``[a, b)`` during which the clock runs: inside the playing hours of the player's local day and
    outside every vacation; 0 when ``b <= a``."""
    if not b > a:
        return 0.0
    if not math.isfinite(b):
        raise _out_of_range(b)
    total = 0.0
    for low, high in _pieces(a, hours, vacations, None):
        if low >= b:
            break
        total += min(high, b) - low
    return total


def deadline(since: float, pace: float, hours: PlayingHours, vacations: Sequence[Span] = ()) -> float:
    """When a clock that starts at ``since`` with ``pace`` seconds left runs out: the earliest ``t >= since`` with
    ``running(since, t, hours, vacations) == pace``. If the clock is stopped at ``since`` (night or vacation), it
    starts counting at the next opening. ``pace`` may be any time left (0 gives ``since``), not only one of PACES."""
    if not (math.isfinite(pace) and pace >= 0):
        raise InvalidOptionsError(f"pace={pace!r}: expected a number of seconds, 0 or more")
    if pace == 0:
        return since
    left = pace
    for low, high in _pieces(since, hours, vacations, MAX_DAYS):
        if high - low >= left:
            return low + left
        left -= high - low
    raise InvalidOptionsError(f"the clock never runs again after {since!r} (a vacation without end): it cannot run out")


def paused(now: float, hours: PlayingHours, vacations: Sequence[Span] = ()) -> Literal["night", "vacation"] | None:
    """Why the clock does not run at ``now``: ``"vacation"`` (which wins over night), ``"night"`` (outside the playing
    hours), or None when it runs."""
    if any(start <= now < end for start, end in vacations if end > start):
        return "vacation"
    if not math.isfinite(now):
        raise _out_of_range(now)
    day = _local_date(now, ZoneInfo(hours.zone))
    for back in (-1, 0, 1):
        opens, closes = _window(_next_day(day, back), hours)
        if opens <= now < closes:
            return None
    return "night"


def resumes(now: float, hours: PlayingHours, vacations: Sequence[Span] = ()) -> float:
    """When the clock next runs: ``now`` itself when it runs now, else the next opening of the playing hours outside
    every vacation."""
    for low, _ in _pieces(now, hours, vacations, MAX_DAYS):
        return low
    raise InvalidOptionsError(f"the clock never runs again after {now!r} (a vacation without end)")


def local_minute(now: float, zone: str) -> int:
    """Minutes after local midnight at ``now`` in the time zone ``zone``."""
    if not math.isfinite(now):
        raise _out_of_range(now)
    tz = _zone(zone)
    try:
        wall = datetime.fromtimestamp(now, tz)
    except (OverflowError, ValueError, OSError):
        raise _out_of_range(now) from None
    return wall.hour * 60 + wall.minute
