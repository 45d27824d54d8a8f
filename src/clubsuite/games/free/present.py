"""What a Free Clubs table shows and asks (:mod:`clubsuite.present`). Beside the cards: the auction (FC-3), the
contract and the Joker partner (FC-4), each handicap's effect (FC-5), the cards passed (FC-2), misplays (FC-10), the
bid cards, the treasure chest, the discards and the card chosen to pass; to the seat to act, what it is asked and
each action's label."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from clubsuite.cards import CardSet
from clubsuite.events import Event
from clubsuite.games.free import events as fc
from clubsuite.present import (
    MATCH,
    PASSES,
    PASSES_YOU,
    TO_POINTS,
    Asked,
    Badge,
    Fact,
    Known,
    Put,
    Recorded,
    Ruling,
    Said,
    Shown,
    dealer_fact,
    is_viewer,
    passed_words,
    play_label,
    seat_items,
    suit_key,
    told,
    trick_front,
)
from clubsuite.reasons import SUITS, Reason, template

CONTRACT = template("free.shown_contract", "contract", rule="FC-4")
"""The badge of the auction's winner, who plays for the contract."""
JOKER_PARTNER = template("free.shown_joker_partner", "Joker partner", rule="FC-4")
"""The badge of the Joker bidder's partner."""
BID_CARDS = template("free.shown_bid_cards", "{n} bid card", plural="{n} bid cards", count="n")
"""How many bid cards a seat still has before it (FC-3)."""
BID = template("free.shown_bid", "bid")
"""The note under a bid on the table."""
PASSED = template("free.shown_passed", "passed")
"""The note where a seat passed in the auction."""
OPENS = template("free.shown_opens", "The auction opens: the holder of the \u2660 10 bids first.", rule="FC-3")
"""What the table says before the first bid."""
YOUR_BID_CARDS = template("free.shown_your_bid_cards", "Your bid cards")
CHEST = template("free.shown_chest", "The treasure chest (now in your hand)", rule="FC-4")
DISCARDS = template("free.shown_discards", "Your discards", rule="FC-5")
PASS_CHOICE = template("free.shown_pass_choice", "You pass to your right", rule="FC-2")

