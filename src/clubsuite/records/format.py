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
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from clubsuite.engine import GameInfo, find_game, resolve
from clubsuite.errors import ClubsError, InvalidRecordError
from clubsuite.options import format_value, spec_of, split_spec

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
MAX_DIGITS = 4300
"""The most digits a whole number in a record may have (Python's own default limit for reading numbers)."""
MAX_DEPTH = 64
"""The most levels of lists and objects nested in one another a record may have (a record needs about six)."""

_INT_LIMIT = 10**MAX_DIGITS
_NEGATIVE_DEAL_SEED = " (a negative seed would deal exactly what its positive value deals)"
_SPEC_NAME = re.compile(r"\s*([A-Za-z][\w-]*)")


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
    if isinstance(value, int) and abs(value) >= 10**20:
        return f"a whole number of {len(str(abs(value)))} digits"
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
    """The JSON form of one option value: enum members by their value, numbers and flags as they are, and a
    table of numbers (a tuple, such as the club points of North Star's CLUBS) as a list of its values."""
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, bool | int | str):
        return value
    if isinstance(value, tuple):
        return [option_value_json(v) for v in value]
    return format_value(value)


def options_json(options: Any) -> dict[str, Any]:
    """Every option of an options dataclass as JSON values (what the writer puts in ``options``)."""
    return {f.name: option_value_json(getattr(options, f.name)) for f in dataclasses.fields(options)}


def _same_json(a: Any, b: Any) -> bool:
    """JSON equality that keeps ``true`` apart from ``1``, also inside lists."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same_json(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def _is_option_value(value: Any) -> bool:
    """Whether a JSON value can be an option value: a string, a whole number, a flag, or a list of whole numbers."""
    if isinstance(value, str | int):  # bool is an int
        return True
    return isinstance(value, list) and all(_is_int(v) for v in value)


def _path_text(path: tuple[str | int, ...]) -> str:
    """A JSON path in the style of the messages: ``seats[0].name`` (a lone surrogate in a key shown as ``\\udcff``)."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            key = part.encode("utf-8", "backslashreplace").decode("utf-8")
            out += f".{key}" if out else key
    return out


def _check_values(record: Any) -> None:
    """Refuse what no field of a record can hold and what would trip the code after: lists and objects nested more
    than MAX_DEPTH deep, whole numbers of more than MAX_DIGITS digits, object keys that are not strings, and strings
    that are not Unicode text (a lone surrogate, as from a ``\\udcff`` escape or bytes that were not UTF-8).

    Done without recursion, so that a record nested however deep gets a message rather than a RecursionError.
    """
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(record, ())]
    while stack:
        value, path = stack.pop()
        if len(path) >= MAX_DEPTH:
            shown = _path_text(path[:3]) + ("..." if len(path) > 3 else "")
            raise _error(
                shown,
                f"lists and objects are nested more than {MAX_DEPTH} levels deep here; a record may nest at most "
                f"{MAX_DEPTH}",
            )
        is_object = isinstance(value, dict)
        for key, item in value.items() if is_object else enumerate(value):
            if is_object:
                if not isinstance(key, str):
                    raise _error(_path_text(path) or "the top level", f"the key {key!r} is not a string")
                if not key.isascii():
                    _check_text(key, (*path, key))
            if isinstance(item, str):
                if not item.isascii():  # only text beyond ASCII can hold a lone surrogate
                    _check_text(item, (*path, key))
            elif isinstance(item, dict | list):
                stack.append((item, (*path, key)))
            elif isinstance(item, int) and not -_INT_LIMIT < item < _INT_LIMIT:
                raise _error(
                    _path_text((*path, key)),
                    f"a whole number of more than {MAX_DIGITS} digits is too long for a record",
                )


