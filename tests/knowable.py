"""An oracle of what each seat may know, written from the rules and the full state of a match, never from its views.

:func:`knowable_cards` answers: which cards may ``seat`` (None: a spectator, who holds no seat) know at this moment?
It reads each hand's deal and its action log and works out, from the rule texts and rulings, what the table was
shown and what a seat was shown alone:

* everyone: every card played face up (to a trick, a CLUBS play, a bid laid in front of its bidder);
* a seat: besides, every card it was dealt in any hand so far, and what the rules show it alone: the bid hand it
  takes by exchanging (CW-4); the treasure chest to its taker, a card a Queen handicap passes to its receiver, the
  card passed to the right before play to its receiver once every player has chosen (FC-2, FC-5); the three cards
  a partnership pass gives its receiver once all four have chosen (CP-2).

Nothing here reads a view, a sampler, or the engine's own record of who knows what (a view's ``known_cards``, a
hand's ``passed``): the exchanges, the auction, the handicaps and the passes are worked out again from the deal and
the actions. So a test that compares the cards a view or the spectator's part names (:func:`cards_named`) with this
oracle checks the two against each other.

Every game the registry can hold needs an entry in :data:`ORACLES`; the toy game of ``tests/toygame`` has one too.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from clubsuite.cards import STANDARD, STANDARD_WITH_JOKERS, Card, Deck, card_at, card_text, iter_bits
from clubsuite.games.northstar.combos import NORTHSTAR, Play
from clubsuite.games.partnership.hand import Pass
from clubsuite.games.whist.hand import Decision

Shown = tuple[int, list[int]]
"""What one hand showed, as card masks: (to the table, to each seat alone, by seat)."""


@dataclass(frozen=True)
class Oracle:
    """One game's part of the oracle: the deck its notation is read against, and what a hand showed."""

    deck: Deck
    shown: Callable[[Any, int, Any], Shown]
    """``shown(hand, index, match)``: what the hand (number ``index`` of ``match``) showed so far."""


def _bit(card: Card) -> int:
    return 1 << card.index


def _dealt(hands: Sequence[int]) -> list[int]:
    """Each seat's dealt cards: a player sees the cards dealt to it."""
    return [int(h) for h in hands]


# -- Clubs (whist group) ------------------------------------------------------------------------------------------
def _whist(hand: Any, index: int, match: Any) -> Shown:
    """CW-4: in turn from the dealer's left, each player keeps or exchanges; an exchanger takes the current bid hand
    (seeing it) and leaves its own as the new bid hand. Every card played is face up."""
    n = 3
    deal = hand.deal
    private = _dealt(deal.hands)
    held = _dealt(deal.hands)
    bid = int(deal.bid)
    public = 0
    decided = 0
    for action in hand.action_log():
        if isinstance(action, Decision):
            seat = (hand.dealer + 1 + decided) % n
            decided += 1
            if action is Decision.EXCHANGE:
                private[seat] |= bid
                held[seat], bid = bid, held[seat]
        else:
            public |= _bit(action)
    return public, private


# -- Free Clubs ---------------------------------------------------------------------------------------------------
_TEN, _JACK, _QUEEN, _KING = 10, 11, 12, 13
_PRIMARY_RANKS = (2, 3, 4, 5, 6, 7, 8, 9, 14)
"""A-9: the primary cards (FC-5: only these are ever discarded or passed)."""


def _primary_of_suit(mask: int, suit: int) -> list[Card]:
    """The primary cards of ``suit`` in ``mask``, highest first: 9 down to 2, the ace lowest."""
    found = [c for c in map(card_at, iter_bits(mask)) if c.suit == suit and c.rank in _PRIMARY_RANKS]
    return sorted(found, key=lambda c: 1 if c.rank == 14 else c.rank, reverse=True)