AUCTION = template("free.shown_auction", "Auction")
YOU_PASSED = template("free.shown_you_passed", "you passed")
SEAT_PASSED = template("free.shown_seat_passed", "{seat} passed")
YOU_BID = template("free.shown_you_bid", "you bid {card}")
SEAT_BID = template("free.shown_seat_bid", "{seat} bid {card}")
YOU_BID_JOKER = template("free.shown_you_bid_joker", "you bid a Joker")
SEAT_BID_JOKER = template("free.shown_seat_bid_joker", "{seat} bid a Joker")
CONTRACT_LABEL = template("free.shown_contract_label", "Contract")
TEAM_CONTRACT = template("free.shown_team_contract", "{seats} (Joker team): all 10 tricks together", rule="FC-4")
SOLO_CONTRACT = template("free.shown_solo_contract", "{seat}: 7 tricks", rule="FC-4")
HANDICAPS = template("free.shown_handicaps", "Handicaps")
SEAT_HANDICAP = template("free.shown_seat_handicap", "{seat}'s {card}: {result_reason}")
YOUR_HANDICAP = template("free.shown_your_handicap", "Your {card}: {result_reason}")
YOUR_HANDICAP_LATER = template("free.shown_your_handicap_later", "your {card}: {result_reason}")
NONE_OF_SUIT = template("free.shown_none_of_suit", "no {suit} to give up", rule="FC-5")
NO_CARDS = template("free.shown_no_cards", "no cards to give up", rule="FC-5")
DISCARDED = template(
    "free.shown_discarded", "{n} {suit:one} discarded", plural="{n} {suit} discarded", count="n", rule="FC-5"
)
CARDS_DISCARDED = template(
    "free.shown_cards_discarded", "{n} card discarded", plural="{n} cards discarded", count="n", rule="FC-5"
)
PASSED_TO_YOU = template(
    "free.shown_passed_to_you", "{n} {suit:one} passed to you", plural="{n} {suit} passed to you", count="n"
)
CARDS_PASSED_TO_YOU = template(
    "free.shown_cards_passed_to_you", "{n} card passed to you", plural="{n} cards passed to you", count="n"
)
PASSED_TO = template(
    "free.shown_passed_to", "{n} {suit:one} passed to {seat}", plural="{n} {suit} passed to {seat}", count="n"
)
CARDS_PASSED_TO = template(
    "free.shown_cards_passed_to", "{n} card passed to {seat}", plural="{n} cards passed to {seat}", count="n"
)
PASSED_LABEL = template("free.shown_passed_label", "Passed", rule="FC-2")
TRANSFER = template("free.shown_transfer", "{from_seat} \u2192 {to_seat} {card}")
TRANSFER_HIDDEN = template("free.shown_transfer_hidden", "{from_seat} \u2192 {to_seat}")
MISPLAYS_CALLED = template("free.shown_misplays_called", "Misplays called", rule="FC-10")
YOUR_CARD = template("free.shown_your_card", "your {card}")
SEATS_CARD = template("free.shown_seats_card", "{seat}'s {card}")
YOUR_UNCALLED = template("free.shown_your_uncalled", "Your misplays not called yet", rule="FC-10")
SEATS_UNCALLED = template("free.shown_seats_uncalled", "{seat}'s misplays not called yet", rule="FC-10")
CARD = template("free.shown_card", "{card}")
NO_MISPLAY = template("free.shown_no_misplay", "Checked, no misplay", rule="FC-10")

SUIT_KEY = dict(zip("CDHS", SUITS, strict=True))


def whose_card(view: Mapping[str, Any], seat: int, card: str) -> Reason:
    """A seat's card in a list: "your Q♥", "Ann's Q♥"."""
    return Reason(YOUR_CARD, card=card) if is_viewer(view, seat) else Reason(SEATS_CARD, seat=seat, card=card)


def bid_words(view: Mapping[str, Any], seat: int, bid: str) -> Reason:
    """One call of the auction (FC-3)."""
    you = is_viewer(view, seat)
    if bid == "pass":
        return Reason(YOU_PASSED) if you else Reason(SEAT_PASSED, seat=seat)
    if bid.startswith("JK"):
        return Reason(YOU_BID_JOKER) if you else Reason(SEAT_BID_JOKER, seat=seat)
    return Reason(YOU_BID, card=bid) if you else Reason(SEAT_BID, seat=seat, card=bid)


def handicap_result(bid: str, removed: int, to: int | None, you: bool) -> Reason:
    """What a handicap did (FC-5): "1 spade discarded", "1 heart passed to you" (``you``: told to the seat it went
    to), "no diamonds to give up"."""
    suit = None if bid.startswith("JK") else SUIT_KEY.get(bid[-1:])
    if not removed:
        return Reason(NONE_OF_SUIT, suit=suit) if suit else Reason(NO_CARDS)
    if to is None:
        return Reason(DISCARDED, n=removed, suit=suit) if suit else Reason(CARDS_DISCARDED, n=removed)
    if you:
        return Reason(PASSED_TO_YOU, n=removed, suit=suit) if suit else Reason(CARDS_PASSED_TO_YOU, n=removed)
    return Reason(PASSED_TO, n=removed, suit=suit, seat=to) if suit else Reason(CARDS_PASSED_TO, n=removed, seat=to)


