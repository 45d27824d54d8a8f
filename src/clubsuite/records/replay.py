"""Replaying a match record through the game's engine, checking every rule, and the JSON account of the result.

Replay rebuilds the match from nothing: each hand is dealt as the record says and each action is read with the
game's own notation and applied by the game's own engine, so a record is valid exactly when the engine accepts
it. Errors name the hand, the action (within the hand and overall), the seat and the rule broken, each counted from
1 as players count (the record's lists and the engine count from 0; :func:`_said` turns one into the other); a failed
replay returns nothing and leaves the record untouched.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from dataclasses import dataclass

from clubsuite.cards import Card
from clubsuite.engine import Events, Phase, SomeGame, SomeMatch
from clubsuite.errors import ClubsError, InvalidRecordError
from clubsuite.events import Event
from clubsuite.jsonform import JsonObject, JsonValue
from clubsuite.records.format import EXTENSION_PREFIX, CheckedRecord, HandEntry, check_header, same_json
from clubsuite.safetext import json_shown, quoted, shown
from clubsuite.seeding import hand_seed


@dataclass(frozen=True)
class ReplayResult:
    """A replayed record: the rebuilt match and what happened in each hand."""

    record: JsonObject
    """The record as given."""
    info: SomeGame
    """The game's registry entry."""
    options: object
    """The game's options object."""
    variant: str
    """The canonical options spec."""
    options_json: JsonObject
    """The options as JSON values."""
    seats: list[JsonObject]
    """The seats of the record."""
    match: SomeMatch
    """The match, in the state the record leaves it in (it can be played on)."""
    events: list[Events]
    """For each hand, every event in order: those of the deal, then those of each action."""


_BETWEEN_HANDS = (Phase.DEAL, Phase.OVER)


def _between_hands(match: SomeMatch) -> bool:
    """Whether the match waits for a deal or has ended (no hand in progress)."""
    return match.phase in _BETWEEN_HANDS


def _deal_for(checked: CheckedRecord, entry: HandEntry, index: int, dealer: int) -> object:
    """The deal of hand ``index`` (``entry``): explicit, from its own seed, or from the match seed."""
    if entry.deal is not None:
        return entry.deal
    if entry.deal_seed is not None:
        return checked.info.deal_from_seed(entry.deal_seed, dealer)
    assert checked.seed is not None  # check_record refuses a hand with no deal and no match seed
    return checked.info.deal_from_seed(hand_seed(checked.seed, index), dealer)


def _verb(action: object) -> str:
    """The verb of an action in messages: a card is played, anything else chosen."""
    return "plays" if isinstance(action, Card) else "chooses"


def _between_hands_action(match: SomeMatch, text: str) -> object:
    """The action ``text`` if the game accepts it after a hand is scored (``acts_between_hands``), else None.

    Some games let an action concern the hand just scored (the call of a misplay after the hand); a record
    writes it as the last action of that hand. Any other action there is out of place.
    """
    accepts = getattr(match, "acts_between_hands", None)
    if accepts is None:
        return None
    try:
        action = match.parse_action(text)
    except ClubsError:
        return None
    return action if accepts(action) else None


def _said(number: int) -> int:
    """A hand, action or seat (the record's and the engine's, from 0) as a refusal names it to a person, from 1."""
    return number + 1


def _replay_hand(
    checked: CheckedRecord, entry: HandEntry, match: SomeMatch, index: int, overall: int, previous: int
) -> Events:
    """Deal and play hand ``index`` of the record (``entry``, already checked) onto ``match``; returns its events.

    ``overall`` counts the actions of the hands before, ``previous`` those of the hand just before (for messages).
    """
    events: list[Event] = []
    for step in _hand_steps(checked, entry, match, index, overall, previous):
        events.extend(step.events)
    return tuple(events)


@dataclass(frozen=True)
class Step:
    """One step of a replay: the deal of a hand (``action`` None) or one action, with the seat that made it and
    its events; the match is in the state just after it."""

    hand: int
    """The hand's index in the record."""
    action: str | None
    """The action as the record writes it, or None for the deal."""
    seat: int | None
    """The seat that acted (None for the deal)."""
    events: Events


