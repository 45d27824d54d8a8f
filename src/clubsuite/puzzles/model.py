"""A puzzle as data: what it is made of, how it is written (one JSON object, a line of a JSON-lines file), how it is
read back (every field checked, bounded, refused with the field named) and how it is checked again from its source.

A puzzle carries its source match as a record in the project's format (``docs/records.md``), the hand and the
number of that hand's actions before it starts (as ``clubs solve --hand --actions`` count them), the seat to act
there, its kind and (for an exact puzzle) the measure it is judged by (as ``clubs solve --json`` names it), the answer
and its line in the game's notation, every legal action's value, the themes, a rating, and the other side's mistake
it starts after, where there is one. So anyone can check it: replay the record to the point and ask the same judge.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import math
import zlib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from clubsuite.engine import SomeMatch
from clubsuite.errors import ClubsError
from clubsuite.jsonform import JsonObject, JsonValue
from clubsuite.records import check_record
from clubsuite.records.files import parse_record
from clubsuite.safetext import quoted

FORMAT = "clubs-puzzle"
VERSION = 1
KINDS = ("double_dummy", "endgame", "single_dummy")
"""The kinds of puzzle (:mod:`clubsuite.puzzles.criteria`)."""
MAX_PUZZLE_BYTES = 512 * 1024
"""The largest puzzle read (one line of a set): its record is a whole match up to the puzzle's hand, with seeded
deals a few kilobytes (a hundred kilobytes with every deal written out); the limit keeps a hostile line cheap."""
MAX_SET_BYTES = 64 * 1024 * 1024
"""The largest set of puzzles read from a file (after decompressing)."""
MAX_VALUES = 512
"""The most actions a puzzle lists values for (far above any position's legal actions in a puzzle)."""
MAX_LINE = 256
"""The most actions in a puzzle's line (a hand of the longest game has fewer)."""
MAX_THEMES = 24
MAX_TEXT = 200
"""The longest notation, theme or source text."""
RATING_RANGE = (400, 3200)


class PuzzleError(ClubsError):
    """A puzzle or a set of puzzles that cannot be read or does not hold (the field or the check named)."""


@dataclass(frozen=True)
class Mistake:
    """The other side's action a puzzle starts after: it cost its player (or the seat, from its view) ``loss``."""

    seat: int
    action: str
    loss: float


@dataclass(frozen=True)
class Puzzle:
    """One puzzle (see the module docstring)."""

    id: str
    game: str
    variant: str
    kind: str
    record: JsonObject
    hand: int
    actions: int
    seat: int
    measure: str
    solution: str
    values: Mapping[str, float]
    """Every legal action's value: an exact count (double dummy, endgame) or a mean chance of winning the match
    over the checking worlds (single dummy)."""
    goal: int | None = None
    """The count the answer keeps for an exact puzzle (the seat takes that many tricks, scores that many points, or
    is held to that many for a measure counted low); None for a single-dummy puzzle."""
    line: tuple[str, ...] = ()
    """The answer and the line it starts, to the hand's end (exact puzzles; a single-dummy one has its answer only)."""
    themes: tuple[str, ...] = ()
    rating: int = 1500
    mistake: Mistake | None = None
    worlds: Mapping[str, float | int] | None = None
    """For a single-dummy puzzle, how it was measured (:class:`clubsuite.puzzles.criteria.WorldCheck` as JSON)."""
    source: str = ""
    """Where the match came from, in a few words."""

    @property
    def exact(self) -> bool:
        """Whether an exact judge made it (every hand shown)."""
        return self.kind != "single_dummy"

    def to_json(self) -> JsonObject:
        """The puzzle as one JSON object (the line of a set)."""
        out: JsonObject = {
            "format": FORMAT,
            "version": VERSION,
            "id": self.id,
            "game": self.game,
            "variant": self.variant,
            "kind": self.kind,
            "hand": self.hand,
            "actions": self.actions,
            "seat": self.seat,
            "measure": self.measure,
            "solution": self.solution,
            "goal": self.goal,
            "line": list(self.line),
            "values": {a: _number(v) for a, v in self.values.items()},
            "themes": list(self.themes),
            "rating": self.rating,
            "mistake": None
            if self.mistake is None
            else {"seat": self.mistake.seat, "action": self.mistake.action, "loss": _number(self.mistake.loss)},
            "worlds": None if self.worlds is None else {k: _number(v) for k, v in self.worlds.items()},
            "source": self.source,
            "record": self.record,
        }
        return out


def _number(value: float) -> JsonValue:
    """A whole value as an integer (exactly, however large: a seed), another rounded to four places (the figures a
    person reads)."""
    if isinstance(value, int):
        return value
    return int(value) if float(value).is_integer() else round(float(value), 4)


def puzzle_id(variant: str, seed: object, hand: int, actions: int, kind: str) -> str:
    """A puzzle's id: short, stable, the same for the same position and kind from the same source."""
    digest = hashlib.sha256(f"{variant}|{seed}|{hand}|{actions}|{kind}".encode()).hexdigest()
    return digest[:12]


# -- reading ---------------------------------------------------------------------------------------------------------


def _field(obj: JsonObject, name: str, kind: type | tuple[type, ...], where: str) -> JsonValue:
    if name not in obj:
        raise PuzzleError(f"{where}: the field {quoted(name)} is missing")
    value = obj[name]
    if isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)):
        raise PuzzleError(f"{where}: {quoted(name)} must not be true or false")
    if not isinstance(value, kind):
        raise PuzzleError(f"{where}: {quoted(name)} has the wrong type ({type(value).__name__})")
    return value


