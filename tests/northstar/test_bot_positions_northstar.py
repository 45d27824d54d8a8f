"""North Star's CLUBS regression positions, three players (``tests/positions_helpers.py``): where ``hard`` once played
worse than a 256-world search showed it could, each bot that plays the better action keeps doing so. All three are a
pass where ``hard`` played to the trick, twice with a 15 (which takes the trick at once, NS-4, and leaves that player
to lead); the search finds the pass better by 3.4 to 5.0 points of a win (passing keeps one in the trick, NS-4)."""

from __future__ import annotations

from typing import Any

import pytest

from positions_helpers import assert_plays_the_better_action, bot_cases

pytestmark = pytest.mark.long
"""Every test here plays bots or searches for many seconds in all: ``make test`` runs them, ``make check`` not."""


@pytest.mark.parametrize(("position", "bot"), bot_cases("northstar"))
def test_a_bot_plays_the_better_action_where_a_larger_search_confirmed_a_mistake(
    position: dict[str, Any], bot: str
) -> None:
    assert_plays_the_better_action(position, bot)
