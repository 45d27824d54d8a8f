"""The partnership game in plain words: its options, their values and its variants, as the lobby and a table's
name show them (the rulings stay in the options' metadata, for a "why?")."""

from __future__ import annotations

from clubsuite.wording import GameWords, OptionWords

WORDS = GameWords(
    "Partnership Clubs",
    {
        "target": OptionWords(
            "Points to win",
            "the match ends once a partnership has this many points; the higher wins",
            "to {} points",
            one="to {} point",
        ),
    },
)
"""The words of every option, choice and variant of the game."""