def _check_text(text: str, path: tuple[str | int, ...]) -> None:
    """Refuse a string holding a lone surrogate, which is not a character and cannot be written out as UTF-8."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        bad = text[exc.start]
        raise _error(
            _path_text(path) or "the top level",
            f"the text holds the lone surrogate \\u{ord(bad):04x}, which is not a character; "
            "strings in a record are Unicode text (a record file is UTF-8)",
        ) from None


def _check_lower_case(variant: str, options: Any) -> None:
    """Refuse upper case in the names of a variant spec: names in a record are lower case, as the writer puts them
    and as ``game`` and ``options`` are compared (the spec reader itself would ignore the case)."""
    m = _SPEC_NAME.match(variant)
    written = m.group(1) if m else ""
    if written != written.lower():
        raise _error(
            "variant",
            f"the name {written!r} has upper case letters; game and variant names are lower case in a record: "
            f"write {written.lower()!r}",
        )
    _, raw = split_spec(variant)
    for key, text in raw.items():
        if isinstance(getattr(options, key, None), enum.Enum) and text != text.lower():
            raise _error(
                "variant",
                f"option {key}={text}: the value has upper case letters; option values that are names are lower "
                f"case in a record: write {key}={text.lower()}",
            )


def _check_game(record: dict[str, Any]) -> tuple[GameInfo, Any, str, dict[str, Any]]:
    """Read ``game``, ``variant`` and ``options``: the game, its options, the canonical spec, the options as JSON."""
    game = record["game"]
    if not isinstance(game, str) or not game:
        raise _error("game", f"expected the name of a game, such as 'whist', got {_kind(game)}")
    if game != game.lower():
        raise _error(
            "game", f"{game!r} has upper case letters; game names are lower case in a record: write {game.lower()!r}"
        )
    try:
        info, _ = find_game(game)
    except ClubsError as exc:
        raise _error("game", str(exc)) from None
    if info.name != game:
        raise _error("game", f"{game!r} is a variant of {info.name!r}: put {info.name!r} here and {game!r} in variant")
    variant = record["variant"]
    if not isinstance(variant, str) or not variant.strip():
        raise _error("variant", f"expected a rules options spec such as {game!r}, got {_kind(variant)}")
    digits = max((len(run) for run in re.findall(r"[0-9]+", variant)), default=0)
    if digits > MAX_DIGITS:
        raise _error(
            "variant", f"the spec holds a number of {digits} digits; numbers in a record have at most {MAX_DIGITS}"
        )
    try:
        vinfo, options = resolve(variant)
    except ClubsError as exc:
        raise _error("variant", str(exc)) from None
    if vinfo.name != info.name:
        raise _error("variant", f"{variant!r} is a spec of the game {vinfo.name!r}, but the record's game is {game!r}")
    _check_lower_case(variant, options)
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
            if not _is_option_value(value):
                raise _error(
                    f"options.{key}",
                    f"expected a string, a whole number, true or false, or a list of whole numbers, got {_kind(value)}",
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


def _check_seed(value: Any, path: str, what: str, why: str = "") -> int:
    """Read a seed: a whole number from 0 up; ``what`` names it and ``why`` may add the reason to the message.

    Deal seeds feed ``random.Random``, which deals for ``-n`` exactly what it deals for ``n``: allowing negative
    seeds would let two different records mean the same deal. The match seed follows the same rule.
    """
    if not _is_int(value):
        raise _error(path, f"expected a whole number (0 or more), got {_kind(value)}")
    if value < 0:
        raise _error(
            path, f"{what} must not be negative, got {_kind(value)}: seeds in a record are whole numbers from 0 up{why}"
        )
    seed: int = value
    return seed


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
            deal_seed = _check_seed(raw["seed"], f"{path}.deal.seed", "a deal seed", _NEGATIVE_DEAL_SEED)
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
    _check_values(record)
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
    seed = _check_seed(record["seed"], "seed", "the match seed") if "seed" in record else None
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


class _ParseError(Exception):
    """Raised from inside the JSON reader's hooks; :func:`loads_record` turns it into an InvalidRecordError."""


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """Build a JSON object, refusing a repeated key (the plain reader would keep the last one silently)."""
    obj: dict[str, Any] = {}
    for key, value in pairs:
        if key in obj:
            raise _ParseError(f"the field {key!r} appears twice in one object")
        obj[key] = value
    return obj


def _no_constants(name: str) -> Any:
    """Refuse NaN and Infinity, which Python's reader accepts but JSON does not have."""
    raise _ParseError(f"{name} is not a JSON number; records hold only standard JSON")


