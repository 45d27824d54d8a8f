"""Balance reports: what a game's report part provides, and the counts every report is built from.

A game with a balance report names it in its registry entry (part ``report``: a :class:`ReportPart`). Simulation
then asks the game for the small, picklable facts of every finished hand (worker processes send them back with the
match outcomes) and hands the whole result to the game's report, which counts them its own way.
"""

from __future__ import annotations

import math
import typing
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol, TypeVar, runtime_checkable

from clubsuite.engine import SomeGame, find_game, games
from clubsuite.errors import InvalidOptionsError
from clubsuite.jsonform import JsonObject
from clubsuite.sim.stats import SimResult, wilson_interval

Facts = tuple[object, ...]
"""One hand's balance-report facts: a game's ``NamedTuple`` of numbers, text, flags and tuples of them."""

HandFactsFn = Callable[[Any], Facts]
"""Turns one finished hand into the small, picklable facts a balance report counts.

It takes the game's own hand class (or its compiled twin, which has the same fields without sharing a base): the
engine's :class:`~clubsuite.engine.Hand` protocol names none of the fields a report reads, and the parts table
holds every game's report under one type, hence ``Any`` for the hand here."""

F = TypeVar("F", bound=Facts)


class Report(Protocol):
    """A finished balance report: for people and for programs."""

    def to_json(self) -> JsonObject:
        """A JSON-ready account."""
        ...

    def format_text(self) -> str:
        """Plain-text tables for people."""
        ...


@dataclass(frozen=True)
class ReportPart:
    """A game's balance report, as its registry part ``report``."""

    hand_facts: HandFactsFn
    """Reads the facts of one finished hand (run in the worker processes: a top-level function)."""
    build: Callable[[SimResult], Report]
    """Counts a simulation run with ``hand_facts=True`` into the report."""
    facts_type: type[NamedTuple]
    """The ``NamedTuple`` that :attr:`hand_facts` returns: a part file of a simulation stores the facts as JSON
    arrays, and :func:`facts_from_json` rebuilds them field by field from its annotations."""
    summary: str = ""
    """What the report counts, in one or two sentences (``clubs simulate --help`` lists it)."""
    charts: Callable[[Report], tuple[Bars, ...]] | None = None
    """The report's own figures as bar charts (``clubs simulate --html`` draws them), from the built report."""


@runtime_checkable
class HasReport(Protocol):
    """A game's parts that have a balance report."""

    def report(self) -> ReportPart:
        """The report."""
        ...


def report_part(info: SomeGame) -> ReportPart | None:
    """The balance report of a game, or None if it has none."""
    return info.parts.report() if isinstance(info.parts, HasReport) else None


def report_games() -> tuple[str, ...]:
    """The names of the games that have a balance report."""
    return tuple(info.name for info in games() if isinstance(info.parts, HasReport))


def report_titles() -> str:
    """The games that have a balance report, by title, for messages."""
    titles = [info.title for info in games() if isinstance(info.parts, HasReport)]
    return " and ".join(titles) if len(titles) < 3 else ", ".join(titles[:-1]) + " and " + titles[-1]


def _required(game: str) -> ReportPart:
    info, _ = find_game(game)
    part = report_part(info)
    if part is None:
        raise InvalidOptionsError(
            f"the balance report exists for {report_titles()} only, not for {game}: "
            "the table of wins and scores is the report for the other games"
        )
    return part


def hand_facts_of(game: str) -> HandFactsFn:
    """The function that reads a finished hand's report facts for ``game``; raises for a game with no report."""
    return _required(game).hand_facts


def facts_from_json(game: str, data: object) -> Facts:
    """One hand's report facts for ``game`` rebuilt from their JSON form (the ``NamedTuple`` as nested arrays);
    raises ValueError naming the field whose value does not have the annotated type."""
    cls = _required(game).facts_type
    fields = cls._fields
    if not isinstance(data, list) or len(data) != len(fields):
        raise ValueError(f"expected an array of {len(fields)} values ({', '.join(fields)})")
    hints = typing.get_type_hints(cls)
    return cls._make(_conform(value, hints[name], name) for name, value in zip(fields, data, strict=True))


def _conform(value: object, hint: object, name: str) -> object:
    """``value`` (read from JSON) as the type ``hint`` says: ``int``, ``str``, ``bool`` or tuples of them (arrays
    in JSON); raises ValueError naming ``name`` otherwise."""
    if hint is bool or hint is str:
        if isinstance(value, hint):
            return value
    elif hint is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    elif typing.get_origin(hint) is tuple and isinstance(value, list):
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_conform(v, args[0], name) for v in value)
        if len(args) == len(value):
            return tuple(_conform(v, a, name) for v, a in zip(value, args, strict=True))
    else:
        raise TypeError(f"report facts field {name}: type {hint!r} cannot be read from JSON")
    kinds: dict[object, str] = {int: "a whole number", str: "text", bool: "true or false"}
    words = kinds.get(hint, "a list of the right length")
    raise ValueError(f"field {name}: {str(value)[:40]} is not {words}")


