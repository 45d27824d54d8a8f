"""Each test's CPU time, its own process's and every process it started (a server, a worker, the browser's): what a
test costs a machine whose cores the suite keeps busy, where its wall time says more about the other tests running
beside it than about itself.

Switched on by ``CLUBS_TEST_CPU=1`` (``make unit`` then keeps it in ``build/test-times.xml``, and
``python tools/test_times.py --cpu`` sums it by folder and file). A test's figure is the CPU used, between its
set-up's start and its tear-down's end, by the test process and every process under it then (psutil reads them all:
a process that ended in between counts where its parent waited for it); a module's or the session's fixture counts
in the first test that asks for it, as its wall time does. What a process shared by several tests (the session's
browser, a module's server) does meanwhile for another counts too: a test file alone gives the clearest figures.
"""

from __future__ import annotations

import os

import psutil

ENABLED = os.environ.get("CLUBS_TEST_CPU", "") == "1"
PROPERTY = "cpu_seconds"
"""The name of each test's figure among its JUnit properties."""

_me = psutil.Process()


def tree_cpu_seconds() -> float:
    """The CPU seconds (user and system) used so far by this process, every process now under it, and every
    process one of them has waited for."""
    total = 0.0
    for process in [_me, *_me.children(recursive=True)]:
        try:
            times = process.cpu_times()
        except psutil.Error:  # ended while being read
            continue
        total += times.user + times.system + times.children_user + times.children_system
    return total