def facts(view: Mapping[str, Any]) -> list[Fact]:
    """The auction, the contract, the handicaps, the cards passed, misplays, and what wins the match."""
    out = list(dealer_fact(view))
    auction = view.get("auction") or []
    if auction:
        out.append(Fact(Reason(AUCTION), tuple(bid_words(view, b["seat"], b["bid"]) for b in auction)))
    winner, partner = view.get("winner"), view.get("partner")
    if winner is not None:
        contract = (
            Reason(TEAM_CONTRACT, seats=(winner, partner))
            if partner is not None
            else Reason(SOLO_CONTRACT, seat=winner)
        )
        out.append(Fact(Reason(CONTRACT_LABEL), (contract,)))
    handicaps = view.get("handicaps") or []
    if handicaps:
        words = []
        for i, x in enumerate(handicaps):
            result = handicap_result(x["bid"], x["count"], x["to"], is_viewer(view, x["to"]))
            if not is_viewer(view, x["seat"]):
                words.append(Reason(SEAT_HANDICAP, seat=x["seat"], card=x["bid"], result_reason=result))
            else:
                mine = YOUR_HANDICAP if i == 0 else YOUR_HANDICAP_LATER
                words.append(Reason(mine, card=x["bid"], result_reason=result))
        out.append(Fact(Reason(HANDICAPS), tuple(words), "; "))
    transfers = view.get("transfers") or []
    if transfers:
        moved = tuple(
            Reason(TRANSFER, from_seat=x["from"], to_seat=x["to"], card=x["card"])
            if x.get("card")
            else Reason(TRANSFER_HIDDEN, from_seat=x["from"], to_seat=x["to"])
            for x in transfers
        )
        out.append(Fact(Reason(PASSED_LABEL), moved, "; "))
    misplays = view.get("misplays") or []
    called = [m for m in misplays if m["called"]]
    if called:
        out.append(Fact(Reason(MISPLAYS_CALLED), tuple(whose_card(view, m["seat"], m["card"]) for m in called)))
    own = [m for m in misplays if not m["called"]]
    if own:
        seat = view["seat"]
        label = Reason(YOUR_UNCALLED) if is_viewer(view, seat) else Reason(SEATS_UNCALLED, seat=int(seat))
        out.append(Fact(label, tuple(Reason(CARD, card=m["card"]) for m in own)))
    checked = view.get("no_misplay") or []
    if checked:
        out.append(Fact(Reason(NO_MISPLAY), tuple(whose_card(view, m["seat"], m["card"]) for m in checked)))
    out.append(Fact(Reason(MATCH), (Reason(TO_POINTS, target=view["target"]),)))
    return out


def front(view: Mapping[str, Any]) -> tuple[Put, ...]:
    """In the auction each seat's last call (a bid card, or "passed"); in play the trick."""
    if view.get("stage") != "auction":
        return trick_front(view)
    last: dict[int, Put] = {}
    for b in view.get("auction") or []:
        passed = b["bid"] == "pass"
        last[b["seat"]] = Put(b["seat"], "" if passed else b["bid"], Reason(PASSED if passed else BID))
    return tuple(last.values())


def shown(view: Mapping[str, Any], options: object = None) -> Shown:
    """What a Free Clubs view shows beside the cards."""
    n = len(view["hand_sizes"])
    winner, partner = view.get("winner"), view.get("partner")
    badges = tuple(
        (Badge(Reason(CONTRACT), "contract"),)
        if s == winner
        else (Badge(Reason(JOKER_PARTNER), "contract"),)
        if partner is not None and s == partner
        else ()
        for s in range(n)
    )
    sizes = view.get("auction_sizes")
    stats = tuple((Reason(BID_CARDS, n=sizes[s]),) if sizes else () for s in range(n))
    known = []
    if view.get("auction_hand"):
        known.append(Known(Reason(YOUR_BID_CARDS), view["auction_hand"], playable=True))
    if view.get("chest"):  # folded: its cards are in the hand already (the fold says which they were)
        known.append(Known(Reason(CHEST), view["chest"], folded=True))
    if view.get("discards"):
        known.append(Known(Reason(DISCARDS), view["discards"]))
    if view.get("pass_choice"):
        known.append(Known(Reason(PASS_CHOICE), view["pass_choice"]))
    auction_open = view.get("stage") == "auction" and not view.get("auction")
    return Shown(
        badges=badges,
        stats=stats,
        front=front(view),
        known=tuple(known),
        facts=tuple(facts(view)),
        says=Reason(OPENS) if auction_open and not view.get("trick") else None,
        ace_low=True,
    )


