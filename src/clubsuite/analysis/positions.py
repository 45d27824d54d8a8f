"""Positions from records: replay a record to a chosen point, and walk the decisions of a finished match.

Both read the record through :class:`~clubsuite.records.replay.Replay`, so every rule is checked on the way and a
broken record is refused with the hand, action and rule named.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from clubsuite.engine import SomeMatch
from clubsuite.errors import InvalidOptionsError, InvalidRecordError
from clubsuite.jsonform import JsonObject
from clubsuite.records.replay import Replay


@dataclass(frozen=True)
class Point:
    """Where a replay stopped: the hand's index and how many of its actions were played."""

    hand: int
    actions: int


def position_at(record: JsonObject, hand: int | None = None, actions: int | None = None) -> tuple[SomeMatch, Point]:
    """The match after ``actions`` actions of hand ``hand`` (default: where the record stops).

    ``actions`` without ``hand`` counts in the record's last hand. A point past the record is refused, naming how
    far the record goes. ``hand`` is the engine's index, from 0; the refusals name it as ``clubs solve --hand``
    takes it, counted from 1 as players count.
    """
    run = Replay(record)
    n_hands = len(run.checked.hands)
    if n_hands == 0:
        raise InvalidRecordError("the record has no hand: nothing to analyse")
    target_hand = n_hands - 1 if hand is None else hand
    if not 0 <= target_hand < n_hands:
        raise InvalidOptionsError(f"--hand {target_hand + 1}: the record has hands 1 to {n_hands}")
    length = len(run.checked.hands[target_hand].actions)
    target_actions = length if actions is None else actions
    if not 0 <= target_actions <= length:
        raise InvalidOptionsError(f"--actions {actions}: hand {target_hand + 1} of the record has {length} actions")
    count = 0
    for step in run.steps():
        count = 0 if step.action is None else count + 1
        if step.hand == target_hand and count == target_actions:
            return run.match, Point(target_hand, target_actions)
    raise InvalidRecordError("the record ended before the point asked for")  # unreachable: the point was checked


@dataclass(frozen=True)
class Decision:
    """One decision of a match: the state just before it, who decided and what."""

    hand: int
    """The hand's index."""
    index: int
    """The action's index within the hand."""
    seat: int
    before: SomeMatch
    """The match just before the action (a copy the caller may use freely)."""
    action: object
    """The action as the engine reads it."""
    text: str
    """The action as the record writes it."""


def decisions(record: JsonObject) -> Iterator[Decision]:
    """Every decision of the record in order: actions chosen among the legal ones by the seat to act (a call of a
    misplay in table mode, or a misplay itself, is not a choice among the legal actions and is left out)."""
    run = Replay(record)
    before: SomeMatch | None = None
    index = 0
    for step in run.steps():
        if step.action is None:
            index = 0
        elif before is not None and step.seat is not None and step.seat == before.to_act:
            action = before.parse_action(step.action)
            if action in before.legal_actions():
                yield Decision(step.hand, index, step.seat, before, action, step.action)
            index += 1
        else:
            index += 1
        before = run.match.clone()
    run.check_result()
