"""The heuristic bot for Clubs (whist group): rule-based exchange, goal choice and card play from one seat's view.

The bot reads only :class:`WhistView` (its own cards, the public table, what its own exchange showed it) and the
legal actions. Its reasoning, in the order it is used:

* **Where the unseen cards are.** :class:`Knowledge` gives every card a chance of being in each opponent's hand,
  from the free places in each hand and the bid hand and from what the play proves a hand cannot hold (the
  must-beat rule, CW-1, makes every follow reveal something).
* **What a hand is worth.** Each card gets a *potential*: the chance that it takes a trick later, once when the
  bot tries to win tricks and once when it tries to lose them (then it is the chance of being forced to win).
  The sum over the hand estimates the tricks the hand will take in either mode.
* **The goal of the hand.** Reaching +target or -target both win (CW-5), so after every hand only the distance to
  the nearer target matters. The bot aims high or low, whichever leaves it closer to a target after this hand,
  and turns to blocking when an opponent is about to reach a target that the bot cannot reach this hand.
* **The exchange (CW-4).** Keep or take the bid hand, whichever promises the better goal value; the bid hand is
  judged by sampling hands from the cards the bot cannot see.
* **Card play.** Must-beat (CW-1) means that a player able to win the trick must do so, so the only choice is
  *which* winning card or *which* losing card to play. Every legal card is scored by the chance it wins this
  trick minus the potential it takes away from the hand: the bot maximises that score when it wants tricks (win
  cheaply, cash winners before they are ruffed) and minimises it when it wants to lose them (duck, shed
  dangerous high cards while they are safe to shed).
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from clubsuite.bots.base import register_bot
from clubsuite.cards import CLUBS_MASK, SUIT_MASKS, Card, bit_indices
from clubsuite.engine import LegalActions
from clubsuite.errors import IllegalActionError
from clubsuite.games.whist.deal import HAND_SIZE, N_SEATS
from clubsuite.games.whist.hand import QUOTA, Decision, WhistAction, WhistPhase
from clubsuite.games.whist.sampling import absent_cards
from clubsuite.games.whist.view import BID, WhistView

FULL_DECK = (1 << 52) - 1

# -- tuning constants ---------------------------------------------------------------------------------------------
# The card potentials follow the take rates that ``bench/bots_whist.py --cards`` prints; the other constants were
# chosen by comparing win rates over many matches (against random bots and against this bot itself).
PLAIN_TOP_HIGH = 0.87
"""Chance that an unbeatable plain card takes a trick when the bot plays for tricks (before ruff risk)."""
PLAIN_DECAY_HIGH = 0.57
"""Factor on a plain card's potential for each higher card expected in an opponent's hand (high mode)."""
PLAIN_TOP_LOW = 0.7
"""Chance that an unbeatable plain card is forced to take a trick when the bot avoids tricks."""
PLAIN_DECAY_LOW = 0.6
"""Factor on a plain card's forced-trick potential for each higher card expected with an opponent (low mode)."""
CLUB_SLOPE_HIGH = 0.11
"""Potential a club loses for each higher club expected in an opponent's hand (high mode)."""
CLUB_SLOPE_LOW = 0.17
"""Forced-trick potential a club loses for each higher club expected with an opponent (low mode)."""
CLUB_FLOOR_HIGH = 0.55
"""Potential of any club when playing for tricks: even a low club wins a trick by ruffing."""
CLUB_FLOOR_LOW = 0.35
"""Forced-trick potential of any club when avoiding tricks: a void in the led suit forces a ruff (CW-1)."""
VOID_RUFF_BONUS = 0.1
"""Extra high-mode potential per club for each plain suit the hand is void in (ruffing chances)."""
KEEP_WEIGHT_HIGH = 0.85
"""Weight of a card's potential against a trick now when playing for tricks: a winner kept for later is worth a bit
less than a trick now, because voids and ruffs appear as the hand goes on."""
KEEP_WEIGHT_LOW = 0.85
"""Weight of a card's forced-trick potential against the chance of winning now when avoiding tricks."""
GOAL_DECAY = 0.75
"""Value of being ``d`` points from a target, relative to reaching it: ``GOAL_DECAY ** d``."""
EXCHANGE_SAMPLES = 24
"""How many bid hands are sampled to judge the exchange."""
EXCHANGE_MARGIN = 0.0
"""Extra value the sampled bid hand must promise before the bot exchanges."""
REJECTED_HAND_MARGIN = 0.1
"""Relative extra margin when an earlier player exchanged: the bid hand is then a hand that player turned down."""
REACHED = 0.9
"""A goal value from which the bot counts on reaching a target this hand (and ignores the others' race)."""
BLOCK_NEED = 2
"""An opponent this many tricks (or fewer) short of +target is kept from taking tricks."""
FEED_SPARE = 0
"""An opponent at -target with this many tricks (or fewer) to spare is given tricks."""
TIE = 1e-3
"""Weight of the rank tie-break between cards of equal score (play low when winning, shed high when losing)."""