# -- what the seat to act is asked ------------------------------------------------------------------------------------
OPEN = template("free.ask_open", "You hold the {card}, so you open the auction: bid it.", rule="FC-3")
CANNOT_FOLLOW = template(
    "free.ask_cannot_follow",
    "The last bid is {card}. None of your bid cards can follow it ({range_reason}), so pass.",
    rule="FC-3",
)
MAY_FOLLOW = template(
    "free.ask_may_follow",
    "The last bid is {card}. Bid {range_reason} (you can bid {cards}), or pass: passing does not stop you bidding "
    "later.",
    rule="FC-3",
)
FOLLOWS = (
    template("free.ask_follows_ten", "a higher Ten or any Jack", rule="FC-3"),
    template("free.ask_follows_jack", "a higher Jack or any Queen", rule="FC-3"),
    template("free.ask_follows_queen", "a higher Queen or any King", rule="FC-3"),
    template("free.ask_follows_king", "a higher King or a Joker", rule="FC-3"),
)
"""What may follow a bid of each level, a Ten to a King (FC-3)."""
TEN_HANDICAP = template(
    "free.ask_ten_handicap", "Your Ten handicap ({card}): choose one of your {suit} to discard.", rule="FC-5"
)
TEN_HANDICAP_ANY = template("free.ask_ten_handicap_any", "Your Ten handicap: choose the card to discard.", rule="FC-5")
PASS_ONE = template(
    "free.ask_pass",
    "Choose one card to pass to the player on your right. Nobody sees what they get before everyone has chosen.",
    rule="FC-2",
)
LEAD = template(
    "free.ask_lead", "Your lead: play any card. The ace is the lowest card of each suit; clubs are trumps.", rule="FC-6"
)
FOLLOW = template("free.ask_follow", "{led_suit:cap} were led: play a {led_suit:one}.")
CLUBS_LED_NONE = template("free.ask_clubs_led_none", "Clubs were led and you have none: play any card.")
VOID = template("free.ask_void", "You have no {led_suit}: play any card (a club would trump).")
FOLLOW_SUIT = template("free.ruling_follow", "Follow suit")
FOLLOW_SUIT_TEXT = template(
    "free.ruling_follow_text",
    "Play a card of the suit led if you have one; otherwise any card. The highest club wins the trick, or with no "
    "club the highest card of the suit led; the ace is the lowest card of its suit.",
)
NO_BID = template("free.label_no_bid", "Pass (no bid)", rule="FC-3")
BID_LABEL = template("free.label_bid", "Bid {card}", rule="FC-3")
BID_JOKER = template("free.label_bid_joker", "Bid a Joker", rule="FC-4")
DISCARD = template("free.label_discard", "Discard {cards}", rule="FC-5")
PASS_RIGHT = template("free.label_pass_right", "Pass {cards} to the player on your right", rule="FC-2")
CALL = template("free.label_call", "Call a misplay: {card}", rule="FC-10")
LEVEL = {"10": 0, "J": 1, "Q": 2, "K": 3}


def bid_order(card: str) -> tuple[int, int]:
    """Where a bid card comes in a list for its player: by level (Ten to King, then a Joker), then by suit."""
    if card.startswith("JK"):
        return (4, 0)
    return (LEVEL.get(card[:-1], 3), "SHDC".index(card[-1]) if card[-1] in "SHDC" else 0)


