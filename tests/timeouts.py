"""How long the tests wait for a server: generous bounds, never a measure of speed (imported by the suite's
``conftest.py`` and by the server tests' helpers)."""

HTTP_TIMEOUT = 60.0
"""Seconds a test's HTTP request waits for the server's answer unless the call sets its own: generous, because the
suite must pass on a loaded machine (two busy loops beside it, or long runs on both cores), where a page that
answers in milliseconds on a quiet machine can take seconds. httpx's own default, 5 s, once failed a test there."""

PAGE_TIMEOUT_MS = 60_000
"""Milliseconds a browser test's page waits for what it expects (an element, a navigation, a click's target) unless
the call sets its own: the same generous bound as :data:`HTTP_TIMEOUT`, for the same reason. A replay's first page
waited past 20 s once on a machine running three test processes on two cores (its replay worker starting). Only a
test that would fail anyway waits this long."""
