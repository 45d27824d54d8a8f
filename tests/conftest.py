"""Shared helpers of the test suite: exact whist deals, hands set up to a given point, state snapshots, and a
throwaway PostgreSQL server for the storage tests.

The helpers are plain functions (imported by the test modules as ``from conftest import ...``) so that they can
be used inside Hypothesis tests as well as ordinary ones.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from clubsuite.cards import STANDARD, Card, CardSet, cards
from clubsuite.games.whist import Decision, WhistDeal, WhistHand, WhistMatch, WhistOptions

HTTP_TIMEOUT = 60.0
"""Seconds a test's HTTP request waits for the server's answer unless the call sets its own: generous, because the
suite must pass on a loaded machine (two busy loops beside it, or long runs on both cores), where a page that
answers in milliseconds on a quiet machine can take seconds. httpx's own default, 5 s, once failed a test there."""


@pytest.fixture(scope="session", autouse=True)
def _generous_http_timeouts() -> Iterator[None]:
    """The module functions ``httpx.get``, ``httpx.post``, ... wait :data:`HTTP_TIMEOUT` seconds by default in every
    test (a call that passes ``timeout=`` keeps its own)."""
    import httpx

    with pytest.MonkeyPatch.context() as patch:
        for name in ("request", "stream", "get", "options", "head", "post", "put", "patch", "delete"):
            patch.setattr(httpx, name, functools.partial(getattr(httpx, name), timeout=HTTP_TIMEOUT))
        yield


