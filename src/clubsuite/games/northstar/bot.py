"""The heuristic bot for North Star's CLUBS: plans its hand into few plays, keeps control, takes tricks worth clubs.

It reads only its seat's :class:`~clubsuite.games.northstar.view.NorthstarView` and the legal actions; the same
view and legal actions always give the same choice (the injected RNG is not needed). Its reasoning, in order:

* **Where the unseen cards are.** The cards this seat has not seen (nor, when the round was dealt from the cards
  left undealt, seen in the rounds since the last full shuffle, NS-6) lie at random in the other hands and the
  undealt pack. :class:`Odds` turns that into the chance that no opponent can beat a play of a given kind, size
  and top value: hypergeometric draws per opponent, a walk up the values for runs; a 15 wins at once (NS-4, not in
  Crazy CLUBS), wild 15s help opponents make sets (NS-9), and in Crazy CLUBS a longer play beats it too (NS-11).
  Partners are not opponents (NS-10).
* **A plan for the hand.** :meth:`Table.plan` splits the hand into singles, sets and runs (NS-3) at the least
  total cost, a play costing a turn less ``kappa`` times its chance to stand: a play nobody beats wins the trick
  and gives the lead back, so it is worth keeping, and a hand of long runs, sets and 15s is cheap. The plan is why
  the bot does not break a run or a set to follow, and why it keeps its 15s.
* **Leading.** Every play is scored by the plan cost it removes, the chance that it keeps the lead, whether only a
  lead can play it (long runs and sets), and its clubs (taken back when it stands, given away when it does not).
  With two plays left the likelier winner goes first, so the other goes out on the regained lead. A single that an
  opponent holding one card could beat is avoided; a partner holding one card gets the bot's lowest single.
* **Following.** Each play is weighed against passing: the plan cost it removes, plus the chance that it takes
  the trick times the trick's club points (NS-2) and the lead, minus its own clubs lost if it does not. A 15 is
  not spent on a worthless trick; beating an opponent about to go out is worth more. A partner's play is never
  overtaken (NS-10), except to go out.
* **Going out** comes first (a bonus card, NS-5). The player with the last turn (NS-5) takes a trick that holds
  club points, to score them (2 players) or to keep them from the player who would take it.
* **Wild 15s (NS-9)** are kept as winners: each one spent standing for another value costs, unless the play goes
  out. **Crazy CLUBS (NS-11)** uses its own weights (:data:`CRAZY_WEIGHTS`).
* **Double or nothing (NS-8)** is called when the hand's plan is cheap enough to go out first often (about a
  third of such hands did in simulated rounds); the bar is higher at a larger table.

The weights (:class:`Weights`) were chosen by matches against random bots and against variants of this bot
(``bench/bots_northstar.py`` prints the figures).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache
from math import comb

from clubsuite.bots.base import register_bot
from clubsuite.cards import NUMBERED_BASE
from clubsuite.engine import LegalActions
from clubsuite.games.northstar.combos import CLUB_MASK, DECK_MASK, FIFTEENS, Call, Kind, NorthstarAction, Play
from clubsuite.games.northstar.deal import HAND_SIZE
from clubsuite.games.northstar.view import NorthstarView

TOP = 15
"""The highest value."""
DECK_SIZE = 60
_SUIT_BITS = (1 << 15) - 1
"""The bits of one suit's 15 cards, shifted down to bit 0 (value ``v`` at bit ``v - 1``)."""


