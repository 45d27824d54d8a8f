"""Types of the compiled policy arithmetic (``_policy.pyx`` over ``policy.h``)."""

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

MAX_IDS: int
MAX_DEPTH: int
MAX_WIDTH: int

class Net:
    inputs: int
    outputs: int
    def __init__(self, layers: Sequence[tuple[npt.ArrayLike, npt.ArrayLike]]) -> None: ...
    def scores(self, x: npt.ArrayLike) -> npt.NDArray[np.float32]: ...
    def choose(self, observation: npt.ArrayLike, picked: int, spelled: Sequence[Sequence[int]]) -> int: ...
