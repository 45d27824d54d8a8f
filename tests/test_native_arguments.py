"""The compiled kernels' wrappers refuse bad arguments with a ValueError naming them: the C behind them trusts what
it is given, so a wrong hand or seat must never reach it (it would read or write out of bounds)."""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np
import pytest

from clubsuite.games.free.bot import heuristic_constants
from clubsuite.games.free.bulk import CORE as FREE
from clubsuite.games.northstar.bulk import CORE as NORTHSTAR
from clubsuite.games.partnership.bulk import CORE as PARTNERSHIP
from clubsuite.games.whist.bulk import CORE as WHIST
from clubsuite.solver.compiled import SOLVER
from native_helpers import kernel_or_skip

FULL = (1 << 52) - 1
STATE = random.Random(1).getstate()


def _solve(**changed: object) -> Callable[[], object]:
    args: dict[str, object] = {
        "hands": [0b111, 0b111000, 0b111000000],
        "leader": 0,
        "trick": [],
        "side": [True, False, False],
        "must_beat": True,
        "broken": 0,
        "tricks_done": 10,
        "max_tricks": 13,
        "points": False,
        "sign": 1,
        "special": 0,
        "side_tricks": 0,
        "other_tricks": 0,
        "limit": 1000,
    }
    args.update(changed)
    return lambda: kernel_or_skip(SOLVER).solve(*args.values())


