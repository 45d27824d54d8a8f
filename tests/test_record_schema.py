"""The record JSON Schema covers every game: every golden record and 24 random records per game and variant (other
ones each run, drawn from the run's seed) validate against it with ``jsonschema``; records broken in a game's own
parts (a deal's card count, an action's notation, an option's value, the seats) are refused by it; and it is
generated from one source with the tables of ``docs/records.md``, so neither can drift from the other."""

from __future__ import annotations

import copy
import itertools
import json
import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from clubsuite.cards import STANDARD, STANDARD_WITH_JOKERS, Deck
from clubsuite.errors import InvalidNotationError, InvalidOptionsError
from clubsuite.games.northstar.combos import NORTHSTAR
from clubsuite.games.northstar.schema import CARD as NORTHSTAR_CARD
from clubsuite.records import record_from_match, record_schema
from clubsuite.runner import deal_next
from clubsuite.schema.__main__ import DOCS_FILE, SCHEMA_FILE, docs_text, schema_text
from clubsuite.schema.build import game_schemas
from clubsuite.schema.parts import JOKER, STANDARD_CARD
from conformance.harness import CASES, IDS, Case

GOLDEN = Path(__file__).parent / "golden"
RECORDS_PER_CASE = 24
"""Random records checked per game and variant in a run, other ones each run (drawn from the run's seed): half with
their deals written out, half naming them by the match seed."""
VALIDATOR = jsonschema.Draft202012Validator(record_schema())


def _errors(record: Any) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in VALIDATOR.iter_errors(record)]


def test_the_schema_is_a_valid_draft_2020_12_schema_with_a_block_for_every_registered_game() -> None:
    jsonschema.Draft202012Validator.check_schema(record_schema())
    blocks = [b["if"]["properties"] for b in record_schema()["allOf"] if "game" in b["if"]["properties"]]
    games = {block["game"]["const"] for block in blocks}
    assert games >= {info.name for info, _ in game_schemas()} >= {"whist", "free", "northstar", "partnership"}


def test_the_shipped_schema_file_is_what_its_source_gives() -> None:
    assert SCHEMA_FILE.read_text(encoding="utf-8") == schema_text(), "run python -m clubsuite.schema"


def test_the_tables_in_the_records_documentation_are_what_the_schema_source_gives() -> None:
    current = DOCS_FILE.read_text(encoding="utf-8")
    assert current == docs_text(current), "run python -m clubsuite.schema"


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.record.json")), ids=lambda p: p.name)
def test_every_golden_record_validates(path: Path) -> None:
    assert _errors(json.loads(path.read_text(encoding="utf-8"))) == []


def _random_records(case: Case, count: int, seed: int = 0) -> list[Any]:
    """``count`` records of seeded random play (from ``seed``): cut after a random number of actions (unfinished
    hands, hands awaiting a deal, finished matches), with deals written out or named by the match seed."""
    rng = random.Random(f"schema:{case.spec}:{seed}")
    out = []
    for k in range(count):
        match = case.new_match()
        seeded = k % 2 == 0
        stop = rng.randrange(1, 120)
        actions = 0
        while not match.is_over and actions < stop:
            if match.to_act is None:
                if seeded:
                    deal_next(match, case.info, k)
                else:
                    match.deal(rng)
                continue
            legal = match.legal_actions()
            match.apply(legal[rng.randrange(len(legal))])
            actions += 1
        out.append(record_from_match(match, seed=k if seeded else None, seeded_hands=seeded))
    return out


@pytest.mark.long
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_random_records_of_every_game_and_variant_validate(case: Case, fresh_seed: int) -> None:
    for record in _random_records(case, RECORDS_PER_CASE, fresh_seed):
        assert _errors(record) == [], record["variant"]


def _explicit(case: Case) -> dict[str, Any]:
    """A record of ``case`` with its first hand's deal written out and a few actions played."""
    for record in _random_records(case, 8):
        if record["hands"] and "deal" in record["hands"][0] and record["hands"][0]["actions"]:
            return copy.deepcopy(record)
    raise AssertionError(f"no explicit record for {case.spec}")


BY_GAME = {c.info.name: c for c in reversed(CASES)}
"""One case per game (the game's own spec)."""


@pytest.mark.parametrize("game", sorted(BY_GAME))
def test_a_deal_with_a_card_too_many_or_too_few_is_refused(game: str) -> None:
    record = _explicit(BY_GAME[game])
    deal = record["hands"][0]["deal"]
    key = next(k for k, v in deal.items() if isinstance(v, list))
    deal[key][0] = deal[key][0].rsplit(" ", 1)[0]  # one card fewer
    assert _errors(record)
    deal[key][0] += " 2C 3C"  # one card more than dealt
    assert _errors(record)