def asked(view: Mapping[str, Any], options: object, legal: Sequence[str]) -> Asked:
    """What the seat to act is asked: its bid (FC-3), its Ten's discard (FC-5), its card to pass (FC-2), its lead
    (FC-6) or how to follow; read from the engine's legal actions, never worked out again here."""
    stage = view.get("stage") or view.get("phase")
    if stage == "auction":
        bids = [b["bid"] for b in view.get("auction") or [] if b["bid"] != "pass"]
        if not bids:
            return Asked((Reason(OPEN, card="10S"),), "FC-3")
        last = bids[-1]
        follows = Reason(FOLLOWS[LEVEL.get(last[:-1], 3)])
        mine = tuple(sorted((a for a in legal if a != "pass"), key=bid_order))
        if not mine:
            return Asked((Reason(CANNOT_FOLLOW, card=last, range_reason=follows),), "FC-3")
        return Asked((Reason(MAY_FOLLOW, card=last, range_reason=follows, cards=mine),), "FC-3")
    if stage == "handicap":
        # FC-5: the Ten due now is the first of the hand's queue, whose suit every legal discard is of.
        suits = {a[-1] for a in legal}
        if len(suits) == 1:
            suit = suits.pop()
            return Asked((Reason(TEN_HANDICAP, card="10" + suit, suit=suit_key(suit)),), "FC-5")
        return Asked((Reason(TEN_HANDICAP_ANY),), "FC-5")
    if stage == "pass":
        return Asked((Reason(PASS_ONE),), "FC-2")
    trick = view.get("trick") or []
    if not trick:
        return Asked((Reason(LEAD),), "FC-6")
    led = trick[0]["card"][-1]
    why = Ruling(Reason(FOLLOW_SUIT), Reason(FOLLOW_SUIT_TEXT))
    # FC-6: a seat holding the suit led may play only that suit, so its legal cards say whether it must follow.
    if not legal or all(a.endswith(led) for a in legal):
        return Asked((Reason(FOLLOW, led_suit=suit_key(led)),), None, why)
    if led == "C":
        return Asked((Reason(CLUBS_LED_NONE),), None, why)
    return Asked((Reason(VOID, led_suit=suit_key(led)),), None, why)


def label(view: Mapping[str, Any], action: str) -> Reason:
    """An action as its button says it: a bid or no bid, a discard, the card to pass, a misplay's call, a play."""
    stage = view.get("stage") or view.get("phase")
    if action.startswith("call "):
        return Reason(CALL, card=action.split()[1])
    if action == "pass":
        return Reason(NO_BID)
    if stage == "auction":
        return Reason(BID_JOKER) if action.startswith("JK") else Reason(BID_LABEL, card=action)
    if stage == "handicap":
        return Reason(DISCARD, cards=tuple(action.split()))
    if stage == "pass":
        return Reason(PASS_RIGHT, cards=tuple(action.split()))
    return play_label(action)


