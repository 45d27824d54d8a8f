"""The whist group's rulings in plain words, for a player's "why?" (:data:`clubsuite.present.Rulings`): a short
title and what each ruling says, written for players (the rulings themselves are kept with the rule texts)."""

from __future__ import annotations

from clubsuite.present import Rulings, ruling

RULINGS: Rulings = {
    "CW-1": ruling(
        "whist",
        "CW-1",
        "You must beat if you can",
        "Following a plain suit while no club is in the trick, you must play a card of that suit higher than "
        "the best one so far, if you hold one; otherwise any card of the suit. Once a club is in the trick, "
        "any card of the suit led will do. With none of the suit led, you must play a club that would win the "
        "trick right now (any club if there is none yet, otherwise a higher one) if you can; if you cannot, "
        "play anything, even a club that loses. When clubs are led, play a higher club if you can, otherwise "
        "any club, otherwise anything.",
    ),
    "CW-2": ruling(
        "whist",
        "CW-2",
        "Clubs must be broken before they are led",
        "Nobody may lead a club until clubs are broken, unless they hold nothing but clubs. Clubs are broken "
        "once a club has been played on a trick led in another suit (winning or not), or once someone had to "
        "lead a club because they held only clubs.",
    ),
    "CW-3": ruling(
        "whist",
        "CW-3",
        "Who leads after the exchange",
        "If nobody exchanged, the player on the dealer's left leads the first trick. Otherwise the last "
        "player who exchanged leads; a table playing the first, 1997 version of the game has the player on "
        "that player's left lead instead.",
    ),
    "CW-4": ruling(
        "whist",
        "CW-4",
        "Keep or exchange",
        "Going round from the dealer's left and ending with the dealer, each player decides once: keep the "
        "hand they were dealt, or take the face-down bid hand without looking at it first and leave their own "
        "13 cards in its place. A later player who exchanges takes the hand an earlier one left. Only the "
        "players who exchange ever see the bid hand.",
    ),
    "CW-5": ruling(
        "whist",
        "CW-5",
        "Scoring and the end of the match",
        "After each hand every player scores their tricks minus four, so seven tricks are worth +3 and two "
        "tricks -2. Whoever is at +11 or more, or at -11 or less, after a hand wins; if all three get there "
        "together, the match is a draw.",
    ),
}
"""Every ruling a prompt or a refusal of this game may name, by id."""
