"""The ``easy`` level: the heuristic with slips that make it clearly weaker than ``normal`` on the rating scale.

In whist a slip is a newcomer's habit (take every trick you can, with your highest card, whatever the score; keep
the hand dealt), one decision in two, not a random card: random cards cost too little there to separate the levels
(docs/bots.md, "Calibrated ratings"). The shipped calibration must show ``easy`` below ``normal`` in every pool.
"""

from __future__ import annotations

import json
import random
from importlib import resources
from typing import Any

import pytest

from clubsuite.bots import make_bot
from clubsuite.cards import Card
from clubsuite.engine import resolve
from clubsuite.games.whist.bot import Knowledge, TrickState, beginner_choice
from clubsuite.games.whist.hand import Decision, WhistPhase
from clubsuite.runner import deal_next

ANCHOR = 1500
"""``normal``'s pinned rating in every pool."""


def _whist_positions(seeds: range) -> list[Any]:
    """Every decision of the first hand of a whist match per seed, played by the heuristic: (match, seat) pairs
    copied as the play goes (each a fresh match replayed to that point)."""
    info, options = resolve("whist")
    heuristic = make_bot("heuristic", "whist")
    out = []
    for seed in seeds:
        actions: list[Any] = []
        while True:
            match = info.new_match(options, 0)
            deal_next(match, info, seed)
            for action in actions:
                match.apply(action)
            if match.to_act is None:
                break
            out.append(match)
            actions.append(heuristic.choose(match.view(match.to_act), match.legal_actions(), random.Random(seed)))
    return out


@pytest.mark.long
def test_easy_slips_in_whist_are_a_newcomers_habit_never_a_random_card() -> None:
    """At every decision of three whist hands, easy plays the heuristic's choice or the newcomer's, nothing else;
    and it does slip: at decisions where the two differ, it plays the newcomer's now and then (one time in two,
    as the whist heuristic's ``easy_slips`` says), deterministic on the RNG's seed."""
    easy, heuristic = make_bot("easy", "whist"), make_bot("heuristic", "whist")
    slipped = differing = 0
    for match in _whist_positions(range(3)):
        view, legal = match.view(match.to_act), match.legal_actions()
        newcomer = beginner_choice(view, legal)
        for k in range(12):
            mine = heuristic.choose(view, legal, random.Random(k))
            chosen = easy.choose(view, legal, random.Random(k))
            assert chosen == easy.choose(view, legal, random.Random(k))
            assert chosen in (mine, newcomer), (view.seat, chosen, mine, newcomer, list(legal))
            if mine != newcomer:
                differing += 1
                slipped += chosen == newcomer
    share = 1 / heuristic.easy_slips  # type: ignore[attr-defined]
    assert differing > 0 and abs(slipped / differing - share) < 0.15, (slipped, differing)


def test_the_whist_newcomer_takes_every_trick_it_can_with_its_highest_winning_card() -> None:
    """Whatever the score, the newcomer plays for tricks (it does not see that -11 wins too, CW-5): where a legal
    card takes the trick so far it plays the highest such card (clubs above plain cards), where none does its lowest
    card; at the exchange it keeps the hand dealt (CW-4). The heuristic ducks or wins cheaply in some of the same
    positions, so the two differ."""
    differs = 0
    heuristic = make_bot("heuristic", "whist")
    for match in _whist_positions(range(4)):
        view, legal = match.view(match.to_act), match.legal_actions()
        if len(legal) < 2:
            continue
        chosen = beginner_choice(view, legal)
        differs += chosen != heuristic.choose(view, legal, random.Random(0))
        if view.phase is WhistPhase.EXCHANGE:
            assert chosen is Decision.KEEP
            continue
        cards = [a for a in legal if isinstance(a, Card)]
        state = TrickState.from_view(view, Knowledge.from_view(view))
        strength = [(c.index // 13 == 0, c.index % 13) for c in cards]
        winning = [s for c, s in zip(cards, strength, strict=True) if state.wins_now(c.index)]
        assert isinstance(chosen, Card)
        mine = (chosen.index // 13 == 0, chosen.index % 13)
        assert mine == (max(winning) if winning else min(strength))
    assert differs > 0


def _pools() -> dict[str, Any]:
    text = resources.files("clubsuite.bots").joinpath("calibrated.json").read_text(encoding="utf-8")
    pools: dict[str, Any] = json.loads(text)["pools"]
    return pools


def test_the_shipped_calibration_puts_easy_below_normal_in_every_pool() -> None:
    """In every calibrated pool easy's 95% interval lies wholly below normal's anchor (1500), and easy's entry says
    the run that measured it (its command names easy and normal)."""
    pools = _pools()
    assert set(pools) >= {"whist", "free", "partnership", "northstar-4p"}
    for pool, run in pools.items():
        levels = run["levels"]
        assert levels["normal"]["shown"] == ANCHOR, pool
        easy = levels["easy"]
        assert easy["low"] <= easy["shown"] <= easy["high"] < ANCHOR, (pool, easy)
        command = easy.get("run", run)["command"]
        assert "easy" in command and "normal" in command, (pool, command)
