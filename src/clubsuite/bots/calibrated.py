"""The bot levels' calibrated ratings, shipped with the package: where each level starts on the scale people are
rated on.

``calibrated.json`` beside this module holds, per rating pool, what one run of ``clubs calibrate`` found (its JSON
as ``--out`` writes it: each level's ``mu``, ``sigma``, shown rating and 95% interval, and the run's ``command``,
``matches``, ``cycles``, ``seed`` and ``date``; a level calibrated in a run of its own, as the learned bot was, keeps
that run's under ``run`` in its entry). The server starts the rating of a level's bot there, rather than at
a newcomer's, and its rated games against people move it on from there. ``docs/bots.md`` ("Calibrated ratings")
lists the runs and their results.
"""

from __future__ import annotations

import functools
import json
import math
from importlib import resources

from clubsuite.jsonform import JsonObject, JsonValue

DATA_FILE = "calibrated.json"
"""The file of calibrations, a data file of this package."""


@functools.cache
def _runs() -> JsonObject:
    """The file's runs by pool, read once (none when the file is missing)."""
    try:
        text = resources.files(__package__ or "clubsuite.bots").joinpath(DATA_FILE).read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    data: JsonValue = json.loads(text)
    pools = data.get("pools") if isinstance(data, dict) else None
    if not isinstance(pools, dict):
        raise ValueError(f"{DATA_FILE}: expected an object with 'pools', an object of pools")
    return pools


@functools.cache
def _load() -> dict[str, dict[str, tuple[float, float]]]:
    """Every pool's levels as ``(mu, sigma)``, checked once: each a finite mu and a positive, finite sigma."""
    pools = _runs()
    out: dict[str, dict[str, tuple[float, float]]] = {}
    for pool, run in pools.items():
        levels = run.get("levels") if isinstance(run, dict) else None
        if not isinstance(levels, dict) or not levels:
            raise ValueError(f"{DATA_FILE}: pool {pool!r} has no levels")
        out[pool] = {}
        for level, entry in levels.items():
            numbers = [entry.get(key) if isinstance(entry, dict) else None for key in ("mu", "sigma")]
            checked = [float(v) for v in numbers if isinstance(v, int | float) and not isinstance(v, bool)]
            if len(checked) != 2:
                raise ValueError(f"{DATA_FILE}: level {level!r} of pool {pool!r} needs a numeric mu and sigma")
            mu, sigma = checked
            if not (math.isfinite(mu) and math.isfinite(sigma) and sigma > 0):
                raise ValueError(f"{DATA_FILE}: level {level!r} of pool {pool!r} has mu {mu} and sigma {sigma}")
            out[pool][level] = (mu, sigma)
    return out


def calibrated(pool: str) -> dict[str, tuple[float, float]]:
    """Each calibrated level of ``pool`` (a rating pool, as ``clubsuite.ratings.pool`` names it) as
    ``(mu, sigma)`` on OpenSkill's scale; empty for a pool that has not been calibrated."""
    return dict(_load().get(pool, {}))


def all_pools() -> dict[str, dict[str, tuple[float, float]]]:
    """Every calibrated pool's levels, as :func:`calibrated` gives them."""
    return {pool: dict(levels) for pool, levels in _load().items()}


def provenance(pool: str) -> JsonObject:
    """How ``pool`` was calibrated: the run's command, matches, cycles, seed and date (empty when it was not)."""
    run = _runs().get(pool)
    if not isinstance(run, dict):
        return {}
    return {key: run[key] for key in ("command", "matches", "cycles", "seed", "date") if key in run}