# -- what happened, told ----------------------------------------------------------------------------------------------
A_JOKER = template("free.said_a_joker", "a Joker", rule="FC-4")
WITH_JOKER = template("free.said_with_a_joker", "a Joker", rule="FC-4")
"""A Joker bid after "with" (German and Dutch may need another case or form there than after "bids")."""
A_CARD = template("free.said_card", "{card}")
BIDS = template("free.said_bids", "{seat} bids {bid_reason}.", rule="FC-3")
BIDS_YOU = template("free.said_bids_you", "You bid {bid_reason}.", rule="FC-3")
WINS_ALONE = template("free.said_wins_alone", "{seat} wins the auction with {bid_reason} and needs 7 tricks.")
WINS_ALONE_YOU = template("free.said_wins_alone_you", "You win the auction with {bid_reason} and need 7 tricks.")
WINS_TEAM = template(
    "free.said_wins_team",
    "{seat} wins the auction with {bid_reason} and plays with {partner_seat}: together they need all 10 tricks.",
    rule="FC-4",
)
WINS_TEAM_YOU = template(
    "free.said_wins_team_you",
    "You win the auction with {bid_reason} and play with {partner_seat}: together you need all 10 tricks.",
    rule="FC-4",
)
WINS_TEAM_PARTNER = template(
    "free.said_wins_team_partner",
    "{seat} wins the auction with {bid_reason} and plays with you: together you need all 10 tricks.",
    rule="FC-4",
)
CHEST_TAKEN = template(
    "free.said_chest",
    "{seat} takes the treasure chest ({n} card) into their hand.",
    plural="{seat} takes the treasure chest ({n} cards) into their hand.",
    count="n",
    rule="FC-5",
)
CHEST_TAKEN_YOU = template(
    "free.said_chest_you",
    "You take the treasure chest ({n} card) into your hand.",
    plural="You take the treasure chest ({n} cards) into your hand.",
    count="n",
    rule="FC-5",
)
HANDICAP = template("free.said_handicap", "{seat}'s {card} handicap: {result_reason}.", rule="FC-5")
HANDICAP_YOU = template("free.said_handicap_you", "Your {card} handicap: {result_reason}.", rule="FC-5")
PASS_STARTS = template(
    "free.said_pass_starts", "Everyone now chooses one card to pass to the right, starting with {seat}.", rule="FC-2"
)
PASS_STARTS_YOU = template(
    "free.said_pass_starts_you", "Everyone now chooses one card to pass to the right, starting with you.", rule="FC-2"
)
PASSED_RIGHT = template(
    "free.said_passed",
    "The chosen cards go to the right ({n} card).",
    plural="The chosen cards go to the right ({n} cards).",
    count="n",
    rule="FC-2",
)
CALLED = template("free.said_called", "{caller_seat} calls {seat}'s {card}: a misplay.", rule="FC-10")
CALLED_BY_YOU = template("free.said_called_by_you", "You call {seat}'s {card}: a misplay.", rule="FC-10")
CALLED_YOURS = template("free.said_called_yours", "{caller_seat} calls your {card}: a misplay.", rule="FC-10")
BACK = template("free.said_back", "{card} goes back to {seat}'s hand, and {seat} plays again.", rule="FC-10")
BACK_YOU = template("free.said_back_you", "{card} goes back to your hand, and you play again.", rule="FC-10")
CANNOT_WIN = template("free.said_cannot_win", "{seat} cannot win this trick.", rule="FC-10")
CANNOT_WIN_YOU = template("free.said_cannot_win_you", "You cannot win this trick.", rule="FC-10")
NO_PLUS = template("free.said_no_plus", "{seat} scores no plus points this hand.", rule="FC-10")
NO_PLUS_YOU = template("free.said_no_plus_you", "You score no plus points this hand.", rule="FC-10")
TOO_LATE = template("free.said_too_late", "It comes too late to change anything.", rule="FC-10")
NOT_MISPLAY = template(
    "free.said_not_misplay", "{caller_seat} calls {seat}'s {card}: no misplay, {seat} had none of the suit led."
)
NOT_MISPLAY_BY_YOU = template(
    "free.said_not_misplay_by_you", "You call {seat}'s {card}: no misplay, {seat} had none of the suit led."
)
NOT_MISPLAY_YOURS = template(
    "free.said_not_misplay_yours", "{caller_seat} calls your {card}: no misplay, you had none of the suit led."
)
RESCORED = template("free.said_rescored", "After the misplay the hand is scored again: {score_items}.", rule="FC-10")


def bid_reason(card: str, after_with: bool = False) -> Reason:
    """A bid in a sentence: the card ("K\u2663"), or "a Joker" (``after_with``: as "wins the auction with" takes it,
    a case of its own in German)."""
    if card.startswith("JK"):
        return Reason(WITH_JOKER if after_with else A_JOKER)
    return Reason(A_CARD, card=card)


