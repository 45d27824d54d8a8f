"""Reasons as data: why the engine refuses an action, as a stable code, the ruling it applies and its parameters,
with the English sentence rendered from them.

Every refusal the rules give (``explain``, :class:`~clubsuite.errors.IllegalActionError` and the other errors an
action can meet, notation included) is a :class:`Reason`. A reason *is* its English sentence (a ``str``), so the
command line, the records and every caller that reads the text see exactly the words they always did; beside the
text it carries :attr:`Reason.code`, :attr:`Reason.rule` and :attr:`Reason.params`, which the server sends so that a
page can word the refusal in its reader's language from the same catalog (:mod:`clubsuite.i18n`).

A template is registered once, by the module that raises it (:func:`template`), with its English text in
``str.format`` style. Parameters are plain JSON values, and their *names* say what they are, so that every language
can word them (a card's name, a seat's player, a suit's name):

``card``, ``*_card``
    one card, in notation (``QH``); ``cards``, ``*_cards``: several, as a list, written with spaces.
``seat``, ``*_seat``
    a seat number (0-based, as the engine counts); ``seats``, ``*_seats``: several, as a list, worded as a list of
    names ("Ann, Bob and you").
``suit``, ``*_suit``
    a suit's key, ``clubs``, ``diamonds``, ``hearts`` or ``spades``; ``{suit}`` is the plural word, ``{suit:one}``
    the singular, ``{suit:cap}`` the plural at the start of a sentence ("Hearts were led").
``n``, ``count``, ``*_count``
    a whole number; the one a plural template is chosen by is named by :attr:`Template.count`; ``{count:word}``
    says two to ten in words ("two"), ``{count:cap}`` so at the start of a sentence ("Two").
``reason``, ``*_reason``
    another :class:`Reason`, worded in its place (a refusal that adds an alternative to another); ``items``,
    ``*_items``: several, worded each and listed with commas ("Ann +3, you -2").
anything else
    text shown as it is: the action as typed, a notation, a word of the game.
"""

from __future__ import annotations

import functools
import string
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TypeAlias

from clubsuite.jsonform import JsonObject, JsonValue

Param: TypeAlias = "str | int | tuple[str, ...] | tuple[int, ...] | Reason | tuple[Reason, ...]"
"""A parameter's value: a card, a word or a text (``str``), a number or seat (``int``), several cards or seats (a
tuple), or a reason within the reason (a ``reason`` parameter: a refusal that adds to another)."""

SUITS = ("clubs", "diamonds", "hearts", "spades")
"""The suit keys a ``suit`` parameter takes."""
NUMBER_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten"}
"""The counts a ``{count:word}`` says in words (others in digits)."""


@dataclass(frozen=True)
class Template:
    """One kind of refusal: its code, the ruling it applies and its English text (with a plural where a count
    chooses the words)."""

    code: str
    """Stable and unique: ``<game>.<what>`` (``<game>.must_follow``), or ``cards.<what>`` and ``engine.<what>`` for
    the reasons every game shares. Pages and catalogs key on it: never reuse a code for other words."""
    text: str
    """The English sentence, ``str.format`` style, with the ruling's id where the engine always gave it."""
    rule: str | None = None
    """The ruling applied (its id, such as ``XX-1``), for a page's "why?"; ``None`` where no ruling is concerned."""
    plural: str | None = None
    """The English sentence when :attr:`count` is not 1; ``None`` for a template without plural."""
    count: str | None = None
    """The parameter whose number chooses between :attr:`text` and :attr:`plural`."""

    def words(self, count: int | None) -> str:
        """The text (singular or plural) for ``count``, in English."""
        return self.text if self.plural is None or count == 1 else self.plural

    def fields(self) -> frozenset[str]:
        """The parameter names the texts use."""
        return _fields(self.text, self.plural or "")


@functools.cache
def _fields(*texts: str) -> frozenset[str]:
    """The parameter names ``texts`` use (read once per template: a reason is made at every update of a table)."""
    names = set()
    for text in texts:
        names |= {name for _, name, _, _ in string.Formatter().parse(text) if name}
    return frozenset(names)


Piece = tuple[str, str | None, str]
"""A piece of a template as :func:`_pieces` reads it: the literal text before a field, the field's name (None after
the last field) and its format spec."""


@functools.cache
def _pieces(text: str) -> tuple[Piece, ...] | None:
    """``text`` read once into its literal text and fields, or None where a field is more than a plain name (a
    conversion, an index, a nested spec: formatted by :class:`string.Formatter` itself)."""
    out: list[Piece] = []
    for literal, name, spec, conversion in string.Formatter().parse(text):
        if name is not None and (conversion or not name.isidentifier() or "{" in (spec or "")):
            return None
        out.append((literal, name, spec or ""))
    return tuple(out)


