"""Free Clubs in plain words: its options, their values and its variants, as the lobby and a table's
name show them (the rulings stay in the options' metadata, for a "why?")."""

from __future__ import annotations

from clubsuite.wording import GameWords, OptionWords, flag

TARGET_HELP = "the match ends after the hand in which someone reaches this score"

WORDS = GameWords(
    "Free Clubs",
    {
        "no_spades_needs_a_trick": flag(
            "No-spades bonus needs a trick",
            "the 5 points for taking no spade go only to players who took at least one trick",
            "no-spades bonus needs a trick",
            "no-spades bonus without a trick",
        ),
        "target": OptionWords(
            "Points to win", TARGET_HELP + "; the highest total wins", "to {} points", one="to {} point"
        ),
        "misplays": flag(
            "Misplays may be called",
            "a player may play a card that breaks the rules, and another player may call it for a penalty",
            "misplays called",
            "no misplays",
        ),
    },
)
"""The words of every option, choice and variant of the game."""
