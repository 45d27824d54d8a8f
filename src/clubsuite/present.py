"""What a seat to act is offered: its legal actions in the order a player is shown them, each with a note on what it
does, as each game declares it (its registry part ``present``, see :attr:`clubsuite.engine.GameInfo.parts`).

The rules give the legal actions in the engine's order, which bots, records and the learning code count on; a player
choosing among several readings of the same cards (a wild card that may stand for any value) should be offered the
strongest first and told what each does. That order and those notes are presentation: the game says
them once here, and the server sends them with the legal actions so that a page only words and lays them out. A note
is a :class:`~clubsuite.reasons.Reason` (a stable code, the ruling behind it, its parameters), worded in the
reader's language from the same catalog as a refusal.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from clubsuite.engine import SomeGame, SomeMatch, load_part
from clubsuite.reasons import Reason


@dataclass(frozen=True)
class Offered:
    """One legal action as it is offered: its notation and, where the game has one, what it does."""

    text: str
    """The action in the game's notation, as ``format_action`` writes it (what a client sends back)."""
    note: Reason | None = None
    """What choosing it does, where the same cards could be played otherwise (None: nothing to add)."""


OfferedFn = Callable[[Any, Sequence[Any]], list[Offered]]
"""A game's ``present`` part: ``(match, legal actions) -> the offered actions``, every legal action once."""


def offered(info: SomeGame, match: SomeMatch) -> list[Offered]:
    """The legal actions of the seat to act, in the order its game offers them and with their notes; a game that
    declares nothing offers them in the engine's order, without notes."""
    legal = list(match.legal_actions())
    part = load_part(info, "present")
    if part is None:
        return [Offered(match.format_action(a)) for a in legal]
    return cast(OfferedFn, part)(match, legal)
