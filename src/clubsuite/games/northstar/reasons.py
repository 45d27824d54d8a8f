"""Why a North Star's CLUBS action is refused, as data (:mod:`clubsuite.reasons`): each template's code, ruling and
English words. The English is the engine's sentence, unchanged; other languages word the same code in their catalogs.

A play is written as its cards (``*_cards``), each in notation, a wild 15 with the value it stands for (``15S=7``);
a value of a card (``value``, ``top_value``...) is a number shown as it is.
"""

from __future__ import annotations

from collections.abc import Mapping

from clubsuite.reasons import Template, template

# -- the round ------------------------------------------------------------------------------------------------
ROUND_OVER = template("northstar.round_over", "the round is over")
ROUND_OVER_ACTION = template("northstar.round_over_action", "{action} cannot be played: the round is over")
NOT_YOUR_TURN = template(
    "northstar.not_your_turn", "{action} is refused: it is seat {turn_seat}'s turn, not seat {seat}'s"
)
CANNOT_PLAY_NOW = template("northstar.cannot_play_now", "{action} cannot be played now")
NOT_AN_ACTION = template(
    "northstar.not_an_action", "{action} is not a CLUBS action: play cards (such as 7H or 7C 7H), pass, or double"
)

# -- passing (NS-4) and double or nothing (NS-8) ----------------------------------------------------------------
NOTHING_TO_PASS = template(
    "northstar.nothing_to_pass",
    "you lead this trick, so you must play a single, a set or a run: there is nothing to pass on (NS-4)",
    rule="NS-4",
)
DOUBLE_NOT_PLAYED = template(
    "northstar.double_not_played",
    "double or nothing is not played in this game: it needs the option double_or_nothing (NS-8)",
    rule="NS-8",
)
ALREADY_DOUBLED = template(
    "northstar.already_doubled", "seat {seat} has already called double or nothing this round (NS-8)", rule="NS-8"
)
DOUBLE_TOO_LATE = template(
    "northstar.double_too_late",
    "double or nothing must be called before you play your first card of the round (NS-8)",
    rule="NS-8",
)

# -- a play: its cards, its kind (NS-3) ---------------------------------------------------------------------------
NOT_HELD = template(
    "northstar.not_held",
    "{play_cards} cannot be played: you do not hold {missing_cards} (you play cards from your own hand)",
)
NOT_A_CARD_SET = template(
    "northstar.not_a_card_set", "{cards_text} is not a set of cards: a play is cards such as 7C 7H (NS-3)", rule="NS-3"
)
NO_CARDS = template("northstar.no_cards", "a play needs at least one card (NS-3)", rule="NS-3")
NOT_NORTHSTAR_CARDS = template(
    "northstar.not_northstar_cards", "{cards_text} holds cards that are not North Star cards (1C to 15S)"
)
TOP_VALUE_OUT_OF_RANGE = template("northstar.top_value_out_of_range", "the top value {top_text} is not a value 1..15")
NOT_A_KIND = template(
    "northstar.not_a_kind", "{kind_text} is not a kind of play: single, set or run (NS-3)", rule="NS-3"
)
SINGLE_OR_SET_SIZE = template(
    "northstar.single_or_set_size", "{cards}: a single is one card and a set two or more (NS-3)", rule="NS-3"
)
NOT_A_SET_OF = template(
    "northstar.not_a_set_of", "{cards} is not a set of {value}s: a set is cards of one value (NS-3)", rule="NS-3"
)
RUN_OUT_OF_RANGE = template(
    "northstar.run_out_of_range",
    "{cards} cannot be a run up to {top_value}: runs have 2 or more consecutive values from 1 (NS-3)",
    rule="NS-3",
)
NOT_A_RUN_FROM = template(
    "northstar.not_a_run_from",
    "{cards} is not a run from {low_value} to {top_value}: one card of each value, no gaps (NS-3)",
    rule="NS-3",
)

# -- following: what beats what (NS-3; Crazy CLUBS, NS-11) ---------------------------------------------------------
_KINDS = ("single", "set", "run")


def _other_kind(kind: str, prev_kind: str) -> Template:
    return template(
        f"northstar.{kind}_after_{prev_kind}",
        "{play_cards} is a " + kind + ", but {prev_cards} is a " + prev_kind + ": follow with the same kind (NS-3)",
        rule="NS-3",
    )


