"""Whist regression positions (``tests/positions_helpers.py``): where ``hard`` once played the heuristic bot's choice
and a 256-world search showed a clearly better one, ``expert`` plays the better one. Among them: ruffing a diamond
with the ace of clubs where the five also holds the trick (CW-1: the follower must follow suit if it can, so the
low ruff is safe more often than the heuristic bot reckons), cashing an ace where a low spade keeps the lead for
later, and throwing a spade where a losing club was the better discard."""

from __future__ import annotations

from typing import Any

import pytest

from positions_helpers import assert_plays_the_better_action, position_id, positions

WHIST = positions("whist")


@pytest.mark.parametrize("position", WHIST, ids=[position_id(p) for p in WHIST])
def test_expert_plays_the_better_action_where_a_larger_search_confirmed_the_mistake(position: dict[str, Any]) -> None:
    assert_plays_the_better_action(position, "expert")