def _parse_int(text: str) -> int:
    """Read a whole number, refusing one longer than MAX_DIGITS (Python would raise a bare ValueError)."""
    digits = len(text) - text.startswith("-")
    if digits > MAX_DIGITS:
        raise _ParseError(
            f"it holds a whole number of {digits} digits ({text[:12]}...); numbers in a record have at most "
            f"{MAX_DIGITS} digits"
        )
    try:
        return int(text)
    except ValueError:  # a limit set lower with sys.set_int_max_str_digits
        raise _ParseError(f"it holds a whole number of {digits} digits, too long to read here") from None


def _position(text: str | bytes, index: int) -> str:
    """``line L, column C`` of a character (or byte) index, counted from 1 as the JSON reader's messages do."""
    newline: Any = b"\n" if isinstance(text, bytes) else "\n"
    line = text.count(newline, 0, index) + 1
    return f"line {line}, column {index - text.rfind(newline, 0, index)}"


def _decode(data: str | bytes, source: str) -> str:
    """The text of a record: bytes decoded as UTF-8 and a leading byte order mark dropped (``utf-8-sig``).

    Text read elsewhere with the ``surrogateescape`` error handler (as Python reads standard input in some
    locales) holds lone surrogates where its bytes were not UTF-8; those are refused the same way.
    """
    if isinstance(data, bytes):
        try:
            return data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise InvalidRecordError(
                f"{source} is not UTF-8 text: the byte 0x{data[exc.start]:02x} at {_position(data, exc.start)} "
                "cannot start or continue a UTF-8 character"
            ) from None
    text = data.removeprefix("\ufeff")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InvalidRecordError(
            f"{source} is not UTF-8 text: at {_position(text, exc.start)} there is a byte that is not UTF-8 "
            "(or a lone surrogate)"
        ) from None
    return text


def loads_record(text: str | bytes, source: str = "the record") -> dict[str, Any]:
    """Read a record from JSON text (or UTF-8 bytes) and check its shape; ``source`` names it in error messages.

    A leading UTF-8 byte order mark is accepted. Every problem, however odd the input, is an InvalidRecordError.
    """
    decoded = _decode(text, source)
    try:
        record = json.loads(
            decoded, object_pairs_hook=_no_duplicates, parse_constant=_no_constants, parse_int=_parse_int
        )
    except json.JSONDecodeError as exc:
        raise InvalidRecordError(
            f"{source} is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}"
        ) from None
    except _ParseError as exc:
        raise InvalidRecordError(f"{source} cannot be read: {exc}") from None
    except RecursionError:
        raise InvalidRecordError(
            f"{source} cannot be read: lists and objects are nested in one another far more than the {MAX_DEPTH} "
            "levels a record may have"
        ) from None
    check_record(record)
    assert isinstance(record, dict)
    return record


def load_record(path_or_text: str | os.PathLike[str]) -> dict[str, Any]:
    """Read and check a record from a file, or from JSON text (a string whose first non-blank character is ``{``).

    The file is read as UTF-8, with or without a byte order mark. A file that cannot be read (missing, a folder,
    not permitted, not UTF-8) gives an InvalidRecordError naming it.
    """
    if isinstance(path_or_text, str) and path_or_text.lstrip("\ufeff \t\r\n").startswith("{"):
        return loads_record(path_or_text)
    path = Path(path_or_text)
    where = f"cannot read the record file '{path}'"
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise InvalidRecordError(f"{where}: no such file") from None
    except IsADirectoryError:
        raise InvalidRecordError(f"{where}: it is a folder") from None
    except PermissionError:
        raise InvalidRecordError(f"{where}: permission denied") from None
    except OSError as exc:
        raise InvalidRecordError(f"{where}: {exc.strerror or exc}") from None
    except ValueError:  # a name holding a NUL character, which no file system allows
        raise InvalidRecordError(
            f"cannot read the record file {str(path_or_text)!r}: a file name cannot hold a NUL character"
        ) from None
    return loads_record(data, f"the record file '{path}'")


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
