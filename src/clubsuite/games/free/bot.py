"""A heuristic bot for Free Clubs: bids by the tricks its hand keeps after the handicaps, then plays for its side.

It reads only its seat's :class:`~clubsuite.games.free.view.FreeView` and the legal actions.

* **Auction (FC-3, FC-4, FC-5).** For each legal bid the bot imagines winning with it: it adds a sample of six
  unseen primary cards as the chest, resolves the handicaps of every card it has bid plus the new one (a Ten
  throws its cheapest card, a Jack its highest, a Queen its highest, a King its three highest) and counts the
  tricks the remaining hand is likely to take (clubs trump, the ace lowest, the nine highest). It bids the bid that
  keeps the most tricks if that reaches the contract with a margin (7 alone; a Joker needs nearly all 10 from its
  own hand, since the team must take every trick), and passes otherwise.
* **The Ten's discard and the pass to the right (FC-2, FC-5).** It gives up the card it needs least: the one with
  the smallest chance of taking a trick later, keeping the ace of hearts and diamonds it can score with, and
  happily giving away low spades.
* **Play.** Every legal card is scored by who is likely to take the trick once it is played (this seat, a friend,
  or a rival) minus the value of keeping the card for later. Friends and rivals depend on the role: the auction
  winner plays for itself; a defender counts the other defender half a friend and the winner a rival while the
  7-trick contract is still open; a Joker team counts the partner a friend and fights the outsider, for whom a
  single trick breaks the team's contract (FC-4). Trick contents count too: diamonds and the ace of hearts are
  worth taking, a first spade costs the no-spades bonus (FC-8).
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass

from clubsuite.bots.base import register_bot
from clubsuite.cards import Card, Suit, iter_bits
from clubsuite.engine import LegalActions
from clubsuite.games.free.deal import CHEST_SIZE, N_SEATS, PRIMARY_MASK, PRIMARY_SUIT_MASKS
from clubsuite.games.free.hand import (
    ACE_OF_HEARTS,
    MAX_TRICKS,
    SOLO_CONTRACT,
    Call,
    FreeAction,
    Stage,
    bid_tier,
    is_joker,
    strength,
    top_cards,
)
from clubsuite.games.free.view import FreeView

CLUBS = int(Suit.CLUBS)
DIAMONDS_MASK = PRIMARY_SUIT_MASKS[Suit.DIAMONDS]
SPADES_MASK = PRIMARY_SUIT_MASKS[Suit.SPADES]

# -- tuning constants ---------------------------------------------------------------------------------------------
# Chosen by comparing win rates over many simulated matches against random bots.
PLAIN_TOP = 0.87
"""Chance that a plain card with no higher card outstanding takes a trick later."""
PLAIN_DECAY = 0.5
"""Factor on a plain card's chance for each higher card of its suit still outstanding."""
PLAIN_LENGTH_DECAY = 0.8
"""Factor on a plain card's chance for each higher card of the suit in the same hand (later rounds get ruffed)."""
CLUB_SLOPE = 0.18
"""Chance a club loses for each higher club still outstanding."""
CLUB_FLOOR = 0.4
"""Chance of any club to take a trick later: even a low trump wins by ruffing."""
KEEP_WEIGHT = 0.8
"""Weight of a card's later chance against a trick now: a trick in hand is worth more than one hoped for."""
SOLO_MARGIN = 0.3
"""Tricks above the 7-trick contract the estimate must show before the bot bids alone."""
JOKER_OWN_TRICKS = 9.3
"""Tricks the bot's own hand must promise before it bids a Joker (the team must take all 10, FC-4)."""
CHEST_SAMPLES = 8
"""How many chests are sampled to judge a bid."""
FRIEND_DEFENDER = 0.4
"""Value of the other defender taking a trick while the winner's contract is open (one trick fewer for the winner)."""
RIVAL_WINNER = -0.7
"""Value of the auction winner taking a trick while its contract is open (from a defender's seat)."""
TEAM_PARTNER = 0.9
"""Value of the Joker partner taking a trick (the team needs all ten, FC-4)."""
BREAK_TEAM = 2.0
"""Extra value for the outsider of taking a first trick from a Joker team: both members score -50 (FC-4)."""
DIAMOND_VALUE = 0.12
"""Value of one diamond in a trick taken (the most-diamonds bonus, FC-8)."""
ACE_OF_HEARTS_VALUE = 0.6
"""Value of the ace of hearts in a trick taken (FC-8)."""
FIRST_SPADE_COST = 0.3
"""Cost of taking the first spade, which loses the no-spades bonus (FC-8)."""