def _free(hand: Any, index: int, match: Any) -> Shown:
    """FC-3..FC-5, FC-2: the holder of 10S opens and bids go clockwise, each laid face up; two passes in a row or a
    Joker end the auction. Its winner takes the chest (seen by the winner only); then the handicaps of the winner's
    bids (and with a Joker, of the partner's too) in bid order: a Ten discards a card of the player's choice (one
    action), a Jack the highest primary card of the suit, a King the three highest, all unseen; a Queen passes the
    highest to the left neighbour, who sees it. Then each player holding cards, from the winner's left, chooses a
    card to pass to the right; the receivers see them once all have chosen. Every card played after that is face up
    (a misplay taken back by a call in table mode, FC-10, was on the table too)."""
    n = 3
    deal = hand.deal
    private = [int(a) | int(p) for a, p in zip(deal.auction, deal.primary, strict=True)]
    held = _dealt(deal.primary)
    public = 0
    log = iter(hand.action_log())
    opener = next(s for s in range(n) if any(c.rank == _TEN and c.suit == 3 for c in deal.auction[s]))
    bids: list[tuple[int, Card]] = []
    calls = 0
    passed_last = False
    ended = False
    for action in log:
        seat = (opener + calls) % n
        calls += 1
        if not isinstance(action, Card):  # the word pass
            if passed_last:
                ended = True
                break
            passed_last = True
            continue
        passed_last = False
        bids.append((seat, action))
        public |= _bit(action)
        if action.suit is None:  # a Joker ends the auction at once (FC-4)
            ended = True
            break
    if not ended:
        return public, private
    winner = bids[-1][0]
    team = {winner}
    if bids[-1][1].suit is None:
        team.add(bids[-2][0])  # FC-4: the Joker partners the most recent bidder
    private[winner] |= int(deal.chest)
    held[winner] |= int(deal.chest)
    for seat, bid in bids:
        if seat not in team or bid.suit is None:
            continue
        in_suit = _primary_of_suit(held[seat], bid.suit)
        if bid.rank == _TEN:
            if not in_suit:
                continue  # nothing to discard: no choice is asked
            choice = next(log, None)
            if choice is None:
                return public, private
            held[seat] &= ~_bit(choice)
        elif bid.rank == _QUEEN:
            for c in in_suit[:1]:
                to = (seat + 1) % n
                held[seat] &= ~_bit(c)
                held[to] |= _bit(c)
                private[to] |= _bit(c)
        else:
            for c in in_suit[: 3 if bid.rank == _KING else 1]:
                held[seat] &= ~_bit(c)
    givers = [s for s in ((winner + 1) % n, (winner + 2) % n, winner) if held[s]]
    chosen: list[tuple[int, Card]] = []
    for giver in givers:
        choice = next(log, None)
        if choice is None:
            return public, private
        chosen.append((giver, choice))
    for giver, c in chosen:
        private[(giver - 1) % n] |= _bit(c)
    for action in log:
        if isinstance(action, Card):
            public |= _bit(action)
    return public, private


# -- Clubs (partnership) ------------------------------------------------------------------------------------------
_PASS_CYCLE = (1, -1, 0)
"""CP-2: the first hand of the game passes left (to the next seat clockwise), the second right, the third none."""


def _partnership(hand: Any, index: int, match: Any) -> Shown:
    """CP-2: each player from the dealer's left chooses three cards; once all four have chosen, each receiver sees
    the three it is given. Every card played is face up (CP-1)."""
    n = 4
    private = _dealt(hand.deal.hands)
    public = 0
    step = _PASS_CYCLE[index % len(_PASS_CYCLE)]
    passes: list[tuple[int, int]] = []
    for action in hand.action_log():
        if isinstance(action, Pass):
            passes.append(((hand.dealer + 1 + len(passes)) % n, int(action.cards)))
        else:
            public |= _bit(action)
    if step and len(passes) == n:
        for giver, cards in passes:
            private[(giver + step) % n] |= cards
    return public, private


# -- North Star's CLUBS -------------------------------------------------------------------------------------------
def _northstar(hand: Any, index: int, match: Any) -> Shown:
    """Each player sees the ten cards dealt to it; every play is face up (NS-3, NS-4). Nothing else is ever shown:
    cards left in a hand when a round ends, and which cards lie undealt or on the discard pile, stay hidden (NS-5,
    NS-6)."""
    public = 0
    for action in hand.action_log():
        if isinstance(action, Play):
            public |= int(action.cards)
    return public, _dealt(hand.deal.hands)


# -- High Card (the toy game of the tests) ------------------------------------------------------------------------
def _highcard(hand: Any, index: int, match: Any) -> Shown:
    """Each player sees its three cards; every card played is face up; the two left over are never seen."""
    public = 0
    for action in hand.action_log():
        public |= _bit(action)
    return public, _dealt(hand.deal.hands)


ORACLES: dict[str, Oracle] = {
    "whist": Oracle(STANDARD, _whist),
    "free": Oracle(STANDARD_WITH_JOKERS, _free),
    "partnership": Oracle(STANDARD, _partnership),
    "northstar": Oracle(NORTHSTAR, _northstar),
    "highcard": Oracle(STANDARD, _highcard),
}
"""Every game's oracle, by registered name."""


