"""The heuristic bots' recorded play (``tests/data/heuristic-<game>.json``): ten matches of up to three hands, the
heuristic bot in every seat, match m's hand h dealt from ``derive_seed(90, m, h)`` and its decision i given the random
numbers of ``derive_seed(91, m, h, i)``.

The heuristic bot plays every rollout of the search bots, so it is their hottest code and the first to be made
faster; a change meant only to speed it up must not change one decision, and ``tests/<game>/test_heuristic_golden_
<game>.py`` checks that it does not. A change meant to change its play (a better rule, measured in play first)
writes the file again with :func:`write` and says so.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from clubsuite.bots import make_bot
from clubsuite.engine import resolve
from clubsuite.runner import deal_next
from clubsuite.seeding import derive_seed

DATA = Path(__file__).resolve().parent / "data"


def play(game: str) -> list[dict[str, Any]]:
    """Every hand of the recorded matches as the heuristic bot plays them now."""
    info, options = resolve(game)
    played = []
    for m in range(10):
        match = info.new_match(options, 0)
        bot = make_bot("heuristic", match.game)
        for h in range(3):
            deal_next(match, info, derive_seed(90, m, h))
            actions = []
            i = 0
            while match.to_act is not None:
                seat = match.to_act
                rng = random.Random(derive_seed(91, m, h, i))
                action = bot.choose(match.view(seat), match.legal_actions(), rng)
                actions.append(match.format_action(action))
                match.apply(action)
                i += 1
            played.append({"match": m, "hand": h, "totals_after": list(match.totals), "actions": " ".join(actions)})
            if match.is_over:
                break
    return played


def recorded(game: str) -> list[dict[str, Any]]:
    """The hands as recorded."""
    hands: list[dict[str, Any]] = json.loads((DATA / f"heuristic-{game}.json").read_text())["hands"]
    return hands


def write(game: str) -> None:
    """Record the heuristic bot's play again (after a change meant to change it)."""
    what = "the heuristic bot in every seat: tests/heuristic_record.py"
    (DATA / f"heuristic-{game}.json").write_text(json.dumps({"what": what, "hands": play(game)}, indent=1) + "\n")


def assert_plays_as_recorded(game: str) -> None:
    """The bot plays every recorded hand move for move."""
    then = recorded(game)
    now = play(game)
    assert len(now) == len(then)
    for a, b in zip(now, then, strict=True):
        assert a == b, f"{game}: match {b['match']}, hand {b['hand']} is played differently"
