"""The games in OpenSpiel (the optional extra ``openspiel``): every game registered with ``pyspiel.register_game``
as a sequential imperfect-information game, ``clubs_<game>``, with the game's options as OpenSpiel parameters
(``pyspiel.load_game("clubs_<game>(players=5)")``) and ``max_hands`` to bound a match.

* **Chance** deals the cards: each shuffle a deal draws (:attr:`RlCoding.deal_sizes`) is a Fisher-Yates shuffle
  whose every swap is a chance node with uniform outcomes, so chance outcomes are exact and a whole deal is the
  same as the game's own seeded deal would be from the same choices. The first dealer is seat 0.
* **Players' actions** are the action ids of :mod:`clubsuite.coding` (a multi-card choice spelled over several
  steps of the same player), legal actions being the ids the mask allows.
* **Returns** are 0 until the end: then +1 to every winner, -1 to every other seat, 0 to all in a draw; a match cut
  at ``max_hands`` ends with 0 for all. The game is general-sum (several seats can win together).
* **Information state and observation** are the seat's own view: the string is its JSON snapshot
  (``view.to_dict()``) with the ids it has picked in the decision in progress; the tensor is the observation vector
  of :mod:`clubsuite.rl.aec`. Earlier hands enter only through the running totals, as the rules let a player use
  them, so the information state is not perfect-recall over earlier hands.
* ``resample_from_infostate`` draws a state the player cannot tell from this one with the game's exact sampler
  (``match.determinize``), so OpenSpiel's IS-MCTS can play the games. The resampled state's ``history()`` starts
  at the resampling.

Importing this module registers the games.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

from clubsuite.coding import Choice, Features, Layout, RlCoding, coding_for, env_layout
from clubsuite.engine import SomeGame, SomeMatch, games, resolve
from clubsuite.errors import InvalidOptionsError
from clubsuite.options import format_value

MAX_HANDS = 100
"""The default ``max_hands`` parameter: a match not over after this many hands ends with 0 for everyone."""
PREFIX = "clubs_"
"""OpenSpiel short names are ``clubs_<game>``."""


class ScriptedRandom(random.Random):
    """A generator whose ``random()`` makes the game's Fisher-Yates shuffles take the swaps chosen by chance."""

    def __init__(self, fractions: list[float]) -> None:
        super().__init__(0)
        self._fractions = list(fractions)

    def random(self) -> float:
        """The next chosen swap, as the fraction the shuffle turns back into it."""
        if not self._fractions:
            raise RuntimeError("a deal drew more random numbers than its shuffles have swaps")
        return self._fractions.pop(0)

    @property
    def unused(self) -> int:
        """Swaps not drawn (a deal that draws fewer than its shuffles declare is a bug in the coding)."""
        return len(self._fractions)


def _swaps(sizes: tuple[int, ...]) -> list[int]:
    """The number of outcomes of each chance node of one deal: for each shuffle of n cards, n, n - 1, ..., 2."""
    return [i + 1 for n in sizes for i in range(n - 1, 0, -1)]


