"""clubsuite: exact rules engines, bots, terminal play and simulation for the card games called Clubs."""

# The notation helpers card() and cards() stay in clubsuite.cards: re-exporting cards() here would hide that module.
from clubsuite.cards import NUMBERED, STANDARD, STANDARD_WITH_JOKERS, Card, CardSet, Deck, Suit
from clubsuite.errors import (
    ClubsError,
    GameOverError,
    IllegalActionError,
    InvalidDealError,
    InvalidNotationError,
    InvalidOptionsError,
    InvalidRecordError,
    NoHandError,
    NotYourTurnError,
)

__version__ = "0.1.0"

__all__ = [
    "NUMBERED",
    "STANDARD",
    "STANDARD_WITH_JOKERS",
    "Card",
    "CardSet",
    "ClubsError",
    "Deck",
    "GameOverError",
    "IllegalActionError",
    "InvalidDealError",
    "InvalidNotationError",
    "InvalidOptionsError",
    "InvalidRecordError",
    "NoHandError",
    "NotYourTurnError",
    "Suit",
    "__version__",
]