def _text(obj: JsonObject, name: str, where: str, limit: int = MAX_TEXT) -> str:
    value = _field(obj, name, str, where)
    assert isinstance(value, str)
    if len(value) > limit:
        raise PuzzleError(f"{where}: {quoted(name)} is longer than {limit} characters")
    return value


def _count(obj: JsonObject, name: str, where: str, top: int) -> int:
    value = _field(obj, name, int, where)
    assert isinstance(value, int)
    if not 0 <= value <= top:
        raise PuzzleError(f"{where}: {quoted(name)} must be a whole number from 0 to {top}, not {value}")
    return value


def _real(value: JsonValue, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise PuzzleError(f"{where} must be a number")
    if abs(value) > 1_000_000:
        raise PuzzleError(f"{where} is out of range")
    return float(value)


FIELDS = (
    "format",
    "version",
    "id",
    "game",
    "variant",
    "kind",
    "hand",
    "actions",
    "seat",
    "measure",
    "solution",
    "goal",
    "line",
    "values",
    "themes",
    "rating",
    "mistake",
    "worlds",
    "source",
    "record",
)


def puzzle_from_json(obj: JsonValue, where: str = "the puzzle") -> Puzzle:
    """Read a puzzle's JSON object, every field checked (its record's shape too, not yet its play: see
    :func:`clubsuite.puzzles.check.check_puzzle`); :class:`PuzzleError` naming the field otherwise."""
    if not isinstance(obj, dict):
        raise PuzzleError(f"{where}: expected a JSON object")
    unknown = sorted(set(obj) - set(FIELDS))
    if unknown:
        raise PuzzleError(f"{where}: unknown field {quoted(unknown[0])}")
    if obj.get("format") != FORMAT:
        raise PuzzleError(f"{where}: 'format' must be {quoted(FORMAT)}")
    if obj.get("version") != VERSION:
        raise PuzzleError(f"{where}: 'version' {obj.get('version')!r} is not one this program reads ({VERSION})")
    kind = _text(obj, "kind", where)
    if kind not in KINDS:
        raise PuzzleError(f"{where}: 'kind' must be one of {', '.join(KINDS)}")
    record = _field(obj, "record", dict, where)
    assert isinstance(record, dict)
    try:
        check_record(record)
    except ClubsError as exc:
        raise PuzzleError(f"{where}: its record: {exc}") from None
    values_json = _field(obj, "values", dict, where)
    assert isinstance(values_json, dict)
    if not 2 <= len(values_json) <= MAX_VALUES:
        raise PuzzleError(f"{where}: 'values' must list 2 to {MAX_VALUES} actions")
    values: dict[str, float] = {}
    for action, value in values_json.items():
        if len(action) > MAX_TEXT:
            raise PuzzleError(f"{where}: an action in 'values' is longer than {MAX_TEXT} characters")
        values[action] = _real(value, f"{where}: the value of {quoted(action)}")
    solution = _text(obj, "solution", where)
    if solution not in values:
        raise PuzzleError(f"{where}: the solution {quoted(solution)} has no value in 'values'")
    line = _strings(obj, "line", where, MAX_LINE)
    if line and line[0] != solution:
        raise PuzzleError(f"{where}: 'line' must start with the solution")
    goal_json = obj.get("goal")
    if goal_json is not None and (isinstance(goal_json, bool) or not isinstance(goal_json, int)):
        raise PuzzleError(f"{where}: 'goal' must be a whole number or null")
    if (goal_json is None) == (kind != "single_dummy"):
        raise PuzzleError(f"{where}: an exact puzzle states its 'goal'; a single-dummy one has none")
    game, variant = _text(obj, "game", where), _text(obj, "variant", where)
    if record.get("game") != game or record.get("variant") != variant:
        raise PuzzleError(f"{where}: 'game' and 'variant' must be its record's")
    rating = _count(obj, "rating", where, RATING_RANGE[1])
    if rating < RATING_RANGE[0]:
        raise PuzzleError(f"{where}: 'rating' must be from {RATING_RANGE[0]} to {RATING_RANGE[1]}")
    return Puzzle(
        id=_text(obj, "id", where, 40),
        game=game,
        variant=variant,
        kind=kind,
        record=record,
        hand=_count(obj, "hand", where, 10_000),
        actions=_count(obj, "actions", where, 10_000),
        seat=_count(obj, "seat", where, 64),
        measure=_text(obj, "measure", where),
        solution=solution,
        values=values,
        goal=goal_json,
        line=tuple(line),
        themes=tuple(_strings(obj, "themes", where, MAX_THEMES)),
        rating=rating,
        mistake=_mistake(obj.get("mistake"), where),
        worlds=_worlds(obj.get("worlds"), where),
        source=_text(obj, "source", where),
    )


def _strings(obj: JsonObject, name: str, where: str, most: int) -> list[str]:
    value = _field(obj, name, list, where)
    assert isinstance(value, list)
    if len(value) > most:
        raise PuzzleError(f"{where}: {quoted(name)} has more than {most} entries")
    if not all(isinstance(v, str) and 0 < len(v) <= MAX_TEXT for v in value):
        raise PuzzleError(f"{where}: {quoted(name)} must list short texts")
    return [str(v) for v in value]


def _mistake(value: JsonValue, where: str) -> Mistake | None:
    if value is None:
        return None
    if not isinstance(value, dict) or set(value) != {"seat", "action", "loss"}:
        raise PuzzleError(f"{where}: 'mistake' must be null or an object with seat, action and loss")
    return Mistake(
        _count(value, "seat", f"{where}: the mistake", 64),
        _text(value, "action", f"{where}: the mistake"),
        _real(value["loss"], f"{where}: the mistake's loss"),
    )


WORLD_FIELDS = ("seed", "worlds", "margin", "z", "better", "worse")
CONFIRM_FIELDS = ("confirm_worlds", "confirmed", "low", "high")
"""A single-dummy puzzle's margin confirmed on fresh worlds drawn after it was chosen: how many, the mean lead over
the closest other action, and its 95% interval (all four, or none in a puzzle made before confirmation)."""


def _worlds(value: JsonValue, where: str) -> dict[str, float | int] | None:
    if value is None:
        return None
    if not isinstance(value, dict) or set(value) not in (set(WORLD_FIELDS), set(WORLD_FIELDS + CONFIRM_FIELDS)):
        raise PuzzleError(
            f"{where}: 'worlds' must be null or an object with {', '.join(WORLD_FIELDS)} (and, confirmed, "
            f"{', '.join(CONFIRM_FIELDS)})"
        )
    out: dict[str, float | int] = {k: _real(value[k], f"{where}: worlds.{k}") for k in value if k != "seed"}
    out["seed"] = _seed(value["seed"], where)
    return out


def _seed(value: JsonValue, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**64:
        raise PuzzleError(f"{where}: worlds.seed must be a whole number from 0 below 2**64")
    return value


# -- sets --------------------------------------------------------------------------------------------------------------


def read_set(path: str | Path, limit: int = MAX_SET_BYTES) -> list[Puzzle]:
    """Every puzzle of a set file (JSON lines, gzip-compressed when its name ends in ``.gz``), each line checked as
    :func:`puzzle_from_json` does; :class:`PuzzleError` naming the file and line otherwise."""
    return list(iter_set(path, limit))


def iter_set(path: str | Path, limit: int = MAX_SET_BYTES) -> Iterator[Puzzle]:
    """The puzzles of a set file, one by one (see :func:`read_set`)."""
    name = quoted(str(path))
    try:
        raw = _read_bounded(Path(path), limit)
    except OSError as exc:
        raise PuzzleError(f"cannot read the puzzle set {name}: {exc.strerror or exc}") from None
    for number, line in enumerate(raw.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{name}, line {number}"
        if len(line) > MAX_PUZZLE_BYTES:
            raise PuzzleError(f"{where}: a puzzle is larger than {MAX_PUZZLE_BYTES // 1024} KB")
        try:
            obj = parse_record(line, where)
        except ClubsError as exc:
            raise PuzzleError(str(exc)) from None
        yield puzzle_from_json(obj, where)


def _read_bounded(path: Path, limit: int) -> bytes:
    with path.open("rb") as f:
        if path.name.endswith(".gz"):
            with gzip.GzipFile(fileobj=f) as z:
                try:
                    data = z.read(limit + 1)
                except (OSError, EOFError, zlib.error) as exc:
                    raise PuzzleError(f"the puzzle set {quoted(str(path))} is not valid gzip: {exc}") from None
        else:
            data = f.read(limit + 1)
    if len(data) > limit:
        raise PuzzleError(f"the puzzle set {quoted(str(path))} is larger than {limit // (1024 * 1024)} MB")
    return data


def dumps_line(puzzle: Puzzle) -> str:
    """One puzzle as a line of a set (compact JSON, no newline inside)."""
    return json.dumps(puzzle.to_json(), ensure_ascii=False, separators=(",", ":"))


def write_set(puzzles: Iterable[Puzzle], path: str | Path) -> int:
    """Write ``puzzles`` as a set (gzip-compressed when the name ends in ``.gz``, reproducibly: no time stamp);
    returns how many were written."""
    lines = [dumps_line(p) for p in puzzles]
    data = ("\n".join(lines) + "\n").encode() if lines else b""
    target = Path(path)
    if target.name.endswith(".gz"):
        data = gzip.compress(data, compresslevel=9, mtime=0)
    target.write_bytes(data)
    return len(lines)


def match_point(puzzle: Puzzle) -> SomeMatch:
    """The match at the puzzle's point, replayed from its record (every rule checked on the way); the seat to act
    there must be the puzzle's seat."""
    from clubsuite.analysis.positions import position_at

    try:
        match, _ = position_at(puzzle.record, puzzle.hand, puzzle.actions)
    except ClubsError as exc:
        raise PuzzleError(f"puzzle {puzzle.id}: {exc}") from None
    if match.to_act != puzzle.seat:
        raise PuzzleError(f"puzzle {puzzle.id}: seat {puzzle.seat} is not to act at its point")
    if puzzle.mistake is not None and puzzle.mistake.seat >= match.n_seats:
        raise PuzzleError(f"puzzle {puzzle.id}: its mistake's seat {puzzle.mistake.seat} is not at the table")
    return match
