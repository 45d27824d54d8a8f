"""What the conformance tests share: the cases (every registered game and variant), bounded random play, snapshots
of what a match shows, and a walk that finds mutable objects two states have in common.

A case is a game's spec: the game itself, each named variant (``info.variants``), each example spec of its
registry entry (``info.examples``: the options a game wants shown, and checked), and for a game whose seat count is
an option (``players``) each allowed count. Random play is seeded, by a fixed seed (every run checks the same
positions) or, in the heavier checks, by the run's seed (``fresh_seed``, each case a seed of its own from it,
:func:`seed_of`: other positions each run, and a failure names the seed to play it again), and bounded
(:data:`MAX_HANDS` hands), so the whole suite stays well under a minute.
"""

from __future__ import annotations

import dataclasses
import enum
import random
import types
import zlib
from collections.abc import Iterator
from typing import Any

from clubsuite.engine import GameInfo, games, resolve
from clubsuite.runner import deal_next

MAX_HANDS = 3
"""How many hands a random match plays at most (fewer when the match ends first)."""

Snapshot = tuple[dict[str, Any], tuple[dict[str, Any], ...]]
"""What a match shows: its summary and every seat's view (``to_dict()``)."""


@dataclasses.dataclass(frozen=True)
class Case:
    """One game configuration the suite checks."""

    spec: str
    """The spec, as a user would type it (``whist-1997``, ``northstar(players=2)``)."""
    info: GameInfo
    options: Any

    def new_match(self) -> Any:
        """A new match of this configuration, seat 0 dealing first."""
        return self.info.new_match(self.options, 0)


def cases() -> list[Case]:
    """Every registered game with each named variant, and each seat count where the count is an option; a spec
    whose options equal an earlier one's is left out."""
    out: list[Case] = []
    for info in games():
        specs = [info.name, *info.variants, *info.examples]
        if len(info.seats) > 1 and "players" in {f.name for f in dataclasses.fields(info.options_class)}:
            specs += [f"{info.name}(players={n})" for n in info.seats]
        for spec in specs:
            resolved, options = resolve(spec)
            assert resolved is info
            if all(c.info is not info or c.options != options for c in out):
                out.append(Case(spec, info, options))
    return out


CASES = cases()
IDS = [c.spec for c in CASES]


def seed_of(case: Case, run_seed: int) -> int:
    """The seed ``case`` plays from in a run of seed ``run_seed`` (``fresh_seed``): one of its own, so that the
    variants of a game play other deals than each other."""
    return run_seed + zlib.crc32(case.spec.encode())


def random_play(case: Case, seed: int, hands: int = MAX_HANDS, seeded_deals: bool = False) -> Iterator[Any]:
    """Play a match of ``case`` with uniformly random legal actions, yielding the match at every decision (before
    the action is chosen); ends with the match, or after ``hands`` hands.

    Deals are drawn from the seeded RNG, or with ``seeded_deals`` from the hand seeds of match seed ``seed`` (so a
    record can name them by seed). The consumer reads the match but must not change it.
    """
    rng = random.Random(seed)
    match = case.new_match()
    while not match.is_over:
        if match.current is None:
            if len(match.hands) >= hands:
                return
            if seeded_deals:
                deal_next(match, case.info, seed)
            else:
                match.deal(rng)
            continue
        yield match
        legal = match.legal_actions()
        match.apply(legal[rng.randrange(len(legal))])


def play_to_end(case: Case, seed: int, hands: int = MAX_HANDS, seeded_deals: bool = False) -> Any:
    """The match :func:`random_play` leaves."""
    last = None
    for match in random_play(case, seed, hands, seeded_deals):
        last = match
    assert last is not None
    return last


def snapshot(match: Any) -> Snapshot:
    """Everything the match shows: its JSON summary and every seat's view."""
    return match.summary(), tuple(match.view(s).to_dict() for s in range(match.n_seats))


def hidden_hands(match: Any, seat: int) -> tuple[int, ...]:
    """The cards the other seats hold in the hand in progress (what a determinized state draws again)."""
    return tuple(int(h) for s, h in enumerate(match.current.hands) if s != seat)


# -- finding mutable objects two states share ------------------------------------------------------------------
_VALUES = (int, float, complex, str, bytes, bool, type(None), range, enum.Enum, type, types.FunctionType)


def _children(obj: Any) -> Iterator[tuple[str, Any]]:
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield f"[{k!r}]", v
            yield f"<key {k!r}>", k
        return
    if isinstance(obj, (list, tuple, set, frozenset)):
        for i, item in enumerate(obj):
            yield f"[{i}]", item
        return
    for c in type(obj).__mro__:
        slots = c.__dict__.get("__slots__", ())
        for name in (slots,) if isinstance(slots, str) else slots:
            if name in ("__dict__", "__weakref__"):
                continue
            if name.startswith("__") and not name.endswith("__"):
                name = f"_{c.__name__.lstrip('_')}{name}"  # a private slot is stored under its mangled name
            if hasattr(obj, name):
                yield f".{name}", getattr(obj, name)
    for name, value in getattr(obj, "__dict__", {}).items():
        yield f".{name}", value


def mutable_objects(root: Any, skip: frozenset[int] = frozenset()) -> dict[int, str]:
    """Every object reachable from ``root`` that can change in place (a list, dict, set, bytearray or an instance
    of a class that is not a frozen value), by id, with the path that reaches it. Objects whose id is in ``skip``
    are neither listed nor entered. Written independently of :mod:`clubsuite.copying`: it looks inside everything,
    frozen dataclasses and tuples included."""
    found: dict[int, str] = {}
    seen: set[int] = set()
    stack: list[tuple[Any, str]] = [(root, "state")]
    while stack:
        obj, path = stack.pop()
        if id(obj) in seen or id(obj) in skip or isinstance(obj, _VALUES):
            continue
        seen.add(id(obj))
        frozen_value = isinstance(obj, (tuple, frozenset)) or (
            dataclasses.is_dataclass(obj) and type(obj).__dataclass_params__.frozen  # type: ignore[attr-defined]
        )
        if not frozen_value:
            found[id(obj)] = path
        stack.extend((child, path + step) for step, child in _children(obj))
    return found


def shared_mutables(a: Any, b: Any, skip: frozenset[int] = frozenset()) -> list[str]:
    """The paths (in ``b``) of the mutable objects ``a`` and ``b`` both reach: empty when they are independent."""
    in_a = mutable_objects(a, skip)
    return sorted(path for key, path in mutable_objects(b, skip).items() if key in in_a)


def settled_hands(match: Any) -> frozenset[int]:
    """The ids of the hands before the last: no action reaches them again, and a clone shares them by design."""
    return frozenset(id(h) for h in match.hands[:-1])
