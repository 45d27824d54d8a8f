"""The exact solver: alpha-beta over card plays with a transposition table, equivalent cards and move ordering.

Given a :class:`~clubsuite.solver.model.PlayPosition` (every hand known), :func:`solve` returns the value of each
legal card of the seat to act for the rest of the hand, when the side being solved for plays to make the value
high and everyone else to make it low. The search is the one bridge double-dummy solvers made standard, written
small:

* **Transposition table**: at the start of each trick the position is the cards left in each hand, the leader,
  whether clubs are broken, and what the scorer says the rest depends on; the table keeps a lower and an upper
  bound of the value of the rest of the hand for each, so a position reached by another order of tricks is not
  searched again.
* **Equivalent cards**: two cards of one suit with no card between them still in play (in a hand or in the trick)
  do the same in every line, so only one of them is searched (never a card the scorer marks special).
* **Move ordering**: the side that is winning the trick plays low; the other tries the cheapest card that takes
  the lead first; a leader tries high cards first. Good orders make alpha-beta cut early.
* **Bounds**: the scorer's bounds on what the rest of the hand can still add cut a search whose window is out of
  reach.

The search mutates a private copy of the position and restores it card by card; :func:`solve` never changes its
argument.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field

from clubsuite.cards import CLUBS_MASK, SUIT_MASKS
from clubsuite.solver.model import Follow, PlayPosition, next_leader, players_from

INF = 1 << 30


@dataclass
class SolveStats:
    """What one :func:`solve` call did: nodes visited and positions remembered (for benchmarks and limits)."""

    nodes: int = 0
    entries: int = 0


@dataclass
class Table:
    """A transposition table that may be shared by the solves of one deal (for one side and one scorer)."""

    entries: dict[Hashable, tuple[int, int]] = field(default_factory=dict)
    layouts: dict[tuple[tuple[int, ...], int], Hashable] = field(default_factory=dict)
    """The relative-rank code of each suit holding (and the suit's special cards) seen so far (see
    ``_Search._layout``)."""


class NodeLimitError(Exception):
    """Raised when a solve visits more nodes than it was allowed (a caller then falls back to something cheaper)."""


def _representatives(mask: int, live: int, special: int) -> list[int]:
    """The cards of ``mask`` worth searching: one per run of cards adjacent among ``live`` (lowest of each run)."""
    out = []
    m = mask
    while m:
        low = m & -m
        c = low.bit_length() - 1
        m ^= low
        if not special >> c & 1:
            base = c - c % 13
            below = live & ((1 << c) - 1) & ~((1 << base) - 1)
            if below:
                prev = below.bit_length() - 1
                if mask >> prev & 1 and not special >> prev & 1:
                    continue  # the card just below is ours and plays the same
        out.append(c)
    return out


def _equivalent_to(card: int, mask: int, live: int, special: int) -> int:
    """The representative of ``card`` among ``mask`` (see :func:`_representatives`)."""
    c = card
    while not special >> c & 1:
        base = c - c % 13
        below = live & ((1 << c) - 1) & ~((1 << base) - 1)
        if not below:
            break
        prev = below.bit_length() - 1
        if not (mask >> prev & 1) or special >> prev & 1:
            break
        c = prev
    return c


def solve(
    position: PlayPosition,
    table: Table | None = None,
    node_limit: int | None = None,
    stats: SolveStats | None = None,
) -> dict[int, int]:
    """The value of every legal card of the seat to act (solver indices), for the rest of the hand.

    Raises :class:`NodeLimitError` past ``node_limit`` nodes. ``table`` may be shared between solves of the same
    deal for the same side (later solves reuse what earlier ones learned).
    """
    search = _Search(position, table or Table(), node_limit)
    try:
        return search.root()
    finally:
        if stats is not None:
            stats.nodes += search.nodes
            stats.entries = len(search.tt)


class _Search:
    """One solve: the mutable copy of the position and the recursive search over it."""

    def __init__(self, position: PlayPosition, table: Table, node_limit: int | None) -> None:
        self.hands = list(position.hands)
        self.trick = list(position.trick)
        self.players = position.players
        self.leader = position.leader
        self.side = position.side
        self.scorer = position.scorer
        self.must_beat = position.follow is Follow.MUST_BEAT
        self.broken = position.clubs_broken
        self.skip_empty = position.skip_empty
        self.tricks_done = position.tricks_done
        self.max_tricks = position.max_tricks
        self.tt = table.entries
        self.layouts = table.layouts
        self.nodes = 0
        self.limit = node_limit if node_limit is not None else INF
        # The state of the trick in progress, replayed from its cards.
        self.led = -1
        self.top_led = -1
        self.top_club = -1
        self.winning = -1
        trick, self.trick = self.trick, []
        for c in trick:
            seat = self.players[len(self.trick)]
            self.hands[seat] |= 1 << c  # _play takes the card out of the hand it comes from
            self._play(seat, c)

    # -- the trick in progress ----------------------------------------------------------------------------------
    def _play(self, seat: int, c: int) -> tuple[int, int, int, int, bool | None]:
        """Put ``c`` from ``seat`` on the trick; returns what :meth:`_unplay` needs to take it back."""
        saved = (self.led, self.top_led, self.top_club, self.winning, self.broken)
        self.hands[seat] ^= 1 << c
        suit = c // 13
        if not self.trick:
            self.led, self.winning = suit, seat
            if suit == 0:
                self.top_club, self.top_led = c, -1
                if self.broken is not None:
                    self.broken = True  # a club lead (the leader held only clubs) breaks clubs
            else:
                self.top_club, self.top_led = -1, c
        elif suit == 0:
            if self.led and self.broken is not None:
                self.broken = True  # a club on a plain-suit trick breaks clubs
            if c > self.top_club:
                self.top_club, self.winning = c, seat
        elif suit == self.led and self.top_club < 0 and c > self.top_led:
            self.top_led, self.winning = c, seat
        self.trick.append(c)
        return saved

    def _unplay(self, seat: int, c: int, saved: tuple[int, int, int, int, bool | None]) -> None:
        self.trick.pop()
        self.hands[seat] ^= 1 << c
        self.led, self.top_led, self.top_club, self.winning, self.broken = saved

    def _legal(self, seat: int) -> int:
        hand = self.hands[seat]
        if not self.trick:
            if self.broken is False:
                return (hand & ~CLUBS_MASK) or hand  # no club lead before clubs are broken
            return hand
        led = self.led
        if not self.must_beat:
            return (hand & SUIT_MASKS[led]) or hand
        # The must-beat rule, as the engine's own rule module has it (the two are compared in the tests).
        if led == 0:
            higher = hand & CLUBS_MASK & ~((2 << self.top_club) - 1)
            return higher or (hand & CLUBS_MASK) or hand
        follow = hand & SUIT_MASKS[led]
        if self.top_club < 0:
            if follow:
                return (follow & ~((2 << self.top_led) - 1)) or follow
            return (hand & CLUBS_MASK) or hand
        if follow:
            return follow
        return (hand & CLUBS_MASK & ~((2 << self.top_club) - 1)) or hand

    def _layout(self) -> Hashable:
        """The cards in hands as relative ranks: per suit, the owner of each card still in play from the lowest up,
        plus where each special card sits in that order. Two positions alike in this play alike (every rule compares
        cards only with cards still in play), so the table serves positions reached after different cards fell."""
        hands = self.hands
        cache = self.layouts
        codes: list[Hashable] = []
        for shift in (0, 13, 26, 39):
            held = tuple((h >> shift) & 0x1FFF for h in hands)
            special = (self.scorer.special >> shift) & 0x1FFF
            # The code depends on the suit's special cards too: a suit with the queen of diamonds and another with
            # the same holdings but no special card have different codes (keyed by the holdings alone, the table
            # once took two positions with the special card in different places for one).
            code = cache.get((held, special))
            if code is None:
                live = 0
                for h in held:
                    live |= h
                owners = []
                marks = []
                while live:
                    low = live & -live
                    live ^= low
                    for seat, h in enumerate(held):
                        if h & low:
                            owners.append(seat)
                            break
                    if special & low:
                        marks.append(len(owners) - 1)
                code = cache[held, special] = (tuple(owners), tuple(marks))
            codes.append(code)
        return tuple(codes)

    def _live(self) -> int:
        live = 0
        for h in self.hands:
            live |= h
        for c in self.trick:
            live |= 1 << c
        return live

    def _beats(self, c: int) -> bool:
        """Whether ``c`` would take the lead of the trick in progress."""
        suit = c // 13
        if suit == 0:
            return c > self.top_club
        return suit == self.led and self.top_club < 0 and c > self.top_led

    def _ordered(self, seat: int, cards: list[int]) -> list[int]:
        """Cards in the order worth trying first (see the module docstring)."""
        if not self.trick:
            return sorted(cards, key=lambda c: -(c % 13))
        if self.side[self.winning] == self.side[seat]:
            return cards  # our side is winning: low cards first (already ascending)
        beaters = [c for c in cards if self._beats(c)]
        return beaters + [c for c in cards if not self._beats(c)]

    # -- the search ---------------------------------------------------------------------------------------------
    def root(self) -> dict[int, int]:
        if not self.trick and self._over():
            return {}
        seat = self.players[len(self.trick)]
        legal = self._legal(seat)
        live = self._live()
        special = self.scorer.special
        values: dict[int, int] = {}
        guess = 0
        for c in self._ordered(seat, _representatives(legal, live, special)):
            guess = values[c] = self._probe(seat, c, guess)
        out: dict[int, int] = {}
        m = legal
        while m:
            low = m & -m
            c = low.bit_length() - 1
            m ^= low
            out[c] = values[_equivalent_to(c, legal, live, special)]
        return out

    def _probe(self, seat: int, c: int, guess: int) -> int:
        """The exact value of ``c`` by null-window searches that close in on it from ``guess`` (MTD(f)): each
        search only asks whether the value reaches a bound, which cuts far more than one search with a wide window,
        and the table carries what each search learned to the next."""
        lo, hi = -INF, INF
        g = guess
        while lo < hi:
            beta = g + 1 if g == lo else g
            v = self._after(seat, c, beta - 1, beta)
            if v < beta:
                hi = v
            else:
                lo = v
            g = v
        return lo

    def _over(self) -> bool:
        if self.tricks_done >= self.max_tricks:
            return True
        if self.skip_empty:
            return sum(1 for h in self.hands if not h) >= 2
        return not any(self.hands)

    def _after(self, seat: int, c: int, alpha: int, beta: int) -> int:
        """The value of the rest of the hand once ``seat`` has played ``c``."""
        saved = self._play(seat, c)
        if len(self.trick) < len(self.players):
            v = self._node(alpha, beta)
            self._unplay(seat, c, saved)
            return v
        # The trick is complete: score it and go on with the next one.
        winner = self.winning
        cards = 0
        for x in self.trick:
            cards |= 1 << x
        pts = self.scorer.trick(winner, cards, len(self.trick))
        trick, players, leader = self.trick, self.players, self.leader
        self.tricks_done += 1
        self.leader = next_leader(self.hands, winner, self.skip_empty)
        self.players = players_from(self.hands, self.leader, self.skip_empty)
        self.trick = []
        v = pts + self._node(alpha - pts, beta - pts)
        self.trick, self.players, self.leader = trick, players, leader
        self.tricks_done -= 1
        self.scorer.untrick()
        self._unplay(seat, c, saved)
        return v

    def _node(self, alpha: int, beta: int) -> int:
        """The value of the rest of the hand from here (alpha-beta, fail-soft)."""
        self.nodes += 1
        if self.nodes > self.limit:
            raise NodeLimitError(f"the solve went past {self.limit} nodes")
        key: Hashable = None
        if not self.trick:
            if self._over():
                return self.scorer.final()
            live = 0
            for h in self.hands:
                live |= h
            lo, hi = self.scorer.bounds(live)
            if hi <= alpha:
                return hi
            if lo >= beta:
                return lo
            key = (self._layout(), self.leader, self.broken, self.scorer.key())
            entry = self.tt.get(key)
            if entry is not None:
                lo, hi = max(lo, entry[0]), min(hi, entry[1])
            if lo >= beta or lo == hi:
                return lo
            if hi <= alpha:
                return hi
            alpha, beta = max(alpha, lo), min(beta, hi)
        seat = self.players[len(self.trick)]
        cards = self._ordered(seat, _representatives(self._legal(seat), self._live(), self.scorer.special))
        a0, b0 = alpha, beta
        if self.side[seat]:
            best = -INF
            for c in cards:
                v = self._after(seat, c, alpha, beta)
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
        else:
            best = INF
            for c in cards:
                v = self._after(seat, c, alpha, beta)
                if v < best:
                    best = v
                    if v < beta:
                        beta = v
                        if alpha >= beta:
                            break
        if key is not None:
            old = self.tt.get(key, (-INF, INF))
            if best <= a0:
                self.tt[key] = (old[0], min(old[1], best))
            elif best >= b0:
                self.tt[key] = (max(old[0], best), old[1])
            else:
                self.tt[key] = (best, best)
        return best
