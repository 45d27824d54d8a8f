"""Writing a record from a match: the options, the seats, every deal (explicit or seeded) and every action."""

from __future__ import annotations

from clubsuite.engine import SomeMatch, find_game
from clubsuite.errors import InvalidRecordError
from clubsuite.jsonform import JsonObject
from clubsuite.options import spec_of
from clubsuite.records.format import FORMAT, VERSION, check_record, options_json
from clubsuite.records.replay import match_result_json
from clubsuite.seeding import hand_seed


def default_seats(n_seats: int) -> list[JsonObject]:
    """Seat entries for a match whose players were not named: ``seat 0``, ``seat 1``, ..."""
    return [{"name": f"seat {i}"} for i in range(n_seats)]


def record_from_match(
    match: SomeMatch,
    seats: list[JsonObject] | None = None,
    seed: int | None = None,
    seeded_hands: bool = False,
) -> JsonObject:
    """The record of a (possibly unfinished) match, with its result.

    With ``seed`` and ``seeded_hands``, hands are written without a deal, to be dealt again from the match seed;
    each hand's deal is checked to be the one that seed gives. Otherwise every deal is written out. A record's
    seeds are never negative, so a negative ``seed`` is refused before anything is written.
    """
    info, _ = find_game(match.game)
    options = match.options
    if seeded_hands and seed is None:
        raise InvalidRecordError("seeded hands need the match seed: pass seed= as well as seeded_hands=True")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or seed < 0):
        raise InvalidRecordError(f"the match seed must be a whole number from 0 up, got {seed!r}")
    seat_list = [dict(s) for s in seats] if seats is not None else default_seats(match.n_seats)
    hands: list[JsonObject] = []
    for i, hand in enumerate(match.hands):
        entry: JsonObject = {}
        if seeded_hands:
            assert seed is not None
            expected = info.deal_from_seed(hand_seed(seed, i), hand.dealer)
            # A game whose deal depends on the state of the pack (undealt cards kept for the next)
            # keeps what the seed gave as ``dealt_from`` beside the hands it made.
            if expected != (getattr(hand, "dealt_from", None) or hand.deal):
                raise InvalidRecordError(
                    f"hand {i} was not dealt from the match seed {seed} (hand seed {hand_seed(seed, i)}); "
                    "write it with explicit deals instead (seeded_hands=False)"
                )
        else:
            entry["deal"] = hand.deal.to_json()
        entry["actions"] = [match.format_action(a) for a in hand.action_log()]
        hands.append(entry)
    variant = spec_of(match.game, options)
    values = options_json(options)
    record: JsonObject = {
        "format": FORMAT,
        "version": VERSION,
        "game": match.game,
        "variant": variant,
        "options": values,
        "seats": seat_list,
        "first_dealer": match.first_dealer,
    }
    if seed is not None:
        record["seed"] = seed
    record["hands"] = hands
    record["result"] = match_result_json(match, variant, values, seat_list)
    check_record(record)
    return record