@pytest.mark.parametrize("game", sorted(BY_GAME))
def test_an_action_in_no_notation_of_the_game_is_refused(game: str) -> None:
    record = _explicit(BY_GAME[game])
    for bad in ("ZZ", "7X", "pass pass", "", "  "):
        record["hands"][0]["actions"][0] = bad
        assert _errors(record), bad


@pytest.mark.parametrize("game", sorted(BY_GAME))
def test_an_unknown_option_or_a_value_of_the_wrong_kind_is_refused(game: str) -> None:
    record = _explicit(BY_GAME[game])
    options = record["options"]
    options["no_such_option"] = 1
    assert _errors(record)
    del options["no_such_option"]
    assert _errors(record) == []
    options["target"] = "high"
    assert _errors(record)
    options["target"] = -5
    assert _errors(record)


@pytest.mark.parametrize("game", sorted(BY_GAME))
def test_a_variant_of_another_game_or_a_seat_too_many_is_refused(game: str) -> None:
    record = _explicit(BY_GAME[game])
    other = next(g for g in sorted(BY_GAME) if g != game)
    assert _errors(record | {"variant": other})
    assert _errors(record | {"seats": record["seats"] + [{"name": "extra"}] * 6})


def test_north_star_records_list_as_many_seats_as_the_players_option_says() -> None:
    record = _explicit(next(c for c in CASES if c.spec == "northstar(players=5)"))
    assert _errors(record) == []
    assert _errors(record | {"seats": record["seats"][:4]})


@pytest.mark.parametrize("game", sorted(BY_GAME))
def test_the_option_ranges_of_the_schema_are_the_ones_the_options_accept(game: str) -> None:
    info = BY_GAME[game].info
    ranges = next(p for i, p in game_schemas() if i is info).option_ranges
    assert ranges, f"{game} declares no option range"
    for name, bounds in ranges.items():
        for value, accepted in (
            (bounds.minimum, True),
            (bounds.maximum, True),
            (bounds.minimum - 1, False),
            (bounds.maximum + 1, False),
        ):
            given = value if bounds.length is None else (value,) * bounds.length
            if accepted:
                info.options_class(**{name: given})
            else:
                with pytest.raises(InvalidOptionsError):
                    info.options_class(**{name: given})


def _reads(read: Callable[[str], object], text: str) -> bool:
    try:
        read(text)
    except InvalidNotationError:
        return False
    return True


def _texts(alphabet: str) -> Iterator[str]:
    """Every text of one to three characters from ``alphabet``."""
    for length in (1, 2, 3):
        for letters in itertools.product(alphabet, repeat=length):
            yield "".join(letters)


@pytest.mark.parametrize(
    ("deck", "pattern", "alphabet"),
    [
        (STANDARD, STANDARD_CARD, "0123456789TtJjQqKkAaCcDdHhSsXx\u2663\u2665"),
        (STANDARD_WITH_JOKERS, f"(?:{JOKER}|{STANDARD_CARD})", "0123JjKkQqAaTtCcHhSsXx\u2660"),
        (NORTHSTAR, NORTHSTAR_CARD, "0123456789CcDdHhSsXx\u2666"),
    ],
    ids=["standard", "with-jokers", "northstar"],
)
def test_a_card_of_a_deal_matches_the_pattern_exactly_when_the_deck_reads_it(
    deck: Deck, pattern: str, alphabet: str
) -> None:
    # A deal's cards are read word by word, so the words are texts without spaces.
    card = re.compile(pattern)
    for text in _texts(alphabet):
        assert bool(card.fullmatch(text)) == _reads(deck.parse, text), repr(text)


@pytest.mark.parametrize(
    ("game", "alphabet"),
    [
        ("whist", "10TtKkXxQqAaCcHhSs\u2665 ,"),
        ("free", "10JjKkPpQqAaCcHhSs\u2660 ,"),
        ("partnership", "10PpQqAaCcHhSs ,"),
    ],
)
def test_an_action_matches_the_pattern_exactly_when_the_game_reads_it(game: str, alphabet: str) -> None:
    # Every short text (a card, a word, spaces and commas around or inside): the schema's action pattern and the
    # game's own reader agree. (North Star's CLUBS reads bare values against the hand to act, so its reader depends
    # on the position; its cards are checked above.)
    case = BY_GAME[game]
    read = case.new_match().parse_action
    pattern = re.compile(record_schema()["$defs"][f"{game}_action"]["pattern"])
    for text in _texts(alphabet):
        assert bool(pattern.search(text)) == _reads(read, text), repr(text)
