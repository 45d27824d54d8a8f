"""Types of the vector tables' glue (``vector_tables.pxi``), the same in every game's kernel that includes it: each
game's ``_core.pyi`` re-exports these names (there is no module of this name at run time)."""

from collections.abc import Sequence

ACTION_IDS: int
SEAT_KINDS: dict[str, int]

def vector_table_bytes() -> int: ...

class VectorTables:
    n: int
    size: int
    seats: int
    def __init__(
        self,
        n: int,
        rules: tuple[object, ...],
        max_hands: int,
        points: bool,
        seat: int,
        lineup: list[int],
        weights: Sequence[float] = (),
        layers: Sequence[tuple[object, object]] | None = None,
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
