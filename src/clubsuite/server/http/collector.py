"""The cycle collector's policy in a serving process: what lives as long as the process is set aside once it is up,
and full collections are spaced out.

Why: a full collection walks every object the process tracks and holds the interpreter while it does, so every
client of every table waits for it. Measured under ``bench/serve_load.py`` (``docs/server.md``, "Load"), the modules,
classes and functions loaded at start were about three quarters of the tracked objects, and walking them again and
again was what made the slowest updates slow (a full collection of 50 to 300 ms, several times a minute, at a few
hundred tables). So, once the server is up:

* :func:`gc.freeze` moves everything alive at that moment (the code, the tables restored from the database) into the
  permanent generation, which no collection walks again. Nothing there is lost: an object that later becomes garbage
  is still freed by its reference count; only a cycle among such objects would wait for :func:`gc.unfreeze`.
* The third threshold (how many collections of the middle generation come before a full one is considered) goes from
  10 to :data:`FULL_AFTER`. A full collection still happens (Python also waits until the long-lived objects have grown
  by a quarter), only less often: cycles that outlive the younger collections wait a little longer to be freed. The
  memory this holds was measured over minutes of load (``docs/server.md``).

Only ``clubs serve`` applies this (:class:`~clubsuite.server.http.app.ClubsServer`): the policy is the process's, and a
program or test that builds the application itself keeps its own.
"""

from __future__ import annotations

import gc

FULL_AFTER = 100
"""Collections of the middle generation between two full collections considered (Python's default is 10)."""


def settle() -> None:
    """Collect what start-up left, set the process's long-lived objects aside (:func:`gc.freeze`) and space out the
    full collections (see the module docstring). Called once, when the server is up."""
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_AFTER)
