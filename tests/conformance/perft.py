"""Perft for every game, as in chess: the number of legal action sequences of a given length from a fixed position.

Each game's perft test (``tests/test_<game>_perft.py``) brings three things: a data file of positions and expected
counts (``tests/data/perft/<game>.txt``), how a block of it becomes a position (an engine state and a reference
state), and a reference: the game's legal actions and their effect written again from the rules text, sharing no
code with the engine. This module holds the rest: reading the data files, counting with the engine (every branch
on its own ``clone()``), counting with the reference, the test cases, and the report a test module prints when run
as a script (to compute the counts of a new position, or to check a file).

The data files share one format: blank lines and lines starting with ``#`` are ignored; ``[name]`` starts a block
(names are unique within a file); ``key value`` sets a field of the block (each game says which keys it reads);
``perft N C`` (repeatable) says that exactly ``C`` sequences of ``N`` legal actions start at the block's position.
A sequence counts only if all ``N`` actions exist, so a depth past the end of a hand counts 0.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

import pytest

DATA = Path(__file__).resolve().parent.parent / "data" / "perft"
"""Where the perft data files are."""

S = TypeVar("S")
A = TypeVar("A")


@dataclass
class Block:
    """One block of a data file: its name, its fields and its expected counts."""

    name: str
    fields: dict[str, str] = field(default_factory=dict)
    counts: list[tuple[int, int]] = field(default_factory=list)
    """(depth, expected count) pairs, in the order written."""

    def __getitem__(self, key: str) -> str:
        return self.fields[key]

    def get(self, key: str, default: str = "") -> str:
        """A field, or ``default`` when the block does not set it."""
        return self.fields.get(key, default)


def read_blocks(path: Path) -> list[Block]:
    """The blocks of a data file, in order; raises ValueError for a line outside a block or a repeated name."""
    blocks: list[Block] = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            name = line[1:-1]
            if any(b.name == name for b in blocks):
                raise ValueError(f"{path.name}:{number}: block [{name}] is named twice")
            blocks.append(Block(name))
            continue
        if not blocks:
            raise ValueError(f"{path.name}:{number}: a field before the first [block]")
        key, _, value = line.partition(" ")
        if key == "perft":
            depth, count = value.split()
            blocks[-1].counts.append((int(depth), int(count)))
        else:
            blocks[-1].fields[key] = value.strip()
    return blocks


class Position(Protocol[S]):
    """What the shared tests need of a game's position."""

    @property
    def name(self) -> str: ...

    @property
    def counts(self) -> list[tuple[int, int]]: ...

    def engine_state(self) -> Any:
        """The engine's state at the position (a hand, or anything with ``legal_actions``, ``apply``, ``clone``)."""
        ...

    def reference_state(self) -> S:
        """The reference's state at the position."""
        ...


def engine_perft(state: Any, depth: int) -> int:
    """The number of legal action sequences of exactly ``depth`` actions, by the engine's own legal actions: each
    branch is played on a ``clone()`` of the state."""
    if depth == 0:
        return 1
    legal = state.legal_actions()
    if depth == 1:
        return len(legal)
    total = 0
    for action in legal:
        child = state.clone()
        child.apply(action)
        total += engine_perft(child, depth - 1)
    return total


def engine_perft_by_depth(state: Any, depth: int) -> list[int]:
    """``[engine_perft(state, d) for d in range(depth + 1)]`` in one walk, each branch played on a ``clone()`` as
    :func:`engine_perft` plays it: the walk to ``depth`` passes every shorter sequence on its way, so it counts them
    as it goes (the legal actions at each node of every level below ``depth``)."""
    counts = [1] + [0] * depth

    def walk(node: Any, level: int) -> None:
        legal = node.legal_actions()
        counts[level + 1] += len(legal)
        if level + 1 < depth:
            for action in legal:
                child = node.clone()
                child.apply(action)
                walk(child, level + 1)

    if depth > 0:
        walk(state, 0)
    return counts


class EngineCounts:
    """The engine's counts of a test module's cases, each position walked once (:func:`engine_perft_by_depth`) to
    the deepest count of its group, the ``long`` cases or the others, when a case of that group first asks: every
    shorter count of the position is read from the same walk, where the counts of one case each would walk the
    shallower levels again for every depth. A walk to the deepest long count serves the other cases of the position
    too, so ``make check`` (no long case) walks each position only as deep as its short counts go."""

    def __init__(self, found: Sequence[tuple[Position[Any], int, int]], long: Collection[str] = ()) -> None:
        self._long = frozenset(long)
        self._deepest: dict[tuple[str, bool], int] = {}
        for (position, depth, _), name in zip(found, case_ids(found), strict=True):
            key = (position.name, name in self._long)
            self._deepest[key] = max(self._deepest.get(key, 0), depth)
        self._walked: dict[str, list[int]] = {}

    def count(self, position: Position[Any], depth: int) -> int:
        """The engine's number of legal action sequences of ``depth`` actions from ``position`` (one of the cases)."""
        walked = self._walked.get(position.name, [])
        if depth >= len(walked):
            group = (position.name, f"{position.name}-d{depth}" in self._long)
            walked = engine_perft_by_depth(position.engine_state(), self._deepest[group])
            self._walked[position.name] = walked
        return walked[depth]


@dataclass(frozen=True)
class Reference(Generic[S, A]):
    """A game's rules written again for counting: its legal actions and the state after one (a new state)."""

    legal: Callable[[S], Sequence[A]]
    apply: Callable[[S, A], S]

    def perft(self, state: S, depth: int) -> int:
        """The number of legal action sequences of exactly ``depth`` actions by these rules."""
        if depth == 0:
            return 1
        legal = self.legal(state)
        if depth == 1:
            return len(legal)
        return sum(self.perft(self.apply(state, a), depth - 1) for a in legal)


P = TypeVar("P", bound=Position[Any])


def cases(positions: Sequence[P], most: int | None = None) -> list[tuple[P, int, int]]:
    """(position, depth, expected count) for every count of every position (those up to ``most`` if given)."""
    return [(p, d, n) for p in positions for d, n in p.counts if most is None or n <= most]


def case_ids(found: Sequence[tuple[Position[Any], int, int]]) -> list[str]:
    """Test ids: the position's name and the depth."""
    return [f"{p.name}-d{d}" for p, d, _ in found]


def case_params(found: Sequence[tuple[Position[Any], int, int]], long: Collection[str]) -> list[Any]:
    """The cases as parameters with their ids (:func:`case_ids`), those named in ``long`` marked ``long``: the deep
    counts that take a second or more to walk in pure Python, left out of ``make check`` and run by ``make test``."""
    ids = case_ids(found)
    unknown = set(long) - set(ids)
    assert not unknown, f"no such perft case: {sorted(unknown)}"
    return [
        pytest.param(*case, id=name, marks=[pytest.mark.long] if name in long else [])
        for case, name in zip(found, ids, strict=True)
    ]


def report(positions: Sequence[Position[S]], reference: Reference[S, Any]) -> Iterator[str]:
    """For every count of every position: the reference's count, the engine's and the file's, and whether they
    agree."""
    for p in positions:
        for depth, expected in p.counts:
            ref = reference.perft(p.reference_state(), depth)
            eng = engine_perft(p.engine_state(), depth)
            flag = "ok" if ref == eng == expected else "DIFFERS"
            yield f"{p.name} perft {depth}: reference {ref} engine {eng} file {expected} {flag}"
