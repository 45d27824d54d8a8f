"""The match record format: its fields, the hand-written validator, and reading and writing record files.

A record is a JSON object naming the game and its rules options, the seats, the first dealer, an optional match
seed, and every hand as a deal (explicit, seeded, or derived from the match seed) plus the actions in notation.
Everything game-specific (the options, the explicit deal form, the action notation) is delegated to the game's
registry entry, so one format version serves every game. The validator here checks the shape of a record without
playing it; :mod:`clubsuite.records.replay` plays it and checks the rules. The JSON Schema shipped as
``clubsuite/schema/record.schema.json`` describes the same shape for other tools; the package never needs it.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import os
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from clubsuite.engine import GameInfo, find_game, resolve
from clubsuite.errors import ClubsError, InvalidRecordError
from clubsuite.options import format_value, spec_of

FORMAT = "clubsuite-record"
"""The value of the ``format`` field of every record."""
VERSION = 1
"""The format version this code reads and writes."""
EXTENSION_PREFIX = "x-"
"""Fields whose names start with this are extensions: kept, never checked, never an error."""
SEAT_KINDS = ("human", "bot")
"""The allowed values of a seat's ``kind``."""

TOP_FIELDS = ("format", "version", "game", "variant", "options", "seats", "first_dealer", "seed", "hands", "result")
"""Every top-level field, in the order the writer puts them."""
REQUIRED_TOP_FIELDS = ("format", "version", "game", "variant", "seats", "hands")
"""The top-level fields a record must have."""
SEAT_FIELDS = ("name", "kind")
HAND_FIELDS = ("deal", "actions")


@dataclass(frozen=True)
class HandEntry:
    """One hand of a checked record: where its deal comes from and its actions as written."""

    deal: Any
    """The explicit deal read by the game's ``deal_from_json``, or None."""
    deal_seed: int | None
    """The deal seed of a ``{"seed": n}`` deal, or None."""
    actions: tuple[str, ...]
    """The actions in notation, exactly as written in the record."""


@dataclass(frozen=True)
class CheckedRecord:
    """A record whose shape has been checked: the game, the resolved options and the hands, ready to replay."""

    info: GameInfo
    """The game's registry entry."""
    options: Any
    """The game's options object built from the variant spec."""
    variant: str
    """The canonical spec of the options (``spec_of``)."""
    options_json: dict[str, Any]
    """The options as JSON values, as the writer puts them in ``options``."""
    n_seats: int
    """How many seats the game has with these options."""
    seats: list[dict[str, Any]]
    """The seats as written."""
    first_dealer: int
    """The dealer of hand 0."""
    seed: int | None
    """The match seed, if any."""
    hands: tuple[HandEntry, ...]
    """Every hand in order."""
    result: dict[str, Any] | None
    """The ``result`` field as written, if any (compared with the replay by the replayer)."""


def record_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of the record format, as shipped with the package."""
    text = resources.files("clubsuite").joinpath("schema/record.schema.json").read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def _kind(value: Any) -> str:
    """The JSON type of a value in words, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return f"the number {value!r}"
    if isinstance(value, str):
        return f"the string {value!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _error(path: str, problem: str) -> InvalidRecordError:
    """An error naming the JSON path of the bad field."""
    return InvalidRecordError(f"in the record, {path}: {problem}")


def _is_int(value: Any) -> bool:
    """Whether a JSON value is a whole number (``true`` and ``false`` are not)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _check_keys(obj: dict[str, Any], path: str, allowed: tuple[str, ...], required: tuple[str, ...]) -> None:
    """Reject unknown keys (except extensions) and report the first missing required key."""
    for key in obj:
        if not isinstance(key, str) or key.startswith(EXTENSION_PREFIX) or key in allowed:
            continue
        where = f"{path}.{key}" if path else key
        raise _error(
            where,
            f"unknown field {key!r}; the fields here are {', '.join(allowed)} "
            f"(extension fields may be added with names starting with {EXTENSION_PREFIX!r})",
        )
    for key in required:
        if key not in obj:
            where = f"{path}.{key}" if path else key
            raise _error(where, "this required field is missing")


def option_value_json(value: Any) -> Any:
    """The JSON form of one option value: enum members by their value, numbers and flags as they are."""
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, bool | int | str):
        return value
    return format_value(value)


def options_json(options: Any) -> dict[str, Any]:
    """Every option of an options dataclass as JSON values (what the writer puts in ``options``)."""
    return {f.name: option_value_json(getattr(options, f.name)) for f in dataclasses.fields(options)}


def _same_json(a: Any, b: Any) -> bool:
    """JSON equality that keeps ``true`` apart from ``1``."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    return bool(a == b)