def _hand_steps(
    checked: CheckedRecord, entry: HandEntry, match: SomeMatch, index: int, overall: int, previous: int
) -> Iterator[Step]:
    """:func:`_replay_hand` one step at a time: the deal, then each action, each yielded once applied."""
    if match.is_over:
        raise InvalidRecordError(
            f"hand {_said(index)}: the match ended after hand {_said(index - 1)} (the end condition was met), "
            "so no further hand may follow"
        )
    if not _between_hands(match):
        n = previous
        raise InvalidRecordError(
            f"hand {_said(index - 1)} is not complete (it stops after {n} action{'' if n == 1 else 's'}, with seat "
            f"{_said(match.to_act) if match.to_act is not None else '-'} to act) but another hand follows it; only "
            "the last hand may be unfinished"
        )
    try:
        dealt = match.deal(deal=_deal_for(checked, entry, index, match.next_dealer))
    except ClubsError as exc:
        raise InvalidRecordError(f"hand {_said(index)}: the deal cannot be used: {exc}") from None
    yield Step(index, None, None, dealt)
    for j, text in enumerate(entry.actions):
        where = f"hand {_said(index)}, action {_said(j)} (overall {_said(overall + j)})"
        seat = match.to_act
        if _between_hands(match):
            action = _between_hands_action(match, text)
            if action is None:
                raise InvalidRecordError(
                    f"{where}: {quoted(text.strip())} comes after the end of the hand, which is complete after {j} "
                    "actions"
                )
        else:
            try:
                action = match.parse_action(text)
            except ClubsError as exc:  # InvalidNotationError, or whatever else a game's reader refuses with
                raise InvalidRecordError(
                    f"hand {_said(index)}, action {_said(j)}, seat {_said(seat) if seat is not None else '-'}: {exc} "
                    f"(overall action {_said(overall + j)})"
                ) from None
        actor_of = getattr(match, "actor_of", None)
        if actor_of is not None:
            seat = actor_of(action)
        try:
            done = match.apply(action)
        except ClubsError as exc:
            who = _said(seat) if seat is not None else "-"
            raise InvalidRecordError(f"{where}, seat {who} {_verb(action)} {text.strip()}: {exc}") from None
        yield Step(index, text, seat, done)


def _compare(given: JsonValue, computed: JsonValue, path: str) -> str | None:
    """The first difference between a stated result and the computed one (its JSON form), or None.

    Objects are compared by the keys the record states (extension keys skipped); everything else exactly by JSON
    type and value (:func:`same_json`: ``false`` is not ``0``, ``-0.0`` is not ``0``). Lists of objects are compared
    item by item to name the item; lists of plain values whole.
    """
    if isinstance(given, dict):
        if not isinstance(computed, dict):
            return f"{path}: the record says {json_shown(given)} but the replay gives {json_shown(computed)}"
        for key, value in given.items():
            if key.startswith(EXTENSION_PREFIX):
                continue
            if key not in computed:
                return f"{path}.{shown(key)}: the replay gives no such field (it gives {', '.join(computed)})"
            diff = _compare(value, computed[key], f"{path}.{shown(key)}")
            if diff is not None:
                return diff
        return None
    nested = isinstance(given, list) and any(isinstance(v, dict | list) for v in given)
    if nested and isinstance(computed, list):
        if len(given) != len(computed):
            return f"{path}: the record lists {len(given)} entries but the replay gives {len(computed)}"
        for i, (a, b) in enumerate(zip(given, computed, strict=True)):
            diff = _compare(a, b, f"{path}[{i}]")
            if diff is not None:
                return diff
        return None
    if same_json(given, computed):
        return None
    return f"{path}: the record says {json_shown(given)} but the replay gives {json_shown(computed)}"


