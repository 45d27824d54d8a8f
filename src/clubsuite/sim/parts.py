"""A simulation in parts: one run cut into shards that run apart (on any machines, under any scheduler) and are
merged back into exactly the result the whole run gives.

Match ``k`` of a simulation depends on the run's arguments and ``k`` alone (:mod:`clubsuite.sim.running`), so part
``i`` of ``n`` plays the consecutive matches :func:`shard_range` gives it and keeps every match's outcome; a part
file (JSON, :meth:`SimPart.to_json`) carries them with the arguments of the run. :func:`merge_parts` checks that
the parts belong to one run and cover it exactly once, then counts all the outcomes in match order, as one run
would. Everything read from a part file is checked, field by field, against what the run's arguments say it must
be (each match's seats and seed are recomputed), so a damaged or mixed-up file is refused with its name and the
problem rather than counted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from clubsuite.engine import resolve
from clubsuite.errors import InvalidOptionsError
from clubsuite.jsonform import JsonObject
from clubsuite.options import spec_of
from clubsuite.safetext import quoted
from clubsuite.seeding import derive_seed
from clubsuite.sim.report import facts_from_json
from clubsuite.sim.running import MAX_MATCHES, ProgressCallback, play_matches, result_of
from clubsuite.sim.seating import seating, seating_cycle
from clubsuite.sim.stats import MatchOutcome, SimResult, Thinking

PART_FORMAT = "clubsuite-simulation-part"
"""The ``format`` field of a part file."""
PART_VERSION = 1
"""The version of the part file format."""
MAX_PART_BYTES = 1024**3
"""The largest part file read: a GiB holds the outcomes of millions of matches (about 200 bytes each, more with
report facts)."""

_RUN_FIELDS = ("spec", "canonical_spec", "seed", "bots", "matches", "parts", "duplicate", "hand_facts")
"""The fields that must be equal in every part of one run."""


def parse_shard(text: str) -> tuple[int, int]:
    """Read ``--shard I/N`` (part ``I`` of ``N``, counted from 1), refusing anything else with the form expected."""
    head, slash, tail = text.strip().partition("/")
    if not slash or not head.strip().isdigit() or not tail.strip().isdigit():
        raise InvalidOptionsError(f"--shard {quoted(text)}: expected I/N, part I of N counted from 1, e.g. --shard 2/8")
    part, parts = int(head), int(tail)
    if not 1 <= part <= parts:
        raise InvalidOptionsError(f"--shard {quoted(text)}: the part must be 1 to {parts}, counted from 1")
    return part, parts


def shard_range(matches: int, part: int, parts: int) -> range:
    """The matches of part ``part`` of ``parts`` (counted from 1): consecutive, the sizes differing by one at most.

    Refuses more parts than matches (a part with no match is a mistake in the split, not a result)."""
    if not 1 <= parts <= matches:
        raise InvalidOptionsError(
            f"--shard {part}/{parts}: a simulation of {matches:,} matches has 1 to {matches:,} parts"
        )
    if not 1 <= part <= parts:
        raise InvalidOptionsError(f"--shard {part}/{parts}: the part must be 1 to {parts}, counted from 1")
    return range((part - 1) * matches // parts, part * matches // parts)


@dataclass(frozen=True)
class SimPart:
    """One part of a simulation: the run's arguments and the outcomes of the matches of this part."""

    spec: str
    """The variant spec as given to the run."""
    canonical_spec: str
    """The same rules written canonically: two parts of one run name the same rules."""
    seed: int
    """The simulation seed."""
    bots: tuple[str, ...]
    """The bot of every seat of match 0, one entry per seat (as :func:`team_lineup` gives them)."""
    matches: int
    """How many matches the whole run plays."""
    part: int
    """This part's number, from 1."""
    parts: int
    """How many parts the run was cut into."""
    duplicate: bool
    """Whether the run deals duplicate deals."""
    hand_facts: bool
    """Whether every outcome carries its hands' balance-report facts (``--report``)."""
    outcomes: tuple[MatchOutcome, ...]
    """The outcomes of the matches of :func:`shard_range`, in match order."""

    @property
    def played(self) -> range:
        """The matches this part plays."""
        return shard_range(self.matches, self.part, self.parts)

    def to_json(self) -> JsonObject:
        """The part file's content."""
        return {
            "format": PART_FORMAT,
            "version": PART_VERSION,
            "spec": self.spec,
            "canonical_spec": self.canonical_spec,
            "seed": self.seed,
            "bots": list(self.bots),
            "matches": self.matches,
            "part": self.part,
            "parts": self.parts,
            "duplicate": self.duplicate,
            "hand_facts": self.hand_facts,
            "outcomes": [_outcome_json(o) for o in self.outcomes],
        }


