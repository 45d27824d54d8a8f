"""Tests of rules options as data: the variant spec syntax, its errors, and the round trip through ``spec_of``."""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass

import pytest

from clubsuite.engine import find_game, games, resolve
from clubsuite.errors import InvalidOptionsError
from clubsuite.games.whist import LeadAfterExchange, WhistOptions
from clubsuite.options import build_options, describe, format_value, option, spec_of, split_spec


def test_plain_whist_has_the_default_options() -> None:
    info, options = resolve("whist")
    assert info.name == "whist"
    assert options == WhistOptions()
    assert options.lead_after_exchange is LeadAfterExchange.LAST_EXCHANGER  # CW-3 default
    assert options.target == 11  # CW-5


def test_whist_1997_presets_the_left_of_last_exchanger_lead() -> None:
    info, options = resolve("whist-1997")
    assert info.name == "whist"
    assert options == WhistOptions(lead_after_exchange=LeadAfterExchange.LEFT_OF_LAST_EXCHANGER)


def test_an_option_value_in_parentheses() -> None:
    _, options = resolve("whist(target=9)")
    assert options == WhistOptions(target=9)
    _, options = resolve("whist-1997(target=9)")
    assert options == WhistOptions(lead_after_exchange=LeadAfterExchange.LEFT_OF_LAST_EXCHANGER, target=9)


def test_a_spec_value_overrides_the_variant_preset() -> None:
    _, options = resolve("whist-1997(lead_after_exchange=last_exchanger)")
    assert options == WhistOptions()


@pytest.mark.parametrize(
    "spec",
    [
        "  whist ( target = 9 , lead_after_exchange = left_of_last_exchanger )  ",
        "whist(target=9,lead_after_exchange=left_of_last_exchanger)",
        "WHIST(lead_after_exchange=LEFT_OF_LAST_EXCHANGER, target=9)",
        "whist(\n target=9,\n lead_after_exchange=left_of_last_exchanger\n)",
    ],
)
def test_whitespace_and_case_do_not_matter(spec: str) -> None:
    _, options = resolve(spec)
    assert options == WhistOptions(target=9, lead_after_exchange=LeadAfterExchange.LEFT_OF_LAST_EXCHANGER)


def test_empty_parentheses_mean_the_defaults() -> None:
    assert resolve("whist()")[1] == WhistOptions()
    assert resolve("whist(  )")[1] == WhistOptions()


@pytest.mark.parametrize("name", ["hearts", "whist-2000", "clubs"])
def test_an_unknown_game_is_named_with_the_known_ones(name: str) -> None:
    with pytest.raises(InvalidOptionsError) as info:
        resolve(f"{name}(target=9)")
    message = str(info.value)
    assert repr(name) in message
    assert "whist" in message and "whist-1997" in message


def test_an_unknown_option_is_named_with_the_known_ones() -> None:
    with pytest.raises(InvalidOptionsError) as info:
        resolve("whist(colour=red)")
    message = str(info.value)
    assert "'colour'" in message
    assert "lead_after_exchange" in message and "target" in message


@pytest.mark.parametrize(
    ("spec", "fragments"),
    [
        ("whist(target=abc)", ["target", "'abc'", "whole number"]),
        ("whist(target=9.5)", ["target", "'9.5'"]),
        ("whist(lead_after_exchange=sideways)", ["lead_after_exchange", "'sideways'", "last_exchanger"]),
        ("whist(target=0)", ["target=0", "CW-5"]),
        ("whist(target=-3)", ["target=-3"]),
        ("whist(target=1001)", ["target=1001"]),
    ],
)
def test_a_bad_value_is_named(spec: str, fragments: list[str]) -> None:
    with pytest.raises(InvalidOptionsError) as info:
        resolve(spec)
    for fragment in fragments:
        assert fragment in str(info.value)


def test_a_duplicate_key_is_named() -> None:
    with pytest.raises(InvalidOptionsError, match="'target' is given twice"):
        resolve("whist(target=9, target=10)")


@pytest.mark.parametrize(
    ("spec", "fragment"),
    [
        ("whist(target)", "'target' is not key=value"),
        ("whist(target=)", "'target=' is not key=value"),
        ("whist(=9)", "'=9' is not key=value"),
        ("whist(target=9,)", "'' is not key=value"),
        ("whist(9bad=1)", "'9bad=1' is not key=value"),
        ("whist(target=9", "'whist(target=9'"),
        ("whist target=9", "'whist target=9'"),
        ("", "''"),
        ("(target=9)", "'(target=9)'"),
        ("9whist", "'9whist'"),
    ],
)
def test_bad_syntax_is_named(spec: str, fragment: str) -> None:
    with pytest.raises(InvalidOptionsError) as info:
        resolve(spec)
    assert fragment in str(info.value)


