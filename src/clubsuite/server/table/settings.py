"""A table's house rules, beside the game's own options: who may watch, the turn clock, how long an absent player's
seat waits before a bot plays it, and how quickly bots act.

They are chosen when the table is created, stored with it (JSON) and read back after a restart; every value is
checked with a message that names it and its range.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

from clubsuite.errors import InvalidOptionsError
from clubsuite.jsonform import JsonObject, JsonValue

CLOCK_RANGE = (5.0, 3600.0)
"""The turn clock, when one is used: from 5 seconds to an hour per decision."""
GRACE_RANGE = (0.0, 3600.0)
"""How long an absent player's seat waits before a bot plays it."""
BOT_DELAY_RANGE = (0.0, 10.0)
"""How long a bot waits before it acts, so that people can follow the play."""
HOUR = 3600.0
DAY = 24 * HOUR
PACES = (12 * HOUR, DAY, 2 * DAY, 3 * DAY, 5 * DAY, 7 * DAY, 14 * DAY)
"""The paces a turn-based table may have: the seconds of a player's clock for one move, from 12 hours to 2 weeks."""
ON_TIMEOUT = ("bot", "adjourn", "lose")
"""What a turn-based clock running out does, chosen by the table's maker: the seat's bot plays that move, the match
is adjourned (no clock runs until a player goes on), or the late player loses the match."""


@dataclass(frozen=True)
class TableSettings:
    """The house rules of one table."""

    public: bool = True
    """Listed in the lobby (a private table is joined by its invite code only)."""
    spectators: bool = True
    """Whether people without a seat may watch (they see only what the whole table sees)."""
    clock: float | None = None
    """Seconds per decision for a person, or None for no clock; when it runs out the seat's bot acts for it."""
    grace: float = 30.0
    """Seconds an absent person's seat waits before a bot plays it (handed back when the person returns)."""
    bot_delay: float = 0.5
    """Seconds a bot waits before acting, counted from the last action (after a trick or a hand has ended, up to a
    second longer, at most twice as long, so that people see who won it)."""
    hints: bool = False
    """Whether a seat may ask for a hint: the game's heuristic bot's choice from the seat's own view."""
    coach: bool = False
    """Whether the page explains every step to a newcomer (what is asked; in the first hand of a game with a lesson,
    the scripted steps, :mod:`clubsuite.lesson`; the rule behind what is allowed, one click away; why a move was
    refused; how the hand was scored): set on the guided first hand (``POST /tutorial``), and on any table its
    maker wants it on."""

    rated: bool = False
    """Whether the table's matches count for ratings: its seats are taken by accounts only (bots too), nobody gets
    hints or the coach, and a person who leaves a match before its end counts as finishing last."""
    pace: float | None = None
    """A turn-based table's pace: seconds of a player's clock for one move (one of :data:`PACES`); None: a live
    table. A turn-based table's seats are taken by accounts only, its bots move at once, a player away is never
    replaced by a bot, and its clocks are kept in the database (``server.turns``)."""
    on_timeout: str = "bot"
    """At a turn-based table, what a clock running out does (one of :data:`ON_TIMEOUT`)."""

    def __post_init__(self) -> None:
        for name in ("public", "spectators", "hints", "coach", "rated"):
            if not isinstance(getattr(self, name), bool):
                raise InvalidOptionsError(f"table setting {name}={getattr(self, name)!r}: expected true or false")
        if self.clock is not None:
            _check_number("clock", self.clock, CLOCK_RANGE, " (or null for no clock)")
        _check_number("grace", self.grace, GRACE_RANGE)
        _check_number("bot_delay", self.bot_delay, BOT_DELAY_RANGE)
        if self.pace is not None:
            if isinstance(self.pace, bool) or not isinstance(self.pace, int | float) or float(self.pace) not in PACES:
                raise InvalidOptionsError(
                    f"table setting pace={self.pace!r}: a turn-based table's pace is one of "
                    f"{', '.join(f'{p:g}' for p in PACES)} seconds (12 hours to 2 weeks a move), or null for a live "
                    "table"
                )
            if self.clock is not None or self.coach:
                raise InvalidOptionsError(
                    "table setting pace: a turn-based table has no live clock and no coach (set clock null and coach "
                    "false)"
                )
        if self.on_timeout not in ON_TIMEOUT:
            raise InvalidOptionsError(
                f"table setting on_timeout={self.on_timeout!r}: expected one of {', '.join(ON_TIMEOUT)}"
            )
        if self.rated and (self.hints or self.coach):
            raise InvalidOptionsError(
                "table setting rated=true: a rated table gives no hints and has no coach (set hints and coach false)"
            )

    @property
    def turn_based(self) -> bool:
        """Whether the table is turn-based (played over days, its clocks in the database)."""
        return self.pace is not None

    def to_json(self) -> JsonObject:
        """The stored form."""
        return dict(asdict(self))

    @classmethod
    def from_json(cls, data: JsonValue) -> TableSettings:
        """Read the stored (or requested) form; unknown keys and bad values are refused with their names."""
        if not isinstance(data, dict):
            raise InvalidOptionsError("table settings must be a JSON object")
        known = set(cls.__dataclass_fields__)
        unknown = sorted(set(data) - known)
        if unknown:
            raise InvalidOptionsError(
                f"unknown table setting {unknown[0]!r}; the settings are: {', '.join(sorted(known))}"
            )
        return cls(**data)  # each value is checked in __post_init__


def _check_number(name: str, value: object, bounds: tuple[float, float], more: str = "") -> None:
    low, high = bounds
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not math.isfinite(value)
        or not low <= value <= high
    ):
        raise InvalidOptionsError(
            f"table setting {name}={value!r}: expected a number of seconds from {low:g} to {high:g}{more}"
        )
