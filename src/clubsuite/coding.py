"""How a game speaks to learning programs: fixed integer action ids, and a fixed-size observation vector built
from one seat's view, both declared by the game itself (its registry part ``rl``).

**Actions.** Every game has a fixed catalogue of action ids (:attr:`RlCoding.action_names`). A game action is
written as a short sequence of ids, its *tokens* (:attr:`RlCoding.tokens`): one id for a card played, a bid or a
pass; several for a choice of several cards (the partnership game's three-card pass: its three cards in index
order; a climbing game's play: its cards in deck order, then one id that says what the play counts as). A learner
picks one id per step, and the mask of each step allows exactly the ids that continue some legal action
(:class:`Choice`), so every sequence the masks allow ends in a legal action and every legal action can be
reached, by exactly one sequence. No token sequence of a decision is a prefix of another (a game ends a variable
number of picks with an id that only ends a choice), so a choice is complete as soon as its picks spell an action.

**Observations.** A :class:`Layout` is a list of named :class:`Slot` s, each a run of float32 values with its
bounds and meaning; :class:`Features` fills one vector slot by slot from a seat's view (never from the match), so
nothing a seat may not know can reach it. Seats are written relative to the observer (0 is the observer, 1 the
next player to its left, and so on), so one policy can play every seat. ``docs/rl.md`` lists every slot of every
game, generated from the layouts themselves.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NotRequired, Protocol, TypedDict, runtime_checkable

from clubsuite.cards import Card, Deck
from clubsuite.engine import SomeGame, View
from clubsuite.errors import IllegalActionError, InvalidOptionsError

# numpy is imported where a vector is first made (`Layout.bounds`, `Features`), not here: every command and server
# reads the games' benchmark declarations and the learned bot's policies from this module, and most never make a
# vector (`clubs play` with random bots starts a quarter second sooner without numpy).
if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Vector = npt.NDArray[np.float32]
    """An observation vector."""


@dataclass(frozen=True)
class Slot:
    """A named run of values in an observation vector."""

    name: str
    """The slot's name (``hand``, ``played_by``...)."""
    size: int
    """How many values it holds."""
    meaning: str
    """What the values say, for ``docs/rl.md``."""
    low: float = 0.0
    """The least value (values are clipped into ``[low, high]``)."""
    high: float = 1.0
    """The greatest value."""


@dataclass(frozen=True)
class Layout:
    """The slots of one game's observation vector, in order, and the deck that card slots index."""

    slots: tuple[Slot, ...]
    """The slots, in vector order."""
    deck: Deck
    """The game's deck: a card slot of this layout has one value per card, in this deck's order."""
    offsets: dict[str, int] = field(init=False, repr=False, compare=False)
    """Where each slot starts."""
    position: dict[int, int] = field(init=False, repr=False, compare=False)
    """A card's place in the deck, by card index."""
    named: dict[str, Slot] = field(init=False, repr=False, compare=False)
    """Each slot by its name (an observation is filled slot by slot, many times a decision in a search)."""

    def __post_init__(self) -> None:
        offsets, at = {}, 0
        for slot in self.slots:
            if slot.name in offsets:
                raise ValueError(f"slot {slot.name!r} named twice")
            offsets[slot.name] = at
            at += slot.size
        object.__setattr__(self, "offsets", offsets)
        object.__setattr__(self, "position", {c.index: k for k, c in enumerate(self.deck.cards)})
        object.__setattr__(self, "named", {s.name: s for s in self.slots})

    @property
    def size(self) -> int:
        """The length of the vector."""
        return sum(s.size for s in self.slots)

    def bounds(self) -> tuple[Vector, Vector]:
        """The least and greatest value of every entry."""
        import numpy as np

        low = np.concatenate([np.full(s.size, s.low, np.float32) for s in self.slots])
        high = np.concatenate([np.full(s.size, s.high, np.float32) for s in self.slots])
        return low, high

    def slot(self, name: str) -> Slot:
        """The slot called ``name``."""
        return self.named[name]


