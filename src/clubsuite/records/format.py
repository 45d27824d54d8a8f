"""The match record format: its fields and the hand-written validator (:mod:`clubsuite.records.files` reads and
writes record files).

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
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import overload

from clubsuite.engine import SomeGame, default_game, find_game, resolve
from clubsuite.errors import ClubsError, InvalidRecordError
from clubsuite.jsonform import JsonObject, JsonValue
from clubsuite.options import format_value, spec_of, split_spec
from clubsuite.safetext import json_shown, quoted, shown

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
SEAT_FIELDS = ("name", "kind", "bot")
BOT_SPEC_MAX = 200
"""The longest bot spec a seat's ``bot`` may give (``pimc(samples=8)``: a name with its options)."""
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

    deal: object
    """The explicit deal read by the game's ``deal_from_json``, or None."""
    deal_seed: int | None
    """The deal seed of a ``{"seed": n}`` deal, or None."""
    actions: tuple[str, ...]
    """The actions in notation, exactly as written in the record."""


@dataclass(frozen=True)
class CheckedRecord:
    """A record whose shape has been checked: the game, the resolved options and the hands, ready to replay."""

    info: SomeGame
    """The game's registry entry."""
    options: object
    """The game's options object built from the variant spec."""
    variant: str
    """The canonical spec of the options (``spec_of``)."""
    options_json: JsonObject
    """The options as JSON values, as the writer puts them in ``options``."""
    n_seats: int
    """How many seats the game has with these options."""
    seats: list[JsonObject]
    """The seats as written."""
    first_dealer: int
    """The dealer of hand 0."""
    seed: int | None
    """The match seed, if any."""
    hands: Sequence[HandEntry]
    """Every hand in order. From :func:`check_header`, each hand is checked when it is read (the replayer reads
    them one by one), so a record of a million hands with a broken first hand is refused at once."""
    result: JsonObject | None
    """The ``result`` field as written, if any (compared with the replay by the replayer)."""


def record_schema() -> JsonObject:
    """The JSON Schema (draft 2020-12) of the record format, as shipped with the package."""
    text = resources.files("clubsuite").joinpath("schema/record.schema.json").read_text(encoding="utf-8")
    schema: JsonObject = json.loads(text)
    return schema


def _kind(value: JsonValue) -> str:
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
        return f"the string {quoted(value)}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _error(path: str, problem: str) -> InvalidRecordError:
    """An error naming the JSON path of the bad field."""
    return InvalidRecordError(f"in the record, {path}: {problem}")


