"""The Free Clubs heuristic bot plays its recorded hands move for move (``tests/heuristic_record.py``): a change
made to speed it up changes no decision."""

from __future__ import annotations

from heuristic_record import assert_plays_as_recorded


def test_the_heuristic_bot_plays_its_recorded_hands_move_for_move() -> None:
    assert_plays_as_recorded("free")
