"""What a table tells the people at it: the parts of the table protocol's messages that follow from the match alone.

The table protocol (``docs/protocol.md``) has two transports: a server's table over a WebSocket
(:mod:`clubsuite.server.table`) and the offline table in the page, a Web Worker running this package with the
standard library alone (:mod:`clubsuite.offline`). Both make their messages with these functions, so the page reads
the same ``state`` and ``update`` whichever one it talks to: a seat's part (its view, what it may do, what it is
asked, each action's label and the lesson's step), the public events worded as the table tells them, the result,
the hands played, and a match started or advanced from its seed.

Nothing here knows of sockets, seats' tokens, timers or storage; each transport keeps those of its own.
"""

from __future__ import annotations

import random

from clubsuite import lesson
from clubsuite.bots.base import SomeBot, bot_names, make_bot
from clubsuite.engine import Events, SomeGame, SomeMatch
from clubsuite.jsonform import JsonObject, JsonValue
from clubsuite.naming import name_words, rules_words, table_name
from clubsuite.present import asked, contained, labels, offered, wire_form, with_account, with_said, with_shown
from clubsuite.reasons import reason_of
from clubsuite.runner import deal_next
from clubsuite.seeding import derive_seed

PROTOCOL = 1
"""The protocol version; a client that speaks another is told so and the connection is closed."""

SETTLED = frozenset({"TrickTaken", "TrickWon", "HandScored"})
"""Events after which a bot waits longer before it acts (:data:`AFTER_TRICK`): a finished trick stays in view on
the players' pages a moment (the page's own pause, a second by default), and a bot leading at once would end it."""
AFTER_TRICK = 1.0
"""Seconds a bot waits after a finished trick beyond its delay, at most twice its delay (a table whose bots act at
once, a delay of 0, goes on at once)."""


def message(kind: str, **fields: JsonValue) -> JsonObject:
    """A table's message of ``kind`` with the protocol version."""
    return {"type": kind, "protocol": PROTOCOL, **fields}


def error(code: str, text: str, version: int | None = None) -> JsonObject:
    """An error message (``code``: one word, as ``docs/protocol.md`` lists them). Where the rules refused (``text``
    is a :class:`~clubsuite.reasons.Reason`), the reason's code, ruling and parameters go with the English words, so
    that a page words it in its reader's language."""
    fields: dict[str, JsonValue] = {"code": code, "message": str(text)}
    reason = reason_of(text)
    if reason is not None:
        fields["reason"] = reason.to_json()
    if version is not None:
        fields["version"] = version
    return message("error", **fields)


def start_match(info: SomeGame, options: object, match_no: int, seed: int) -> tuple[SomeMatch, Events]:
    """A new match of the table: the first dealer moves one seat left with each match; the first hand is dealt."""
    n = info.n_seats(options)
    match = info.new_match(options, match_no % n)
    return match, advance(match, info, seed)


def advance(match: SomeMatch, info: SomeGame, seed: int) -> Events:
    """Deal the next hand (from the match seed) when the last one has ended and the match goes on."""
    events: Events = ()
    while not match.is_over and match.to_act is None:
        events += deal_next(match, info, seed)
    return events


def told(info: SomeGame, events: Events, view: JsonObject) -> list[JsonObject]:
    """The public events of one change as the table tells them: each in its wire form (every engine event is
    public), with what it says in the game's words (:func:`clubsuite.present.with_said`; ``view``: the public view
    after them)."""
    return with_said(info, [wire_form(e) for e in events], view)


def settles(events: Events) -> tuple[bool, bool]:
    """Whether the events end a trick or a hand (a bot then waits a moment longer), and whether a hand was scored."""
    kinds = {type(e).wire for e in events}
    return bool(kinds & SETTLED), "HandScored" in kinds


