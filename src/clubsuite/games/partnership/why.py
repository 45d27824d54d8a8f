"""The partnership game's rulings in plain words, for a player's "why?" (:data:`clubsuite.present.Rulings`): a short
title and what each ruling says, written for players (the rulings themselves are kept with the rule texts)."""

from __future__ import annotations

from clubsuite.present import Rulings, ruling

RULINGS: Rulings = {
    "CP-1": ruling(
        "partnership",
        "CP-1",
        "Leading and winning tricks",
        "Any card may be led at any time, clubs too. Follow the suit led if you can; otherwise play anything. "
        "The highest club wins the trick; with no club, the highest card of the suit led. The player on the "
        "dealer's left leads first, after the pass.",
    ),
    "CP-2": ruling(
        "partnership",
        "CP-2",
        "The pass",
        "Before play everyone passes three cards: to the left in the first hand, to the right in the second, "
        "not at all in the third, and so on. Since partners sit opposite, the cards always go to an opponent. "
        "Everyone chooses before anyone receives.",
    ),
    "CP-3": ruling(
        "partnership",
        "CP-3",
        "Scoring",
        "Partners score together: a point for each trick and for each club taken, and 5 for the queen of "
        "diamonds, 31 in a hand. Taking all 13 tricks adds 5 more.",
    ),
    "CP-4": ruling(
        "partnership",
        "CP-4",
        "The end of the match",
        "After each hand, once a partnership has 150 points or more, the higher total wins; an exact tie "
        "plays another hand.",
    ),
}
"""Every ruling a prompt or a refusal of this game may name, by id."""
