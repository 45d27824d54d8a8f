"""Two matches of one game played side by side, one on the engine's Python hand and one on the compiled hand, with
every state, view, event and error compared: the differential check of a game's compiled hand and match paths.

Each decision compares the seat to act, the legal actions in order and the events of the action taken; every few
decisions also every attribute of the hand, the acting seat's whole view, the refusal (class and words) of an
illegal action with the state left as it was, a clone played on without touching its original, and a copy through
pickle; each hand's end compares the hand's account, its action log and the match's account."""

from __future__ import annotations

import pickle
import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from clubsuite.errors import ClubsError
from native_helpers import kernel_or_skip

Match = Any
"""A game's match (the two sides are the same class, on different hands)."""


def _refusal(match: Match, action: object, seat: int | None) -> tuple[str, str] | None:
    """How ``match`` refuses ``action`` (the error's class and words), or None if it took it."""
    try:
        match.apply(action, seat)
    except ClubsError as exc:
        return type(exc).__name__, str(exc)
    return None


def play_side_by_side(
    python: Callable[[], Match],
    compiled: Callable[[], Match],
    matches: int,
    seed: int,
    probes: Sequence[object],
    facts: Callable[[Any], object],
    every: int = 50,
) -> int:
    """Play ``matches`` random matches on both sides from one generator and assert they agree; returns the decisions
    compared. ``probes`` are actions (or notation) tried against both sides every ``every`` decisions when illegal
    there, and by a seat not to act; ``facts`` reads a hand's attributes (hidden ones included) for comparison."""
    rng = random.Random(seed)
    decisions = 0
    for _ in range(matches):
        a, b = python(), compiled()
        assert type(a.current) is not type(b.current) or a.current is None
        while not a.is_over:
            deal_seed = rng.getrandbits(64)
            assert a.deal(rng=random.Random(deal_seed)) == b.deal(rng=random.Random(deal_seed))
            assert type(a.current).__name__ != type(b.current).__name__, "both sides on the same kind of hand"
            hand_a, hand_b = a.current, b.current
            while (seat := a.to_act) is not None:
                assert b.to_act == seat
                legal = a.legal_actions()
                assert b.legal_actions() == legal and isinstance(b.legal_actions(), type(legal))
                if decisions % every == 0:
                    assert facts(hand_b) == facts(hand_a)
                    assert b.view(seat).to_dict() == a.view(seat).to_dict()
                    assert b.explain(legal[0], seat) == a.explain(legal[0], seat)
                    probe = probes[rng.randrange(len(probes))]
                    assert b.explain(probe) == a.explain(probe)
                    if a.explain(probe) is not None:
                        assert _refusal(b, probe, None) == _refusal(a, probe, None) is not None
                    other = (seat + 1) % a.n_seats
                    assert _refusal(b, legal[0], other) == _refusal(a, legal[0], other) is not None
                    copy = b.clone()
                    copy.apply(legal[-1])
                    sent = pickle.loads(pickle.dumps(b))  # as a server's worker processes receive a match
                    assert type(sent.current) is type(hand_b) and facts(sent.current) == facts(hand_b)
                    assert sent.summary() == b.summary() and sent.view(seat).to_dict() == a.view(seat).to_dict()
                    # Neither the refusals nor play on the copy changed anything.
                    assert facts(hand_b) == facts(hand_a) and b.summary() == a.summary()
                k = rng.randrange(len(legal))
                action, action_b = legal[k], b.legal_actions()[k]  # each side's own (a list may know what it handed)
                assert action_b == action
                assert b.apply(action_b) == a.apply(action), f"events of {action}"
                decisions += 1
            assert facts(hand_b) == facts(hand_a)
            assert hand_b.summary() == hand_a.summary()
            assert list(hand_b.action_log()) == list(hand_a.action_log())
            assert b.summary() == a.summary()
        assert b.is_over and (b.winners, b.draw, b.totals) == (a.winners, a.draw, a.totals)
    return decisions


def on_each_match_class(namespace: dict[str, Any], name: str, compiled: type | None, core: str) -> Any:
    """An autouse fixture for a test module of a game's rules or views: every test of the module runs twice, once on
    the engine's match class and once on the compiled one (where built; ``CLUBS_REQUIRE_NATIVE`` makes a missing one
    fail), the module's name ``name`` standing for each in turn. So the scenarios written for the rules hold the
    compiled match to them too, besides the random matches played side by side."""

    @pytest.fixture(autouse=True, params=["engine", "compiled"])
    def each_match_class(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
        if request.param == "compiled":
            kernel_or_skip(core)
            assert compiled is not None
            monkeypatch.setitem(namespace, name, compiled)

    return each_match_class