_TEMPLATES: dict[str, Template] = {}


def template(
    code: str, text: str, rule: str | None = None, plural: str | None = None, count: str | None = None
) -> Template:
    """Register a refusal's template (once per code; a module imported twice gives back the same template)."""
    new = Template(code, text, rule, plural, count)
    old = _TEMPLATES.setdefault(code, new)
    if old != new:
        raise ValueError(f"reason code {code!r} registered twice with different words")
    if (plural is None) != (count is None):
        raise ValueError(f"reason code {code!r}: a plural needs the parameter that counts, and only a plural does")
    return new


def templates() -> Mapping[str, Template]:
    """Every registered template by code (the modules that register them must have been imported)."""
    return dict(_TEMPLATES)


@functools.cache
def kind_of(name: str) -> str:
    """What a parameter is, by its name: ``card``, ``cards``, ``seat``, ``seats``, ``suit``, ``reason``,
    ``items``, ``count`` or ``text``."""
    for kind in ("cards", "card", "seats", "seat", "suit", "reason", "items"):
        if name == kind or name.endswith("_" + kind):
            return kind
    if name in ("n", "count") or name.endswith("_count"):
        return "count"
    return "text"


class _English(string.Formatter):
    """Formats parameters as the engine always wrote them: cards by notation, seats and numbers as numbers."""

    def format_field(self, value: object, format_spec: str) -> str:
        if isinstance(value, Reason):
            return str(value)
        if isinstance(value, tuple):
            return (", " if value and isinstance(value[0], Reason) else " ").join(str(v) for v in value)
        if format_spec == "one" and isinstance(value, str):
            return value[:-1]  # a suit key's singular: "hearts" -> "heart"
        if format_spec == "cap" and isinstance(value, str):
            return value[:1].upper() + value[1:]  # a suit key at the start of a sentence: "Hearts"
        if format_spec in ("word", "cap") and isinstance(value, int):
            word = NUMBER_WORDS.get(value, str(value))
            return word[:1].upper() + word[1:] if format_spec == "cap" else word
        return str(super().format_field(value, format_spec))


_ENGLISH = _English()


def _english(text: str, params: Mapping[str, Param]) -> str:
    """``text`` with ``params`` in, as ``_ENGLISH.format(text, **params)`` writes it, from the template's pieces read
    once (:func:`_pieces`) instead of parsing it again for every reason made."""
    pieces = _pieces(text)
    if pieces is None:
        return _ENGLISH.format(text, **params)
    field = _ENGLISH.format_field
    return "".join(literal if name is None else literal + field(params[name], spec) for literal, name, spec in pieces)


MADE_KEPT = 4096
"""How many reasons are kept once made (:data:`_MADE`): the facts and prompts of a table's update are mostly the same
few sentences again, remade for every seat at every update."""
_MADE: dict[tuple[object, ...], Reason] = {}
"""Reasons made, by class, template and parameters: a reason is immutable (a string with its code and parameters),
so the same one is given again instead of checking and formatting it again. Emptied when it holds
:data:`MADE_KEPT`."""


def _key(cls: type, kind: Template, params: Mapping[str, Param]) -> tuple[object, ...] | None:
    """The key of a reason in :data:`_MADE`, or None for one made each time: a parameter of any type but exactly
    ``str``, ``int`` or a tuple of ``str`` (equal values of other types may be written otherwise: ``True`` and ``1``,
    a nested reason and its words)."""
    for value in params.values():
        plain = type(value) is str or type(value) is int
        if not plain and (type(value) is not tuple or any(type(x) is not str for x in value)):
            return None
    return (cls, kind, tuple(params.items()))


