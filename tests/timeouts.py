"""How long the tests wait for a server: generous bounds, never a measure of speed, and how often they look while they
wait (imported by the suite's ``conftest.py`` and by the server tests' helpers)."""

from __future__ import annotations

from collections.abc import Iterator

HTTP_TIMEOUT = 60.0
"""Seconds a test's HTTP request waits for the server's answer unless the call sets its own: generous, because the
suite must pass on a loaded machine (two busy loops beside it, or long runs on both cores), where a page that
answers in milliseconds on a quiet machine can take seconds. httpx's own default, 5 s, once failed a test there."""

PAGE_TIMEOUT_MS = 60_000
"""Milliseconds a browser test's page waits for what it expects (an element, a navigation, a click's target) unless
the call sets its own: the same generous bound as :data:`HTTP_TIMEOUT`, for the same reason. A replay's first page
waited past 20 s once on a machine running three test processes on two cores (its replay worker starting). Only a
test that would fail anyway waits this long."""

FIRST_PAUSE = 0.02
LONGEST_PAUSE = 0.25
"""The pauses, in seconds, between two looks of a wait on a condition (a server's answer, a page's element): the
first short, each next half as long again, up to the longest. A look costs the test's process (and a browser's page,
Playwright's driver and the browser, about a third of a core looking every 20 ms) a few milliseconds of CPU: a wait
that lasts, on a loaded machine most of all, would otherwise take the cores that the server it waits on needs, and a
check that asks a server stays far under its request rate (600 a minute per address); a quick wait still ends within
tens of milliseconds."""


def pauses() -> Iterator[float]:
    """The pauses between two looks, in seconds (:data:`FIRST_PAUSE` growing to :data:`LONGEST_PAUSE`)."""
    pause = FIRST_PAUSE
    while True:
        yield pause
        pause = min(pause * 1.5, LONGEST_PAUSE)