# -- tuning constants ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Weights:
    """The bot's tuning constants; chosen by comparing win rates over many simulated matches
    (``bench/bots_northstar.py``) against random bots and against variants of this bot."""

    kappa: float = 2.25
    """Plan cost of a play is ``1 - kappa * p``: a sure winner (p = 1) is worth a turn, since it regains the lead
    for another play."""
    shed: float = 3.0
    """Value (in club points) of one unit of plan cost removed by a play."""
    keep_lead: float = 0.5
    """Leading: value of the chance that the lead stands and comes back to the bot."""
    lead_only: float = 0.5
    """Leading: value of shedding a play that can hardly be played on someone else's lead (long runs and sets)."""
    lead_value: float = 1.5
    """Following: value of winning the trick for the lead it gives."""
    take: float = 2.0
    """Following: value of one club point taken with the trick."""
    gift: float = 0.5
    """Value lost for one club point of the bot's own that goes into a trick someone else takes."""
    deny: float = 3.0
    """Value of keeping an opponent with at most two cards from the lead (they would lead and go out): following, for
    beating them; leading, lost by a single their last card may beat."""
    lead_only_control: float = 1.0
    """How much of the control bonus (``kappa - 1``) a likely winner that must be led gets (1: as much as a 15)."""
    stranded: float = 1.5
    """Leading: value of shedding a likely-winning play that must be led (a long run or set) while the rest of the hand
    holds little that could win a trick on someone else's lead: the lead may not come back."""
    wild_fill: float = 2.0
    """Cost of each wild 15 spent standing for another value (NS-9) by a play that does not go out: played as a 15 it
    would win a trick at once, and at the end it fits any play."""
    finish: float = 0.3
    """Leading with two plays left: the likelier winner goes first (then the other goes out on the regained lead) when
    its chance to stand is at least this."""
    double_cost: float = 1.5
    """Double or nothing (NS-8) is called by 4 players when the hand's plan cost is at most this (few plays, most of
    them sure). In rounds between these bots, 4-player hands at this bar went out first about a third of the time
    (those at 0 about half the time); doubling at this bar won the most matches, as the gamble pays for a player
    who must finish first of four."""
    double_per_player: float = 0.75
    """The threshold falls by this much for each player above 4 (and rises for each below): going out first is
    harder at a larger table."""


PLAIN_WEIGHTS = Weights()
"""The weights of the basic game and of every variant but Crazy CLUBS."""
CRAZY_WEIGHTS = Weights(kappa=2.75, take=1.0)
"""Crazy CLUBS (NS-11): sets and runs that only a longer play beats are worth more as control, and a trick's clubs
count for less, since a 15 no longer takes a trick at once."""


FOLLOWABLE = {(False, 1): 1.0, (False, 2): 0.5, (False, 3): 0.15, (True, 2): 0.5, (True, 3): 0.15}
"""How often a play of (is a run, size) finds a chance on someone else's lead; missing: 0 (it must be led)."""


# -- value counts: 3 bits per value ----------------------------------------------------------------------------------
def _spread(bits: int) -> int:
    out = 0
    for v in range(15):
        if bits >> v & 1:
            out |= 1 << (3 * v)
    return out


_SPREAD_LO = tuple(_spread(b) for b in range(256))
_SPREAD_HI = tuple(_spread(b << 8) for b in range(128))
UNIT = (0, *(1 << (3 * (v - 1)) for v in range(1, 16)))
"""``UNIT[v]``: one card of value ``v`` in a packed count."""


def value_counts(mask: int) -> int:
    """The cards of ``mask`` as counts by value, packed 3 bits per value (value ``v`` at bit ``3 * (v - 1)``)."""
    total = 0
    bits = mask >> NUMBERED_BASE
    while bits:
        suit = bits & _SUIT_BITS
        if suit:
            total += _SPREAD_LO[suit & 0xFF] + _SPREAD_HI[suit >> 8]
        bits >>= 15
    return total


def count_of(packed: int, value: int) -> int:
    """How many cards of ``value`` a packed count holds."""
    return packed >> (3 * (value - 1)) & 7


def club_points_of(mask: int, table: tuple[int, ...]) -> int:
    """The points of the clubs in ``mask`` by the club-points table (NS-2)."""
    clubs = (mask & CLUB_MASK) >> NUMBERED_BASE
    total = 0
    while clubs:
        low = clubs & -clubs
        total += table[low.bit_length() - 1]
        clubs ^= low
    return total