def penalty(stage: int | None, seat: int, card: str) -> tuple[Reason, Reason]:
    """What a misplay called at ``stage`` costs (FC-10): as everyone reads it, and as its player does."""
    if stage == 1:
        return Reason(BACK, card=card, seat=seat), Reason(BACK_YOU, card=card)
    if stage == 2:
        return Reason(CANNOT_WIN, seat=seat), Reason(CANNOT_WIN_YOU)
    if stage == 3:
        return Reason(NO_PLUS, seat=seat), Reason(NO_PLUS_YOU)
    return Reason(TOO_LATE), Reason(TOO_LATE)


def said(ev: Mapping[str, Any], view: Mapping[str, Any]) -> Said | None:
    """Free Clubs' own events told: the auction (FC-3, FC-4), the chest and handicaps (FC-5), the pass (FC-2),
    misplays (FC-10)."""
    kind = ev["type"]
    seat: int = ev.get("seat", -1)
    if kind == fc.BidMade.wire:
        bid = bid_reason(str(ev["card"]))
        return told(
            seat,
            (Reason(BIDS, seat=seat, bid_reason=bid),),
            (Reason(BIDS_YOU, bid_reason=bid),),
            "put",
            str(ev["card"]),
        )
    if kind == fc.AuctionPassed.wire:
        return told(seat, (Reason(PASSES, seat=seat),), (Reason(PASSES_YOU),))
    if kind == fc.AuctionWon.wire:
        bid, partner = bid_reason(str(ev["bid"]), after_with=True), ev.get("partner")
        if partner is None:
            return told(
                seat, (Reason(WINS_ALONE, seat=seat, bid_reason=bid),), (Reason(WINS_ALONE_YOU, bid_reason=bid),)
            )
        mine = {
            seat: (Reason(WINS_TEAM_YOU, bid_reason=bid, partner_seat=partner),),
            partner: (Reason(WINS_TEAM_PARTNER, seat=seat, bid_reason=bid),),
        }
        return Said((Reason(WINS_TEAM, seat=seat, bid_reason=bid, partner_seat=partner),), mine)
    if kind == fc.ChestTaken.wire:
        return told(seat, (Reason(CHEST_TAKEN, seat=seat, n=ev["size"]),), (Reason(CHEST_TAKEN_YOU, n=ev["size"]),))
    if kind == fc.HandicapResolved.wire:
        card, to = str(ev["bid"]), ev.get("to")
        result = handicap_result(card, ev["removed"], to, False)
        mine = {seat: (Reason(HANDICAP_YOU, card=card, result_reason=result),)}
        if to is not None and to != seat:
            yours = handicap_result(card, ev["removed"], to, True)
            mine[to] = (Reason(HANDICAP, seat=seat, card=card, result_reason=yours),)
        return Said((Reason(HANDICAP, seat=seat, card=card, result_reason=result),), mine)
    if kind == fc.PassStarted.wire:
        return told(seat, (Reason(PASS_STARTS, seat=seat),), (Reason(PASS_STARTS_YOU),))
    if kind == fc.CardsPassed.wire:
        return Said((Reason(PASSED_RIGHT, n=ev.get("passes") or 3),))
    if kind in (fc.MisplayCalled.wire, fc.NoMisplay.wire):
        caller, card = ev["caller"], str(ev["card"])
        if kind == fc.NoMisplay.wire:
            return Said(
                (Reason(NOT_MISPLAY, caller_seat=caller, seat=seat, card=card),),
                {
                    caller: (Reason(NOT_MISPLAY_BY_YOU, seat=seat, card=card),),
                    seat: (Reason(NOT_MISPLAY_YOURS, caller_seat=caller, card=card),),
                },
            )
        cost, cost_you = penalty(ev.get("stage"), seat, card)
        return Said(
            (Reason(CALLED, caller_seat=caller, seat=seat, card=card), cost),
            {
                caller: (Reason(CALLED_BY_YOU, seat=seat, card=card), cost),
                seat: (Reason(CALLED_YOURS, caller_seat=caller, card=card), cost_you),
            },
        )
    if kind == fc.HandRescored.wire:
        return Said((Reason(RESCORED, score_items=seat_items(ev["scores"])),))
    return None