# -- knowledge from the view -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Table:
    """What the seat knows during play, gathered once per decision from its view."""

    seat: int
    hand: int
    """This seat's primary cards."""
    unseen: int
    """Primary cards that may still be in another hand: not held, not played, not discarded by this seat."""
    sizes: tuple[int, ...]
    """How many cards each seat holds."""
    voids: tuple[int, ...]
    """For each seat, a mask of suit bits (1 << suit) it has shown to be out of."""
    held_by: tuple[int, ...]
    """For each seat, the unplayed cards this seat gave it, known to be in its hand."""
    taken_spade: bool
    """Whether this seat has already taken a spade (its no-spades bonus is gone)."""


def read_table(view: FreeView) -> Table:
    """Gather the seat's knowledge for card play: unseen cards, shown voids and cards it passed to others."""
    played = 0
    voids = [0, 0, 0]
    taken_spade = False
    for plays, winner in view.tricks:
        played |= _note_plays(plays, voids)
        if winner == view.seat and any(c.suit == Suit.SPADES for _, c in plays):
            taken_spade = True
    played |= _note_plays(view.trick, voids)
    sizes = view.hand_sizes
    for s in range(N_SEATS):
        if sizes[s] == 0:
            voids[s] = 0b1111
    hand = int(view.hand)
    unseen = PRIMARY_MASK & ~hand & ~played & ~int(view.discards)
    held = [0, 0, 0]
    for giver, receiver, c in view.transfers:
        if giver == view.seat and unseen >> c.index & 1:
            held[receiver] |= 1 << c.index
    return Table(view.seat, hand, unseen, sizes, tuple(voids), tuple(held), taken_spade)


def _note_plays(plays: tuple[tuple[int, Card], ...], voids: list[int]) -> int:
    """Mark the seats that did not follow the led suit as void in it; returns the cards played as a mask."""
    mask = 0
    if plays:
        led = plays[0][1].suit
        for s, c in plays:
            mask |= c.bit
            if c.suit != led and led is not None:
                voids[s] |= 1 << led
    return mask


def chance_holds_any(table: Table, seat: int, cards: int) -> float:
    """The chance that ``seat`` holds at least one of ``cards`` (unseen cards), assuming unknown cards lie at random.

    Cards this seat passed to ``seat`` are known to be there; a void shown in a suit rules that suit out.
    """
    if cards & table.held_by[seat]:
        return 1.0
    others_known = 0
    for s in range(N_SEATS):
        if s != seat:
            others_known |= table.held_by[s]
    cards &= ~others_known
    for suit in range(4):
        if table.voids[seat] >> suit & 1:
            cards &= ~PRIMARY_SUIT_MASKS[suit]
    k = cards.bit_count()
    if k == 0:
        return 0.0
    pool = (table.unseen & ~others_known).bit_count()
    share = min(1.0, table.sizes[seat] / pool) if pool else 0.0
    return 1.0 - (1.0 - share) ** k


