"""Types of the compiled whist kernel (``_core.pyx``)."""

from collections.abc import Callable, Iterable, Sequence

from clubsuite.games.whist.hand import WhistHand
from clubsuite.games.whist.match import WhistMatch

def state_bytes() -> int: ...
def random_doubles(seed: int, n: int) -> list[float]: ...
def derive_seed(base: int, path: int) -> int: ...
def random_matches(
    seeds: Iterable[int], target: int, lead_rule: int
) -> list[tuple[int, tuple[int, int, int], int, bool]]: ...
def exchange_choice(
    hand: int, seat: int, total: int, target: int, someone_exchanged: bool, state: tuple[object, ...]
) -> tuple[bool, tuple[object, ...]]: ...
def bot_matches(
    seeds: Iterable[int], target: int, lead_rule: int, bots: tuple[int, int, int]
) -> list[tuple[int, tuple[int, int, int], int, bool]]: ...
def count_random_hands(first_seed: int, matches: int, target: int, lead_rule: int) -> int: ...

class WhistCore:
    def __init__(self, hands: tuple[int, int, int], bid: int, dealer: int, lead_rule: int) -> None: ...
    @property
    def to_act(self) -> int | None: ...
    @property
    def phase(self) -> int: ...
    @property
    def leader(self) -> int: ...
    @property
    def tricks_won(self) -> tuple[int, int, int]: ...
    @property
    def hands(self) -> tuple[int, int, int]: ...
    @property
    def bid(self) -> int: ...
    def legal(self) -> int: ...
    def decide(self, take: bool) -> int: ...
    def play(self, index: int) -> int: ...

class HeuristicTable:
    def __init__(
        self,
        hands: tuple[int, ...],
        leader: int,
        given: list[int],
        known_at: list[int],
        totals: tuple[int, ...] | list[int],
        target: int,
    ) -> None: ...
    def play(self, index: int) -> None: ...
    def choice(self) -> int: ...
    def finish(self) -> list[int]: ...

OBSERVATION_SIZE: int

def vector_table_bytes() -> int: ...

ACTION_IDS: int

class VectorTables:
    n: int
    def __init__(
        self,
        n: int,
        target: int,
        rule: int,
        max_hands: int,
        points: bool,
        seat: int,
        lineup: list[int],
        weights: Sequence[float] = (),
    ) -> None: ...
    def reset(self, bases: list[int], obs: object, mask: object, seats: object) -> None: ...
    def step(
        self,
        actions: object,
        obs: object,
        mask: object,
        rewards: object,
        terminated: object,
        truncated: object,
        illegal: object,
        seats: object,
    ) -> None: ...

class CompiledHand(WhistHand):
    """The compiled hand (hand.pxi): WhistHand's interface with its state in C. Not a subclass of WhistHand at run
    time (a C type cannot be); declared as one here because it offers the same attributes and methods."""

def install(match_class: type[WhistMatch]) -> None: ...
def python_methods() -> tuple[Callable[..., object], Callable[..., object], Callable[..., object]]: ...
