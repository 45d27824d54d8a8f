"""A view is live: what it keeps between reads (the tricks, the events of a CLUBS round) always shows the present.

Views are read at every decision, so the properties over a whole hand are kept between reads and brought up to date
with what was added since (``ViewBase._grown``). These tests read every such property of a seat's view at every
decision of seeded random matches, over several hands, and compare it with a new view of the same seat (which keeps
nothing yet); clones and determinized copies must show their own state, not the original's.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from clubsuite.games.northstar import NorthstarMatch, NorthstarOptions
from clubsuite.games.partnership import PartnershipMatch
from clubsuite.games.whist import WhistMatch

KEPT = {
    "whist": ("tricks", "played", "trick", "tricks_won"),
    "partnership": ("tricks", "played", "trick"),
    "northstar": ("tricks", "trick", "history", "played"),
}
"""For each game, the properties read; the first ones are kept between reads."""

MATCHES: dict[str, Callable[[], Any]] = {
    "whist": WhistMatch,
    "partnership": PartnershipMatch,
    "northstar": lambda: NorthstarMatch(NorthstarOptions(players=4, wild_fifteens=True)),
}


def shown(view: Any, names: tuple[str, ...]) -> dict[str, Any]:
    return {name: getattr(view, name) for name in names}


@pytest.mark.parametrize("game", sorted(MATCHES))
def test_a_view_read_at_every_decision_shows_what_a_new_view_shows(game: str) -> None:
    rng = random.Random(5)
    match = MATCHES[game]()
    names = KEPT[game]
    views = [match.view(s) for s in range(match.n_seats)]
    for _ in range(3):  # several hands: a new hand starts what a view keeps again
        if match.is_over:
            break
        match.deal(rng=rng)
        while (seat := match.to_act) is not None:
            for view in (views[seat], views[(seat + 1) % match.n_seats]):
                fresh = type(view)(match, view.seat)
                assert shown(view, names) == shown(fresh, names)
                assert shown(view, names) == shown(view, names)  # read twice: the kept value
            legal = match.legal_actions()
            match.apply(legal[rng.randrange(len(legal))])
        for view in views:
            assert shown(view, names) == shown(type(view)(match, view.seat), names)  # the hand as it ended


@pytest.mark.parametrize("game", sorted(MATCHES))
def test_a_clone_and_a_determinized_copy_show_their_own_hand_not_the_originals(game: str) -> None:
    rng = random.Random(9)
    match = MATCHES[game]()
    names = KEPT[game]
    match.deal(rng=rng)
    for step in range(30):
        seat = match.to_act
        assert seat is not None
        original = match.view(seat)
        shown(original, names)  # the original keeps its values
        twin = match.clone() if step % 2 else match.determinize(seat, random.Random(step))
        legal = twin.legal_actions()
        twin.apply(legal[rng.randrange(len(legal))])
        for other in (twin.view(seat), twin.view((seat + 1) % twin.n_seats)):
            assert shown(other, names) == shown(type(other)(twin, other.seat), names)
        assert shown(original, names) == shown(type(original)(match, seat), names)
        legal = match.legal_actions()
        match.apply(legal[rng.randrange(len(legal))])
        if match.to_act is None:
            break