class Replay:
    """A replay in progress: the record's header is checked when it is made, and :meth:`hands` deals and plays the
    hands one at a time, checking each hand's fields just before it is played.

    For a caller that shows each hand as it is replayed (``clubs replay`` streams its account this way) and keeps
    nothing of a hand once it is shown: the work before the first broken rule does not depend on what follows it,
    and memory holds the record and the match, not every event of every hand. :func:`replay` collects it all.
    """

    def __init__(self, record: JsonObject, header: CheckedRecord | None = None) -> None:
        """Check everything but the hands (raises InvalidRecordError) and set up the match before its first deal.

        ``header`` is what an earlier replay of the same record found (:attr:`checked`), to replay it again without
        checking its header twice.
        """
        checked = header if header is not None else check_header(record)
        self.record = record
        """The record as given."""
        self.checked = checked
        self.info: SomeGame = checked.info
        """The game's registry entry."""
        self.options: object = checked.options
        """The game's options object."""
        self.variant: str = checked.variant
        """The canonical options spec."""
        self.options_json: JsonObject = checked.options_json
        """The options as JSON values."""
        self.seats: list[JsonObject] = checked.seats
        """The seats of the record."""
        self.match: SomeMatch = checked.info.new_match(checked.options, checked.first_dealer)
        """The match, in the state the hands replayed so far leave it in."""

    def hands(self) -> Iterator[Events]:
        """Replay every hand in order, yielding the events of each (the deal's, then each action's) once it is
        played; raises InvalidRecordError naming the hand, action, seat and rule at the first problem."""
        overall = previous = 0
        for index, entry in enumerate(self.checked.hands):
            yield _replay_hand(self.checked, entry, self.match, index, overall, previous)
            overall += len(entry.actions)
            previous = len(entry.actions)

    def steps(self) -> Iterator[Step]:
        """Replay every hand one step at a time (each deal, each action), yielding each step once applied, with
        :attr:`match` in the state just after it; raises InvalidRecordError as :meth:`hands` does."""
        overall = previous = 0
        for index, entry in enumerate(self.checked.hands):
            yield from _hand_steps(self.checked, entry, self.match, index, overall, previous)
            overall += len(entry.actions)
            previous = len(entry.actions)

    def check_result(self) -> None:
        """Compare the record's ``result``, if it states one, with the replay (call once every hand is replayed)."""
        if self.checked.result is not None:
            computed = json.loads(
                json.dumps(match_result_json(self.match, self.variant, self.options_json, self.seats))
            )
            diff = _compare(self.checked.result, computed, "result")
            if diff is not None:
                raise InvalidRecordError(f"in the record, {diff}; fix or remove the result field")


def replay(record: JsonObject) -> ReplayResult:
    """Replay a record through the engine; raises InvalidRecordError naming the hand, action, seat and rule."""
    run = Replay(record)
    events = list(run.hands())
    run.check_result()
    return ReplayResult(
        record=record,
        info=run.info,
        options=run.options,
        variant=run.variant,
        options_json=run.options_json,
        seats=run.seats,
        match=run.match,
        events=events,
    )


def match_result_json(match: SomeMatch, variant: str, options: JsonObject, seats: list[JsonObject]) -> JsonObject:
    """The JSON account of a match: the game, its options and seats, the match summary, and who is to act."""
    summary = match.summary()
    hands = []
    for entry in summary["hands"]:
        entry = dict(entry)
        entry.setdefault("totals", None)
        hands.append(entry)
    out: JsonObject = {
        "game": match.game,
        "variant": variant,
        "options": dict(options),
        "seats": copy.deepcopy(seats),
        "hands": hands,
        "totals": list(summary["totals"]),
        "winners": list(summary["winners"]),
        "draw": bool(summary["draw"]),
        "over": bool(match.is_over),
    }
    for key, value in summary.items():
        out.setdefault(key, value)
    if not match.is_over:
        out["to_act"] = match.to_act
        out["legal"] = [match.format_action(a) for a in match.legal_actions()]
        if _between_hands(match):
            out["awaiting"] = "deal"
    return out


def result_json(result: ReplayResult) -> JsonObject:
    """The JSON account of a replay (what ``clubs replay --json`` prints and a record's ``result`` may state)."""
    return match_result_json(result.match, result.variant, result.options_json, result.seats)
