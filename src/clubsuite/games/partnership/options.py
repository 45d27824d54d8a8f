"""Rules options of Clubs (partnership): the target score (CP-4)."""

from __future__ import annotations

from dataclasses import dataclass

from clubsuite.errors import InvalidOptionsError
from clubsuite.options import option


@dataclass(frozen=True, kw_only=True)
class PartnershipOptions:
    """The rules options of Clubs (partnership). The defaults are the rules text as read by rulings CP-1..CP-4."""

    target: int = option(
        150,
        "the game ends after a hand once a partnership is at target or more; the higher total wins",
        "CP-4",
    )

    def __post_init__(self) -> None:
        # The engine compares exact whole numbers: a stray string or float must never reach it.
        if type(self.target) is not int:
            raise InvalidOptionsError(f"option target={self.target!r}: expected a whole number (CP-4)")
        if not 1 <= self.target <= 100000:
            raise InvalidOptionsError(f"option target={self.target} is out of range: expected 1..100000 (CP-4)")


#: Named variants: none (the rules text has one version).
VARIANTS: dict[str, dict[str, str]] = {}