BAD: dict[str, Callable[[], object]] = {
    "solver: a hand of 14 cards": _solve(hands=[(1 << 14) - 1, 1 << 20, 1 << 30]),
    "solver: a card past the deck": _solve(hands=[1 << 60, 1 << 20, 1 << 30]),
    "solver: hands sharing a card": _solve(hands=[0b11, 0b10, 0b100]),
    "solver: a leader out of the seats": _solve(leader=-1),
    "solver: a trick card also held": _solve(trick=[0]),
    "solver: a trick card off the deck": _solve(trick=[70]),
    "solver: five special cards": _solve(special=0b11111 << 20),
    "whist table: a leader out of the seats": lambda: kernel_or_skip(WHIST).HeuristicTable(
        (0b1, 0b10, 0b100), 10**7, [0, 0, 0], [-1, -1, -1], (0, 0, 0), 11
    ),
    "whist table: a given hand past the deck": lambda: kernel_or_skip(WHIST).HeuristicTable(
        (0b1, 0b10, 0b100), 0, [1 << 60, 0, 0], [-1, -1, -1], (0, 0, 0), 11
    ),
    "whist hand: a dealer out of the seats": lambda: kernel_or_skip(WHIST).WhistCore((1, 2, 4), 8, -2, 0),
    "whist exchange: a hand of 52 cards": lambda: kernel_or_skip(WHIST).exchange_choice(FULL, 0, 0, 11, False, STATE),
    "whist exchange: a bad generator index": lambda: kernel_or_skip(WHIST).exchange_choice(
        0b111, 0, 0, 11, False, (STATE[0], (*STATE[1][:624], -5), STATE[2])
    ),
    "whist batch: an unknown bot": lambda: kernel_or_skip(WHIST).bot_matches([1], 11, 0, (0, 7, 0)),
    "partnership pass: too few cards": lambda: kernel_or_skip(PARTNERSHIP).pass_at(0b111, 5),
    "partnership pass: a hand past the deck": lambda: kernel_or_skip(PARTNERSHIP).pass_at((1 << 64) - 1, 0),
    "partnership table: a dealer out of the seats": lambda: kernel_or_skip(PARTNERSHIP).HeuristicTable(
        (1, 2, 4, 8), -1, 0
    ),
    "partnership hand: an unknown pass direction": lambda: kernel_or_skip(PARTNERSHIP).PartnershipCore(
        (1, 2, 4, 8), 0, 3
    ),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_kernel_refuses_a_bad_argument_naming_it(case: str) -> None:
    with pytest.raises((ValueError, OverflowError)):
        BAD[case]()


def test_a_table_with_hands_of_unequal_size_ends_its_play_out_without_a_card_that_is_not_there() -> None:
    """A play-out from a table nobody could reach stops when a seat has nothing to play, instead of playing -1."""
    table = kernel_or_skip(WHIST).HeuristicTable((0b1, 0b110, 0), 0, [0, 0, 0], [-1, -1, -1], (0, 0, 0), 11)
    assert all(0 <= c < 52 for c in table.finish())


def _arrays(n: int, size: int, ids: int, seats: int) -> dict[str, object]:
    import numpy as np

    return {
        "actions": np.zeros(n, np.int64),
        "obs": np.zeros((n, size), np.float32),
        "mask": np.zeros((n, ids), np.int8),
        "rewards": np.zeros((n, seats), np.float64),
        "terminated": np.zeros(n, np.uint8),
        "truncated": np.zeros(n, np.uint8),
        "illegal": np.zeros(n, np.uint8),
        "seats": np.zeros(n, np.int64),
    }


VECTOR_TABLES: dict[str, tuple[int, tuple[int, ...], tuple[float, ...]]] = {
    WHIST: (2, (11, 0), ()),
    PARTNERSHIP: (3, (11,), ()),
    FREE: (2, (11, 0), heuristic_constants()),
    NORTHSTAR: (2, (3, 3, 0, 0, 0, 0, 0, 11, tuple(range(15))), tuple(range(14))),
}
"""Each kernel's vector tables: the other seats, rules settings with a target of 11, the heuristic bot's constants."""


@pytest.mark.parametrize("module", sorted(VECTOR_TABLES))
@pytest.mark.parametrize("wrong", ["actions", "obs", "mask", "rewards", "terminated", "truncated", "illegal", "seats"])
def test_the_vector_tables_refuse_an_array_of_the_wrong_shape_naming_it(module: str, wrong: str) -> None:
    """The tables write a row of every array per table: a short one would be written past its end."""
    core = kernel_or_skip(module)
    others, rules, weights = VECTOR_TABLES[module]
    tables = core.VectorTables(3, rules, 50, False, 0, [0] * others, weights)
    good = _arrays(3, tables.size, core.ACTION_IDS, tables.seats)
    tables.reset([1, 2, 3], good["obs"], good["mask"], good["seats"])
    bad = dict(good)
    bad[wrong] = _arrays(2, tables.size + (wrong == "obs"), core.ACTION_IDS, tables.seats)[wrong]
    with pytest.raises(ValueError, match=f"^{wrong}: expected shape"):
        tables.step(*bad.values())


@pytest.mark.parametrize("module", sorted(VECTOR_TABLES))
def test_the_vector_tables_refuse_settings_out_of_range_naming_them(module: str) -> None:
    """The C trusts its settings: the seat, who plays every other seat, the rules, the bot's constants and the learned
    seats' policy are checked."""
    core = kernel_or_skip(module)
    others, rules, weights = VECTOR_TABLES[module]
    with pytest.raises(ValueError, match="lineup"):
        core.VectorTables(3, rules, 50, False, 0, [0] * (others + 1), weights)
    with pytest.raises(ValueError, match="lineup"):
        core.VectorTables(3, rules, 50, False, 0, [4] * others, weights)
    learned = [core.SEAT_KINDS["learned"]] * others
    with pytest.raises(ValueError, match="layers: the learned seats' policy"):
        core.VectorTables(3, rules, 50, False, 0, learned, weights)
    with pytest.raises(ValueError, match="layers: the learned seats' policy"):
        core.VectorTables(3, rules, 50, False, 0, [0] * others, weights, [(np.zeros((4, 2), np.float32), np.zeros(2))])
    with pytest.raises(ValueError, match="layers: a policy of"):
        core.VectorTables(3, rules, 50, False, 0, learned, weights, [(np.zeros((4, 2), np.float32), np.zeros(2))])
    with pytest.raises(ValueError, match="layer 0"):
        core.VectorTables(3, rules, 50, False, 0, learned, weights, [(np.zeros((4, 2), np.float32), np.zeros(3))])
    with pytest.raises(ValueError, match=f"seat={others + 1}"):
        core.VectorTables(3, rules, 50, False, others + 1, [0] * others, weights)
    goal = rules.index(11)  # the target (or goal) of 11
    with pytest.raises(ValueError, match=r"(target|goal)=0"):
        core.VectorTables(3, (*rules[:goal], 0, *rules[goal + 1 :]), 50, False, 0, [0] * others, weights)
    with pytest.raises(ValueError, match="rules"):
        core.VectorTables(3, (*rules, 1), 50, False, 0, [0] * others, weights)
    with pytest.raises(ValueError, match="weights"):
        core.VectorTables(3, rules, 50, False, 0, [0] * others, (*weights, 1.0))
