"""Types of the compiled exact solver (``_solver.pyx``)."""

from collections.abc import Sequence

def solve(
    hands: Sequence[int],
    leader: int,
    trick: Sequence[int],
    side: Sequence[bool],
    must_beat: bool,
    broken: int,
    tricks_done: int,
    max_tricks: int,
    points: bool,
    sign: int,
    special: int,
    side_tricks: int,
    other_tricks: int,
    limit: int,
) -> tuple[int, dict[int, int] | None, int, int]: ...