def named(info: SomeGame, options: object, host: str | None) -> JsonObject:
    """What a table's summary says of its game and name: its game's name and title, the table's name in plain words
    and as its parts (for a page to word it in its reader's language), its host and the rules that differ."""
    return {
        "base": info.name,
        "title": info.title,
        "name": table_name(info, options, host),
        "name_words": name_words(info, options, host),
        "host": host,
        "rules": rules_words(info, options),
    }


def seat_part(info: SomeGame, match: SomeMatch, options: object, seat: int, step: JsonObject | None) -> JsonObject:
    """The part of a state or an update that only ``seat`` receives: its view with what it shows beside the cards
    and, when the seat is to act, its legal actions in the order its game offers them, what it is asked, each
    action's label and note, and ``step`` (the lesson's step, at a coached table) where there is one. All of it is
    derived from the seat's own view: it tells the seat nothing new."""
    view = match.view(seat).to_dict()
    view.pop("legal", None)
    with_shown(info, view, options)
    if match.to_act != seat:
        return {"view": view, "legal": None}
    offers = offered(info, match)
    legal = [o.text for o in offers]
    out: JsonObject = {"view": view, "legal": legal}
    out["asked"] = contained(lambda: asked(info, view, options, legal), info, "asked")
    out["labels"] = contained(lambda: labels(info, view, legal), info, "label") or {}
    notes = {o.text: o.note.to_json() for o in offers if o.note is not None}
    if notes:
        out["notes"] = notes
    if step is not None:
        out["lesson"] = step
    return out


def lesson_step(info: SomeGame, match: SomeMatch, seat: int, match_no: int, rng: random.Random) -> JsonObject | None:
    """The step of the scripted first hand (:mod:`clubsuite.lesson`) for ``seat``, to act now at a coached table:
    the choice the game's instant heuristic bot makes from the seat's own view (``rng``: as a hint's, the same every
    time for the same version), pointed at and said why; past the steps, in the rest of the first hand,
    ``{"step": null}`` (the hand is the player's own now); None after it, and in a later match."""
    if match_no != 0 or len(match.hands) != 1 or lesson.lesson_of(info) is None:
        return None
    made = lesson.step(info, match, seat, lambda: lesson.pointer(info, match, seat, rng))
    return made.to_json() if made is not None else {"step": None, "steps": lesson.MAX_STEPS}


def result(match: SomeMatch) -> JsonValue:
    """The match's result once it is over (the winning seats, whether it was a draw, the totals), else None."""
    if not match.is_over:
        return None
    summary = match.summary()
    return {"winners": summary["winners"], "draw": summary["draw"], "totals": summary["totals"]}


def hands_played(info: SomeGame, match: SomeMatch) -> list[JsonValue]:
    """The account of every complete hand of the match (public: each is settled and its play was on the table), for
    the score sheet."""
    hands = match.summary()["hands"]
    assert isinstance(hands, list)
    return [with_account(info, h) for h in hands if isinstance(h, dict) and h.get("complete") is True]


def instant_bot_name(info: SomeGame, otherwise: str = "random") -> str:
    """The game's instant bot for a hint or a stand-in: its heuristic bot, or ``otherwise`` where it has none."""
    return "heuristic" if "heuristic" in bot_names(info.name) else otherwise


def choose(bot: SomeBot, match: SomeMatch, seat: int, rng: random.Random) -> object:
    """A bot's decision for ``seat``, from that seat's view only."""
    return bot.choose(match.view(seat), match.legal_actions(), rng)


def hint_rng(seed: int, match_no: int, version: int, seat: int) -> random.Random:
    """The random source of a hint (and of a lesson's step) for ``seat`` on ``version``: the same every time."""
    return random.Random(derive_seed(seed, match_no, version, seat + 1))


def hint(info: SomeGame, match: SomeMatch, seat: int, fallback: str, rng: random.Random) -> str:
    """The hint for ``seat``, to act now: what the game's heuristic bot (``fallback`` where the game has none) plays
    from the seat's own view, in notation."""
    bot = make_bot(instant_bot_name(info, fallback), info.name)
    return match.format_action(choose(bot, match, seat, rng))