def _check_game(record: dict[str, Any]) -> tuple[GameInfo, Any, str, dict[str, Any]]:
    """Read ``game``, ``variant`` and ``options``: the game, its options, the canonical spec, the options as JSON."""
    game = record["game"]
    if not isinstance(game, str) or not game:
        raise _error("game", f"expected the name of a game, such as 'whist', got {_kind(game)}")
    try:
        info, _ = find_game(game)
    except ClubsError as exc:
        raise _error("game", str(exc)) from None
    if info.name != game:
        raise _error("game", f"{game!r} is a variant of {info.name!r}: put {info.name!r} here and {game!r} in variant")
    variant = record["variant"]
    if not isinstance(variant, str) or not variant.strip():
        raise _error("variant", f"expected a rules options spec such as {game!r}, got {_kind(variant)}")
    try:
        vinfo, options = resolve(variant)
    except ClubsError as exc:
        raise _error("variant", str(exc)) from None
    if vinfo.name != info.name:
        raise _error("variant", f"{variant!r} is a spec of the game {vinfo.name!r}, but the record's game is {game!r}")
    canon = spec_of(info.name, options)
    values = options_json(options)
    given = record.get("options")
    if given is not None or "options" in record:
        if not isinstance(given, dict):
            raise _error("options", f"expected an object of option values, got {_kind(given)}")
        for key, value in given.items():
            if key.startswith(EXTENSION_PREFIX):
                continue
            if key not in values:
                raise _error(
                    f"options.{key}",
                    f"unknown option {key!r} of {info.name}; the options are: {', '.join(values)}",
                )
            if not _same_json(value, values[key]):
                raise _error(
                    f"options.{key}",
                    f"the record says {json.dumps(value)} but the variant {variant!r} gives "
                    f"{json.dumps(values[key])}; the options must agree with the variant spec",
                )
    return info, options, canon, values


def _check_seats(record: dict[str, Any], n_seats: int) -> list[dict[str, Any]]:
    """Read ``seats``: one object per seat with a name and an optional kind."""
    seats = record["seats"]
    if not isinstance(seats, list):
        raise _error("seats", f"expected a list of {n_seats} seat objects, got {_kind(seats)}")
    if len(seats) != n_seats:
        raise _error("seats", f"the game has {n_seats} seats but the record lists {len(seats)}")
    for i, seat in enumerate(seats):
        path = f"seats[{i}]"
        if not isinstance(seat, dict):
            raise _error(path, f'expected an object such as {{"name": "ann", "kind": "human"}}, got {_kind(seat)}')
        _check_keys(seat, path, SEAT_FIELDS, ("name",))
        if not isinstance(seat["name"], str) or not seat["name"].strip():
            raise _error(f"{path}.name", f"expected a non-empty string, got {_kind(seat['name'])}")
        if "kind" in seat and seat["kind"] not in SEAT_KINDS:
            raise _error(f"{path}.kind", f"expected one of {', '.join(SEAT_KINDS)}, got {_kind(seat['kind'])}")
    return seats


def _check_hand(info: GameInfo, entry: Any, index: int, has_seed: bool) -> HandEntry:
    """Read one element of ``hands``: its deal (explicit, seeded or from the match seed) and its actions."""
    path = f"hands[{index}]"
    if not isinstance(entry, dict):
        raise _error(path, f'expected an object such as {{"actions": ["keep", ...]}}, got {_kind(entry)}')
    _check_keys(entry, path, HAND_FIELDS, ("actions",))
    deal: Any = None
    deal_seed: int | None = None
    if "deal" in entry:
        raw = entry["deal"]
        if isinstance(raw, dict) and "seed" in raw:
            if set(raw) != {"seed"}:
                extra = ", ".join(sorted(k for k in raw if k != "seed"))
                raise _error(f"{path}.deal", f'a seeded deal is {{"seed": n}} alone; it also has {extra}')
            if not _is_int(raw["seed"]):
                raise _error(f"{path}.deal.seed", f"expected a whole number, got {_kind(raw['seed'])}")
            deal_seed = raw["seed"]
        else:
            try:
                deal = info.deal_from_json(raw)
            except ClubsError as exc:
                raise _error(f"{path}.deal", f'{exc} (or give {{"seed": n}} for a seeded deal)') from None
    elif not has_seed:
        raise _error(
            f"{path}.deal",
            'this hand has no deal and the record has no top-level "seed" to deal it from; give an explicit '
            'deal, {"seed": n}, or a match seed',
        )
    actions = entry["actions"]
    if not isinstance(actions, list):
        raise _error(f"{path}.actions", f"expected a list of actions in notation, got {_kind(actions)}")
    for j, action in enumerate(actions):
        if not isinstance(action, str) or not action.strip():
            raise _error(f"{path}.actions[{j}]", f"expected an action in notation (a string), got {_kind(action)}")
    return HandEntry(deal, deal_seed, tuple(actions))