def _added(values: list[float]) -> float:
    """The sum of ``values`` added one by one from the first: ``sum()`` compensates its rounding from Python 3.12 on,
    so a loop keeps the figures (and heuristic.h's, which adds the same way) the same on every version."""
    total = 0.0
    for x in values:
        total += x
    return total


# -- draws of unseen cards ------------------------------------------------------------------------------------------
@cache
def p_none(pool: int, held: int, good: int) -> float:
    """The chance that ``held`` cards drawn from ``pool`` include none of ``good`` particular cards."""
    if held > pool - good:
        return 0.0
    return comb(pool - good, held) / comb(pool, held)


@cache
def p_at_least(pool: int, held: int, good: int, k: int) -> float:
    """The chance that ``held`` cards drawn from ``pool`` include at least ``k`` of ``good`` particular cards."""
    top = min(good, held)
    if top < k:
        return 0.0
    hits = sum(comb(good, x) * comb(pool - good, held - x) for x in range(k, top + 1))
    return hits / comb(pool, held)


def seen_earlier(view: NorthstarView) -> int:
    """The cards the seat saw in the rounds since the last full shuffle, when this round was dealt from the cards
    left undealt (NS-6): they are out of play (0 otherwise). The same all round long."""
    seen = 0
    k = view.rounds() - 1
    stock, _ = view.pack_before(k)
    if stock not in (0, DECK_SIZE) and stock >= HAND_SIZE * view.players:
        j = k - 1
        while j >= 0:
            seen |= int(view.seen_in_round(j))
            if view.pack_before(j)[0] in (0, DECK_SIZE):
                break
            j -= 1
    return seen


def unknown_cards(view: NorthstarView) -> int:
    """The cards that may be in another hand: not held, not played this round, and not seen in the earlier rounds
    whose cards are out of play (:func:`seen_earlier`)."""
    return DECK_MASK & ~int(view.hand) & ~int(view.played) & ~seen_earlier(view)


class Odds:
    """The chance that no opponent can beat a play, given the unseen cards by value and the opponents' hand sizes."""

    def __init__(self, pool: int, unseen: tuple[int, ...], opponents: tuple[int, ...], wild: bool, crazy: bool):
        self.pool = pool
        self.unseen = unseen
        """``unseen[v]``: unseen cards of value ``v`` (index 0 unused)."""
        sizes: dict[int, int] = {}
        for h in opponents:
            sizes[h] = sizes.get(h, 0) + 1
        self.sizes = sizes
        """Opponent hand size -> how many opponents hold that many cards."""
        self.wild = wild
        self.crazy = crazy
        self._sets: dict[int, tuple[float, ...]] = {}
        self._runs: dict[tuple[int, int], float] = {}
        self._cache: dict[tuple[bool, int, int], float] = {}

    def _set_good(self, w: int) -> int:
        """Unseen cards that can make a set of value ``w``: its own, plus the 15s when they are wild (NS-9)."""
        m = self.unseen
        return m[w] + (m[TOP] if self.wild and w != TOP else 0)

    def _set_table(self, k: int) -> tuple[float, ...]:
        """``t[v]``: the chance that no opponent holds ``k`` cards of one value above ``v`` (``t[0]``: any value)."""
        table = self._sets.get(k)
        if table is None:
            stand = [1.0] * 17
            for w in range(TOP, 0, -1):
                good = self._set_good(w)
                factor = 1.0
                if good >= k:
                    for h, mult in self.sizes.items():
                        factor *= (1.0 - p_at_least(self.pool, h, good, k)) ** mult
                stand[w - 1] = stand[w] * factor
            table = tuple(stand)
            self._sets[k] = table
        return table

    def _run_stands(self, length: int, high: int) -> float:
        """The chance that no opponent holds a run of ``length`` topped above ``high`` (``high = 0``: any run).

        For each opponent the values are taken as independent (each held with the chance that its hand has at least
        one unseen card of that value) and a walk up the values tracks the current streak, so overlapping runs are
        not counted twice.
        """
        key = (length, high)
        p = self._runs.get(key)
        if p is None:
            m = self.unseen
            p = 1.0
            first = max(1, high + 2 - length)
            for h, mult in self.sizes.items():
                streak = [1.0] + [0.0] * (length - 1)
                for u in range(first, TOP + 1):
                    have = 1.0 - p_none(self.pool, h, m[u])
                    total = _added(streak)
                    streak = [total * (1.0 - have), *(x * have for x in streak[:-1])]
                p *= _added(streak) ** mult
            self._runs[key] = p
        return p

    def stands(self, run: bool, size: int, high: int) -> float:
        """The chance that a play (a run or a set/single of ``size`` cards topped by ``high``) is not beaten."""
        key = (run, size, high)
        p = self._cache.get(key)
        if p is None:
            if not self.sizes or (high == TOP and not self.crazy):
                p = 1.0  # nobody left to beat it, or a 15 wins at once (NS-4)
            elif run:
                p = self._run_stands(size, high)
                if self.crazy and size < TOP:  # NS-11: a longer run of any top beats it
                    p *= self._run_stands(size + 1, 0)
            else:
                p = self._set_table(size)[high]
                if self.crazy and size < 8:  # NS-11: a longer set of any value beats it
                    p *= self._set_table(size + 1)[0]
            self._cache[key] = p
        return p


