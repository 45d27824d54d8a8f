"""The names bots go by at a table ("Ada, hard bot"): the same for the same table and seat, never two alike at a
table, never a person's name there, and every level in words."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from clubsuite.bots.levels import LEVELS
from clubsuite.bots.personas import NAMES, level_words, persona_names


@given(
    st.text(min_size=1, max_size=12),
    st.sets(st.integers(0, 5), min_size=1),
    st.lists(st.sampled_from([*NAMES, "ann", "Bob"]), max_size=6),
)
def test_persona_names_are_stable_distinct_and_never_a_persons(table: str, seats: set[int], people: list[str]) -> None:
    names = persona_names(table, sorted(seats), people)
    assert names == persona_names(table, sorted(seats), people)  # the same table, seats and people: the same names
    assert set(names) == seats
    assert len({n.casefold() for n in names.values()}) == len(seats)
    assert not {n.casefold() for n in names.values()} & {p.casefold() for p in people}


def test_a_bot_gives_way_to_a_person_of_its_name_and_the_others_keep_theirs() -> None:
    before = persona_names("table-1", [1, 2, 3], [])
    clash = before[2]
    after = persona_names("table-1", [1, 2, 3], [clash.upper()])
    assert after[2] != clash and after[1] == before[1]
    assert clash.casefold() not in {n.casefold() for n in after.values()}


def test_every_level_and_kind_of_bot_has_words() -> None:
    for level in LEVELS:
        assert level_words(level) == f"{level} bot"
    assert level_words("heuristic") == "normal bot"
    assert level_words("pimc(samples=8,ms=100)") == "search bot"
    assert level_words("something-new") == "bot"
