"""Rules options of Clubs (whist group): the two sourced versions and the target score."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from clubsuite.errors import InvalidOptionsError
from clubsuite.options import option


class LeadAfterExchange(StrEnum):
    """Who leads the first trick when the bid hand was taken (CW-3)."""

    LAST_EXCHANGER = "last_exchanger"
    """The last player who exchanged leads (the later, edited rules text)."""
    LEFT_OF_LAST_EXCHANGER = "left_of_last_exchanger"
    """The player to the left of the last exchanger leads (the 1997 posting)."""


@dataclass(frozen=True, kw_only=True)
class WhistOptions:
    """The rules options of Clubs (whist group). The defaults are the rules of ``clubs-whist.txt``."""

    lead_after_exchange: LeadAfterExchange = option(
        LeadAfterExchange.LAST_EXCHANGER,
        "who leads the first trick after an exchange: last_exchanger or left_of_last_exchanger",
        "CW-3",
    )
    target: int = option(
        11,
        "the game ends once a player's total is at +target or more, or at -target or less",
        "CW-5",
    )

    def __post_init__(self) -> None:
        # Accept the option's text as well as the enum member, and refuse anything else: the engine compares
        # members, so a stray string must never reach it.
        try:
            object.__setattr__(self, "lead_after_exchange", LeadAfterExchange(self.lead_after_exchange))
        except ValueError:
            allowed = ", ".join(m.value for m in LeadAfterExchange)
            raise InvalidOptionsError(
                f"option lead_after_exchange={self.lead_after_exchange!r}: expected one of {allowed} (CW-3)"
            ) from None
        if type(self.target) is not int:
            raise InvalidOptionsError(f"option target={self.target!r}: expected a whole number (CW-5)")
        if not 1 <= self.target <= 1000:
            raise InvalidOptionsError(f"option target={self.target} is out of range: expected 1..1000 (CW-5)")


#: Named variants: the spec name and the option values it presets.
VARIANTS: dict[str, dict[str, str]] = {
    "whist-1997": {"lead_after_exchange": LeadAfterExchange.LEFT_OF_LAST_EXCHANGER.value},
}