class _Table:
    """What a state holds: the match, the decision in progress and the chance swaps drawn so far. Copied with the
    match's own ``clone()`` when OpenSpiel clones a state, and pickled as the actions that rebuild it."""

    def __init__(self, spec: str, max_hands: int, resolved: tuple[SomeGame, object, RlCoding] | None = None) -> None:
        """``resolved``: the game, options and coding of ``spec`` when the caller has them already (a game makes
        many states, and reading a spec anew each time is most of a state's cost)."""
        self.spec = spec
        self.max_hands = max_hands
        if resolved is None:
            info, options = resolve(spec)
            resolved = (info, options, coding_for(info, options))
        info, options, self.coding = resolved
        self.match: SomeMatch = info.new_match(options, 0)
        self.swaps = _swaps(self.coding.deal_sizes)
        self.drawn: list[int] = []
        self.choice: Choice | None = None
        self.actions: list[int] = []

    def __deepcopy__(self, memo: dict[int, Any]) -> _Table:
        twin = object.__new__(_Table)
        twin.__dict__.update(self.__dict__)
        twin.match = self.match.clone()
        twin.drawn = list(self.drawn)
        twin.choice = None if self.choice is None else self.choice.copy()
        twin.actions = list(self.actions)
        return twin

    def __reduce__(self) -> tuple[Callable[..., _Table], tuple[str, int, list[int]]]:
        return (_rebuilt, (self.spec, self.max_hands, self.actions))

    @property
    def over(self) -> bool:
        """Whether the match has ended, or was cut at ``max_hands``."""
        m = self.match
        return m.is_over or (m.to_act is None and len(m.hands) >= self.max_hands)

    def apply(self, action: int) -> None:
        """A chance swap or a player's action id."""
        self.actions.append(action)
        if self.choice is None:
            self.drawn.append(action)
            if len(self.drawn) == len(self.swaps):
                scripted = ScriptedRandom([(j + 0.5) / n for j, n in zip(self.drawn, self.swaps, strict=True)])
                self.match.deal(scripted)
                if scripted.unused:
                    raise RuntimeError("a deal drew fewer random numbers than its shuffles have swaps")
                self.drawn = []
                self._open()
            return
        chosen = self.choice.pick(action)
        if chosen is not None:
            self.match.apply(chosen)
            self._open()

    def _open(self) -> None:
        """The next decision, if a seat is to act."""
        m = self.match
        self.choice = None if m.to_act is None else Choice(m.legal_actions(), self.coding.tokens)


def _rebuilt(spec: str, max_hands: int, actions: list[int]) -> _Table:
    """A table rebuilt from its actions (unpickling a state)."""
    table = _Table(spec, max_hands)
    for action in actions:
        table.apply(action)
    return table


class ClubsState(pyspiel.State):  # type: ignore[misc]  # OpenSpiel ships no type information
    """A state of a match (see the module docstring)."""

    def __init__(self, game: ClubsGame) -> None:
        super().__init__(game)
        self.table = _Table(game.spec, game.max_hands, game.resolved)

    def current_player(self) -> int:
        """The seat to act, or chance, or terminal."""
        t = self.table
        if t.over:
            return int(pyspiel.PlayerId.TERMINAL)
        if t.choice is None:
            return int(pyspiel.PlayerId.CHANCE)
        seat = t.match.to_act
        assert seat is not None
        return seat

    def _legal_actions(self, player: int) -> list[int]:
        choice = self.table.choice
        return [] if choice is None else choice.allowed()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The swaps of the next chance node, equally likely."""
        t = self.table
        n = t.swaps[len(t.drawn)]
        return [(j, 1.0 / n) for j in range(n)]

    def _apply_action(self, action: int) -> None:
        self.table.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"swap {action}"
        return self.table.coding.action_names[action]

    def is_terminal(self) -> bool:
        """Whether the match is over (or cut at ``max_hands``)."""
        return self.table.over

    def returns(self) -> list[float]:
        """0 for all until the end; then +1 to winners, -1 to the others, 0 to all in a draw or a cut match."""
        m = self.table.match
        n = m.n_seats
        if not m.is_over or m.draw:
            return [0.0] * n
        return [1.0 if s in m.winners else -1.0 for s in range(n)]

    def __str__(self) -> str:
        m = self.table.match
        return f"hand {len(m.hands)}, {m.phase}, totals {list(m.totals)}, actions {len(self.table.actions)}"

    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> ClubsState:
        """A state ``player_id`` cannot tell from this one, every card it cannot see drawn again by the game's
        exact sampler (and the swaps of a deal in progress, which nobody has seen, dropped)."""
        rng = random.Random(int(probability_sampler() * 2**53))
        twin: ClubsState = self.get_game().new_initial_state()
        t = self.table
        fresh = twin.table
        fresh.match = t.match.determinize(player_id, rng) if t.match.to_act is not None else t.match.clone()
        fresh.choice = None if t.choice is None else t.choice.copy()
        fresh.actions = list(t.actions)
        return twin


def _view_dict(table: _Table, player: int) -> dict[str, Any] | None:
    """The player's view as JSON, or None before the first deal."""
    if not table.match.hands:
        return None
    return dict(table.match.view(player).to_dict())