def pytest_configure(config: pytest.Config) -> None:
    """The suite's own marker: ``long``."""
    config.addinivalue_line(
        "markers",
        "long: runs for many seconds (a whole match in a browser, thousands of random matches against the engine): "
        "started first, so that it never ends the run on one worker while the other waits",
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked ``long`` first, the others after them, each group in its own order. pytest-xdist hands the
    tests out in this order (the same in every worker): the long ones start at once, and the short ones fill the gaps
    and end the run together."""
    items.sort(key=lambda item: item.get_closest_marker("long") is None)


settings.register_profile("clubsuite", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("clubsuite")
"""Hypothesis without its clocks: no deadline for an example and no complaint that drawing inputs is slow, both of
which a loaded machine trips (a test may still set its own). What a property test checks never depends on speed."""

FULL_DECK = CardSet((1 << 52) - 1)
"""Every card of the standard pack."""

Chooser = Callable[[Any, random.Random], Any]
"""Picks one of the legal actions (the first argument) with an injected RNG."""


def deal_of(hand0: str, hand1: str, hand2: str) -> WhistDeal:
    """A deal from the three seats' hands in notation; the bid hand is the 13 cards nobody was given.

    Written so that a rule scenario names only the cards that matter to it and still gets a complete, checked
    deal (the deal class refuses anything but 13 distinct cards in each of the four hands).
    """
    hands = (cards(hand0), cards(hand1), cards(hand2))
    rest = FULL_DECK - (hands[0] | hands[1] | hands[2])
    return WhistDeal(hands, rest)


def rotate_deal(deal: WhistDeal, shift: int) -> WhistDeal:
    """The same deal with every hand moved ``shift`` seats to the left (seat s gets what seat s - shift had)."""
    h = deal.hands
    return WhistDeal((h[(0 - shift) % 3], h[(1 - shift) % 3], h[(2 - shift) % 3]), deal.bid)


def decisions_of(text: str) -> list[Decision]:
    """Exchange decisions from words such as ``"keep exchange keep"``."""
    return [Decision(word) for word in text.split()]


def cards_in_order(text: str) -> list[Card]:
    """Cards in the order written (for a sequence of plays)."""
    return STANDARD.parse_list(text)


def start_hand(
    deal: WhistDeal,
    dealer: int = 2,
    decisions: str = "keep keep keep",
    options: WhistOptions | None = None,
) -> WhistHand:
    """A hand of ``deal`` after the given exchange decisions (by default seat 2 deals, nobody exchanges, so
    seat 0 leads the first trick and the play runs seat 0, 1, 2)."""
    hand = WhistHand(deal, dealer, options)
    for d in decisions_of(decisions):
        hand.apply(d)
    return hand


def play_cards(state: WhistHand | WhistMatch, text: str) -> None:
    """Play the written cards in order, each by the seat to act."""
    for c in cards_in_order(text):
        state.apply(c)


def snapshot(hand: WhistHand) -> tuple[Any, ...]:
    """Everything observable about a hand, to check that a refused action changed nothing."""
    return (
        hand.phase,
        hand.to_act,
        tuple(hand.legal_actions()),
        tuple(hand.hands),
        hand.bid,
        tuple(hand.decisions),
        hand.trick,
        tuple(hand.tricks),
        tuple(hand.tricks_won),
        hand.clubs_broken,
        hand.leader,
        hand.scores,
        tuple(hand.action_log()),
    )


def match_snapshot(match: WhistMatch) -> tuple[Any, ...]:
    """Everything observable about a match, to check that a refused action changed nothing."""
    cur = match.current
    return (
        match.phase,
        match.to_act,
        tuple(match.legal_actions()),
        tuple(match.totals),
        tuple(match.hand_scores),
        match.winners,
        match.draw,
        match.is_over,
        len(match.hands),
        snapshot(cur) if cur is not None else None,
    )


def first_legal(legal: Any, rng: random.Random) -> Any:
    """The first legal action: ``keep`` in the exchange, the lowest card (by index: clubs first) in play."""
    return legal[0]


def random_legal(legal: Any, rng: random.Random) -> Any:
    """A uniformly random legal action."""
    return legal[rng.randrange(len(legal))]


def play_out(state: WhistHand | WhistMatch, choose: Chooser = first_legal, rng: random.Random | None = None) -> None:
    """Play the hand in progress to its end, every seat picking with ``choose``."""
    rng = rng or random.Random(0)
    if isinstance(state, WhistMatch):
        while state.current is not None:
            state.apply(choose(state.legal_actions(), rng))
        return
    while not state.is_over:
        state.apply(choose(state.legal_actions(), rng))


def play_match(
    match: WhistMatch,
    deals: Iterable[WhistDeal],
    choose: Chooser = first_legal,
    rng: random.Random | None = None,
) -> list[tuple[int, ...]]:
    """Deal each given deal in turn and play it out; returns the totals after each hand."""
    rng = rng or random.Random(0)
    after: list[tuple[int, ...]] = []
    for deal in deals:
        match.deal(deal=deal)
        play_out(match, choose, rng)
        after.append(tuple(match.totals))
    return after


def trick_winner(leader: int, played: Sequence[Card]) -> int:
    """The winner of a complete trick by the text, computed here without the engine: highest club, else the
    highest card of the suit led."""
    clubs = [(c.rank, k) for k, c in enumerate(played) if c.suit == 0]
    if clubs:
        k = max(clubs)[1]
    else:
        led = played[0].suit
        k = max((c.rank, k) for k, c in enumerate(played) if c.suit == led)[1]
    return (leader + k) % 3


@pytest.fixture(scope="session")
def postgres() -> Iterator[Any]:
    """A throwaway PostgreSQL server for the session (:mod:`pgcluster`); the tests that need it skip only where
    PostgreSQL's server binaries are not installed."""
    from pgcluster import Cluster, server_binaries

    binaries = server_binaries()
    if binaries is None:
        pytest.skip("PostgreSQL's server binaries (initdb, pg_ctl) are not installed here")
    cluster = Cluster(binaries).start()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of a new empty database, once SQLite and once PostgreSQL (the session's throwaway server)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'clubs.sqlite3'}"
    url: str = request.getfixturevalue("postgres").new_database()
    return url


@pytest.fixture
def each_store(database_url: str) -> Iterator[Any]:
    """A new empty server store, once on SQLite and once on PostgreSQL (the session's throwaway server): the tests
    that take it run on both."""
    from clubsuite.server.store.database import Store

    opened = Store(database_url)
    try:
        yield opened
    finally:
        opened.close()


# -- the real-browser tests ---------------------------------------------------------------------------------------
@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """pytest-playwright launches Debian's Chromium (installed when missing: ``tests/server/browserkit.py``)."""
    from browserkit import LAUNCH_ARGS, chromium  # tests/server, on the path once its tests are collected

    return {**browser_type_launch_args, "executable_path": chromium(), "args": LAUNCH_ARGS}


@pytest.fixture(autouse=True)
def _close_the_test_s_browser_contexts(request: pytest.FixtureRequest) -> Iterator[None]:
    """The browser contexts a test opened are closed after it, with their pages and sockets: the browser lives for
    the whole session, and pages left open keep reconnecting to servers that are gone, taking the cores the later
    tests need. Contexts opened before the test (by a module's fixture) are left to it."""
    if "browser" not in request.fixturenames:
        yield
        return
    browser = request.getfixturevalue("browser")
    before = set(browser.contexts)
    yield
    for context in browser.contexts:
        if context not in before:
            context.close()
