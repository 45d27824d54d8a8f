"""``clubs evaluate compare A B``: two evaluations of one environment against one level, paired over the deals both
played.

Every deal of an environment is the same cards for every run, so two agents measured against the same level can be
compared deal by deal: the difference of their results on each deal both files hold, and the 95% interval of the
mean difference over those deals (the deals are the independent results, as in one evaluation). The pairing takes
out what the cards alone give, so the interval is narrower than the two runs' intervals side by side.

It also says how many of the common deals were played exactly alike (the same hash of every table's actions): two
runs of one agent on two machines, or by two labs, should play every deal alike where the agent decides the same way
from the same view and seed; a deal that differs shows where.
"""

from __future__ import annotations

from clubsuite.benchmark.files import Kept
from clubsuite.errors import InvalidOptionsError
from clubsuite.jsonform import JsonObject, JsonValue
from clubsuite.sim.stats import paired_mean

MIN_COMMON = 2
"""The fewest deals in common for an interval."""


def _field(kept: Kept, key: str) -> JsonValue:
    return kept.data.get(key)


def named(value: JsonValue, key: str = "text") -> str:
    """The ``text`` (or ``id``) of a file's agent, level or environment object, for messages; ``?`` where it has
    none."""
    if isinstance(value, dict):
        said = value.get(key)
        if isinstance(said, str):
            return said[:200]
    return "?"


def dealt_from(env: JsonValue) -> str:
    """A file's environment as a message names it: its id, and the held-out set it was dealt from where it was."""
    held = env.get("held_out") if isinstance(env, dict) else None
    name = held.get("name") if isinstance(held, dict) else None
    return named(env, "id") + (f" (held-out set {name[:80]})" if isinstance(name, str) else "")


def _interval(values: list[float]) -> JsonObject:
    mean, (low, high) = paired_mean(values)
    return {"mean": round(mean, 4), "ci95": [round(low, 4), round(high, 4)]}


def compare(a: Kept, b: Kept, names: tuple[str, str]) -> JsonObject:
    """The comparison of the evaluations ``a`` and ``b`` (``names``: how each is named in messages and in the
    result), or a refusal saying why they do not pair: another environment (its id or hashes), another level, or
    fewer than :data:`MIN_COMMON` deals in common."""
    first, second = names
    if _field(a, "env") != _field(b, "env"):
        raise InvalidOptionsError(
            f"{first} and {second} are of other environments ({dealt_from(_field(a, 'env'))} and "
            f"{dealt_from(_field(b, 'env'))}, or one of them frozen otherwise): their deals do not pair"
        )
    if _field(a, "against") != _field(b, "against"):
        raise InvalidOptionsError(
            f"{first} and {second} were played against other levels ({named(_field(a, 'against'), 'text')} and "
            f"{named(_field(b, 'against'), 'text')}, or one of them built otherwise): their results do not compare"
        )
    common = sorted(set(a.deals) & set(b.deals))
    if len(common) < MIN_COMMON:
        raise InvalidOptionsError(
            f"{first} and {second} have {len(common)} deal(s) in common: at least {MIN_COMMON} are needed"
        )
    differences = [a.deals[k].result - b.deals[k].result for k in common]
    result = _field(a, "result")
    unit = result.get("unit") if isinstance(result, dict) else None
    return {
        "format": "clubsuite-comparison",
        "version": 1,
        "env": _field(a, "env"),
        "episode": _field(a, "episode"),
        "against": _field(a, "against"),
        "a": {"file": first, "agent": _field(a, "agent"), **_interval([a.deals[k].result for k in common])},
        "b": {"file": second, "agent": _field(b, "agent"), **_interval([b.deals[k].result for k in common])},
        "deals": {
            "common": len(common),
            "only_a": len(set(a.deals) - set(b.deals)),
            "only_b": len(set(b.deals) - set(a.deals)),
        },
        "difference": {
            "unit": unit if isinstance(unit, str) else None,
            **_interval(differences),
            "interval": "95%, mean ± 1.96 standard errors over the deals in common",
        },
        "played_alike": sum(a.deals[k].actions_sha256 == b.deals[k].actions_sha256 for k in common),
        "first_unlike": next((k for k in common if a.deals[k].actions_sha256 != b.deals[k].actions_sha256), None),
    }