def check_record(record: Any) -> CheckedRecord:
    """Check the shape of a record (everything short of playing it) and read it; raises InvalidRecordError."""
    if not isinstance(record, dict):
        raise InvalidRecordError(f"a record is a JSON object, got {_kind(record)}")
    _check_keys(record, "", TOP_FIELDS, REQUIRED_TOP_FIELDS)
    if record["format"] != FORMAT:
        raise _error("format", f"expected {FORMAT!r}, got {_kind(record['format'])}")
    version = record["version"]
    if not _is_int(version) or version != VERSION:
        raise _error("version", f"this clubsuite reads format version {VERSION}, got {_kind(version)}")
    info, options, canon, values = _check_game(record)
    try:
        n_seats = int(info.new_match(options, 0).n_seats)
    except ClubsError as exc:
        raise _error("variant", str(exc)) from None
    first_dealer = record.get("first_dealer", 0)
    if not _is_int(first_dealer) or first_dealer not in range(n_seats):
        raise _error("first_dealer", f"expected a seat number 0..{n_seats - 1}, got {_kind(first_dealer)}")
    seats = _check_seats(record, n_seats)
    seed = record.get("seed")
    if "seed" in record and not _is_int(seed):
        raise _error("seed", f"expected a whole number, got {_kind(seed)}")
    hands = record["hands"]
    if not isinstance(hands, list):
        raise _error("hands", f"expected a list of hands, got {_kind(hands)}")
    entries = tuple(_check_hand(info, entry, i, seed is not None) for i, entry in enumerate(hands))
    result = record.get("result")
    if "result" in record and not isinstance(result, dict):
        raise _error("result", f"expected an object (what the replay gives), got {_kind(result)}")
    return CheckedRecord(info, options, canon, values, n_seats, seats, first_dealer, seed, entries, result)


def validate_record(record: Any) -> None:
    """Raise InvalidRecordError, naming the field, if the record is not well formed (rules are not checked)."""
    check_record(record)


# -- reading and writing -----------------------------------------------------------------------------------


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """Build a JSON object, refusing a repeated key (the plain reader would keep the last one silently)."""
    obj: dict[str, Any] = {}
    for key, value in pairs:
        if key in obj:
            raise InvalidRecordError(f"the field {key!r} appears twice in one object of the record")
        obj[key] = value
    return obj


def _no_constants(name: str) -> Any:
    """Refuse NaN and Infinity, which Python's reader accepts but JSON does not have."""
    raise InvalidRecordError(f"{name} is not a JSON number; records hold only standard JSON")


def loads_record(text: str, source: str = "the record") -> dict[str, Any]:
    """Read a record from JSON text and check its shape; ``source`` names it in error messages."""
    try:
        record = json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constants)
    except json.JSONDecodeError as exc:
        raise InvalidRecordError(
            f"{source} is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}"
        ) from None
    check_record(record)
    assert isinstance(record, dict)
    return record


def load_record(path_or_text: str | os.PathLike[str]) -> dict[str, Any]:
    """Read and check a record from a file, or from JSON text (a string whose first non-blank character is ``{``)."""
    if isinstance(path_or_text, str) and path_or_text.lstrip().startswith("{"):
        return loads_record(path_or_text)
    path = Path(path_or_text)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InvalidRecordError(f"cannot read the record file '{path}': no such file") from None
    except IsADirectoryError:
        raise InvalidRecordError(f"cannot read the record file '{path}': it is a folder") from None
    except UnicodeDecodeError:
        raise InvalidRecordError(f"cannot read the record file '{path}': it is not UTF-8 text") from None
    except OSError as exc:
        raise InvalidRecordError(f"cannot read the record file '{path}': {exc.strerror or exc}") from None
    return loads_record(text, f"the record file '{path}'")


_FLAT_OBJECT_WIDTH = 80
"""Objects of plain values at most this wide are written on one line."""


def _dumps(value: Any, indent: int) -> str:
    """JSON with objects spread over lines and lists of plain values kept on one line."""
    pad = "  " * (indent + 1)
    if isinstance(value, dict):
        if not value:
            return "{}"
        if all(not isinstance(v, dict | list) for v in value.values()):
            flat = json.dumps(value, ensure_ascii=False)
            if len(flat) <= _FLAT_OBJECT_WIDTH:
                return flat
        items = [f"{pad}{json.dumps(k, ensure_ascii=False)}: {_dumps(v, indent + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + "  " * indent + "}"
    if isinstance(value, list):
        if all(not isinstance(v, dict | list) for v in value):
            return json.dumps(value, ensure_ascii=False)
        items = [f"{pad}{_dumps(v, indent + 1)}" for v in value]
        return "[\n" + ",\n".join(items) + "\n" + "  " * indent + "]"
    return json.dumps(value, ensure_ascii=False)


def dumps_json(value: Any) -> str:
    """Readable JSON ending in a newline: objects spread over lines, lists of plain values (actions) on one line."""
    return _dumps(value, 0) + "\n"


def dumps_record(record: dict[str, Any]) -> str:
    """The text of a record file (see :func:`dumps_json`)."""
    return dumps_json(record)


def save_record(record: dict[str, Any], path: str | os.PathLike[str]) -> None:
    """Check a record's shape and write it to ``path`` as UTF-8 JSON."""
    check_record(record)
    Path(path).write_text(dumps_record(record), encoding="utf-8")