class Reason(str):
    """A refusal: its English sentence (the ``str`` itself) with its :attr:`code`, :attr:`rule` and
    :attr:`params`, from which any language words it."""

    code: str
    rule: str | None
    params: Mapping[str, Param]
    _words: JsonObject

    def __new__(cls, kind: Template, **params: Param) -> Reason:
        key = _key(cls, kind, params)
        made = _MADE.get(key) if key is not None else None
        if made is not None:
            return made
        made = cls._make(kind, params)
        if key is not None:
            if len(_MADE) >= MADE_KEPT:
                _MADE.clear()
            _MADE[key] = made
        return made

    @classmethod
    def _make(cls, kind: Template, params: dict[str, Param]) -> Reason:
        missing = kind.fields() - params.keys()
        if missing:
            raise TypeError(f"reason {kind.code} needs {', '.join(sorted(missing))}")
        for name, value in params.items():
            if kind_of(name) == "suit" and value not in SUITS:
                raise ValueError(f"reason {kind.code}: {name}={value!r} is not a suit key")
        count = params.get(kind.count) if kind.count else None
        text = _english(kind.words(count if isinstance(count, int) else None), params)
        made = super().__new__(cls, text)
        made.code = kind.code
        # a refusal that adds to another ("...; or pass") applies the ruling of the one it adds to
        inner = [v.rule for v in params.values() if isinstance(v, Reason) and v.rule]
        made.rule = kind.rule or (inner[0] if inner else None)
        made.params = params
        return made

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled (to a worker process, in a copy) as the template and parameters, and made again there."""
        return (_remake, (self.code, dict(self.params)))

    @classmethod
    def from_json(cls, data: Mapping[str, JsonValue]) -> Reason:
        """The reason of its protocol form (:meth:`to_json`), its template looked up by code."""
        params: dict[str, Param] = {}
        for name, value in dict(data.get("params") or {}).items():
            if isinstance(value, dict):
                params[name] = cls.from_json(value)
            elif isinstance(value, list):
                params[name] = tuple(cls.from_json(v) if isinstance(v, dict) else v for v in value)
            else:
                params[name] = value
        return cls(_TEMPLATES[str(data["code"])], **params)

    def words_json(self) -> JsonObject:
        """The words alone, as the protocol sends what a table shows and tells: ``{"code", "params"}`` (no ruling,
        no empty parameters; nested reasons so too), which a page words as it words :meth:`to_json`. Made once per
        reason and given again (a table's every update words the same reasons for every seat): read it, never change
        it."""
        made: JsonObject | None = self.__dict__.get("_words")
        if made is None:
            made = {"code": self.code}
            if self.params:
                made["params"] = {k: _json_param(v, words=True) for k, v in self.params.items()}
            self._words = made
        return made

    def to_json(self) -> JsonObject:
        """The form the protocol sends: ``{"code", "rule", "params"}`` (lists for several cards)."""
        params = {k: _json_param(v) for k, v in self.params.items()}
        return {"code": self.code, "rule": self.rule, "params": params}


def _json_param(value: Param, words: bool = False) -> JsonValue:
    if isinstance(value, Reason):
        return value.words_json() if words else value.to_json()
    if isinstance(value, tuple):
        return [(v.words_json() if words else v.to_json()) if isinstance(v, Reason) else v for v in value]
    return value


def _remake(code: str, params: dict[str, Param]) -> Reason:
    return Reason(_TEMPLATES[code], **params)


def cards_param(cards: Iterable[object]) -> tuple[str, ...]:
    """Several cards as a ``cards`` parameter: their notations, in the order given."""
    return tuple(str(c) for c in cards)


def reason_of(error: BaseException | str | None) -> Reason | None:
    """The reason an error (or ``explain``'s answer) carries, if it carries one."""
    if isinstance(error, Reason):
        return error
    if isinstance(error, BaseException) and error.args and isinstance(error.args[0], Reason):
        return error.args[0]
    return None


# -- the reasons every game shares ------------------------------------------------------------------------------
NOT_YOUR_TURN = template("engine.not_your_turn", "seat {seat} tried {action}, but it is seat {turn_seat}'s turn")
HAND_OVER = template("engine.hand_over", "{action} cannot be played: the hand is over")
MATCH_OVER = template("engine.match_over", "{action} cannot be played: the match is over")
NO_HAND = template("engine.no_hand", "{action} cannot be played: no hand is in progress, deal first")
NO_SUCH_SEAT = template("engine.no_such_seat", "seat {seat} does not exist: expected 0 to {last_seat}")
NOT_HELD = template("engine.not_held", "{card} is not in your hand (rule: you play a card you hold)")
ASKED_MATCH_OVER = template("engine.asked_match_over", "the match is over")
ASKED_NO_HAND = template("engine.asked_no_hand", "no hand is in progress: deal first")
ASKED_NOT_YOUR_TURN = template("engine.asked_not_your_turn", "it is seat {turn_seat}'s turn, not seat {seat}'s")


def not_your_turn(seat: int, action: object, turn_seat: int | None) -> Reason:
    """``seat`` tried ``action`` while ``turn_seat`` is to act (there is one: a finished hand refuses first)."""
    if turn_seat is None:
        raise ValueError("not_your_turn needs the seat to act")
    return Reason(NOT_YOUR_TURN, seat=seat, action=str(action), turn_seat=turn_seat)
