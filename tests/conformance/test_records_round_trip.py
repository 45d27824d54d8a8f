"""Records of every game round-trip: a match written with the record writer at any point (mid-hand, between
hands, at the end), turned into text, read back and replayed gives the same match: the same summary and the same
view for every seat. Deals are written out, or named by the match seed."""

from __future__ import annotations

import random

import pytest

from clubsuite.records import dumps_record, loads_record, record_from_match, replay
from conformance.harness import CASES, IDS, Case, play_to_end, random_play, snapshot

RATE = 0.05
"""The share of decisions at which a record is written mid-hand."""


def _round_trip(match: object, seed: int | None = None) -> None:
    record = record_from_match(match, seed=seed, seeded_hands=seed is not None)
    again = replay(loads_record(dumps_record(record), "the written record"))
    assert snapshot(again.match) == snapshot(match)


@pytest.mark.parametrize("seeded", [False, True], ids=["explicit-deals", "seeded-deals"])
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_a_record_written_at_any_point_replays_to_the_same_match(case: Case, seeded: bool) -> None:
    rng = random.Random(10)
    seed = 31
    written = 0
    for match in random_play(case, seed, seeded_deals=seeded):
        # A sample of decisions, and always the one after the first action (a short game has few decisions).
        if rng.random() < RATE or (written == 0 and len(match.current.action_log()) == 1):
            _round_trip(match, seed if seeded else None)
            written += 1
    _round_trip(play_to_end(case, seed, seeded_deals=seeded), seed if seeded else None)
    assert written > 0
