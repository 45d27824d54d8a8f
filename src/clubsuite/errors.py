"""The error classes of clubsuite: one base, one subclass per kind of bad input.

Every message names the input, the rule broken (its ruling id where one applies) and the
situation, so that a player, a bot author or a record editor can act on it without reading the code.
"""

from __future__ import annotations


class ClubsError(ValueError):
    """Base class of every error clubsuite raises for bad input."""


class InvalidNotationError(ClubsError):
    """A card, a set of cards or an action could not be read."""


class IllegalActionError(ClubsError):
    """The action is well formed but the rules forbid it now."""


class NotYourTurnError(IllegalActionError):
    """The seat that tried to act is not the seat to act."""


class GameOverError(IllegalActionError):
    """An action was given after the hand or the match ended."""


class InvalidOptionsError(ClubsError):
    """A rules option spec or option value is unknown or out of range."""


class InvalidDealError(ClubsError):
    """A given deal does not fit the game (wrong cards, counts or duplicates)."""


class InvalidRecordError(ClubsError):
    """A match record is malformed, or replaying it breaks a rule."""


class NoHandError(ClubsError):
    """Something about the current hand was asked before any hand was dealt."""