def _outcome_json(o: MatchOutcome) -> JsonObject:
    """One match's outcome as JSON (thinking per seat as ``[decisions, seconds, slowest, cpu seconds]``; a part file
    written before CPU time was measured has the first three)."""
    return {
        "index": o.index,
        "match_seed": o.match_seed,
        "seats": list(o.seats),
        "winner_seats": list(o.winner_seats),
        "draw": o.draw,
        "hands": o.hands,
        "seat_scores": list(o.seat_scores),
        "hand_facts": [list(f) for f in o.hand_facts],
        "thinking": [[t.decisions, t.seconds, t.slowest, t.cpu] for t in o.thinking],
    }


def simulate_part(
    spec: str,
    bots: Sequence[str],
    matches: int,
    seed: int,
    part: int,
    parts: int,
    workers: int = 1,
    progress: ProgressCallback | None = None,
    hand_facts: bool = False,
    duplicate: bool = False,
    timing: bool = False,
) -> SimPart:
    """Play part ``part`` of ``parts`` of the simulation :func:`clubsuite.sim.simulate` would run with the same
    arguments; the inputs are checked the same way, and the split before anything is played."""
    played = shard_range(matches, part, parts)
    names, outcomes = play_matches(spec, bots, matches, seed, played, workers, progress, hand_facts, duplicate, timing)
    info, options = resolve(spec)
    return SimPart(
        spec=spec,
        canonical_spec=spec_of(info.name, options),
        seed=seed,
        bots=names,
        matches=matches,
        part=part,
        parts=parts,
        duplicate=duplicate,
        hand_facts=hand_facts,
        outcomes=tuple(outcomes),
    )


class _Reader:
    """Reads one part file's JSON, naming the file and the field in every complaint."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, problem: str) -> InvalidOptionsError:
        """The error for a problem with this file."""
        return InvalidOptionsError(f"{self.source}: {problem}; it is not a part file of clubs simulate --out")

    def field(self, data: JsonObject, name: str, kind: type | tuple[type, ...]) -> Any:
        """``data[name]``, which must be of ``kind`` (never a bool where a number is asked for)."""
        if name not in data:
            raise self.fail(f"the field {name!r} is missing")
        value = data[name]
        if not isinstance(value, kind) or (isinstance(value, bool) and bool not in _kinds(kind)):
            raise self.fail(f"the field {name!r} has the wrong type")
        return value

    def ints(self, data: JsonObject, name: str, length: int | None = None) -> tuple[int, ...]:
        """``data[name]``: a list of whole numbers (of ``length`` where given)."""
        value = self.field(data, name, list)
        if any(isinstance(v, bool) or not isinstance(v, int) for v in value) or (
            length is not None and len(value) != length
        ):
            raise self.fail(f"the field {name!r} is not a list of {length or 'some'} whole numbers")
        return tuple(value)


def _kinds(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)


def part_from_json(data: object, source: str) -> SimPart:
    """A part read back from a part file's JSON, every field checked; ``source`` names the file in errors."""
    r = _Reader(source)
    if not isinstance(data, dict) or data.get("format") != PART_FORMAT:
        raise r.fail(f"its 'format' is not {PART_FORMAT!r}")
    if data.get("version") != PART_VERSION:
        raise r.fail(f"its version is not {PART_VERSION} (the version this program reads)")
    spec = r.field(data, "spec", str)
    bots = r.field(data, "bots", list)
    if not bots or not all(isinstance(b, str) and b for b in bots):
        raise r.fail("the field 'bots' is not a list of bot names")
    matches = r.field(data, "matches", int)
    if not 1 <= matches <= MAX_MATCHES:
        raise r.fail(f"'matches' is not 1 to {MAX_MATCHES:,}")
    part, parts = r.field(data, "part", int), r.field(data, "parts", int)
    try:
        played = shard_range(matches, part, parts)
    except InvalidOptionsError as exc:
        raise r.fail(f"its part does not fit its run ({exc})") from None
    seed = r.field(data, "seed", int)
    duplicate, facts = r.field(data, "duplicate", bool), r.field(data, "hand_facts", bool)
    try:
        # The same checks as a run: the rules, the bots and their count (a bot this program lacks is named).
        play_matches(spec, bots, matches, seed, range(0), duplicate=duplicate, hand_facts=facts)
    except InvalidOptionsError as exc:
        raise r.fail(f"its run cannot be checked here: {exc}") from None
    info, options = resolve(spec)
    canonical = r.field(data, "canonical_spec", str)
    if canonical != spec_of(info.name, options):
        raise r.fail(f"its 'canonical_spec' {quoted(canonical)} is not the rules of its spec {quoted(spec)}")
    raw = r.field(data, "outcomes", list)
    if len(raw) != len(played):
        raise r.fail(f"part {part} of {parts} holds {len(played)} matches, not {len(raw)}")
    outcomes = tuple(
        _outcome_from_json(r, o, k, info.name, info.teams, len(bots), seed, duplicate, facts)
        for k, o in zip(played, raw, strict=True)
    )
    return SimPart(
        spec=spec,
        canonical_spec=canonical,
        seed=seed,
        bots=tuple(bots),
        matches=matches,
        part=part,
        parts=parts,
        duplicate=duplicate,
        hand_facts=facts,
        outcomes=outcomes,
    )


