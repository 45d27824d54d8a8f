"""North Star's CLUBS in plain words: its options, their values and its variants, as the lobby and a table's
name show them (the rulings stay in the options' metadata, for a "why?")."""

from __future__ import annotations

from clubsuite.wording import GameWords, OptionWords, VariantWords, flag

TARGET_HELP = "the match ends after the hand in which someone reaches this score"

WORDS = GameWords(
    "CLUBS",
    {
        "players": OptionWords("Players", "how many play; the bonus cards depend on it", "{} players"),
        "teams": OptionWords(
            "Teams",
            "partners sit alternately and share their score",
            {
                "none": "no teams",
                "2x2": "two teams of two",
                "3x2": "three teams of two",
                "2x3": "two teams of three",
            },
            {
                "none": "no teams",
                "2x2": "2 teams of 2, 4 players",
                "3x2": "3 teams of 2, 6 players",
                "2x3": "2 teams of 3, 6 players",
            },
            {"2x2": {"players": "4"}, "3x2": {"players": "6"}, "2x3": {"players": "6"}},  # NS-10
        ),
        "double_or_nothing": flag(
            "Double or nothing",
            "before your first card of a round you may bet to go out first: double if you do, nothing if not",
            "double or nothing",
            "no double or nothing",
        ),
        "wild_fifteens": flag("Wild 15s", "a 15 may stand for any value", "wild 15s", "no wild 15s"),
        "crazy": flag(
            "Crazy CLUBS",
            "a 15 does not win at once, and a play with more cards beats one with fewer",
            "crazy CLUBS",
            "not crazy",
        ),
        "leftover": OptionWords(
            "Cards not dealt",
            "what becomes of the cards left over after the deal",
            {"next_round": "leftovers dealt next round", "reshuffle": "full shuffle each round"},
            {
                "next_round": "dealt next round, as in 2017",
                "reshuffle": "reshuffled, as in 2013",
            },
        ),
        "club_points": OptionWords(
            "Points of each club",
            "how many points each club from 1 to 15 scores (the printed values are not known yet)",
            "own club points",
        ),
        "target": OptionWords(
            "Points to win, 0 for the rulebook's",
            TARGET_HELP + "; 0 plays to the rulebook's 50, or 100 in teams of two and 150 in teams of three",
            "to {} points",
            one="to {} point",
        ),
    },
    {
        "northstar-2013": VariantWords("The 2013 edition", "every card is shuffled back each round"),
        "northstar-double": VariantWords("Double or nothing", "a player may bet on going out first"),
        "northstar-wild": VariantWords("Wild 15s", "a 15 may stand for any value"),
        "northstar-crazy": VariantWords("Crazy CLUBS", "a 15 does not win at once; more cards beat fewer"),
        "northstar-duel": VariantWords("Duel", "two players"),
        "northstar-teams": VariantWords("Teams", "four players in two teams of two"),
    },
)
"""The words of every option, choice and variant of the game."""