class Features:
    """One observation vector being filled from a seat's view, slot by slot."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        import numpy as np

        self.vector: Vector = np.zeros(layout.size, np.float32)

    def put(self, slot: str, index: int, value: float = 1.0) -> None:
        """Set entry ``index`` of ``slot`` to ``value`` (clipped to the slot's bounds)."""
        s = self.layout.named[slot]
        if not 0 <= index < s.size:
            raise IndexError(f"slot {slot!r} has {s.size} entries, not {index + 1}")
        self.vector[self.layout.offsets[slot] + index] = min(s.high, max(s.low, value))

    def cards(self, slot: str, cards: Iterable[Card], block: int = 0) -> None:
        """Mark ``cards`` in block ``block`` of a slot made of blocks of one entry per card of the deck."""
        base = self.layout.offsets[slot] + block * len(self.layout.deck.cards)
        for card in cards:
            self.vector[base + self.layout.position[card.index]] = 1.0

    def one_hot(self, slot: str, index: int | None) -> None:
        """Mark entry ``index`` of ``slot`` (nothing for None: for instance no seat)."""
        if index is not None:
            self.put(slot, index)


def mark_plays(
    f: Features,
    tricks: Iterable[tuple[int, Sequence[Card], int]],
    trick: Iterable[tuple[int, Card]],
    rel: Callable[[int], int],
    seats: int,
) -> None:
    """Fill the trick games' slots ``played_by`` (every card each seat played this hand) and ``trick`` (the trick
    in progress) from finished tricks as (leader, cards in play order, winner) and the trick in progress."""
    for leader, cards, _ in tricks:
        for k, card in enumerate(cards):
            f.cards("played_by", (card,), rel((leader + k) % seats))
    for seat, card in trick:
        f.cards("played_by", (card,), rel(seat))
        f.cards("trick", (card,), rel(seat))


def relative(seat: int, observer: int, seats: int) -> int:
    """``seat`` as the observer sees it: 0 itself, 1 the next player to its left, and so on."""
    return (seat - observer) % seats


@dataclass(frozen=True)
class RlCoding:
    """What a game gives learning programs for one set of options (its registry part ``rl`` makes it)."""

    action_names: tuple[str, ...]
    """The fixed catalogue: the name of every action id."""
    tokens: Callable[[object], tuple[int, ...]]
    """A legal action written as action ids (see the module docstring)."""
    layout: Layout
    """The observation's slots."""
    observe: Callable[[View, Features], None]
    """Fills the observation of a view (the seat's own, before or after its turn)."""
    deal_sizes: tuple[int, ...]
    """The shuffles one deal draws, by their sizes (a chance node deals them card by card)."""
    max_steps_per_hand: int
    """The most action ids the seats can pick in one hand (bounds a match's length for OpenSpiel)."""
    notes: str = ""
    """What the ids mean where a name alone does not say it (for ``docs/rl.md``)."""

    @property
    def action_count(self) -> int:
        """How many action ids there are."""
        return len(self.action_names)


RlPart = Callable[[object], RlCoding]
"""A game's part ``coding``: the coding of its options."""


@runtime_checkable
class HasCoding(Protocol):
    """A game's parts that give its coding for learning programs."""

    def coding(self) -> RlPart:
        """The coding of the game's options (the options are checked by the part)."""
        ...


class BenchmarkEntry(TypedDict):
    """One frozen benchmark environment as a game declares it (see :mod:`clubsuite.rl.benchmarks`)."""

    id: str
    spec: str
    seed: int
    deals_sha256: str
    rules_sha256: str
    observation_sha256: str
    episode: NotRequired[str]
    opponents: NotRequired[dict[str, str]]
    """Each reference opponent's level name and the SHA-256 of its choices (:mod:`clubsuite.rl.opponents`)."""


@runtime_checkable
class HasBenchmark(Protocol):
    """A game's parts that declare its frozen benchmark environments (read by the benchmark and by the learned
    bots, which play the policies shipped for them)."""

    def benchmark(self) -> tuple[BenchmarkEntry, ...]:
        """The game's environments, oldest first."""
        ...


def coding_for(info: SomeGame, options: object) -> RlCoding:
    """The coding of a game's options; a game without one is refused."""
    if not isinstance(info.parts, HasCoding):
        raise InvalidOptionsError(f"{info.name} has no coding for learning programs yet")
    return info.parts.coding()(options)


class Choice:
    """One decision in progress: the legal actions, the ids picked so far, and which ids may come next."""

    def __init__(self, legal: Iterable[object], tokens: Callable[[object], tuple[int, ...]]) -> None:
        self._open: list[tuple[tuple[int, ...], object]] = [(tokens(a), a) for a in legal]
        self.picked: tuple[int, ...] = ()

    def copy(self) -> Choice:
        """An independent copy (to explore picks without making them)."""
        twin = Choice((), lambda a: ())
        twin._open = list(self._open)
        twin.picked = self.picked
        return twin

    def allowed(self) -> list[int]:
        """The ids that continue some legal action, in increasing order."""
        depth = len(self.picked)
        return sorted({seq[depth] for seq, _ in self._open})

    def pick(self, action_id: int) -> object | None:
        """Take one id; the action once the picks spell one, else None. An id that continues no legal action is
        refused (IllegalActionError) and changes nothing."""
        depth = len(self.picked)
        kept = [(seq, a) for seq, a in self._open if seq[depth] == action_id]
        if not kept:
            raise IllegalActionError(
                f"action id {action_id} continues no legal action here (allowed: {self.allowed()})"
            )
        self._open = kept
        self.picked += (action_id,)
        for seq, a in kept:
            if len(seq) == len(self.picked):
                return a
        return None


def check_prefix_free(sequences: Sequence[tuple[int, ...]]) -> None:
    """Refuse a set of token sequences in which one is a prefix of another or two are equal (a bug in a coding)."""
    ordered = sorted(sequences)
    for a, b in itertools.pairwise(ordered):
        if b[: len(a)] == a:
            raise ValueError(f"token sequence {a} is a prefix of {b}")


def env_layout(coding: RlCoding) -> Layout:
    """The observation layout of the environment: the game's slots and then ``picked``."""
    picked = Slot("picked", coding.action_count, "the action ids already chosen in the decision in progress")
    return Layout((*coding.layout.slots, picked), coding.layout.deck)


def observation_of(coding: RlCoding, layout: Layout, view: View, picked: Sequence[int] = ()) -> Vector:
    """The observation vector of a seat's ``view`` with the ids ``picked`` so far in its decision in progress (the
    one builder of every environment's observation)."""
    features = Features(layout)
    coding.observe(view, features)
    for action_id in picked:
        features.put("picked", action_id)
    return features.vector