def oracle(game: str) -> Oracle:
    """The oracle of ``game``; a registered game without one fails here, by name."""
    found = ORACLES.get(game)
    if found is None:
        raise KeyError(f"tests/knowable.py has no oracle for the game {game!r}: add one to ORACLES")
    return found


def knowable_masks(match: Any, seat: int | None, hand: int | None = None) -> int:
    """:func:`knowable_cards` as a card mask."""
    shown = oracle(match.game).shown
    indices = range(len(match.hands)) if hand is None else [range(len(match.hands))[hand]]
    mask = 0
    for index in indices:
        public, private = shown(match.hands[index], index, match)
        mask |= public
        if seat is not None:
            mask |= private[seat]
    return mask


def knowable_cards(match: Any, seat: int | None, hand: int | None = None) -> set[str]:
    """The cards (as ``str(card)`` prints them) that ``seat`` may know now, in every hand dealt so far; for
    ``seat=None`` (a spectator) only those shown to the table.

    With ``hand`` (an index into ``match.hands``, ``-1`` for the last), only what that hand showed. The same card
    comes back in every hand, so a card played in the first hand is known for good, yet says nothing of where it
    lies in the next: a snapshot of the hand in progress (every view's ``to_dict()``, the spectator's part) is held
    to what that hand alone showed, which is stricter.
    """
    return set(_texts_of(knowable_masks(match, seat, hand)))


@functools.lru_cache(maxsize=1 << 14)
def _texts_of(mask: int) -> frozenset[str]:
    """The cards of ``mask`` as ``str(card)`` prints them (kept: the same masks come back at every decision)."""
    return frozenset(card_text(i) for i in iter_bits(mask))


# -- reading the cards a message names ----------------------------------------------------------------------------
_SYMBOLS = {"C": "♣♧", "D": "♦♢", "H": "♥♡", "S": "♠♤"}
_TOKEN = re.compile("[0-9A-Za-z" + "".join(_SYMBOLS.values()) + "\ufe0f]+")
"""A run of the characters a card's notation is made of: a word such as ``pass`` is one run, and no card."""
_READERS: dict[str, dict[str, str]] = {}


def _reader(game: str) -> dict[str, str]:
    """Every way the project writes a card of ``game``'s deck, to its canonical text: ``10H`` (also ``TH``, ``10♥``),
    ``QC``, ``15S``, ``JK1``. Upper case only: the project prints cards so, and ``as`` in a sentence is no card."""
    table = _READERS.get(game)
    if table is None:
        table = {}
        for c in oracle(game).deck.cards:
            text = str(c)
            table[text] = text
            if c.suit is not None:
                rank = text[:-1]
                forms = [rank, "T"] if rank == "10" and c.kind == "standard" else [rank]
                for r in forms:
                    for mark in (c.suit.letter, *_SYMBOLS[c.suit.letter]):
                        table[r + mark] = text
        _READERS[game] = table
    return table


IDENTIFIER_KEYS = frozenset({"id", "table_id", "user_id", "public_id", "host_id", "night_id", "token", "invite"})
"""Keys whose values are random identifiers (``secrets.token_urlsafe``): an id such as ``1C-NDEJxMtDa`` names no card,
though its pieces read like one."""


def cards_named(obj: Any, game: str) -> set[str]:
    """Every card of ``game``'s deck named anywhere in the JSON value ``obj`` (in canonical notation): in strings
    inside dicts (keys too) and lists, several to a string (``"7H 8H"``, a CLUBS play ``"7C 7H 15S=7"``). Values of
    :data:`IDENTIFIER_KEYS` are random identifiers and are not read."""
    _reader(game)  # an unknown game fails here, whatever ``obj`` holds
    found: set[str] = set()
    stack = [obj]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found |= _named_in(item, game)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(value for key, value in item.items() if key not in IDENTIFIER_KEYS)
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return found


@functools.lru_cache(maxsize=1 << 16)
def _named_in(text: str, game: str) -> frozenset[str]:
    """The cards of ``game``'s deck that one string names (:func:`cards_named`; kept: a view's strings, a seat's name
    or a card's notation, come back in every message)."""
    table = _reader(game)
    return frozenset(
        named for token in _TOKEN.findall(text) if (named := table.get(token.replace("\ufe0f", ""))) is not None
    )