_HIGHER = tuple(
    sum(1 << i for i in iter_bits(PRIMARY_SUIT_MASKS[c // 13]) if strength(i) > strength(c)) if c < 52 else 0
    for c in range(54)
)
"""``_HIGHER[c]``: the primary cards of card ``c``'s suit that play higher than it (none for a Joker)."""


def higher_in_suit(card_index: int, mask: int) -> int:
    """The cards of ``mask`` in the same suit as ``card_index`` that play higher than it (a table per card: the
    bot asks it for every card it weighs, in every rollout)."""
    return mask & _HIGHER[card_index]


def beats(challenger: int, best: int, led: int) -> bool:
    """Whether card ``challenger`` beats the trick's best card ``best`` when suit ``led`` was led (clubs trump)."""
    cs, bs = challenger // 13, best // 13
    if cs == bs:
        return strength(challenger) > strength(best)
    return cs == CLUBS  # the best card is of the led suit or a club: only a club can beat it from another suit


def chance_beaten(table: Table, seat: int, best: int, led: int) -> float:
    """The chance that ``seat``, playing later to the trick, beats the best card ``best`` of suit ``led`` led."""
    if table.sizes[seat] == 0:
        return 0.0
    higher = higher_in_suit(best, table.unseen)
    if best // 13 == led or led == CLUBS:
        # A higher card of the same suit beats it; a void in the led suit allows a ruff when the best is not a club.
        p = chance_holds_any(table, seat, higher)
        if led != CLUBS:
            p_void = 1.0 - chance_holds_any(table, seat, table.unseen & PRIMARY_SUIT_MASKS[led])
            p_ruff = chance_holds_any(table, seat, table.unseen & PRIMARY_SUIT_MASKS[CLUBS])
            p += (1.0 - p) * p_void * p_ruff
        return p
    # The best card is a club ruffing a plain suit: only a higher club from a player void in the led suit beats it.
    p_void = 1.0 - chance_holds_any(table, seat, table.unseen & PRIMARY_SUIT_MASKS[led])
    return p_void * chance_holds_any(table, seat, higher)


# -- how much a card is worth keeping -----------------------------------------------------------------------------
def card_potential(index: int, hand: int, unseen: int) -> float:
    """The chance that the card ``index`` in ``hand`` takes a trick later, given the cards still ``unseen``."""
    outstanding = higher_in_suit(index, unseen).bit_count()
    if index // 13 == CLUBS:
        return max(CLUB_FLOOR, 1.0 - CLUB_SLOPE * outstanding)
    above_mine = higher_in_suit(index, hand).bit_count()
    return PLAIN_TOP * PLAIN_DECAY**outstanding * PLAIN_LENGTH_DECAY**above_mine


def expected_tricks(hand: int, unseen: int, tricks: int = MAX_TRICKS) -> float:
    """The tricks ``hand`` is likely to take: the sum of its best ``tricks`` card potentials.

    A hand larger than the number of tricks (the auction winner's) never plays its worst cards, hence the cap.
    """
    chances = sorted((card_potential(i, hand, unseen) for i in iter_bits(hand)), reverse=True)
    total = 0.0
    for chance in chances[:tricks]:  # added one by one (sum() compensates from Python 3.12 on; heuristic.h adds so)
        total += chance
    return total


# -- the auction --------------------------------------------------------------------------------------------------
def apply_handicaps(hand: int, bids: list[int]) -> int:
    """``hand`` after the handicaps of ``bids`` in order (FC-5): the Ten throws the card worth least to keep."""
    for bid in bids:
        if is_joker(bid):
            continue
        suit, tier = bid // 13, bid_tier(bid)
        if tier == 0:
            in_suit = hand & PRIMARY_SUIT_MASKS[suit]
            if in_suit:
                hand &= ~(1 << cheapest_card(in_suit, hand, PRIMARY_MASK & ~hand))
        else:
            hand &= ~top_cards(hand, suit, 3 if tier == 3 else 1)
    return hand


def cheapest_card(candidates: int, hand: int, unseen: int) -> int:
    """The candidate card this hand needs least: lowest potential, then lowest rank."""
    return min(iter_bits(candidates), key=lambda i: (card_potential(i, hand, unseen), strength(i)))


def judge_bid(view: FreeView, bid: int, rng: random.Random) -> float:
    """The tricks the hand is likely to take after winning the auction with ``bid`` (averaged over sampled chests)."""
    own_bids = [c.index for s, c in view.calls if s == view.seat and c is not None] + [bid]
    hand = int(view.hand)
    pool = sorted(iter_bits(PRIMARY_MASK & ~hand))
    total = 0.0
    for _ in range(CHEST_SAMPLES):
        chest = sum(1 << i for i in rng.sample(pool, CHEST_SIZE))
        after = apply_handicaps(hand | chest, own_bids)
        total += expected_tricks(after, PRIMARY_MASK & ~after & ~(hand | chest))
    return total / CHEST_SAMPLES


def choose_bid(view: FreeView, legal: LegalActions[FreeAction], rng: random.Random) -> FreeAction:
    """The bid keeping the most tricks if it clears the contract with a margin, else pass (FC-3, FC-4)."""
    bids = [a for a in legal if isinstance(a, Card)]
    if Call.PASS not in legal:
        return bids[0]  # the forced opening with the ten of spades
    best: tuple[float, FreeAction] = (-1.0, Call.PASS)
    for bid in bids:
        tricks = judge_bid(view, bid.index, rng)
        need = JOKER_OWN_TRICKS if is_joker(bid.index) else SOLO_CONTRACT + SOLO_MARGIN
        if tricks >= need and tricks > best[0]:
            best = (tricks, bid)
    return best[1]


# -- the Ten's discard and the pass -------------------------------------------------------------------------------
def giving_cost(index: int, hand: int, unseen: int, role: str) -> float:
    """What the hand loses by giving up ``index``: its trick chance plus what it means for the bonuses (FC-8)."""
    cost = card_potential(index, hand, unseen)
    if index == ACE_OF_HEARTS:
        cost += ACE_OF_HEARTS_VALUE
    elif index // 13 == Suit.DIAMONDS:
        cost += DIAMOND_VALUE * (2.0 if role != "winner" else 1.0)
    elif index // 13 == Suit.SPADES:
        cost -= FIRST_SPADE_COST / 2
    return cost + strength(index) / 100


def choose_discard(view: FreeView, legal: Iterable[Card]) -> Card:
    """The Ten's discard or the card passed to the right: the legal card whose loss costs least (FC-2, FC-5)."""
    hand = int(view.hand)
    unseen = PRIMARY_MASK & ~hand & ~int(view.discards)
    role = role_of(view)
    chosen: Card = min(legal, key=lambda c: giving_cost(c.index, hand, unseen, role))
    return chosen


# -- card play ----------------------------------------------------------------------------------------------------
def role_of(view: FreeView) -> str:
    """``winner`` (alone), ``team`` (Joker team member), ``outsider`` (against a Joker team) or ``defender``."""
    if view.partner is not None:
        return "team" if view.seat in (view.winner, view.partner) else "outsider"
    return "winner" if view.seat == view.winner else "defender"


def seat_values(view: FreeView) -> tuple[float, ...]:
    """How much this seat gains when each seat takes the trick in play, given the roles and the contract."""
    me, winner, partner = view.seat, view.winner, view.partner
    won = view.tricks_won
    left = MAX_TRICKS - len(view.tricks)
    values = [0.0, 0.0, 0.0]
    values[me] = 1.0
    if winner is None:
        return tuple(values)
    if partner is not None:
        team_alive = won[winner] + won[partner] == len(view.tricks)
        if me in (winner, partner):
            other = partner if me == winner else winner
            values[other] = TEAM_PARTNER if team_alive else 0.0
        elif team_alive:
            values[me] += BREAK_TEAM
    elif me != winner:
        open_contract = won[winner] < SOLO_CONTRACT <= won[winner] + left
        if open_contract:
            values[winner] = RIVAL_WINNER
            values[3 - me - winner] = FRIEND_DEFENDER
    return tuple(values)


def trick_content(table: Table, cards: int) -> float:
    """What taking these cards is worth to this seat beyond the trick: diamonds, the ace of hearts, a spade (FC-8)."""
    value = DIAMOND_VALUE * (cards & DIAMONDS_MASK).bit_count()
    if cards >> ACE_OF_HEARTS & 1:
        value += ACE_OF_HEARTS_VALUE
    if cards & SPADES_MASK and not table.taken_spade:
        value -= FIRST_SPADE_COST
    return value


def later_seats(view: FreeView) -> list[int]:
    """The seats still to play to the trick in progress after this seat (those holding cards that have not played)."""
    played = {s for s, _ in view.trick}
    sizes = view.hand_sizes
    return [s for s in ((view.seat + k) % N_SEATS for k in (1, 2)) if s not in played and sizes[s] > 0]


def score_play(view: FreeView, table: Table, index: int, values: tuple[float, ...]) -> float:
    """The value of playing ``index`` now: who is likely to take the trick, minus what the card is worth later."""
    trick = [(s, c.index) for s, c in view.trick] + [(view.seat, index)]
    led = trick[0][1] // 13
    best_seat, best = trick[0]
    for s, c in trick[1:]:
        if beats(c, best, led):
            best_seat, best = s, c
    cards = sum(1 << c for _, c in trick)
    holds = 1.0
    value = 0.0
    for s in later_seats(view):
        if values[s] < values[best_seat]:
            p = chance_beaten(table, s, best, led)
            value += holds * p * values[s]
            holds *= 1.0 - p
    value += holds * values[best_seat]
    mine = holds if best_seat == view.seat else 0.0
    value += mine * trick_content(table, cards) - (1.0 - mine) * gift_cost(index)
    return value - KEEP_WEIGHT * card_potential(index, table.hand, table.unseen) - strength(index) / 1000


def gift_cost(index: int) -> float:
    """What giving the card ``index`` into a trick someone else takes costs this seat in bonuses (FC-8)."""
    if index == ACE_OF_HEARTS:
        return ACE_OF_HEARTS_VALUE
    if index // 13 == Suit.DIAMONDS:
        return DIAMOND_VALUE
    if index // 13 == Suit.SPADES:
        return -FIRST_SPADE_COST / 3  # a spade in a rival's trick costs the rival its no-spades bonus
    return 0.0


def choose_play(view: FreeView, legal: Iterable[Card]) -> Card:
    """The legal card with the best :func:`score_play`."""
    table = read_table(view)
    values = seat_values(view)
    chosen: Card = max(legal, key=lambda c: score_play(view, table, c.index, values))
    return chosen


def heuristic_constants() -> tuple[float, ...]:
    """py's constants in heuristic.h's order (read at every call, so they are py's)."""
    return (
        PLAIN_TOP,
        PLAIN_DECAY,
        PLAIN_LENGTH_DECAY,
        CLUB_SLOPE,
        CLUB_FLOOR,
        KEEP_WEIGHT,
        FRIEND_DEFENDER,
        RIVAL_WINNER,
        TEAM_PARTNER,
        BREAK_TEAM,
        DIAMOND_VALUE,
        ACE_OF_HEARTS_VALUE,
        FIRST_SPADE_COST,
        SOLO_MARGIN,
        JOKER_OWN_TRICKS,
        float(CHEST_SAMPLES),
    )


# -- the bot ------------------------------------------------------------------------------------------------------
class FreeHeuristicBot:
    """Bids by the tricks its hand keeps after the handicaps, gives up its least useful cards, plays for its side."""

    name = "heuristic"

    def choose(self, view: FreeView, legal: LegalActions[FreeAction], rng: random.Random) -> FreeAction:
        """One of ``legal`` for the decision the view's stage asks for."""
        stage = view.stage
        if stage is Stage.AUCTION:
            return choose_bid(view, legal, rng)
        cards = [a for a in legal if isinstance(a, Card)]  # past the auction every action is a card
        if stage in (Stage.HANDICAP, Stage.PASS):
            return choose_discard(view, cards)
        return choose_play(view, cards)


register_bot("heuristic", FreeHeuristicBot, game="free")