class ClubsObserver:
    """OpenSpiel's observer protocol: the seat's observation vector and its view as a string."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.tensor = np.zeros(layout.size, np.float32)
        self.dict = {
            s.name: self.tensor[layout.offsets[s.name] : layout.offsets[s.name] + s.size] for s in layout.slots
        }

    def set_from(self, state: ClubsState, player: int) -> None:
        """Fill the tensor from ``player``'s view (zeros before the first deal)."""
        t = state.table
        self.tensor.fill(0.0)
        if not t.match.hands:
            return
        features = Features(self.layout)
        t.coding.observe(t.match.view(player), features)
        if t.choice is not None and t.match.to_act == player:
            for action_id in t.choice.picked:
                features.put("picked", action_id)
        self.tensor[:] = features.vector

    def string_from(self, state: ClubsState, player: int) -> str:
        """``player``'s view as JSON, with the ids it has picked in the decision in progress."""
        t = state.table
        picked = list(t.choice.picked) if t.choice is not None and t.match.to_act == player else []
        return json.dumps({"seat": player, "view": _view_dict(t, player), "picked": picked}, sort_keys=True)


class ClubsGame(pyspiel.Game):  # type: ignore[misc]  # OpenSpiel ships no type information
    """One of the games with its options (see the module docstring)."""

    info: SomeGame

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        values = {**_parameters(self.info), **(params or {})}
        self.max_hands = int(values.pop("max_hands"))
        if self.max_hands < 1:
            raise InvalidOptionsError(f"max_hands={self.max_hands}: at least 1 hand")
        self.spec = _spec_of(self.info, values)
        info, options = resolve(self.spec)
        self.coding = coding_for(self.info, options)
        self.resolved: tuple[SomeGame, object, RlCoding] = (info, options, self.coding)
        self.layout = env_layout(self.coding)
        seats = self.info.n_seats(options)
        game_info = pyspiel.GameInfo(
            num_distinct_actions=self.coding.action_count,
            max_chance_outcomes=max(self.coding.deal_sizes),
            num_players=seats,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=self.max_hands * self.coding.max_steps_per_hand,
        )
        super().__init__(_game_type(self.info), game_info, {**values, "max_hands": self.max_hands})

    def new_initial_state(self) -> ClubsState:
        """A match before its first deal."""
        return ClubsState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> ClubsObserver:
        """The seat's observation (the same for the information state: see the module docstring)."""
        return ClubsObserver(self.layout)


def _parameters(info: SomeGame) -> dict[str, Any]:
    """The OpenSpiel parameters of a game: its options (whole numbers and yes/no as such, the rest as text in the
    spec syntax) and ``max_hands``."""
    params: dict[str, Any] = {}
    for f in dataclasses.fields(info.options_class):
        default = f.default
        params[f.name] = default if isinstance(default, bool | int) else format_value(default)
    params["max_hands"] = MAX_HANDS
    return params


def _spec_of(info: SomeGame, values: dict[str, Any]) -> str:
    """The rules spec the parameters make."""
    parts = [f"{k}={format_value(v)}" for k, v in values.items()]
    return f"{info.name}({','.join(parts)})" if parts else info.name


def _game_type(info: SomeGame) -> Any:
    return pyspiel.GameType(
        short_name=PREFIX + info.name,
        long_name=info.title,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(info.seats),
        min_num_players=min(info.seats),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(info),
    )


def register_all() -> tuple[str, ...]:
    """Register every game with OpenSpiel (once); their short names."""
    names = []
    registered = set(pyspiel.registered_names())
    for info in games():
        name = PREFIX + info.name
        if name not in registered:
            game_class = type(f"Clubs_{info.name}", (ClubsGame,), {"info": info})
            pyspiel.register_game(_game_type(info), game_class)
        names.append(name)
    return tuple(names)


REGISTERED = register_all()
"""The OpenSpiel short names of the games."""
