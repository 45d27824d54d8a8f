"""Rules options of Free Clubs: the no-spades bonus condition (FC-8), the target score (FC-9), misplays (FC-10)."""

from __future__ import annotations

from dataclasses import dataclass

from clubsuite.errors import InvalidOptionsError
from clubsuite.options import option


@dataclass(frozen=True, kw_only=True)
class FreeOptions:
    """The rules options of Free Clubs. The defaults are the rules text as read by rulings FC-1..FC-10."""

    no_spades_needs_a_trick: bool = option(
        False,
        "the +5 for taking no spade goes only to players who took at least one trick",
        "FC-8",
    )
    target: int = option(
        250,
        "the game ends after a hand once a total is at target or more; the highest total wins",
        "FC-9",
    )
    misplays: bool = option(
        False,
        "table mode: a player may play a card that fails to follow suit, and another player may call it",
        "FC-10",
    )

    def __post_init__(self) -> None:
        # The engine relies on exact types: a stray string or number must never reach it.
        if type(self.no_spades_needs_a_trick) is not bool:
            raise InvalidOptionsError(
                f"option no_spades_needs_a_trick={self.no_spades_needs_a_trick!r}: expected true or false (FC-8)"
            )
        if type(self.misplays) is not bool:
            raise InvalidOptionsError(f"option misplays={self.misplays!r}: expected true or false (FC-10)")
        if type(self.target) is not int:
            raise InvalidOptionsError(f"option target={self.target!r}: expected a whole number (FC-9)")
        if not 1 <= self.target <= 100000:
            raise InvalidOptionsError(f"option target={self.target} is out of range: expected 1..100000 (FC-9)")


#: Named variants: none yet.
VARIANTS: dict[str, dict[str, str]] = {}
