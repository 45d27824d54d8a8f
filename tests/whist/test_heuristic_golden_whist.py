"""The whist heuristic bot plays a recorded set of hands move for move (``tests/data/heuristic-whist.json``).

The heuristic bot plays every rollout of the search bots, so it is their hottest code and the first to be made
faster; a change meant only to speed it up must not change one decision. The file was written by the bot itself
(ten matches of up to three hands, the heuristic bot in every seat, the deals and each decision's random numbers
seeded as below). A change that is meant to change its play (a better rule, measured in play first) writes the
file again and says so."""

from __future__ import annotations

import json
import random
from pathlib import Path

from clubsuite.bots import make_bot
from clubsuite.engine import resolve
from clubsuite.runner import deal_next
from clubsuite.seeding import derive_seed

RECORDED = Path(__file__).resolve().parent.parent / "data" / "heuristic-whist.json"


def test_the_heuristic_bot_plays_its_recorded_hands_move_for_move() -> None:
    recorded = json.loads(RECORDED.read_text())["hands"]
    info, options = resolve("whist")
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
    assert len(played) == len(recorded)
    for now, then in zip(played, recorded, strict=True):
        assert now == then, f"match {then['match']}, hand {then['hand']} is played differently"