def _is_int(value: JsonValue) -> bool:
    """Whether a JSON value is a whole number (``true`` and ``false`` are not)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _check_keys(obj: JsonObject, path: str, allowed: tuple[str, ...], required: tuple[str, ...]) -> None:
    """Reject unknown keys (except extensions) and report the first missing required key."""
    for key in obj:
        if not isinstance(key, str) or key.startswith(EXTENSION_PREFIX) or key in allowed:
            continue
        where = f"{path}.{shown(key)}" if path else shown(key)
        raise _error(
            where,
            f"unknown field {quoted(key)}; the fields here are {', '.join(allowed)} "
            f"(extension fields may be added with names starting with {EXTENSION_PREFIX!r})",
        )
    for key in required:
        if key not in obj:
            where = f"{path}.{key}" if path else key
            raise _error(where, "this required field is missing")


def option_value_json(value: object) -> JsonValue:
    """The JSON form of one option value: enum members by their value, numbers and flags as they are, and a
    table of numbers (a tuple, such as a table of points per card) as a list of its values."""
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, bool | int | str):
        return value
    if isinstance(value, tuple):
        return [option_value_json(v) for v in value]
    return format_value(value)


def options_json(options: object) -> JsonObject:
    """Every option of an options dataclass as JSON values (what the writer puts in ``options``)."""
    if not dataclasses.is_dataclass(options) or isinstance(options, type):
        raise TypeError(f"options must be an options dataclass instance, not {type(options).__name__}")
    return {f.name: option_value_json(getattr(options, f.name)) for f in dataclasses.fields(options)}


def same_json(a: JsonValue, b: JsonValue) -> bool:
    """Exact JSON equality: the same JSON type and value at every level, so ``true`` is not ``1``, ``false`` is not
    ``0`` and ``-0.0`` or ``1.0`` is not the whole number ``0`` or ``1``, also inside lists and objects.

    Python's ``==`` would say yes to all of those; a record's stated ``result`` and ``options`` are compared with
    this, so an altered record cannot pass with a value of another type.
    """
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_json(a[k], b[k]) for k in a)
    return type(a) is type(b) and bool(a == b)


def _is_option_value(value: JsonValue) -> bool:
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
            key = shown(part)
            out += f".{key}" if out else key
    return out


def _check_values(record: JsonValue) -> None:
    """Refuse what no field of a record can hold and what would trip the code after: lists and objects nested more
    than MAX_DEPTH deep, whole numbers of more than MAX_DIGITS digits, object keys that are not strings, and strings
    that are not Unicode text (a lone surrogate, as from a ``\\udcff`` escape or bytes that were not UTF-8).

    Done without recursion, so that a record nested however deep gets a message rather than a RecursionError, and
    depth first with one iterator per level, so that the work space grows with the depth (at most MAX_DEPTH), not
    with the number of values.
    """
    frames: list[tuple[Iterator[tuple[str | int, JsonValue]], tuple[str | int, ...], bool]] = [
        (_items(record), (), True)
    ]
    while frames:
        items, path, is_object = frames[-1]
        for key, item in items:
            if is_object:
                if not isinstance(key, str):
                    raise _error(_path_text(path) or "the top level", f"the key {key!r} is not a string")
                if not key.isascii():
                    _check_text(key, (*path, key))
            if isinstance(item, str):
                if not item.isascii():  # only text beyond ASCII can hold a lone surrogate
                    _check_text(item, (*path, key))
            elif isinstance(item, dict | list):
                inner = (*path, key)
                if len(inner) >= MAX_DEPTH:
                    shown_path = _path_text(inner[:3]) + "..."
                    raise _error(
                        shown_path,
                        f"lists and objects are nested more than {MAX_DEPTH} levels deep here; a record may nest at "
                        f"most {MAX_DEPTH}",
                    )
                if item:  # an empty list or object holds nothing to check
                    frames.append((_items(item), inner, isinstance(item, dict)))
                    break  # go into it first; this container's iterator goes on where it stopped
            elif isinstance(item, int) and not -_INT_LIMIT < item < _INT_LIMIT:
                raise _error(
                    _path_text((*path, key)),
                    f"a whole number of more than {MAX_DIGITS} digits is too long for a record",
                )
        else:
            frames.pop()


def _items(value: JsonObject | list[JsonValue]) -> Iterator[tuple[str | int, JsonValue]]:
    """The (key, item) pairs of an object, or the (index, item) pairs of a list."""
    return iter(value.items()) if isinstance(value, dict) else enumerate(value)


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


def _check_lower_case(variant: str, options: object) -> None:
    """Refuse upper case in the names of a variant spec: names in a record are lower case, as the writer puts them
    and as ``game`` and ``options`` are compared (the spec reader itself would ignore the case)."""
    m = _SPEC_NAME.match(variant)
    written = m.group(1) if m else ""
    if written != written.lower():
        raise _error(
            "variant",
            f"the name {quoted(written)} has upper case letters; game and variant names are lower case in a record: "
            f"write {quoted(written.lower())}",
        )
    _, raw = split_spec(variant)
    for key, text in raw.items():
        if isinstance(getattr(options, key, None), enum.Enum) and text != text.lower():
            raise _error(
                "variant",
                f"option {key}={text}: the value has upper case letters; option values that are names are lower "
                f"case in a record: write {key}={text.lower()}",
            )


def _check_game(record: JsonObject) -> tuple[SomeGame, object, str, JsonObject]:
    """Read ``game``, ``variant`` and ``options``: the game, its options, the canonical spec, the options as JSON."""
    game = record["game"]
    if not isinstance(game, str) or not game:
        raise _error("game", f"expected the name of a game, such as {default_game().name!r}, got {_kind(game)}")
    if game != game.lower():
        raise _error(
            "game",
            f"{quoted(game)} has upper case letters; game names are lower case in a record: write "
            f"{quoted(game.lower())}",
        )
    try:
        info, _ = find_game(game)
    except ClubsError as exc:
        raise _error("game", str(exc)) from None
    if info.name != game:
        raise _error(
            "game",
            f"{quoted(game)} is a variant of {info.name!r}: put {info.name!r} here and {quoted(game)} in variant",
        )
    variant = record["variant"]
    if not isinstance(variant, str) or not variant.strip():
        raise _error("variant", f"expected a rules options spec such as {quoted(game)}, got {_kind(variant)}")
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
        raise _error(
            "variant",
            f"{quoted(variant)} is a spec of the game {vinfo.name!r}, but the record's game is {quoted(game)}",
        )
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
                    f"options.{shown(key)}",
                    f"unknown option {quoted(key)} of {info.name}; the options are: {', '.join(values)}",
                )
            if not _is_option_value(value):
                raise _error(
                    f"options.{shown(key)}",
                    f"expected a string, a whole number, true or false, or a list of whole numbers, got {_kind(value)}",
                )
            if not same_json(value, values[key]):
                raise _error(
                    f"options.{key}",
                    f"the record says {json_shown(value)} but the variant {quoted(variant)} gives "
                    f"{json_shown(values[key])}; the options must agree with the variant spec",
                )
    return info, options, canon, values


def _check_seats(record: JsonObject, n_seats: int) -> list[JsonObject]:
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
        if "bot" in seat:
            bot = seat["bot"]
            if not isinstance(bot, str) or not bot.strip() or len(bot) > BOT_SPEC_MAX:
                raise _error(
                    f"{path}.bot",
                    f"expected the bot that played the seat, a non-empty string of at most {BOT_SPEC_MAX} characters "
                    f"(such as 'normal' or 'pimc(samples=8)'), got {_kind(bot)}",
                )
            if seat.get("kind") != "bot":
                raise _error(f"{path}.bot", 'a seat names its bot only with "kind": "bot"')
    return seats


def _check_seed(value: JsonValue, path: str, what: str, why: str = "") -> int:
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


def _check_hand(info: SomeGame, entry: JsonValue, index: int, has_seed: bool) -> HandEntry:
    """Read one element of ``hands``: its deal (explicit, seeded or from the match seed) and its actions."""
    path = f"hands[{index}]"
    if not isinstance(entry, dict):
        raise _error(path, f'expected an object such as {{"actions": ["keep", ...]}}, got {_kind(entry)}')
    _check_keys(entry, path, HAND_FIELDS, ("actions",))
    deal: object = None
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


class _CheckedHands(Sequence[HandEntry]):
    """The hands of a record, each checked by :func:`_check_hand` when it is read, and not kept.

    Reading a hand checks only that hand, so the work done before the first rule is checked does not grow with the
    number of hands, and no second copy of every hand stays in memory beside the record.
    """

    def __init__(self, info: SomeGame, raw: list[JsonValue], has_seed: bool) -> None:
        self._info = info
        self._raw = raw
        self._has_seed = has_seed

    def __len__(self) -> int:
        return len(self._raw)

    @overload
    def __getitem__(self, index: int) -> HandEntry: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[HandEntry]: ...

    def __getitem__(self, index: int | slice) -> HandEntry | Sequence[HandEntry]:
        if isinstance(index, slice):
            return [self[i] for i in range(len(self._raw))[index]]
        if index < 0:
            index += len(self._raw)
        if not 0 <= index < len(self._raw):
            raise IndexError(index)
        return _check_hand(self._info, self._raw[index], index, self._has_seed)


def check_header(record: JsonValue) -> CheckedRecord:
    """Check everything of a record but its hands, which are checked one by one as they are read from
    ``CheckedRecord.hands``: the replayer's way in, so that checking keeps pace with replaying."""
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
    result = record.get("result")
    if "result" in record and not isinstance(result, dict):
        raise _error("result", f"expected an object (what the replay gives), got {_kind(result)}")
    entries = _CheckedHands(info, hands, seed is not None)
    return CheckedRecord(info, options, canon, values, n_seats, seats, first_dealer, seed, entries, result)


def check_record(record: JsonValue) -> CheckedRecord:
    """Check the shape of a record (everything short of playing it) and read it; raises InvalidRecordError."""
    checked = check_header(record)
    entries = tuple(checked.hands)  # checks every hand
    return dataclasses.replace(checked, hands=entries)


def validate_record(record: JsonValue) -> None:
    """Raise InvalidRecordError, naming the field, if the record is not well formed (rules are not checked)."""
    check_record(record)
