"""Partnership regression positions (``tests/positions_helpers.py``): where ``hard`` once played worse than a 256-world
search showed it could, each bot that plays the better action keeps doing so. In this game most of ``hard``'s
mistakes were the search's noise, not the heuristic bot's: in two passes (CP-2) and a discard the heuristic bot's own
choice is the better one and ``hard``, with eight worlds, sometimes left it."""

from __future__ import annotations

from typing import Any

import pytest

from positions_helpers import assert_plays_the_better_action, bot_cases

pytestmark = pytest.mark.long
"""Every test here plays bots or searches for many seconds in all: ``make test`` runs them, ``make check`` not."""


@pytest.mark.parametrize(("position", "bot"), bot_cases("partnership"))
def test_a_bot_plays_the_better_action_where_a_larger_search_confirmed_a_mistake(
    position: dict[str, Any], bot: str
) -> None:
    assert_plays_the_better_action(position, bot)
