"""Free Clubs regression positions (``tests/positions_helpers.py``): where ``hard`` once played worse than a 256-world
search showed it could, each bot that plays the better action keeps doing so. Among them: a card play where the four
of clubs beats playing the nine of hearts by six points of a win, and three one-card passes before play (FC-2: to
the right-hand neighbour), in one of which the heuristic bot gives the two of hearts where giving the ace is better
(``expert`` gives the ace)."""

from __future__ import annotations

from typing import Any

import pytest

from positions_helpers import assert_plays_the_better_action, bot_cases

pytestmark = pytest.mark.long
"""Every test here plays bots or searches for many seconds in all: ``make test`` runs them, ``make check`` not."""


@pytest.mark.parametrize(("position", "bot"), bot_cases("free"))
def test_a_bot_plays_the_better_action_where_a_larger_search_confirmed_a_mistake(
    position: dict[str, Any], bot: str
) -> None:
    assert_plays_the_better_action(position, bot)
