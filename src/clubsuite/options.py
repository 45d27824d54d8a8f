"""Rules options as data: one string spec syntax shared by the CLI, records, simulation and research code.

A spec is a game or variant name, optionally followed by ``key=value`` pairs in parentheses::

    game
    game(option=value)
    game-variant(option=value,other=value)

Values are true/false, whole numbers, names, or tables of whole numbers written with slashes (``3/3/2/1``).

Each game declares its options as a frozen, keyword-only dataclass whose fields carry a one-line ``doc`` and the
``ruling`` id they implement in their metadata, and a registry of named variants (a name and the option values it
presets). :func:`parse_options` turns a spec into such a dataclass, naming the bad key or value on error.
"""

from __future__ import annotations

import dataclasses
import enum
import re
import typing
from collections.abc import Mapping
from typing import TYPE_CHECKING, TypeVar

from clubsuite.errors import InvalidOptionsError
from clubsuite.safetext import quoted

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

_NAME_RE = re.compile(r"[A-Za-z][\w-]*")
_KEY_RE = re.compile(r"[A-Za-z_]\w*\Z")

T = TypeVar("T")
D = TypeVar("D", bound="DataclassInstance")


def option(default: T, doc: str, ruling: str = "") -> T:
    """A dataclass field for a rules option, with its one-line description and ruling id."""
    return dataclasses.field(default=default, metadata={"doc": doc, "ruling": ruling})


def _not_key_value(spec: str, part: str) -> str:
    """The message for a part of a spec's option list that is not ``key=value``."""
    return f"in the variant spec {quoted(spec)}: {quoted(part.strip())} is not key=value"


def split_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``name(k=v, ...)`` into the name and the raw string values, checking only the syntax.

    Read by a scan that looks at each character a bounded number of times, so the time is linear in the length of
    the spec whatever it holds (a spec may come from a stranger's record or a network message); a pattern that
    backtracks over runs of spaces took seconds for a spec of tens of thousands of characters.
    """
    text = spec.strip()
    m = _NAME_RE.match(text)
    rest = text[m.end() :].lstrip() if m is not None else ""
    if m is None or (rest and not (rest.startswith("(") and rest.endswith(")"))):
        raise InvalidOptionsError(
            f"cannot read the variant spec {quoted(spec)}: expected NAME or NAME(key=value, ...), "
            "e.g. game(option=value)"
        )
    name, body = m.group(0).lower(), rest[1:-1] if rest else None
    values: dict[str, str] = {}
    if body is not None and body.strip():
        for part in body.split(","):
            if "=" not in part:
                raise InvalidOptionsError(
                    f"in the variant spec {quoted(spec)}: {quoted(part.strip())} is not key=value"
                )
            key, _, value = part.partition("=")
            key, value = key.strip(), value.strip()
            if not _KEY_RE.match(key) or not value:
                raise InvalidOptionsError(
                    f"in the variant spec {quoted(spec)}: {quoted(part.strip())} is not key=value"
                )
            if key in values:
                raise InvalidOptionsError(f"in the variant spec {quoted(spec)}: option {quoted(key)} is given twice")
            values[key] = value
    return name, values


def _convert(cls_name: str, key: str, raw: str, typ: object) -> object:
    if typ is bool:
        low = raw.lower()
        if low in ("true", "yes", "on", "1"):
            return True
        if low in ("false", "no", "off", "0"):
            return False
        raise InvalidOptionsError(f"option {key}={quoted(raw)} of {cls_name}: expected true or false")
    if typ is int:
        if not re.fullmatch(r"[+-]?[0-9]{1,18}", raw):
            raise InvalidOptionsError(f"option {key}={quoted(raw)} of {cls_name}: expected a whole number")
        return int(raw)
    if isinstance(typ, type) and issubclass(typ, enum.Enum):
        for member in typ:
            if str(member.value) == raw.lower():
                return member
        allowed = ", ".join(str(m.value) for m in typ)
        raise InvalidOptionsError(f"option {key}={quoted(raw)} of {cls_name}: expected one of {allowed}")
    if typ is str:
        return raw
    if typing.get_origin(typ) is tuple and typing.get_args(typ)[1:] == (Ellipsis,):
        # A table of numbers is written with slashes, since commas separate the options: 3/3/2/1.
        parts = raw.split("/")
        return tuple(_convert(cls_name, f"{key}[{i}]", p.strip(), typing.get_args(typ)[0]) for i, p in enumerate(parts))
    raise InvalidOptionsError(f"option {key} of {cls_name} cannot be set from a spec")


def build_options(cls: type[D], values: Mapping[str, str], spec: str = "") -> D:
    """Make an options dataclass from raw string values, checking every key and value."""
    hints = typing.get_type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls)}
    kwargs: dict[str, object] = {}
    for key, raw in values.items():
        if key not in fields:
            known = ", ".join(sorted(fields)) or "none"
            where = f" in {quoted(spec)}" if spec else ""
            raise InvalidOptionsError(f"unknown option {quoted(key)}{where}; the options are: {known}")
        try:
            kwargs[key] = _convert(cls.__name__, key, raw, hints[key])
        except InvalidOptionsError as exc:
            ruling = fields[key].metadata.get("ruling", "")
            raise InvalidOptionsError(f"{exc} ({ruling})" if ruling else str(exc)) from None
    try:
        return cls(**kwargs)
    except InvalidOptionsError:
        raise
    except (TypeError, ValueError) as exc:
        raise InvalidOptionsError(f"bad options {quoted(spec) if spec else quoted(str(dict(values)))}: {exc}") from None


def format_value(value: object) -> str:
    """The spec text of one option value."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, enum.Enum):
        return str(value.value)
    if isinstance(value, tuple):
        return "/".join(format_value(v) for v in value)
    return str(value)


def spec_of(game: str, options: object) -> str:
    """The canonical spec of an options object (a dataclass instance, TypeError otherwise): the game name and every
    value that differs from its default."""
    if not dataclasses.is_dataclass(options):
        raise TypeError(f"options are a dataclass instance, not {options!r}")
    parts = []
    for f in dataclasses.fields(options):
        value = getattr(options, f.name)
        if value != f.default:
            parts.append(f"{f.name}={format_value(value)}")
    return f"{game}({','.join(parts)})" if parts else game


def describe(cls: type[DataclassInstance]) -> list[tuple[str, str, str, str]]:
    """(name, default, doc, ruling) for every option of a game, for ``--help`` and the docs."""
    return [
        (f.name, format_value(f.default), f.metadata.get("doc", ""), f.metadata.get("ruling", ""))
        for f in dataclasses.fields(cls)
    ]