def test_split_spec_returns_the_name_and_raw_values() -> None:
    assert split_spec("Whist-1997( target = 9 )") == ("whist-1997", {"target": "9"})
    assert split_spec("whist") == ("whist", {})


@pytest.mark.parametrize(
    "options",
    [
        WhistOptions(),
        WhistOptions(target=9),
        WhistOptions(lead_after_exchange=LeadAfterExchange.LEFT_OF_LAST_EXCHANGER),
        WhistOptions(lead_after_exchange=LeadAfterExchange.LEFT_OF_LAST_EXCHANGER, target=1000),
    ],
)
def test_spec_of_round_trips(options: WhistOptions) -> None:
    spec = spec_of("whist", options)
    assert resolve(spec)[1] == options


def test_spec_of_names_only_the_values_that_differ_from_the_defaults() -> None:
    assert spec_of("whist", WhistOptions()) == "whist"
    assert spec_of("whist", WhistOptions(target=9)) == "whist(target=9)"
    assert spec_of("whist", resolve("whist-1997")[1]) == "whist(lead_after_exchange=left_of_last_exchanger)"


def test_whist_options_are_frozen_and_keyword_only() -> None:
    options = WhistOptions()
    with pytest.raises(dataclasses.FrozenInstanceError):
        options.target = 9  # type: ignore[misc]
    with pytest.raises(TypeError):
        WhistOptions(LeadAfterExchange.LAST_EXCHANGER)  # type: ignore[call-arg]
    with pytest.raises(InvalidOptionsError, match="target=0"):
        WhistOptions(target=0)


def test_every_whist_option_is_documented_with_its_ruling() -> None:
    rows = describe(WhistOptions)
    assert [r[0] for r in rows] == ["lead_after_exchange", "target"]
    assert rows[0][1] == "last_exchanger" and rows[0][3] == "CW-3"
    assert rows[1][1] == "11" and rows[1][3] == "CW-5"
    assert all(doc for _, _, doc, _ in rows)


def test_the_registry_knows_whist_and_its_variant() -> None:
    assert "whist" in [g.name for g in games()]
    info, presets = find_game("whist-1997")
    assert info.name == "whist" and presets == {"lead_after_exchange": "left_of_last_exchanger"}
    assert find_game("whist") == (info, {})
    assert info.seats == (3,)


# -- the generic conversions, on options of every supported type --------------------------------------------
class Colour(enum.StrEnum):
    """A made-up enumerated option."""

    RED = "red"
    BLUE = "blue"


@dataclass(frozen=True, kw_only=True)
class SampleOptions:
    """A made-up options class with one option of each supported type."""

    flag: bool = option(False, "a yes/no option")
    count: int = option(3, "a whole number")
    colour: Colour = option(Colour.RED, "one of a list")
    label: str = option("plain", "free text")


@pytest.mark.parametrize(("raw", "value"), [("true", True), ("YES", True), ("on", True), ("1", True), ("off", False)])
def test_boolean_options_read_the_usual_words(raw: str, value: bool) -> None:
    assert build_options(SampleOptions, {"flag": raw}).flag is value


def test_each_option_type_is_converted_and_checked() -> None:
    options = build_options(SampleOptions, {"flag": "no", "count": "-7", "colour": "Blue", "label": "x y"})
    assert options == SampleOptions(flag=False, count=-7, colour=Colour.BLUE, label="x y")
    with pytest.raises(InvalidOptionsError, match=r"flag='maybe'.*true or false"):
        build_options(SampleOptions, {"flag": "maybe"})
    with pytest.raises(InvalidOptionsError, match=r"colour='green'.*red, blue"):
        build_options(SampleOptions, {"colour": "green"})
    with pytest.raises(InvalidOptionsError, match="count='three'"):
        build_options(SampleOptions, {"count": "three"})


def test_format_value_and_spec_of_for_each_type() -> None:
    assert [format_value(v) for v in (True, False, 4, Colour.BLUE, "x")] == ["true", "false", "4", "blue", "x"]
    options = SampleOptions(flag=True, colour=Colour.BLUE)
    spec = spec_of("sample", options)
    assert spec == "sample(flag=true,colour=blue)"
    _, values = split_spec(spec)
    assert build_options(SampleOptions, values) == options
