"""Whist regression positions (``tests/positions_helpers.py``): where ``hard`` once played worse than a 256-world
search showed it could, each bot that now plays the better action keeps doing so. Among them: ruffing a diamond with
the ace of clubs where the five also holds the trick (CW-1: the follower must follow suit if it can, so the low ruff
is safe more often than the heuristic bot reckons; ``expert`` ruffs low), cashing the ace of diamonds where a low
spade was better (CW-1 makes the others beat a low lead, drawing their high spades), and throwing a spade where a
losing club was the better discard."""

from __future__ import annotations

from typing import Any

import pytest

from positions_helpers import assert_plays_the_better_action, bot_cases

pytestmark = pytest.mark.long
"""Every test here plays bots or searches for many seconds in all: ``make test`` runs them, ``make check`` not."""


@pytest.mark.parametrize(("position", "bot"), bot_cases("whist"))
def test_a_bot_plays_the_better_action_where_a_larger_search_confirmed_a_mistake(
    position: dict[str, Any], bot: str
) -> None:
    assert_plays_the_better_action(position, bot)
