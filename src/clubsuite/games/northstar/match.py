"""A match of North Star's CLUBS: rounds dealt in turn to the left until a total reaches the target (NS-7, NS-10).

The match keeps the pack between rounds (NS-6): with ``leftover=next_round`` the cards not dealt in a round are dealt
first in the next one, and the discards are shuffled in only when they run short.
"""

from __future__ import annotations

import random
from typing import ClassVar, Self

from clubsuite.cards import CardSet
from clubsuite.engine import Events
from clubsuite.errors import (
    InvalidDealError,
    InvalidNotationError,
)
from clubsuite.games.northstar import sampling
from clubsuite.games.northstar.combos import DECK_MASK, Call, NorthstarAction, parse_play
from clubsuite.games.northstar.deal import (
    HAND_SIZE,
    NorthstarDeal,
    NorthstarShuffle,
    deal_from_shuffle,
)
from clubsuite.games.northstar.events import HandScored, HandStarted, MatchEnded
from clubsuite.games.northstar.hand import NO_ACTIONS, NorthstarHand, NorthstarLegal
from clubsuite.games.northstar.options import Leftover, NorthstarOptions
from clubsuite.games.northstar.reasons import OR_DOUBLE, OR_PASS, OR_PASS_OR_DOUBLE
from clubsuite.games.northstar.view import NorthstarView
from clubsuite.jsonform import JsonObject
from clubsuite.match_base import MatchBase
from clubsuite.native import compiled_match_class, kernel, match_class_for
from clubsuite.reasons import Reason, reason_of

GAME = "northstar"
CORE = "clubsuite.games.northstar._core"
"""The compiled kernel's module (the compiled hand, the listing of the plays and the match paths are in it)."""

PASS_WORDS = frozenset({"pass", "p"})
DOUBLE_WORDS = frozenset({"double", "d", "double cards"})