# -- the table as this seat sees it ----------------------------------------------------------------------------------
class Table:
    """What the seat knows at one decision, and the plan of its hand; built once per decision from its view."""

    def __init__(self, view: NorthstarView, weights: Weights) -> None:
        opts = view.options
        self.w = weights
        self.seat = view.seat
        self.n = view.players
        self.crazy = opts.crazy
        self.wild = opts.wild_fifteens
        self.points = opts.club_points
        self.hand = int(view.hand)
        self.counts = value_counts(self.hand)
        self.sizes = view.hand_sizes
        self.partners = view.partners()
        opponents = tuple(
            self.sizes[s] for s in range(self.n) if s != self.seat and s not in self.partners and self.sizes[s]
        )
        self.opponents = opponents
        unknown = unknown_cards(view)
        packed = value_counts(unknown)
        unseen = (0, *(count_of(packed, v) for v in range(1, 16)))
        self.odds = Odds(unknown.bit_count(), unseen, opponents, self.wild, self.crazy)
        self.lone = sum(1 for h in opponents if h == 1)
        """Opponents holding one card: a single they can beat lets them go out."""
        self._memo: dict[int, float] = {0: 0.0}

    def lone_beats(self, value: int) -> float:
        """The chance that some opponent holding one card can beat a single of ``value`` with it."""
        odds = self.odds
        if not odds.pool:
            return 0.0
        higher = sum(odds.unseen[value + 1 :]) / odds.pool
        return 1.0 - (1.0 - higher) ** self.lone

    def cost(self, run: bool, size: int, high: int) -> float:
        """The plan cost of one play: a turn, less what it is worth as a likely winner."""
        p = self.odds.stands(run, size, high)
        f = FOLLOWABLE.get((run, size), 0.0)
        return 1.0 - p * (1.0 + (self.w.kappa - 1.0) * (f + (1.0 - f) * self.w.lead_only_control))

    def plan(self, packed: int) -> float:
        """The least total cost of splitting the cards ``packed`` (counts by value) into singles, sets and runs."""
        best = self._memo.get(packed)
        if best is not None:
            return best
        # The lowest card is a single, in a set of its value, or at the bottom of a run: try each.
        v = ((packed & -packed).bit_length() - 1) // 3 + 1
        unit = UNIT[v]
        have = count_of(packed, v)
        best = self.cost(False, 1, v) + self.plan(packed - unit)
        for k in range(2, have + 1):
            c = self.cost(False, k, v) + self.plan(packed - k * unit)
            if c < best:
                best = c
        rest = packed - unit
        w = v + 1
        while w <= TOP and count_of(packed, w):
            rest -= UNIT[w]
            c = self.cost(True, w - v + 1, w) + self.plan(rest)
            if c < best:
                best = c
            w += 1
        self._memo[packed] = best
        return best

    def plan_plays(self, packed: int) -> list[tuple[bool, int, int]]:
        """The plays of a least-cost plan of ``packed``, as (is a run, size, top value)."""
        out: list[tuple[bool, int, int]] = []
        while packed:
            target = self.plan(packed)
            v = ((packed & -packed).bit_length() - 1) // 3 + 1
            options: list[tuple[tuple[bool, int, int], int]] = []
            for k in range(1, count_of(packed, v) + 1):
                options.append(((False, k, v), packed - k * UNIT[v]))
            rest = packed - UNIT[v]
            w = v + 1
            while w <= TOP and count_of(packed, w):
                rest -= UNIT[w]
                options.append(((True, w - v + 1, w), rest))
                w += 1
            play, packed = min(options, key=lambda o: abs(self.cost(*o[0]) + self.plan(o[1]) - target))
            out.append(play)
        return out