OTHER_KIND: Mapping[tuple[str, str], Template] = {
    (kind, prev): _other_kind(kind, prev) for kind in _KINDS for prev in _KINDS if kind != prev
}
"""A play of another kind than the play to beat, by (its kind, the kind to beat): ``single``, ``set``, ``run``."""
OTHER_SIZE = template(
    "northstar.other_size",
    "{play_cards} has {count} cards, but {prev_cards} has {prev_count}: follow with as many cards (NS-3)",
    rule="NS-3",
)
NOT_HIGHER = template(
    "northstar.not_higher",
    "{play_cards} does not beat {prev_cards}: its top card must be higher than {prev_value} (NS-3)",
    rule="NS-3",
)
CRAZY_SINGLE_AFTER_RUN = template(
    "northstar.crazy_single_after_run",
    "{play_cards} is a single, but {prev_cards} was played: follow with a run (NS-11)",
    rule="NS-11",
)
CRAZY_SET_AFTER_RUN = template(
    "northstar.crazy_set_after_run",
    "{play_cards} is a set, but {prev_cards} was played: follow with a run (NS-11)",
    rule="NS-11",
)
CRAZY_RUN_AFTER_SET = template(
    "northstar.crazy_run_after_set",
    "{play_cards} is a run, but {prev_cards} was played: follow with a single or a set (NS-11)",
    rule="NS-11",
)
CRAZY_NOT_HIGHER = template(
    "northstar.crazy_not_higher",
    "{play_cards} does not beat {prev_cards}: play more cards, or as many with a top card higher than {prev_value} "
    "(NS-11)",
    rule="NS-11",
)

# -- notation -------------------------------------------------------------------------------------------------
EMPTY_PLAY = template("northstar.empty_play", "empty play: expected cards such as 7H, 7C 7H or 4H 5C 6D, or pass")
NOT_A_CARD = template(
    "northstar.not_a_card",
    "{part} in {text} is not a card: expected a value 1..15 and a suit C D H S, e.g. 7H or 15C, a bare value such "
    "as 7, or a wild 15 with what it stands for, e.g. 15S=7",
)
BARE_VALUE_OUT_OF_RANGE = template("northstar.bare_value_out_of_range", "{part} in {text}: values run from 1 to 15")
BARE_VALUE_STANDS_FOR = template(
    "northstar.bare_value_stands_for", "{part} in {text}: name the 15 that stands for a value, e.g. 15S=7"
)
CARD_VALUE_OUT_OF_RANGE = template(
    "northstar.card_value_out_of_range", "{part} in {text} is not a card: values run from 1 to 15"
)
STANDS_FOR_OUT_OF_RANGE = template(
    "northstar.stands_for_out_of_range", "{part} in {text}: a wild 15 stands for a value 1..15"
)
BARE_VALUE_WITHOUT_HAND = template(
    "northstar.bare_value_without_hand",
    "{text} gives the value {value} without a suit: name the cards, e.g. {value}H (a bare value is only read "
    "against the hand of the player to act)",
)
BARE_VALUE_NONE_HELD = template(
    "northstar.bare_value_none_held",
    "{text} needs {count} card(s) of value {value}, but you hold none (besides the cards named)",
    plural="{text} needs {count} card(s) of value {value}, but you hold none (besides the cards named)",
    count="count",
)
BARE_VALUE_TOO_FEW = template(
    "northstar.bare_value_too_few",
    "{text} needs {count} card(s) of value {value}, but you hold {held_cards} (besides the cards named)",
    plural="{text} needs {count} card(s) of value {value}, but you hold {held_cards} (besides the cards named)",
    count="count",
)
BARE_VALUE_AMBIGUOUS = template(
    "northstar.bare_value_ambiguous",
    "{text} is ambiguous: you hold {held_cards} of value {value}; name the cards you mean, e.g. {example_cards}",
)
ONLY_FIFTEEN_STANDS_FOR = template(
    "northstar.only_fifteen_stands_for",
    "{card}={value} in {text}: only a 15 may stand for another value (NS-9)",
    rule="NS-9",
)
WILD_NEEDS_OPTION = template(
    "northstar.wild_needs_option",
    "{card}={value} in {text}: 15s stand for other values only with the option wild_fifteens (NS-9)",
    rule="NS-9",
)
NOT_A_COMBINATION = template(
    "northstar.not_a_combination",
    "{text} is not a single, set or run: a set is cards of one value and a run consecutive values (NS-3)",
    rule="NS-3",
)
NOT_A_COMBINATION_WILD = template(
    "northstar.not_a_combination_wild",
    "{text} is not a single, set or run: a set is cards of one value and a run consecutive values (NS-3) (a wild 15 "
    "says what it stands for, e.g. 15S=7)",
    rule="NS-3",
)
OR_PASS = template("northstar.or_pass", "{reason}; or pass")
OR_DOUBLE = template("northstar.or_double", "{reason}; or double")
OR_PASS_OR_DOUBLE = template("northstar.or_pass_or_double", "{reason}; or pass or double")
