"""Types of the compiled Free Clubs kernel (``_core.pyx``)."""

from collections.abc import Iterable, Sequence

from clubsuite.cards import Card
from clubsuite.games.free.hand import Call, FreeHand

PASS: int
TARGET_MAX: int

def state_bytes() -> int: ...
def random_matches(
    seeds: Iterable[int], target: int, no_spades_needs_a_trick: bool
) -> list[tuple[int, tuple[int, int, int], int, bool]]: ...
def random_decisions(seeds: Iterable[int], target: int, no_spades_needs_a_trick: bool) -> list[int]: ...
def count_random_hands(first_seed: int, matches: int, target: int, no_spades_needs_a_trick: bool) -> int: ...

class FreeCore:
    def __init__(
        self, auction: Sequence[int], primary: Sequence[int], chest: int, dealer: int, no_spades_needs_a_trick: bool
    ) -> None: ...
    @property
    def to_act(self) -> int | None: ...
    @property
    def stage(self) -> int: ...
    @property
    def leader(self) -> int: ...
    @property
    def last_winner(self) -> int: ...
    @property
    def winner(self) -> int: ...
    @property
    def partner(self) -> int: ...
    @property
    def hands(self) -> tuple[int, int, int]: ...
    @property
    def tricks_won(self) -> tuple[int, int, int]: ...
    @property
    def scores(self) -> tuple[int, int, int] | None: ...
    def legal(self) -> int: ...
    def step(self, action: int) -> int: ...

def heuristic_play(hand: FreeHand, constants: tuple[float, ...]) -> Card | None: ...
def heuristic_finish(hand: FreeHand, constants: tuple[float, ...]) -> list[Card] | None: ...
def bot_matches(
    seeds: Iterable[int], target: int, no_spades_needs_a_trick: bool, heuristic: int, constants: tuple[float, ...]
) -> list[tuple[int, tuple[int, int, int], int, bool]]: ...
def bot_decisions(
    seeds: Iterable[int], target: int, no_spades_needs_a_trick: bool, heuristic: int, constants: tuple[float, ...]
) -> list[int]: ...
def heuristic_action(
    hand: FreeHand, constants: tuple[float, ...], state: tuple[object, ...]
) -> tuple[Card | Call, tuple[object, ...]] | None: ...
def heuristic_finish_hand(
    hand: FreeHand, constants: tuple[float, ...], state: tuple[object, ...]
) -> tuple[list[Card | Call], tuple[object, ...]] | None: ...

OBSERVATION_SIZE: int
ACTION_IDS: int

def vector_table_bytes() -> int: ...

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
