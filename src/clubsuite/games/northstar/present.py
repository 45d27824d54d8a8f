"""North Star's CLUBS as a seat to act is offered it: the readings of the same cards strongest first, each with what
it does; and what the table shows beside the cards (:mod:`clubsuite.present`).

With wild 15s (NS-9) one choice of cards may be played several ways: ``15H 15S`` as a pair of 15s, or as a pair of
14s, 13s... Only a play whose top card is a 15 played as itself takes the trick at once (NS-4, NS-9; never in Crazy
CLUBS, NS-11), so the reading that does is offered first, then the others from the highest value down. Each reading
says what it is (a set or a run, with its values; a lone 15's value is said beside it) and, where one of them takes
the trick at once, whether it does. Plays of other cards keep the engine's order among themselves.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from clubsuite.cards import CardSet
from clubsuite.events import Event
from clubsuite.games.northstar import events as nc
from clubsuite.games.northstar.combos import Kind, NorthstarAction, Play, parse_play, wins_at_once
from clubsuite.games.northstar.match import NorthstarMatch
from clubsuite.games.northstar.options import NorthstarOptions
from clubsuite.present import (
    MATCH,
    PASS,
    PASSES,
    PASSES_YOU,
    SEAT,
    SEATS,
    SEATS_POINTS,
    TO_POINTS,
    Asked,
    Badge,
    Fact,
    Offered,
    Put,
    Recorded,
    Said,
    Shown,
    dealer_fact,
    dealt_words,
    play_label,
    seat_items,
    team_badges,
    told,
)
from clubsuite.reasons import Reason, template

SET = template("northstar.offer_set", "{count} cards of {value}", rule="NS-3")
"""A reading as a set: ``count`` cards of ``value``."""
RUN = template("northstar.offer_run", "a run from {low} to {high}", rule="NS-3")
"""A reading as a run from ``low`` to ``high``."""
TAKES_AT_ONCE = template("northstar.offer_takes_at_once", "{reason}, takes the trick at once", rule="NS-4")
"""A set or run whose top card is a 15 played as itself, where another reading of the same cards would not be."""
NOT_AT_ONCE = template("northstar.offer_not_at_once", "{reason}, does not take the trick at once", rule="NS-9")
"""A set or run where a wild 15 stands for another value, where another reading of the same cards takes the trick."""
ONE_AT_ONCE = template("northstar.offer_one_at_once", "takes the trick at once", rule="NS-4")
"""A lone 15 played as itself (its value is said beside it)."""
ONE_NOT_AT_ONCE = template("northstar.offer_one_not_at_once", "does not take the trick at once", rule="NS-9")
"""A lone wild 15 standing for another value (its value is said beside it)."""


def offered_actions(match: NorthstarMatch, legal: Sequence[NorthstarAction]) -> list[Offered]:
    """Every legal action once: calls and plays in the engine's order, except that the readings of one choice of
    cards stand together (where the first of them stood), strongest first, each with its note where there are
    several."""
    crazy = match.options.crazy
    readings: dict[int, list[Play]] = {}
    order: list[NorthstarAction | int] = []  # a call, or the card mask standing for its readings
    for action in legal:
        if isinstance(action, Play):
            mask = int(action.cards)
            if mask not in readings:
                readings[mask] = []
                order.append(mask)
            readings[mask].append(action)
        else:
            order.append(action)
    out: list[Offered] = []
    for item in order:
        if not isinstance(item, int):
            out.append(Offered(match.format_action(item)))
            continue
        plays = readings[item]
        if len(plays) == 1:
            out.append(Offered(match.format_action(plays[0])))
            continue
        plays.sort(key=lambda p: (wins_at_once(p, crazy), p.high), reverse=True)  # stable: the engine's order else
        at_once = wins_at_once(plays[0], crazy)  # whether taking the trick at once tells these readings apart
        out.extend(Offered(match.format_action(p), note(p, crazy, at_once)) for p in plays)
    return out


def note(play: Play, crazy: bool, at_once: bool) -> Reason | None:
    """What one reading of several is (a set or a run, with its values; a single's value is said beside it) and,
    where another reading of the same cards takes the trick at once (``at_once``), whether this one does; None for a
    lone wild 15 where nothing takes the trick at once (Crazy CLUBS, NS-11: its value says it all)."""
    wins = wins_at_once(play, crazy)
    if play.kind is Kind.SINGLE:
        if not at_once:
            return None
        return Reason(ONE_AT_ONCE if wins else ONE_NOT_AT_ONCE)
    if play.kind is Kind.RUN:
        what = Reason(RUN, low=play.low, high=play.high)
    else:
        what = Reason(SET, count=play.size, value=play.high)
    if not at_once:
        return what
    return Reason(TAKES_AT_ONCE if wins else NOT_AT_ONCE, reason=what)


# -- what the table shows beside the cards ----------------------------------------------------------------------------
DOUBLED = template("northstar.shown_doubled", "doubled", rule="NS-8")
"""The badge of a seat that called double or nothing this round."""
CLUBS_WON = template("northstar.shown_clubs_won", "{n} club won", plural="{n} clubs won", count="n", rule="NS-2")
BONUS = template("northstar.shown_bonus", "bonus {bonus}", rule="NS-5")
TO_BEAT = template("northstar.shown_to_beat", "to beat", rule="NS-4")
NEW_TRICK = template("northstar.shown_new_trick", "A new trick: the leader plays anything.", rule="NS-3")
PASSES_LABEL = template("northstar.shown_passes", "Passes since the last play", rule="NS-4")
NUMBER = template("northstar.shown_number", "{number}")
GONE_OUT = template("northstar.shown_gone_out", "Gone out", rule="NS-5")
DOUBLE_LABEL = template("northstar.shown_double", "Double or nothing", rule="NS-8")
LAST_TURN = template("northstar.shown_last_turn", "Last turn", rule="NS-5")
PACK = template("northstar.shown_pack", "Pack", rule="NS-6")
PACK_COUNTS = template("northstar.shown_pack_counts", "{undealt} undealt, {discards} played before", rule="NS-6")


def teams_of(view: Mapping[str, Any]) -> tuple[tuple[int, ...], ...]:
    """The teams (NS-10): the team of seat s is s % the number of teams; none where ``team_totals`` are the
    players' own."""
    team_totals, totals = view.get("team_totals"), view.get("totals")
    if not team_totals or totals is None or len(team_totals) == len(totals):
        return ()
    k, n = len(team_totals), len(view["hand_sizes"])
    return tuple(tuple(s for s in range(n) if s % k == team) for team in range(k))


def shown(view: Mapping[str, Any], options: object = None) -> Shown:
    """What a North Star view shows beside the cards: the plays of the trick (the latest is the one to beat), the
    clubs each seat has won, bonuses, double or nothing, who went out, and the pack."""
    n = len(view["hand_sizes"])
    teams = teams_of(view)
    doubled = set(view.get("doubled") or ())
    badges = tuple(
        marks + ((Badge(Reason(DOUBLED)),) if s in doubled else ()) for s, marks in enumerate(team_badges(n, teams))
    )
    won, bonus = view.get("won"), view.get("bonus")
    stats = []
    for s in range(n):
        seat: list[Reason] = []
        if won:
            seat.append(Reason(CLUBS_WON, n=sum(1 for c in won[s].split() if c.endswith("C"))))
        if bonus and bonus[s] is not None:
            seat.append(Reason(BONUS, bonus=bonus[s]))
        stats.append(tuple(seat))
    plays = view.get("trick") or []
    front = tuple(
        Put(p["seat"], p["play"], Reason(TO_BEAT) if i == len(plays) - 1 else None, i == len(plays) - 1)
        for i, p in enumerate(plays)
    )
    facts = list(dealer_fact(view))
    facts.append(Fact(Reason(PASSES_LABEL), (Reason(NUMBER, number=view.get("passes") or 0),)))
    if view.get("out_order"):
        facts.append(Fact(Reason(GONE_OUT), (Reason(SEATS, seats=tuple(view["out_order"])),)))
    if doubled:
        facts.append(Fact(Reason(DOUBLE_LABEL), (Reason(SEATS, seats=tuple(view["doubled"])),)))
    if view.get("last_turn") is not None:
        facts.append(Fact(Reason(LAST_TURN), (Reason(SEAT, seat=view["last_turn"]),)))
    pack = view.get("pack")
    if pack:
        facts.append(Fact(Reason(PACK), (Reason(PACK_COUNTS, undealt=pack["undealt"], discards=pack["discards"]),)))
    facts.append(Fact(Reason(MATCH), (Reason(TO_POINTS, target=view["goal"]),)))
    return Shown(
        badges=badges,
        stats=tuple(stats),
        front=front,
        teams=teams,
        facts=tuple(facts),
        says=None if plays else Reason(NEW_TRICK),
        sort="rank",
        select=True,
        beat=True,
        wild="15" if isinstance(options, NorthstarOptions) and options.wild_fifteens else None,
    )


# -- what the seat to act is asked ------------------------------------------------------------------------------------
LAST_TURN_SAY = template("northstar.ask_last_turn", "Last turn: only you still hold cards.", rule="NS-5")
LEAD = template(
    "northstar.ask_lead",
    "Your lead: play one card, a set of cards of one value (like two 7s), or a run of consecutive values (like 4 5 6).",
    rule="NS-3",
)
CANNOT = template("northstar.ask_cannot", "You cannot beat {play_cards}: pass.", rule="NS-3")
BEAT_CRAZY_RUN = template(
    "northstar.ask_beat_crazy_run",
    "Beat {play_cards}: play a run with more cards, or as many cards with a higher top card; or pass.",
    rule="NS-11",
)
BEAT_CRAZY_SET = template(
    "northstar.ask_beat_crazy_set",
    "Beat {play_cards}: play a set (one card counts as a set) with more cards, or as many cards with a higher top "
    "card; or pass.",
    rule="NS-11",
)
BEAT_SINGLE = template(
    "northstar.ask_beat_single", "Beat {play_cards}: play one card higher than {top}, or pass.", rule="NS-3"
)
BEAT_SET = template(
    "northstar.ask_beat_set",
    "Beat {play_cards}: play {count:word} cards of one value higher than {top}, or pass.",
    rule="NS-3",
)
BEAT_RUN = template(
    "northstar.ask_beat_run",
    "Beat {play_cards}: play a run of {count:word} cards whose top card is higher than {top}, or pass.",
    rule="NS-3",
)
WILD_NOTE = template("northstar.ask_wild", "A 15 may stand for any value.", rule="NS-9")
WILD_AT_ONCE = template(
    "northstar.ask_wild_at_once",
    "A 15 may stand for any value: played as itself it takes the trick at once, standing for another value it does "
    "not.",
    rule="NS-9",
)
AT_ONCE = template("northstar.ask_at_once", "A play with a 15 in it takes the trick at once.", rule="NS-4")
MAY_DOUBLE = template(
    "northstar.ask_may_double", "Before your first card of the round you may also call double or nothing.", rule="NS-8"
)
DOUBLE_LABEL_BUTTON = template("northstar.label_double", "Double or nothing", rule="NS-8")


def asked(view: Mapping[str, Any], options: object, legal: Sequence[str]) -> Asked:
    """What the seat to act is asked: its lead (NS-3), how to beat the play before it (NS-3, NS-11), that it cannot,
    its last turn (NS-5); with what a 15 does (NS-4, NS-9) and whether it may call double or nothing (NS-8)."""
    crazy = isinstance(options, NorthstarOptions) and options.crazy
    wild = (isinstance(options, NorthstarOptions) and options.wild_fifteens) or any("=" in a for a in legal)
    notes = [Reason(WILD_NOTE)] if wild else []
    double = [Reason(MAY_DOUBLE)] if "double" in legal else []
    last_turn = view.get("last_turn") is not None and view.get("last_turn") == view.get("seat")
    start = [Reason(LAST_TURN_SAY)] if last_turn else []
    plays = view.get("trick") or []
    if not plays:
        return Asked((*start, Reason(LEAD), *notes, *double), "NS-5" if last_turn else "NS-4")
    last = str(plays[-1]["play"])
    tokens = tuple(last.split())
    to_beat = parse_play(last, wild=True)  # the engine's reading of the play: its kind and its top value (NS-3)
    top, size, kind = to_beat.high, to_beat.size, to_beat.kind
    rule = "NS-5" if last_turn else "NS-11" if crazy else "NS-3"
    if not any(a not in ("pass", "double") for a in legal):
        return Asked((*start, Reason(CANNOT, play_cards=tokens), *double), rule)
    if crazy:
        ask = Reason(BEAT_CRAZY_RUN if kind is Kind.RUN else BEAT_CRAZY_SET, play_cards=tokens)
        return Asked((*start, ask, *notes, *double), rule)
    if kind is Kind.SINGLE:
        ask = Reason(BEAT_SINGLE, play_cards=tokens, top=top)
    else:
        ask = Reason(BEAT_SET if kind is Kind.SET else BEAT_RUN, play_cards=tokens, count=size, top=top)
    fifteen = Reason(WILD_AT_ONCE) if wild else Reason(AT_ONCE)
    return Asked((*start, ask, fifteen, *double), rule)


def label(view: Mapping[str, Any], action: str) -> Reason:
    """An action as its button says it: double or nothing (NS-8), pass, or a play."""
    if action == "double":
        return Reason(DOUBLE_LABEL_BUTTON)
    if action == "pass":
        return Reason(PASS)
    return play_label(action)


# -- what happened, told ----------------------------------------------------------------------------------------------
ROUND_DEALT = template("northstar.said_dealt", "Round {number} is dealt by {seat}.")
ROUND_DEALT_YOU = template("northstar.said_dealt_you", "Round {number} is dealt by you.")
PLAYS = template("northstar.said_plays", "{seat} plays {play_cards}.", rule="NS-3")
PLAYS_YOU = template("northstar.said_plays_you", "You play {play_cards}.", rule="NS-3")
DOUBLES = template("northstar.said_doubles", "{seat} calls double or nothing.", rule="NS-8")
DOUBLES_YOU = template("northstar.said_doubles_you", "You call double or nothing.", rule="NS-8")
GOES_OUT = template("northstar.said_out", "{seat} goes out and takes the {bonus} bonus card.", rule="NS-5")
GOES_OUT_YOU = template("northstar.said_out_you", "You go out and take the {bonus} bonus card.", rule="NS-5")
WINS_AT_ONCE = template("northstar.said_at_once", "{seat} wins the trick at once with a 15.", rule="NS-4")
WINS_AT_ONCE_YOU = template("northstar.said_at_once_you", "You win the trick at once with a 15.", rule="NS-4")
WINS_TRICK = template("northstar.said_wins", "{seat} wins the trick.", rule="NS-4")
WINS_TRICK_YOU = template("northstar.said_wins_you", "You win the trick.", rule="NS-4")
LAST = template("northstar.said_last", "Only {seat} still holds cards: {seat} has one last turn.", rule="NS-5")
LAST_YOU = template("northstar.said_last_you", "Only you still hold cards: you have one last turn.", rule="NS-5")
TEAM_LEFT = template(
    "northstar.said_team_left",
    "The round is over: only the team of {seats} still holds cards, so it scores nothing this round.",
    rule="NS-10",
)
TEAM_LEFT_YOURS = template(
    "northstar.said_team_left_yours",
    "The round is over: only your team ({seats}) still holds cards, so it scores nothing this round.",
    rule="NS-10",
)
TEAM_NUMBER_LEFT = template(
    "northstar.said_team_number_left",
    "The round is over: only team {team} still holds cards, so it scores nothing this round.",
    rule="NS-10",
)
ROUND_OVER = template("northstar.said_over", "The round is over.", rule="NS-5")
LEFT_WITH = template("northstar.said_left_with", "The round is over: {seat} is left with cards.", rule="NS-5")
LEFT_WITH_YOU = template("northstar.said_left_with_you", "The round is over: you are left with cards.", rule="NS-5")
ZERO = template(
    "northstar.said_zero", "The round is over: {seat} takes the 0 card and scores nothing this round.", rule="NS-5"
)
ZERO_YOU = template(
    "northstar.said_zero_you", "The round is over: you take the 0 card and score nothing this round.", rule="NS-5"
)
ROUND_POINTS = template("northstar.said_points", "Points this round: {score_items}.")
TEAM_TOTALS = template("northstar.said_team_totals", "Team totals: {total_items}.", rule="NS-10")


def said(ev: Mapping[str, Any], view: Mapping[str, Any]) -> Said | None:
    """North Star's own events told: a round dealt, plays and passes (NS-3), double or nothing (NS-8), going out and
    the last turn (NS-5), tricks won (NS-4), the round's end and its points (NS-10 with teams)."""
    kind = ev["type"]
    seat: int = ev.get("seat", -1)
    if kind == nc.HandStarted.wire:
        dealer, number = ev["dealer"], ev["hand_number"] + 1
        return told(
            dealer,
            (Reason(ROUND_DEALT, number=number, seat=dealer),),
            (Reason(ROUND_DEALT_YOU, number=number),),
            "deal",
        )
    if kind == nc.Played.wire:
        cards = tuple(str(ev["play"]).split())
        return told(
            seat,
            (Reason(PLAYS, seat=seat, play_cards=cards),),
            (Reason(PLAYS_YOU, play_cards=cards),),
            "put",
            str(ev["play"]),
        )
    if kind == nc.Passed.wire:
        return told(seat, (Reason(PASSES, seat=seat),), (Reason(PASSES_YOU),))
    if kind == nc.DoubleCalled.wire:
        return told(seat, (Reason(DOUBLES, seat=seat),), (Reason(DOUBLES_YOU),))
    if kind == nc.WentOut.wire:
        bonus = ev["bonus"]
        return told(seat, (Reason(GOES_OUT, seat=seat, bonus=bonus),), (Reason(GOES_OUT_YOU, bonus=bonus),))
    if kind == nc.TrickWon.wire:
        both = (WINS_AT_ONCE, WINS_AT_ONCE_YOU) if ev.get("at_once") else (WINS_TRICK, WINS_TRICK_YOU)
        return told(seat, (Reason(both[0], seat=seat),), (Reason(both[1]),), "trick", str(ev.get("cards") or ""))
    if kind == nc.LastTurn.wire:
        return told(seat, (Reason(LAST, seat=seat),), (Reason(LAST_YOU),))
    if kind == nc.RoundEnded.wire:
        return round_ended(ev, view)
    if kind == nc.HandScored.wire:
        words = [Reason(ROUND_POINTS, score_items=seat_items(ev["scores"]))]
        teams = teams_of({"team_totals": ev.get("team_totals"), "totals": ev.get("totals"), "hand_sizes": ev["scores"]})
        if teams:
            totals = tuple(
                Reason(SEATS_POINTS, seats=members, points=str(v))
                for members, v in zip(teams, ev["team_totals"], strict=False)
            )
            words.append(Reason(TEAM_TOTALS, total_items=totals))
        return Said(tuple(words), kind="scored")
    return None


def round_ended(ev: Mapping[str, Any], view: Mapping[str, Any]) -> Said:
    """The end of a round: a team left with cards (NS-10), or the last player (NS-5)."""
    team, last = ev.get("team"), ev.get("last")
    if team is not None:
        teams = teams_of(view)
        if teams and team < len(teams):
            members = teams[team]
            yours = (Reason(TEAM_LEFT_YOURS, seats=members),)
            return Said((Reason(TEAM_LEFT, seats=members),), dict.fromkeys(members, yours))
        return Said((Reason(TEAM_NUMBER_LEFT, team=team + 1),))  # a view that does not say the teams
    if last is None:
        return Said((Reason(ROUND_OVER),))
    players = view.get("players") or len(view.get("hand_sizes") or ())
    if players <= 2:
        return told(last, (Reason(LEFT_WITH, seat=last),), (Reason(LEFT_WITH_YOU),))
    return told(last, (Reason(ZERO, seat=last),), (Reason(ZERO_YOU),))


OUT_IN_ORDER = template("northstar.said_out_in_order", "out in order: {seats}", rule="NS-5")
DOUBLED_SEATS = template("northstar.said_doubled", "double or nothing: {seats}", rule="NS-8")
TEAM_LEFT_WITH = template("northstar.said_team_left_with", "team {team} was left with cards", rule="NS-10")
WAS_LEFT = template("northstar.said_was_left", "{seat} was left with cards", rule="NS-5")
WAS_LEFT_YOU = template("northstar.said_was_left_you", "you were left with cards", rule="NS-5")


def account(hand: Mapping[str, Any]) -> Said:
    """A round in words: who went out in which order (NS-5), who called double or nothing (NS-8), who was left with
    cards (NS-5, NS-10)."""
    words = []
    if hand.get("out_order"):
        words.append(Reason(OUT_IN_ORDER, seats=tuple(hand["out_order"])))
    if hand.get("doubled"):
        words.append(Reason(DOUBLED_SEATS, seats=tuple(hand["doubled"])))
    if hand.get("team_out") is not None:
        words.append(Reason(TEAM_LEFT_WITH, team=hand["team_out"] + 1))
    elif hand.get("last") is not None:
        last = hand["last"]
        return told(last, (*words, Reason(WAS_LEFT, seat=last)), (*words, Reason(WAS_LEFT_YOU)))
    return Said(tuple(words))


def recorded(hand: Any, ev: Event) -> list[Recorded]:
    """What a record holds beyond ``ev`` (a round of North Star's CLUBS): the cards dealt to each seat, by rank,
    after the round starts."""
    if not isinstance(ev, nc.HandStarted):
        return []
    lines: list[Recorded] = []
    for s in range(hand.n):
        cards = sorted(CardSet(int(hand.deal.hands[s])), key=lambda c: (c.rank, c.suit or 0))
        lines.append((dealt_words(s, cards), 1))
    return lines
