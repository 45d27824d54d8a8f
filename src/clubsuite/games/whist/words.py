"""Clubs (whist group) in plain words: its options, their values and its variants, as the lobby and a table's
name show them (the rulings stay in the options' metadata, for a "why?")."""

from __future__ import annotations

from clubsuite.wording import GameWords, OptionWords, VariantWords

WORDS = GameWords(
    "Whist Clubs",
    {
        "lead_after_exchange": OptionWords(
            "Who leads after an exchange",
            "when someone has exchanged their hand for the bid hand, this player leads the first trick",
            {
                "last_exchanger": "lead: the last to exchange",
                "left_of_last_exchanger": "lead: left of the last to exchange",
            },
            {
                "last_exchanger": "the last to exchange",
                "left_of_last_exchanger": "their left neighbour, as in 1997",
            },
        ),
        "target": OptionWords(
            "Points to win or lose",
            "the match ends once someone is this many points up, or down",
            "to \u00b1{} points",
            one="to \u00b1{} point",
        ),
    },
    {
        "whist-1997": VariantWords("The 1997 rules", "the player left of the last to exchange leads the first trick"),
    },
)
"""The words of every option, choice and variant of the game."""
