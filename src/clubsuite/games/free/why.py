"""Free Clubs' rulings in plain words, for a player's "why?" (:data:`clubsuite.present.Rulings`): a short
title and what each ruling says, written for players (the rulings themselves are kept with the rule texts)."""

from __future__ import annotations

from clubsuite.present import Rulings, ruling

RULINGS: Rulings = {
    "FC-1": ruling(
        "free",
        "FC-1",
        "Play goes clockwise",
        "Every turn passes to the left. The player after the auction winner leads the first trick, so the "
        "winner plays third.",
    ),
    "FC-2": ruling(
        "free",
        "FC-2",
        "Two passes, two directions",
        "A Queen handicap sends its card to the player on the left. The one-card pass before play goes to the "
        "player on the right, and everyone chooses their card before seeing what they will receive.",
    ),
    "FC-3": ruling(
        "free",
        "FC-3",
        "The auction",
        "Bids go up in this order: the Tens, then the Jacks, Queens and Kings (within each, spades, hearts, "
        "diamonds, clubs), then a Joker. A bid must be higher than the last one and at most one level above "
        "it: over a Jack you may bid a higher Jack or any Queen, but not a King. After a King, a higher King "
        "or a Joker. The holder of the 10 of spades opens with it. Passing never shuts you out of the "
        "auction, and a player with no card that can follow only passes. Two passes in a row end the auction: "
        "the last bidder wins.",
    ),
    "FC-4": ruling(
        "free",
        "FC-4",
        "The Joker",
        "A Joker ends the auction at once. Its bidder takes the treasure chest and plays in a team with the "
        "player who made the bid before it. Together they must take all 10 tricks; if they miss, each of them "
        "loses 50. Both carry out the handicaps of every card they bid.",
    ),
    "FC-5": ruling(
        "free",
        "FC-5",
        "Handicaps",
        "The auction winner first takes the treasure chest into their hand. Then each card the winner (and a "
        "Joker's partner) bid costs something, in the order the bids were made, and only cards from ace to 9 "
        "are ever given up: a Ten discards one card of its suit of your choice; a Jack discards the highest "
        "card of its suit; a Queen passes the highest card of its suit to the player on the left; a King "
        "discards the three highest. A suit with too few cards gives what it has, an empty one nothing, and a "
        "card received from a Queen counts for later handicaps.",
    ),
    "FC-6": ruling(
        "free",
        "FC-6",
        "Who leads",
        "The player after the auction winner leads the first trick (after a Joker, the one player outside the "
        "team). The winner of a trick leads the next; if they have no cards left, the next player round with "
        "cards leads.",
    ),
    "FC-7": ruling(
        "free",
        "FC-7",
        "The end of a hand",
        "A hand stops after 10 tricks, or as soon as a trick ends with at least two players out of cards, so "
        "a trick may hold only two cards. Cards never played, discarded, or left in the chest score nothing.",
    ),
    "FC-8": ruling(
        "free",
        "FC-8",
        "Bonuses",
        "The player with the most diamonds in their tricks scores 20; a tie for most gives 10 to each tied "
        "player, and if nobody took a diamond nobody scores it. Every player who took no spade scores 5 (a "
        "table may ask for at least one trick too). The ace of hearts is worth 10.",
    ),
    "FC-9": ruling(
        "free",
        "FC-9",
        "The end of the match",
        "After each hand, once anyone has 250 points or more, the highest total wins. If the top is tied, "
        "another hand is played.",
    ),
    "FC-10": ruling(
        "free",
        "FC-10",
        "Misplays",
        "Normally a card that breaks the rules cannot be played at all. A table may instead play with "
        "misplays: a card that does not follow suit is accepted, and any other player may call it. The table "
        "then checks in front of everyone. If it was a misplay, the penalty depends on when it was called: "
        "before the next card, the card goes back and is played again; before the trick is taken, its player "
        "cannot win that trick; before the next deal, its player scores no plus points for the hand; later, "
        "nothing happens. If the card was lawful, everyone is told so and nothing else happens.",
    ),
}
"""Every ruling a prompt or a refusal of this game may name, by id."""