NO_CONTRACT = template("free.said_no_contract", "no contract")
MADE = template("free.said_made", "made")
FAILED = template("free.said_failed", "failed")
IN_PLAY = template("free.said_in_play", "in play")
TEAM_NEEDED = template(
    "free.said_team_needed",
    "{seats} needed all {needed} tricks together and took {taken}: {result_reason}",
    rule="FC-4",
)
NEEDED = template("free.said_needed", "{seat} needed {needed} tricks and took {taken}: {result_reason}", rule="FC-4")
NEEDED_YOU = template(
    "free.said_needed_you", "you needed {needed} tricks and took {taken}: {result_reason}", rule="FC-4"
)


def account(hand: Mapping[str, Any]) -> Said:
    """A hand in words: the contract (FC-4), what it needed and took, made or failed."""
    c = hand.get("contract")
    if not c:
        return Said((Reason(NO_CONTRACT),))
    made = c.get("made")
    result = Reason(MADE if made is True else FAILED if made is False else IN_PLAY)
    needed, taken, team = c["tricks_needed"], c["tricks_taken"], list(c["team"])
    if len(team) > 1:
        return Said((Reason(TEAM_NEEDED, seats=tuple(team), needed=needed, taken=taken, result_reason=result),))
    one = team[0]
    return told(
        one,
        (Reason(NEEDED, seat=one, needed=needed, taken=taken, result_reason=result),),
        (Reason(NEEDED_YOU, needed=needed, taken=taken, result_reason=result),),
    )


# -- what a record holds beyond the events (clubs replay's account) ---------------------------------------------------
RECORD_DEALT = template(
    "free.said_record_dealt", "{seat} is dealt {cards}, and the bid cards {bid_cards}.", rule="FC-3"
)
RECORD_CHEST = template("free.said_record_chest", "The treasure chest holds {cards}.", rule="FC-2")
RECORD_DISCARDED = template(
    "free.said_record_discarded",
    "The card discarded: {cards}.",
    rule="FC-5",
    plural="The cards discarded: {cards}.",
    count="n",
)


def _cards_of(mask: int) -> tuple[str, ...]:
    """The cards of a set, in notation."""
    return tuple(str(c) for c in CardSet(int(mask)))


def recorded(hand: Any, ev: Event) -> list[Recorded]:
    """What a record holds beyond ``ev`` (a hand of Free Clubs): every seat's deal and the chest after the hand
    starts (FC-2, FC-3), the cards a handicap removed (FC-5), the cards passed before play (FC-2)."""
    if isinstance(ev, fc.HandStarted):
        lines: list[Recorded] = [
            (Reason(RECORD_DEALT, seat=s, cards=_cards_of(primary), bid_cards=_cards_of(hand.deal.auction[s])), 1)
            for s, primary in enumerate(hand.deal.primary)
        ]
        return [*lines, (Reason(RECORD_CHEST, cards=_cards_of(hand.deal.chest)), 1)]
    if isinstance(ev, fc.HandicapResolved):
        bid = ev.bid.index
        gone = [removed for s, b, removed, _ in hand.handicaps if (s, b) == (ev.seat, bid) and removed]
        if gone:
            discarded = _cards_of(gone[0])
            return [(Reason(RECORD_DISCARDED, cards=discarded, n=len(discarded)), 2)]
    elif isinstance(ev, fc.CardsPassed):
        moves = [(g, r, _cards_of(1 << c)) for g, r, c in hand.passed if r == (g - 1) % len(hand.hands)]
        return [(passed_words(moves), 2)]
    return []
