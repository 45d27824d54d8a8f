"""How long the tests wait for a server: generous bounds, never a measure of speed (imported by the suite's
``conftest.py`` and by the server tests' helpers)."""

HTTP_TIMEOUT = 60.0
"""Seconds a test's HTTP request waits for the server's answer unless the call sets its own: generous, because the
suite must pass on a loaded machine (two busy loops beside it, or long runs on both cores), where a page that
answers in milliseconds on a quiet machine can take seconds. httpx's own default, 5 s, once failed a test there."""
