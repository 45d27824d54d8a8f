"""Regression positions for the bots: decisions where a level once played worse than a much larger search showed
it could, kept with the record that leads to them (``tests/data/positions/<game>.json``).

Each position was found by ``bench/mistakes.py GAME`` (a level in every seat judged by ``pimc(samples=64,caution=0)``)
and measured again by ``bench/mistakes.py GAME --confirm FILE --reference "pimc(samples=256,caution=0)"`` on fresh
worlds, for the two actions alone; ``bench/select_positions.py`` keeps it when that second gap is clear (at least 1.5
points of a win and four standard errors) and some bot (the heuristic bot, ``hard`` or ``expert``) plays the better
action with the random seeds 0, 1 and 2. A test asserts that each bot named with the position plays the better action
there: a change that makes one lose it again fails.

A position held by ``hard`` (eight worlds) holds for those seeds: a change in how a decision's worlds are drawn may
make ``hard`` miss one without making it weaker. Such a failure is read, not waved through: measure the position
again (``--confirm``) with the new code before changing the file.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from clubsuite.analysis.positions import position_at
from clubsuite.bots import make_bot

DATA = Path(__file__).resolve().parent / "data" / "positions"


def positions(game: str) -> list[dict[str, Any]]:
    """The regression positions of one game."""
    found: list[dict[str, Any]] = json.loads((DATA / f"{game}.json").read_text())["positions"]
    return found


def position_id(position: dict[str, Any]) -> str:
    """A test id: the run's seed where the position names one (a later run than the file's), the hand, the actions
    before the decision, the worse and the better action."""
    run = f"seed{position['seed']}-" if "seed" in position else ""
    return f"{run}hand{position['hand_seed']}-at{position['actions']}-{position['worse']}-not-{position['better']}"


def assert_plays_the_better_action(position: dict[str, Any], bot_spec: str, seeds: tuple[int, ...] = (0, 1)) -> None:
    """The bot, asked at the position with each seed, plays the better action; and the position is what the file
    says (the seat to act, both actions legal, a gap of at least four standard errors and 1.5 points of a win)."""
    match, _ = position_at(position["record"], 0, position["actions"])
    seat = match.to_act
    assert seat is not None and seat == position["seat"]
    legal = match.legal_actions()
    better, worse = match.parse_action(position["better"]), match.parse_action(position["worse"])
    assert better in legal and worse in legal and better != worse
    assert position["gap"] >= 0.015 and position["gap"] >= 4 * position["error"]
    bot = make_bot(bot_spec, match.game)
    view = match.view(seat)
    for seed in seeds:
        chosen = bot.choose(view, legal, random.Random(seed))
        assert chosen == better, (
            f"{bot_spec} with seed {seed} played {match.format_action(chosen)}; {position['better']} is better than "
            f"{position['worse']} by {100 * position['gap']:.1f} points of a win (se {100 * position['error']:.1f})"
        )


def bot_cases(game: str) -> list[Any]:
    """Every (position, bot) pair of a game, as pytest parameters with readable ids."""
    import pytest

    return [
        pytest.param(position, bot, id=f"{bot}-{position_id(position)}")
        for position in positions(game)
        for bot in position["bots"]
    ]