def _outcome_from_json(
    r: _Reader,
    o: object,
    index: int,
    game: str,
    teams: tuple[tuple[int, ...], ...],
    n: int,
    seed: int,
    duplicate: bool,
    facts: bool,
) -> MatchOutcome:
    """Match ``index``'s outcome read back and checked against what the run's arguments make it."""
    where = f"match {index}"
    if not isinstance(o, dict):
        raise r.fail(f"{where} is not an object")
    if r.field(o, "index", int) != index:
        raise r.fail(f"{where} is out of order")
    seats = r.ints(o, "seats", n)
    if seats != seating(index, n, teams):
        raise r.fail(f"{where}: its seats are not the seating of match {index}")
    expected_seed = derive_seed(seed, index // seating_cycle(n, teams) if duplicate else index)
    if r.field(o, "match_seed", int) != expected_seed:
        raise r.fail(f"{where}: its match seed is not the one the run's seed gives")
    winners = r.ints(o, "winner_seats")
    if any(not 0 <= s < n for s in winners) or len(set(winners)) != len(winners):
        raise r.fail(f"{where}: its winners are not seats")
    hands = r.field(o, "hands", int)
    if hands < 0:
        raise r.fail(f"{where}: a negative number of hands")
    raw_facts = r.field(o, "hand_facts", list)
    if len(raw_facts) != (hands if facts else 0):
        raise r.fail(f"{where}: {len(raw_facts)} hands of report facts for {hands} hands")
    try:
        hand_facts = tuple(facts_from_json(game, f) for f in raw_facts) if facts else ()
    except ValueError as exc:
        raise r.fail(f"{where}: report facts: {exc}") from None
    thinking = []
    for t in r.field(o, "thinking", list):
        if (
            not isinstance(t, list)
            or len(t) not in (3, 4)
            or isinstance(t[0], bool)
            or not isinstance(t[0], int)
            or not all(isinstance(x, int | float) and not isinstance(x, bool) and x >= 0 for x in t)
        ):
            raise r.fail(f"{where}: its thinking times are not [decisions, seconds, slowest, cpu seconds]")
        thinking.append(Thinking(t[0], float(t[1]), float(t[2]), *((float(t[3]), t[0]) if len(t) == 4 else ())))
    if thinking and len(thinking) != n:
        raise r.fail(f"{where}: thinking times for {len(thinking)} seats, not {n}")
    return MatchOutcome(
        index=index,
        match_seed=expected_seed,
        seats=seats,
        winner_seats=winners,
        draw=r.field(o, "draw", bool),
        hands=hands,
        seat_scores=r.ints(o, "seat_scores", n),
        hand_facts=hand_facts,
        thinking=tuple(thinking),
    )


def merge_parts(parts: Sequence[tuple[str, SimPart]]) -> SimResult:
    """The result of the whole run from all its parts (each with the name of its file): the same as one run of
    :func:`clubsuite.sim.simulate` with the same arguments, whatever the split. Refuses parts of different runs, a
    part given twice and a missing part, naming the files and the parts."""
    if not parts:
        raise InvalidOptionsError("no part files given: merge needs every part of one run")
    first_name, first = parts[0]
    run = first.to_json()
    by_number: dict[int, tuple[str, SimPart]] = {}
    for name, part in parts:
        data = part.to_json()
        for field in _RUN_FIELDS:
            if data[field] != run[field]:
                raise InvalidOptionsError(
                    f"{name} and {first_name} are parts of different runs: their {field!r} differ "
                    f"({str(data[field])[:60]} v {str(run[field])[:60]})"
                )
        if part.part in by_number:
            other = by_number[part.part][0]
            raise InvalidOptionsError(f"{name} and {other} are both part {part.part} of {first.parts}")
        by_number[part.part] = (name, part)
    missing = [str(p) for p in range(1, first.parts + 1) if p not in by_number]
    if missing:
        shown = ", ".join(missing[:10]) + (f" and {len(missing) - 10} more" if len(missing) > 10 else "")
        raise InvalidOptionsError(f"part{'s' if len(missing) > 1 else ''} {shown} of {first.parts} missing")
    outcomes = [o for p in range(1, first.parts + 1) for o in by_number[p][1].outcomes]
    return result_of(first.spec, first.bots, first.seed, outcomes, first.duplicate)
