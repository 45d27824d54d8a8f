"""Puzzles from finished matches (``clubs puzzles from``): the same judges and the same looking as the generator
(:mod:`clubsuite.puzzles.make`), over the decisions of a match record instead of a match the bots play now.

Two uses: a collection of records (a club's matches, the public tables a server keeps) becomes puzzles; and a
player's own match becomes *their* puzzles, the decisions where they went wrong (``seats`` and ``missed_only``):
the position before their action, whose answer is the play they missed. Every rule is checked as the record is
replayed (:mod:`clubsuite.analysis.positions`), so a broken record is refused with the hand and action named.

A puzzle keeps the record up to the end of its hand (the hands after it are not its business, and a record cut
there states no result), so that its point can be replayed and checked like any other puzzle's.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Collection
from dataclasses import replace

from clubsuite.analysis.positions import Decision, decisions
from clubsuite.errors import InvalidOptionsError
from clubsuite.jsonform import JsonObject
from clubsuite.puzzles.make import MakeSettings, Scanner, check_kinds, mistake_before, puzzle_of
from clubsuite.puzzles.model import Puzzle


def _cut(record: JsonObject, hand: int) -> JsonObject:
    """The record up to the end of hand ``hand``, without a result (a cut record states none)."""
    hands = record["hands"]
    assert isinstance(hands, list)
    cut = {k: v for k, v in record.items() if k != "result"}
    cut["hands"] = hands[: hand + 1]
    return cut


def record_puzzles(
    record: JsonObject,
    settings: MakeSettings,
    seats: Collection[int] | None = None,
    missed_only: bool = False,
    source: str = "a match record",
) -> list[Puzzle]:
    """The puzzles of ``record`` (see the module docstring): at the decisions of ``seats`` (every seat: None), at
    most ``settings.per_hand`` a hand, only where the action taken was not the answer when ``missed_only``.
    ``settings.variant`` is not read: the record says its game. ``seats`` are the engine's, from 0; a seat the
    match does not have is refused naming it as ``clubs puzzles from --seat`` takes it, counted from 1."""
    key = hashlib.sha256(json.dumps(record, sort_keys=True).encode()).hexdigest()[:16]
    seed = int(key, 16)
    check_kinds(settings.kinds)
    scanner: Scanner | None = None
    found_in: dict[int, int] = {}
    last: Decision | None = None
    out: list[Puzzle] = []
    for d in decisions(record):
        before = d.before
        previous = last if last is not None and last.hand == d.hand and last.index == d.index - 1 else None
        last = d
        if scanner is None:
            outside = sorted(s for s in seats or () if not 0 <= s < before.n_seats)
            if outside:
                raise InvalidOptionsError(f"--seat {outside[0] + 1}: {source} has seats 1 to {before.n_seats}")
            scanner = Scanner(replace(settings, variant=before.game), before, seed)
        if seats is not None and d.seat not in seats:
            continue
        if found_in.get(d.hand, 0) >= settings.per_hand or len(before.legal_actions()) < 2:
            continue
        got = scanner.look(before, d.hand, d.index)
        if got is None:
            continue
        if missed_only and before.parse_action(got.answer.solution) == d.action:
            continue
        if previous is not None:
            got.mistake = mistake_before(got, previous.before, previous.action, settings.nodes)
        out.append(puzzle_of(got, before, _cut(record, d.hand), settings, source, key))
        found_in[d.hand] = found_in.get(d.hand, 0) + 1
    return out
