"""North Star's CLUBS' rulings in plain words, for a player's "why?" (:data:`clubsuite.present.Rulings`): a short
title and what each ruling says, written for players (the rulings themselves are kept with the rule texts)."""

from __future__ import annotations

from clubsuite.present import Rulings, ruling

RULINGS: Rulings = {
    "NS-1": ruling(
        "northstar",
        "NS-1",
        "The cards",
        "60 cards numbered 1 to 15 in four suits. The bonus cards depend on the number of players: with six "
        "0, 2, 5, 8, 10 and 12; with five 0, 2, 5, 8 and 10; with four 0, 2, 5 and 8; with three 0, 2 and 5; "
        "with two only the 5.",
    ),
    "NS-2": ruling(
        "northstar",
        "NS-2",
        "Club points",
        "Only clubs score, and low clubs score more: here clubs 1 to 5 are worth 3, 6 to 10 are worth 2 and "
        "11 to 15 are worth 1; a table may set other values.",
    ),
    "NS-3": ruling(
        "northstar",
        "NS-3",
        "Plays and how to beat them",
        "You may play one card, a set of two or more cards of one value, or a run of two or more consecutive "
        "values (suits mixed, and 15 does not go round to 1). To beat a play, play the same kind with the "
        "same number of cards and a higher top card.",
    ),
    "NS-4": ruling(
        "northstar",
        "NS-4",
        "Winning a trick",
        "A play with a 15 in it wins the trick at once. Otherwise the trick goes to the last player who "
        "played, once everyone else still holding cards has passed since. Passing does not put you out of the "
        "trick: you may play when your turn comes again. Whoever starts a trick must play something, and the "
        "winner starts the next one.",
    ),
    "NS-5": ruling(
        "northstar",
        "NS-5",
        "Going out and the last turn",
        "Playing your last card takes the highest bonus card left. When only one player still holds cards, "
        "they get one last turn on the trick (to beat it or pass); then they take the 0 card and score "
        "nothing for the round. With two players the round ends when the first goes out, and the other still "
        "scores their clubs.",
    ),
    "NS-6": ruling(
        "northstar",
        "NS-6",
        "Cards left over",
        "The cards not dealt in a round are dealt first in the next one, and the played cards are shuffled in "
        "only when those run short. A table playing the 2013 rules shuffles all 60 cards every round instead.",
    ),
    "NS-7": ruling(
        "northstar",
        "NS-7",
        "The end of the match",
        "After each round, once anyone has 50 points or more, the highest total wins; a tie at the top plays "
        "another round.",
    ),
    "NS-8": ruling(
        "northstar",
        "NS-8",
        "Double or nothing",
        "On your own turn, before you have played a card this round (even after passing), you may call double "
        "or nothing; it does not use up your turn, and you may call it once a round. If you are the first to "
        "go out, your score for the round is doubled; otherwise you score nothing for it.",
    ),
    "NS-9": ruling(
        "northstar",
        "NS-9",
        "Wild 15s",
        "A 15 may stand for any value. Played as a 15 it wins the trick at once; standing for another value "
        "it does not. Sets may then have more than four cards, and a play may be made of 15s alone.",
    ),
    "NS-10": ruling(
        "northstar",
        "NS-10",
        "Teams",
        "Team-mates sit apart, every other seat; teams play to 100 (two or three teams of two) or 150 (two "
        "teams of three). If only one team's players still hold cards, the round ends at once: there is no "
        "last turn, an unfinished trick goes to whoever played last, and that team scores nothing for the "
        "round.",
    ),
    "NS-11": ruling(
        "northstar",
        "NS-11",
        "Crazy CLUBS",
        "A 15 does not win at once. One card counts as a set of one. A play beats the one before if it is the "
        "same kind (set or run) and has more cards, or as many cards and a higher top card.",
    ),
}
"""Every ruling a prompt or a refusal of this game may name, by id."""