class Goal(StrEnum):
    """What the bot plays for in the current hand."""

    HIGH = "high"
    """Take many tricks, towards +target."""
    LOW = "low"
    """Take few tricks, towards -target (CW-5: that wins too)."""


_bits = bit_indices
"""The card indices in a mask, lowest first."""


def _above(index: int) -> int:
    """The cards of the same suit ranked above ``index``."""
    return SUIT_MASKS[index // 13] & ~((2 << index) - 1)


def _rank(index: int) -> int:
    """The rank (2..14) of a standard card index."""
    return index % 13 + 2


class Knowledge:
    """How likely each card the seat cannot see is to be in each opponent's hand.

    ``prob[k][i]`` is the chance that card ``i`` is held by ``opponents[k]``. Cards known to be with an opponent
    (the hand the seat left when it exchanged, CW-4) count as certain, cards proven absent by the play count as
    impossible, and every other unseen card is shared out in proportion to the free places of the two opponents'
    hands and of the bid hand.
    """

    __slots__ = ("_above_cache", "_any_cache", "hand", "opponents", "prob", "sure")

    def __init__(
        self, hand: int, opponents: tuple[int, int], prob: tuple[list[float], list[float]], sure: tuple[int, int]
    ) -> None:
        self.hand = hand
        self.opponents = opponents
        self.prob = prob
        self.sure = sure
        self._any_cache: dict[tuple[int, int], float] = {}
        self._above_cache: dict[int, float] = {}

    @classmethod
    def from_view(cls, view: WhistView) -> Knowledge:
        """What ``view.seat`` can infer now: from the hand sizes, its exchange and the play so far."""
        seat = view.seat
        opponents = ((seat + 1) % N_SEATS, (seat + 2) % N_SEATS)
        unseen = int(view.unseen())
        known = view.known_cards()
        absent = absent_cards(view)
        sizes = view.hand_sizes
        held = [int(known.get(t, 0)) for t in opponents]
        free = [sizes[t] - held[k].bit_count() for k, t in enumerate(opponents)]
        free_bid = HAND_SIZE - int(known.get(BID, 0)).bit_count()
        prob: tuple[list[float], list[float]] = ([0.0] * 52, [0.0] * 52)
        for k in range(2):
            for i in _bits(held[k]):
                prob[k][i] = 1.0
        # The unseen cards fall into classes by which opponents may hold them; a class shares its chances (a card
        # neither may hold stays at 0 for both).
        may = [unseen & ~absent[t] for t in opponents]
        classes = (((0, 1), may[0] & may[1]), ((0,), may[0] & ~may[1]), ((1,), may[1] & ~may[0]))
        for holders, cards in classes:
            slots = free_bid + sum(free[h] for h in holders)
            if slots <= 0 or not cards:
                continue
            for h in holders:
                chance, row = free[h] / slots, prob[h]
                for i in _bits(cards):
                    row[i] = chance
        return cls(int(view.hand), opponents, prob, (held[0], held[1]))

    @classmethod
    def fresh(cls, hand: int, seat: int, pool: int, share: float) -> Knowledge:
        """Knowledge before any play: every card of ``pool`` is with each opponent with chance ``share``."""
        opponents = ((seat + 1) % N_SEATS, (seat + 2) % N_SEATS)
        prob: tuple[list[float], list[float]] = ([0.0] * 52, [0.0] * 52)
        for i in _bits(pool):
            prob[0][i] = prob[1][i] = share
        return cls(hand, opponents, prob, (0, 0))

    def at_opponent(self, index: int) -> float:
        """The chance that card ``index`` is in either opponent's hand."""
        return self.prob[0][index] + self.prob[1][index]

    def higher_out(self, index: int) -> float:
        """The expected number of cards of ``index``'s suit, above it, that the opponents hold (worked out once per
        card: the hand's value asks for it many times a decision)."""
        cached = self._above_cache.get(index)
        if cached is None:
            p0, p1 = self.prob
            cached = 0.0
            for i in _bits(_above(index) & ~self.hand):
                cached += p0[i] + p1[i]
            self._above_cache[index] = cached
        return cached

    def holds_any(self, k: int, mask: int) -> float:
        """The chance that opponent ``k`` (0 or 1) holds at least one card of ``mask``."""
        key = (k, mask)
        cached = self._any_cache.get(key)
        if cached is not None:
            return cached
        if self.sure[k] & mask:
            result = 1.0
        else:
            none = 1.0
            p = self.prob[k]
            for i in _bits(mask & ~self.hand):
                none *= 1.0 - p[i]
            result = 1.0 - none
        self._any_cache[key] = result
        return result

    def void(self, k: int, suit: int) -> float:
        """The chance that opponent ``k`` holds no card of ``suit``."""
        return 1.0 - self.holds_any(k, SUIT_MASKS[suit])

    def beats(self, k: int, index: int, led: int, club_in_trick: bool) -> float:
        """The chance that opponent ``k``, still to play, will beat card ``index`` if it is the highest so far.

        Under must-beat (CW-1) an opponent able to beat the card must do so, so this is a question of holdings
        only: a higher card of the led suit (while no club is in the trick), or a void in the led suit with a
        (higher) club.
        """
        if index // 13 == 0:
            higher_clubs = self.holds_any(k, _above(index))
            return higher_clubs if led == 0 else self.void(k, led) * higher_clubs
        if club_in_trick:
            return 0.0
        return min(1.0, self.holds_any(k, _above(index)) + self.void(k, led) * self.holds_any(k, CLUBS_MASK))


# -- hand value -------------------------------------------------------------------------------------------------
def card_potential(k: Knowledge, index: int, goal: Goal) -> float:
    """The chance that card ``index`` of the bot's hand takes a trick later in the hand.

    For :attr:`Goal.HIGH` it is the chance of winning a trick with it when trying; for :attr:`Goal.LOW` the chance
    of being forced to win one with it. A card loses potential for each higher card of its suit an opponent may
    hold; a plain card also for each opponent that may ruff it; a club keeps a floor, because a void in the led
    suit lets it (or forces it to) ruff.
    """
    h = k.higher_out(index)
    if index // 13 == 0:
        if goal is Goal.HIGH:
            return max(1.0 - CLUB_SLOPE_HIGH * h, CLUB_FLOOR_HIGH)
        return max(1.0 - CLUB_SLOPE_LOW * h, CLUB_FLOOR_LOW)
    if goal is Goal.LOW:
        return PLAIN_TOP_LOW * math.pow(PLAIN_DECAY_LOW, h)
    suit = index // 13
    safe = 1.0
    for j in range(2):
        safe *= 1.0 - k.void(j, suit) * k.holds_any(j, CLUBS_MASK)
    return PLAIN_TOP_HIGH * math.pow(PLAIN_DECAY_HIGH, h) * safe


def hand_estimate(k: Knowledge, goal: Goal) -> float:
    """The tricks the bot's remaining cards should take when it plays for ``goal``."""
    # A loop, not sum(): sum() of floats compensates its rounding from Python 3.12 on, and the play-outs' C bot
    # (heuristic.h) and the recorded hands of the tests add them one after another, as 3.11's sum() does.
    total = 0.0
    for i in _bits(k.hand):
        total += card_potential(k, i, goal)
    if goal is Goal.HIGH:
        voids = sum(1 for s in (1, 2, 3) if not k.hand & SUIT_MASKS[s])
        total += VOID_RUFF_BONUS * voids * (k.hand & CLUBS_MASK).bit_count()
    return total


def goal_value(total_after: float, target: int, goal: Goal, spread: float = 1.0) -> float:
    """How good it is to end the hand near ``total_after`` when aiming at ``goal`` (1.0: the target is reached).

    The trick count is uncertain, so the value is averaged over a small spread around the estimate; ``spread``
    shrinks it as the hand runs out.
    """
    value = 0.0
    for delta, weight in ((-2, 0.1), (-1, 0.2), (0, 0.4), (1, 0.2), (2, 0.1)):
        x = total_after + delta * spread
        distance = target - x if goal is Goal.HIGH else target + x
        value += weight * (1.0 if distance <= 0 else math.pow(GOAL_DECAY, distance))
    return value


def best_goal(total: int, tricks: int, high: float, low: float, target: int, spread: float = 1.0) -> tuple[Goal, float]:
    """The goal (and its value) for a player at ``total`` with ``tricks`` taken and the given estimates to come."""
    v_high = goal_value(total + tricks + high - QUOTA, target, Goal.HIGH, spread)
    v_low = goal_value(total + tricks + low - QUOTA, target, Goal.LOW, spread)
    return (Goal.HIGH, v_high) if v_high >= v_low else (Goal.LOW, v_low)


# -- the exchange (CW-4) ----------------------------------------------------------------------------------------
def exchange_decision(view: WhistView, rng: random.Random) -> Decision:
    """Keep or exchange: compare the goal value of the hand held with the mean over sampled bid hands.

    Keeping leaves the 39 other cards unknown (each with an opponent two times in three). Taking the bid hand
    shows the bot its old hand go to the middle, so it then knows the 26 cards the opponents share. The bid hand
    is sampled from the 39 unseen cards; when an earlier player exchanged, it is a hand that player turned down,
    so the bot asks for a larger gain before taking it.
    """
    seat, target = view.seat, view.target
    total = view.totals[seat]
    hand = int(view.hand)
    pool = FULL_DECK & ~hand
    mine = Knowledge.fresh(hand, seat, pool, 1.0 / 3.0)
    _, keep_value = best_goal(total, 0, hand_estimate(mine, Goal.HIGH), hand_estimate(mine, Goal.LOW), target)
    others = _bits(pool)
    gain = 0.0
    for _ in range(EXCHANGE_SAMPLES):
        bid = 0
        for i in rng.sample(others, HAND_SIZE):
            bid |= 1 << i
        k = Knowledge.fresh(bid, seat, pool & ~bid, 0.5)
        _, value = best_goal(total, 0, hand_estimate(k, Goal.HIGH), hand_estimate(k, Goal.LOW), target)
        gain += value
    bid_value = gain / EXCHANGE_SAMPLES
    margin = EXCHANGE_MARGIN
    if any(exchanged for _, exchanged in view.decisions):
        margin += REJECTED_HAND_MARGIN * keep_value
    return Decision.EXCHANGE if bid_value > keep_value + margin else Decision.KEEP


# -- card play --------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class TrickState:
    """The trick in progress as the bot sees it."""

    led: int
    """The led suit (-1: the bot leads)."""
    top_led: int
    """The highest card of the led suit so far (-1: none)."""
    top_club: int
    """The highest club so far (-1: none)."""
    winner: int
    """The seat winning the trick so far (-1: the bot leads)."""
    followers: tuple[int, ...]
    """Indices (0, 1 into ``Knowledge.opponents``) of the opponents still to play after the bot."""

    @classmethod
    def from_view(cls, view: WhistView, k: Knowledge) -> TrickState:
        """Read the trick in progress from the view."""
        trick = view.trick
        led = top_led = top_club = winner = -1
        for n, (seat, c) in enumerate(trick):
            i = c.index
            if n == 0:
                led = i // 13
            if i // 13 == 0:
                if i > top_club:
                    top_club, winner = i, seat
            elif i // 13 == led and top_club < 0 and i > top_led:
                top_led, winner = i, seat
        played = {s for s, _ in trick}
        followers = tuple(n for n, t in enumerate(k.opponents) if t not in played)
        return cls(led, top_led, top_club, winner, followers)

    def wins_now(self, index: int) -> bool:
        """Whether card ``index`` would take the lead in this trick (always true for a lead)."""
        if self.led < 0:
            return True
        if index // 13 == 0:
            return index > self.top_club
        return self.top_club < 0 and index // 13 == self.led and index > self.top_led


def win_chance(k: Knowledge, state: TrickState, index: int) -> float:
    """The chance that playing card ``index`` wins the trick for the bot.

    A card that does not beat the trick so far never wins it. A card that does wins unless an opponent still to
    play can beat it, and under must-beat (CW-1) whoever can beat it will.
    """
    if not state.wins_now(index):
        return 0.0
    led = state.led if state.led >= 0 else index // 13
    chance = 1.0
    for j in state.followers:
        chance *= 1.0 - k.beats(j, index, led, state.top_club >= 0)
    return chance


def wanted(view: WhistView, k: Knowledge, state: TrickState) -> bool:
    """Whether the bot wants this trick: from its goal, unless an opponent about to win must be stopped.

    The goal comes from :func:`best_goal` on the current estimates, so a hand that went wrong can switch (a low
    hand that has already taken many tricks turns high). When the bot does not reach a target itself this hand,
    :func:`race_threat` may override the goal for this one trick.
    """
    seat, target = view.seat, view.target
    left = k.hand.bit_count()
    high, low = hand_estimate(k, Goal.HIGH), hand_estimate(k, Goal.LOW)
    goal, value = best_goal(view.totals[seat], view.tricks_won[seat], high, low, target, left / HAND_SIZE)
    if value < REACHED:
        override = race_threat(view, k, state)
        if override is not None:
            return override
    return goal is Goal.HIGH


def race_threat(view: WhistView, k: Knowledge, state: TrickState) -> bool | None:
    """Whether to take (True) or leave (False) this trick to stop an opponent from winning this hand; None: no need.

    Several players may win at once (CW-5), so this matters only when the bot is not reaching a target itself.
    An opponent who needs at most ``BLOCK_NEED`` more tricks for +target and could still win this trick (it is
    winning it or plays after the bot) should not get it. An opponent already at -target with at most
    ``FEED_SPARE`` tricks to spare should be given it.
    """
    target = view.target
    totals, won = view.totals, view.tricks_won
    left = k.hand.bit_count()
    involved = {k.opponents[j] for j in state.followers}
    if state.winner >= 0:
        involved.add(state.winner)
    for opp in k.opponents:
        if opp not in involved:
            continue
        now = totals[opp] + won[opp] - QUOTA
        need = target - now
        if 0 < need <= min(BLOCK_NEED, left):
            return True
        spare = -target - now
        if 0 <= spare <= FEED_SPARE:
            return False
    return None


def card_choice(view: WhistView, legal: Iterable[Card]) -> Card:
    """The card to play: the legal card with the best trade of this trick against the hand's future.

    Score = chance of winning this trick - potential the card takes out of the hand, weighted by
    ``KEEP_WEIGHT_HIGH`` or ``KEEP_WEIGHT_LOW``. Wanting the trick, the bot maximises the score (the cheapest sure
    winner, a winner cashed before it can be ruffed, otherwise a low card); not wanting it, it minimises the score
    (a card that will be beaten, shedding the most dangerous cards it can). Equal scores go to the lower card when
    the bot wants the trick and to the higher one when it does not.
    """
    k = Knowledge.from_view(view)
    state = TrickState.from_view(view, k)
    want = wanted(view, k, state)
    goal = Goal.HIGH if want else Goal.LOW
    best: Card | None = None
    best_score = 0.0
    for c in legal:
        i = c.index
        score = win_chance(k, state, i) - (KEEP_WEIGHT_HIGH if want else KEEP_WEIGHT_LOW) * card_potential(k, i, goal)
        score = score - TIE * _rank(i) if want else -score + TIE * _rank(i)
        if best is None or score > best_score:
            best, best_score = c, score
    assert best is not None
    return best


class WhistHeuristicBot:
    """A rule-based Clubs (whist group) player: judged exchange, goal per hand, must-beat-aware card play."""

    name = "heuristic"
    easy_slips = 2
    """The ``easy`` level slips once in this many decisions (``clubsuite.bots.levels``): a newcomer's habit in one
    decision of three left ``easy`` within reach of ``normal`` on the rating scale (``docs/bots.md``)."""

    def choose(self, view: WhistView, legal: LegalActions[WhistAction], rng: random.Random) -> WhistAction:
        """Pick one of ``legal`` for the seat of ``view``, reading nothing but the view.

        ``rng`` is used only to sample bid hands for the exchange, so every decision is reproducible.
        """
        if len(legal) == 0:
            raise IllegalActionError(
                f"the heuristic bot was asked to act for seat {view.seat} with no legal action: "
                "no hand is in progress, or it is not that seat's turn"
            )
        if len(legal) == 1:
            return legal[0]
        if view.phase is WhistPhase.EXCHANGE:
            decision = exchange_decision(view, rng)
            return decision if decision in legal else legal[0]
        return card_choice(view, (a for a in legal if isinstance(a, Card)))

    def slip(self, view: WhistView, legal: LegalActions[WhistAction], rng: random.Random) -> WhistAction:
        """The ``easy`` level's slip in this game (``clubsuite.bots.levels``): a newcomer's habit, as
        :func:`beginner_choice` plays it, rather than a random card (``rng`` is not used)."""
        return beginner_choice(view, legal)


# -- a beginner's play (the easy level's mistakes) ----------------------------------------------------------------
def beginner_card(view: WhistView, legal: Iterable[Card]) -> Card:
    """The card a newcomer plays: it grabs every trick it can with its highest card and throws its lowest otherwise.

    It plays for tricks in every hand, as if only +target won: it does not see that -target wins as well (CW-5),
    nor that an opponent close to a target must be stopped, and it does not weigh what a card is worth later. So
    it wins with its highest winning card (where the heuristic wins as cheaply as it can), leads its highest card,
    and, when nothing it holds can take the trick, gives up its lowest. Must-beat (CW-1) still decides which cards
    are legal.
    """
    k = Knowledge.from_view(view)
    state = TrickState.from_view(view, k)
    cards = list(legal)
    winners = [c for c in cards if state.wins_now(c.index)]
    if winners:
        return max(winners, key=lambda c: (c.index // 13 == 0, _rank(c.index), c.index))
    return min(cards, key=lambda c: (c.index // 13 == 0, _rank(c.index), c.index))


def beginner_choice(view: WhistView, legal: LegalActions[WhistAction]) -> WhistAction:
    """A newcomer's move: keep the hand dealt (a newcomer seldom dares take the bid hand unseen, CW-4), and play each
    card as :func:`beginner_card` says, for tricks whatever the score. Every move is legal and has a reason a
    newcomer would give; what it lacks is the heuristic's judgement."""
    if len(legal) == 1:
        return legal[0]
    if view.phase is WhistPhase.EXCHANGE:
        return Decision.KEEP if Decision.KEEP in legal else legal[0]
    return beginner_card(view, (a for a in legal if isinstance(a, Card)))


register_bot("heuristic", WhistHeuristicBot, game="whist")