class NorthstarMatch(
    MatchBase[NorthstarHand, NorthstarView, NorthstarDeal | NorthstarShuffle, NorthstarAction, NorthstarOptions]
):
    """A whole match: rounds, running totals (per seat and per team) and the end condition (NS-7, NS-10).

    Usage: ``deal()`` (with an RNG, a :class:`NorthstarShuffle` or an explicit :class:`NorthstarDeal`) starts each
    round; then ``to_act``, ``legal_actions()`` and ``apply()`` until the round is scored; repeat until ``is_over``.
    """

    game = GAME
    hand_class: ClassVar[type[NorthstarHand]] = NorthstarHand
    """The class of this match's hands: the engine's (the compiled match class has compiled ones)."""
    options: NorthstarOptions

    def __init__(self, options: NorthstarOptions | None = None, first_dealer: int = 0) -> None:
        opts = options or NorthstarOptions()
        super().__init__(opts, first_dealer, opts.players)
        self._stock = DECK_MASK
        """The cards not dealt since they were last shuffled (all 60 before the first round)."""
        self._discards = 0
        """The cards of the rounds played since the discards were last shuffled in."""
        self.packs: list[tuple[int, int]] = []
        """For each round: how many undealt cards and discards there were before it was dealt (public counts)."""

    def _make_view(self, seat: int) -> NorthstarView:
        return NorthstarView(self, seat)

    def _random_deal(self, rng: random.Random, dealer: int) -> NorthstarShuffle:
        return NorthstarShuffle.random(rng)

    def _pack(self) -> tuple[int, int]:
        """The undealt cards and the discards the next deal is made from (NS-6)."""
        if self.options.leftover is Leftover.RESHUFFLE:
            return DECK_MASK, 0
        return self._stock, self._discards

    def _new_hand(self, deal: object, dealer: int) -> NorthstarHand:
        n = self.n_seats
        stock, discards = self._pack()
        source = None
        if isinstance(deal, NorthstarShuffle):
            source = deal
            deal = deal_from_shuffle(deal, n, dealer, stock, discards)
        if not isinstance(deal, NorthstarDeal):
            raise InvalidDealError(f"deal() needs a NorthstarDeal or a NorthstarShuffle, got {type(deal).__name__}")
        if len(deal.hands) != n:
            raise InvalidDealError(f"the deal has {len(deal.hands)} hands but {n} players play (NS-1)")
        dealt = deal.cards
        need = HAND_SIZE * n
        if stock.bit_count() >= need:
            stray = dealt & ~stock
            if stray:
                raise InvalidDealError(
                    f"{CardSet(stray)} cannot be dealt: with leftover=next_round this round is dealt from the "
                    f"{stock.bit_count()} cards left undealt, and they were already in play (NS-6)"
                )
        elif stock & ~dealt:
            raise InvalidDealError(
                f"{CardSet(stock & ~dealt)} must be dealt: with leftover=next_round every card left undealt last "
                "round is dealt before the discards are shuffled in (NS-6)"
            )
        hand = self.hand_class(deal, dealer, self.options, source)
        self.packs.append((stock.bit_count(), discards.bit_count()))
        if self.options.leftover is Leftover.NEXT_ROUND:
            if stock.bit_count() >= need:
                self._stock = stock & ~dealt
            else:
                self._stock = (stock | discards) & ~dealt
                self._discards = 0
        return hand

    def _restarted(self, hand: NorthstarHand) -> NorthstarHand:
        return self.hand_class(hand.deal, hand.dealer, hand.options, hand.dealt_from)

    def _hand_started(self, index: int, dealer: int) -> HandStarted:
        return HandStarted(index, dealer)

    def determinize(self, seat: int, rng: random.Random) -> Self:
        """A clone in which every card ``seat`` cannot see is drawn again (see :meth:`MatchBase.determinize`).

        Hidden from ``seat``: the other players' hands (plays show nothing of what a player holds, NS-4) and, with
        ``leftover=next_round``, the pack (NS-6): which of the cards out of play are left undealt for the next round
        and which lie on the discard pile. The hands are drawn with
        :func:`~clubsuite.games.northstar.sampling.sample_hidden`, exactly uniformly among the placements the seat
        cannot tell apart, except with 4 or 5 players and kept leftovers, where the draw uses this round and the last
        one only (see that module); the round is dealt again to match and its actions are replayed. Then the pack
        is drawn (:func:`~clubsuite.games.northstar.sampling.sample_pack`): the discards the seat saw are kept, the
        rest of the pile is drawn uniformly among the other cards out of play, and whatever is left is undealt, so
        later rounds deal from it. Earlier rounds stay as they were played: no play from here reads their hidden
        cards.
        """
        return super().determinize(seat, rng)

    def _determinized_hand(self, seat: int, rng: random.Random) -> NorthstarHand:
        cur = self._cur
        assert cur is not None
        # The seat of each action is public (who is to act follows from the plays and the hand sizes alone), so the
        # round is replayed once as dealt to read it off.
        scratch = NorthstarHand(cur.deal, cur.dealer, self.options)
        actions: list[tuple[int, NorthstarAction]] = []
        for action in cur.action_log():
            actor = scratch.to_act
            assert actor is not None
            actions.append((actor, action))
            scratch.apply(action)
        return sampling.determinize(self.view(seat), actions, rng)

    def _determinized_rest(self, other: Self, seat: int, rng: random.Random) -> None:
        if self.options.leftover is not Leftover.NEXT_ROUND:
            return  # every round is dealt from all 60 cards: the pack holds nothing hidden (NS-6)
        dealt = other.hands[-1].deal.cards
        other._stock, other._discards = sampling.sample_pack(self.view(seat), dealt, self._discards.bit_count(), rng)

    # -- queries ---------------------------------------------------------------------------------------
    @property
    def team_totals(self) -> tuple[int, ...]:
        """The running total of each team (each player is a team of one without team play) (NS-10)."""
        n_teams = self.options.n_teams
        out = [0] * n_teams
        for s, t in enumerate(self.totals):
            out[s % n_teams] += t  # the seat's team (NorthstarOptions.team_of), written out: once a round
        return tuple(out)

    def legal_actions(self) -> NorthstarLegal:
        """The legal actions of the seat to act (empty between rounds): a read-only sequence that checks ``action in
        legal`` against the rules directly and lists the plays only when iterated, counted or indexed
        (:class:`~clubsuite.games.northstar.hand.NorthstarLegal`)."""
        cur = self._cur
        return cur.legal_actions() if cur is not None else NO_ACTIONS

    # -- actions (the frame of explain and apply is shared: MatchBase) ------------------------------------
    def apply(self, action: object, seat: int | None = None) -> Events:
        """Apply an action (or its notation, e.g. ``"7C 7H"``, ``"pass"``) of the seat to act; returns the events.

        The round's last event is its end (NS-5, NS-10); the match adds the scores with the totals and, when the
        game is decided, its end (NS-7). The state is unchanged if it raises.
        """
        cur = self._cur
        if cur is None:
            return super().apply(action, seat)  # the shared refusal: no round in progress, or the match is over
        if seat is not None:
            self._check_turn(action, seat)
        if type(action) is str:
            action = self.parse_action(action)
        events = cur.apply(action, seat)
        if cur.scores is None:
            return events
        self._cur = None
        return events + self._score(cur)

    def _score(self, hand: NorthstarHand) -> Events:
        assert hand.scores is not None
        for s in range(self.n_seats):
            self.totals[s] += hand.scores[s]
        self.hand_scores.append(hand.scores)
        self._discards |= hand.deal.cards  # NS-6: every card of the round goes to the discard pile
        team_totals = self.team_totals
        return (HandScored(hand.scores, tuple(self.totals), team_totals), *self._judge(team_totals))

    def _judge(self, totals: tuple[int, ...]) -> Events:
        """Decide the end of the match (NS-7, NS-10) from the team ``totals``: once a total reaches the target, the
        highest wins; a tie at the top plays another round."""
        top = max(totals)
        if top < self.options.goal:
            return ()
        leaders = [t for t, v in enumerate(totals) if v == top]
        if len(leaders) != 1:
            return ()
        self._over = True
        self.winners = tuple(s for s in range(self.n_seats) if self.options.team_of(s) == leaders[0])
        return (MatchEnded(self.winners, False, tuple(self.totals)),)  # NS-7: never a draw

    def summary(self) -> JsonObject:
        """A JSON-ready account of the match so far: every round, the totals, the team totals and the result."""
        data = super().summary()
        data["team_totals"] = list(self.team_totals)
        return data

    # -- notation --------------------------------------------------------------------------------------
    def parse_action(self, text: str) -> NorthstarAction:
        """Read an action: ``pass`` (``p``), ``double`` (``d``), or a play such as ``7H``, ``7C 7H``, ``4H 5C 6D`` or
        ``7H 15S=7``. Bare values (``7 7``, ``4-5-6``) are looked up in the hand of the seat to act."""
        t = " ".join(text.strip().lower().split())
        if t in PASS_WORDS:
            return Call.PASS
        if t in DOUBLE_WORDS:
            return Call.DOUBLE
        cur = self._cur
        hand = cur.hands[cur.to_act] if cur is not None and cur.to_act is not None else None
        try:
            return parse_play(text, self.options.wild_fifteens, hand)
        except InvalidNotationError as exc:
            may_pass = cur is not None and cur.top is not None
            may_double = self.options.double_or_nothing
            if not (may_pass or may_double):
                raise
            kind = OR_PASS_OR_DOUBLE if may_pass and may_double else OR_PASS if may_pass else OR_DOUBLE
            why = reason_of(exc)
            if why is None:  # every refusal of the notation is a reason: this is an error of the program
                raise
            raise InvalidNotationError(Reason(kind, reason=why)) from None


CompiledNorthstarMatch: type[NorthstarMatch] | None = compiled_match_class(CORE, NorthstarMatch)
"""NorthstarMatch with the compiled core's hot paths (compiled hands; ``apply``, ``legal_actions``, ``view``
and ``to_act`` in C for the common case), None where the kernel is not built; kept here so that its matches
pickle."""


def match_type() -> type[NorthstarMatch]:
    """The class a new match is made of: the compiled one where the kernel is built, unless ``CLUBS_PURE_PYTHON`` is
    set (:func:`clubsuite.native.match_class_for`)."""
    return match_class_for(NorthstarMatch, CompiledNorthstarMatch)


_kernel = kernel(CORE)
if _kernel is not None:  # a compiled hand's legal actions are NorthstarLegal to isinstance (an ABC's register)
    _kernel.install_legal(NorthstarLegal)
