"""The observation adapter: what an agent's entry point needs to play a model it learned on the environments of
:mod:`clubsuite.rl` (or on anything that reads their observations), without the package's internals.

``clubs evaluate package.module:factory`` calls ``factory(spec)`` with the environment's rules spec and plays the
bot it returns: anything with a ``name`` and a ``choose(view, legal, rng)`` returning one of ``legal``
(``docs/benchmark.md``, "Agents"). A learned model reads observation vectors and scores action ids, while a bot is
given a seat's view and the legal actions; the adapter turns one into the other, exactly as the environments do:

* :meth:`Adapter.observation`: a view's observation vector (float32, the environments' ``observation``), with the
  ids already picked in a decision in progress;
* :meth:`Adapter.spelled`: each legal action as its action ids (a choice of several cards is several ids, one a
  step), and :meth:`Adapter.choice` to pick them one at a time, as the environments take them;
* :meth:`Adapter.bot`: a ready bot that plays a scoring function (a batch of observations in, a score per action id
  out): the legal action whose ids are likeliest under the softmax of the scores at each step, as a weights file's
  policy plays (:mod:`clubsuite.bots.policy`).

An entry point built on it::

    from clubsuite.rl.adapter import Adapter

    def make(spec):
        adapter = Adapter(spec)
        model = load_my_model(adapter.observation_size, adapter.action_count)
        return adapter.bot(model.scores, name="my-model")
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import numpy as np
import numpy.typing as npt

from clubsuite.bots.policy import PolicyBot, Scores
from clubsuite.coding import Choice, coding_for, env_layout, observation_of
from clubsuite.engine import View, resolve


class Adapter:
    """The observations and action ids of a rules spec (a benchmark environment's ``spec``, as ``factory(spec)``
    is given it), as the learning environments build them."""

    def __init__(self, spec: str) -> None:
        self.spec = spec
        info, options = resolve(spec)
        self.coding = coding_for(info, options)
        self.layout = env_layout(self.coding)

    @property
    def observation_size(self) -> int:
        """The length of an observation vector."""
        return self.layout.size

    @property
    def action_count(self) -> int:
        """How many action ids there are."""
        return self.coding.action_count

    @property
    def action_names(self) -> tuple[str, ...]:
        """The name of every action id, in order (``docs/rl.md`` lists them)."""
        return self.coding.action_names

    def observation(self, view: View, picked: Sequence[int] = ()) -> npt.NDArray[np.float32]:
        """The observation vector of a seat's ``view``, with the ids ``picked`` so far in the decision in progress."""
        return observation_of(self.coding, self.layout, view, picked)

    def spelled(self, legal: Iterable[object]) -> list[tuple[int, ...]]:
        """Each legal action as its action ids, in the order of ``legal``."""
        return [tuple(self.coding.tokens(action)) for action in legal]

    def choice(self, legal: Iterable[object]) -> Choice:
        """A decision among ``legal`` taken one id at a time: its ``allowed()`` ids (the mask), and ``pick(id)``,
        which gives the action once the ids picked spell one."""
        return Choice(legal, self.coding.tokens)

    def bot(self, scores: Callable[[npt.NDArray[np.float32]], npt.ArrayLike], name: str) -> PolicyBot:
        """A bot that plays ``scores`` (a batch of observations, one a row, in; a score per action id for each
        row out): the legal action whose ids are likeliest, the lowest ids first among equals."""
        return PolicyBot(_Scored(self, scores), name)


class _Scored:
    """An adapter's coding and layout with a scoring function: what :class:`PolicyBot` plays."""

    def __init__(self, adapter: Adapter, scores: Callable[[npt.NDArray[np.float32]], npt.ArrayLike]) -> None:
        self.coding, self.layout, self._scores = adapter.coding, adapter.layout, scores

    def scores(self, observation: npt.ArrayLike) -> Scores:
        """The function's scores of a batch of observations, as float64 numbers."""
        batch = np.asarray(observation, dtype=np.float32)
        return np.asarray(self._scores(batch), dtype=np.float64)