def facts_by_match(
    result: SimResult, game: str, title: str, facts_type: type[F], unit: str = "hand"
) -> list[tuple[F, ...]]:
    """Each match's per-``unit`` report facts, in match order, for a game's report builder: refuses a result of
    another game than ``game`` (called ``title``), one simulated without ``hand_facts``, and facts that are not the
    game's ``facts_type`` (what its ``hand_facts`` makes and :func:`facts_from_json` rebuilds)."""
    if result.game != game:
        raise InvalidOptionsError(f"the balance report is for {title} simulations here, not {result.game or 'this'}")
    missing = [o.index for o in result.outcomes if len(o.hand_facts) != o.hands]
    if missing:
        raise InvalidOptionsError(
            f"match {missing[0]} carries no per-{unit} facts: simulate with hand_facts=True to get a balance report"
        )
    per_match: list[tuple[F, ...]] = []
    for o in result.outcomes:
        facts = tuple(f for f in o.hand_facts if isinstance(f, facts_type))
        if len(facts) != len(o.hand_facts):
            raise InvalidOptionsError(f"match {o.index} carries facts of another kind than {facts_type.__name__}")
        per_match.append(facts)
    return per_match


def build_report(result: SimResult) -> Report:
    """The balance report of a simulation run with ``hand_facts=True``; raises for a game with no report."""
    return _required(result.game).build(result)


@dataclass(frozen=True)
class Rate:
    """A count out of a number of trials, with its 95% Wilson interval (none for zero trials)."""

    count: int
    trials: int

    @property
    def rate(self) -> float | None:
        """The share, or None without trials."""
        return self.count / self.trials if self.trials else None

    @property
    def ci95(self) -> tuple[float, float] | None:
        """The 95% Wilson score interval, or None without trials."""
        return wilson_interval(self.count, self.trials) if self.trials else None

    def to_json(self) -> JsonObject:
        """A JSON-ready account: count, trials, rate and interval."""
        ci = self.ci95
        return {"count": self.count, "trials": self.trials, "rate": self.rate, "ci95": list(ci) if ci else None}

    def cells(self) -> tuple[str, str, str, str]:
        """Table cells: trials, count, rate and interval."""
        ci = self.ci95
        if self.rate is None or ci is None:
            return (str(self.trials), str(self.count), "-", "-")
        return (
            str(self.trials),
            str(self.count),
            f"{100 * self.rate:.1f}%",
            f"{100 * ci[0]:.1f}% .. {100 * ci[1]:.1f}%",
        )


@dataclass(frozen=True)
class Points:
    """The points players scored in one role: how many player-hands, their mean and standard deviation."""

    samples: int
    total: int
    total_squares: int

    @property
    def mean(self) -> float | None:
        """The mean points per hand, or None without samples."""
        return self.total / self.samples if self.samples else None

    @property
    def sd(self) -> float | None:
        """The sample standard deviation, or None with fewer than two samples."""
        if self.samples < 2:
            return None
        var = (self.total_squares - self.total * self.total / self.samples) / (self.samples - 1)
        return math.sqrt(max(0.0, var))

    def to_json(self) -> JsonObject:
        """A JSON-ready account: samples, total, mean and standard deviation."""
        return {"samples": self.samples, "total": self.total, "mean": self.mean, "sd": self.sd}


@dataclass(frozen=True)
class Bars:
    """A bar chart a report asks for: one bar per label, each with its 95% interval where it has one. Drawing is
    left to the outer layer (``clubs simulate --html``), so a game's report never imports a plotting library."""

    title: str
    """What the chart shows."""
    axis: str
    """What the values are, with their unit (``contract made (%)``)."""
    labels: tuple[str, ...]
    """One per bar."""
    values: tuple[float, ...]
    """One per bar (a bar without trials is left out)."""
    low: tuple[float, ...]
    """The lower end of each bar's 95% interval (the value itself where there is none)."""
    high: tuple[float, ...]
    """The upper end."""
    note: str = ""
    """What to read from it, under the chart."""


def rate_bars(title: str, axis: str, items: Sequence[tuple[str, Rate]], note: str = "") -> Bars:
    """A chart of rates in percent with their Wilson intervals; items without trials are left out."""
    kept = [(label, r) for label, r in items if r.trials and r.rate is not None and r.ci95 is not None]
    return Bars(
        title,
        axis,
        tuple(label for label, _ in kept),
        tuple(100 * (r.rate or 0.0) for _, r in kept),
        tuple(100 * (r.ci95 or (0.0, 0.0))[0] for _, r in kept),
        tuple(100 * (r.ci95 or (0.0, 0.0))[1] for _, r in kept),
        note,
    )


def points_bars(title: str, axis: str, items: Sequence[tuple[str, Points]], note: str = "") -> Bars:
    """A chart of mean points with the 95% interval of each mean (mean +- 1.96 standard errors)."""
    kept = [(label, p) for label, p in items if p.samples and p.mean is not None]
    values, low, high = [], [], []
    for _, p in kept:
        mean = p.mean or 0.0
        half = 1.959963984540054 * (p.sd or 0.0) / math.sqrt(p.samples)
        values.append(mean)
        low.append(mean - half)
        high.append(mean + half)
    return Bars(title, axis, tuple(label for label, _ in kept), tuple(values), tuple(low), tuple(high), note)


def text_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """Lines of a table: the first column left-aligned, the others right-aligned."""
    widths = [max(len(r[c]) for r in (header, *rows)) for c in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        first = cells[0].ljust(widths[0])
        rest = (cell.rjust(width) for cell, width in zip(cells[1:], widths[1:], strict=True))
        return "  ".join((first, *rest)).rstrip()

    return [line(header), line(tuple("-" * w for w in widths)), *(line(r) for r in rows)]