def _shape(play: Play) -> tuple[bool, int, int]:
    return play.kind is Kind.RUN, play.size, play.high


def wild_fills(play: Play) -> int:
    """How many 15s of the play stand for another value (NS-9): all its 15s but one on top of a run up to 15."""
    fifteens = (int(play.cards) & FIFTEENS).bit_count()
    if play.high == TOP:
        return fifteens - 1 if play.kind is Kind.RUN and fifteens else 0
    return fifteens


# -- the bot --------------------------------------------------------------------------------------------------------
class NorthstarHeuristic:
    """Sheds its hand in few plays, keeps 15s and long plays for control, takes tricks that hold clubs, plays for
    its team, and calls double or nothing with a hand that can go out first."""

    name = "heuristic"

    def __init__(self, weights: Weights | None = None) -> None:
        self.weights = weights
        """The weights to use; None: :data:`PLAIN_WEIGHTS`, or :data:`CRAZY_WEIGHTS` in Crazy CLUBS."""

    def choose(self, view: NorthstarView, legal: LegalActions[NorthstarAction], rng: random.Random) -> NorthstarAction:
        """One of ``legal`` for the seat of ``view``."""
        del rng  # the choice is a function of the view: the same position always gets the same action
        if len(legal) == 1:
            return legal[0]
        weights = self.weights or (CRAZY_WEIGHTS if view.options.crazy else PLAIN_WEIGHTS)
        plays = [a for a in legal if isinstance(a, Play)]
        can_pass = Call.PASS in legal
        t = Table(view, weights)
        if Call.DOUBLE in legal and self.should_double(t):
            return Call.DOUBLE
        if not plays:
            return Call.PASS
        if view.last_turn == view.seat:
            return self.last_turn(view, t, plays, can_pass)
        out = [p for p in plays if int(p.cards) == t.hand]
        if out:
            # NS-5: going out takes a bonus card; among the ways, take the trick too where possible.
            return max(out, key=lambda p: (t.odds.stands(*_shape(p)), -club_points_of(int(p.cards), t.points)))
        top_seat = view.top_seat
        if top_seat is not None and top_seat in t.partners and can_pass:
            return Call.PASS  # NS-10: the partner's trick is the team's; keep the cards
        if view.top is None:
            return self.lead(view, t, plays)
        return self.follow(view, t, plays, can_pass)

    # -- decisions -----------------------------------------------------------------------------------------------
    def should_double(self, t: Table) -> bool:
        """NS-8: call when the plan of the hand is cheap enough to go out first."""
        w = t.w
        return t.plan(t.counts) <= w.double_cost + w.double_per_player * (4 - t.n)

    def last_turn(self, view: NorthstarView, t: Table, plays: list[Play], can_pass: bool) -> NorthstarAction:
        """NS-5: the last holder scores nothing (more than 2 players) or only its clubs (2 players): it takes the
        trick when that holds club points, keeping them from the player who would take it."""
        trick = 0
        for _, p in view.trick:
            trick |= int(p.cards)
        best = max(plays, key=lambda p: club_points_of(trick | int(p.cards), t.points))
        if club_points_of(trick | int(best.cards), t.points) > 0 or not can_pass:
            return best
        return Call.PASS

    def lead(self, view: NorthstarView, t: Table, plays: list[Play]) -> Play:
        """The play to lead (NS-4: the leader must play)."""
        w = t.w
        for s in t.partners:
            if t.sizes[s] == 1:
                # Help the partner out: a low single gives their last card a chance to follow.
                singles = [p for p in plays if p.kind is Kind.SINGLE and not int(p.cards) & FIFTEENS]
                if singles:
                    return min(singles, key=lambda p: (p.high, club_points_of(int(p.cards), t.points)))
        whole = t.plan(t.counts)
        plan = t.plan_plays(t.counts)
        if len(plan) == 2:
            # Two plays left: lead the likely winner first; the other then goes out on the regained lead.
            sure = max(plan, key=lambda s: t.odds.stands(*s))
            if t.odds.stands(*sure) >= w.finish:
                matching = [p for p in plays if _shape(p) == sure and not wild_fills(p)]
                if matching:
                    return min(matching, key=lambda p: club_points_of(int(p.cards), t.points))
        # How often the hand can expect to win the lead back by following: its followable likely winners (15s...).
        regain = _added([t.odds.stands(*s) * FOLLOWABLE.get((s[0], s[1]), 0.0) for s in plan])
        stranded = w.stranded * max(0.0, 1.0 - regain)
        scores: dict[tuple[int, bool, int], float] = {}
        best: Play = plays[0]
        best_score = float("-inf")
        for p in plays:
            mask = int(p.cards)
            shape = _shape(p)
            key = (value_counts(mask), shape[0], shape[2])
            base = scores.get(key)
            stand = t.odds.stands(*shape)
            if base is None:
                progress = whole - t.plan(t.counts - key[0])
                lead_only = 1.0 - FOLLOWABLE.get((shape[0], shape[1]), 0.0)
                base = w.shed * progress + (w.keep_lead + stranded * lead_only) * stand + w.lead_only * lead_only
                base -= 0.01 * p.high
                if t.wild:
                    base -= w.wild_fill * wild_fills(p)
                if shape[1] == 1 and t.lone:
                    base -= w.deny * t.lone_beats(p.high)
                scores[key] = base
            clubs = club_points_of(mask, t.points)
            score = base + clubs * (stand * w.take - (1.0 - stand) * w.gift)
            if score > best_score:
                best, best_score = p, score
        return best

    def follow(self, view: NorthstarView, t: Table, plays: list[Play], can_pass: bool) -> NorthstarAction:
        """Beat the play on the table or pass, whichever is worth more."""
        w = t.w
        trick = 0
        for _, p in view.trick:
            trick |= int(p.cards)
        whole = t.plan(t.counts)
        top_seat = view.top_seat
        urgent = top_seat is not None and top_seat not in t.partners and 0 < t.sizes[top_seat] <= 2
        best: NorthstarAction = Call.PASS if can_pass else plays[0]
        best_score = 0.0 if can_pass else float("-inf")
        for p in plays:
            mask = int(p.cards)
            shape = _shape(p)
            stand = t.odds.stands(*shape)
            progress = whole - t.plan(t.counts - value_counts(mask))
            taken = club_points_of(trick | mask, t.points)
            own = club_points_of(mask, t.points)
            score = w.shed * progress + stand * (w.take * taken + w.lead_value) - (1.0 - stand) * w.gift * own
            if urgent:
                score += w.deny * stand
            if t.wild:
                score -= w.wild_fill * wild_fills(p)
            if score > best_score:
                best, best_score = p, score
        return best


register_bot("heuristic", NorthstarHeuristic, game="northstar")
