"""``clubs replay`` against hostile records: escapes in every text field, sizes at and beyond the limit, files that
are not files, specs built to make a reader backtrack, altered results, and arbitrary JSON (Hypothesis).

Each test names the protection it checks; the records are the golden records with one field changed.
"""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cli_helpers import assert_safe_output, clubs_in_process, clubs_process
from clubsuite.errors import InvalidRecordError
from clubsuite.records import MAX_RECORD_BYTES, check_header, parse_record, replay, result_json
from clubsuite.records import format as record_format

GOLDEN = Path(__file__).parent / "golden"
ESCAPE = "\x1b]0;owned\x07\x1b[2J\x9b31m\u202e"
"""A title change, a bell, a screen clear, an 8-bit CSI and a right-to-left override."""


def golden(name: str, result: bool = True) -> dict[str, Any]:
    """A golden record, freshly read; without its stated ``result`` unless ``result``."""
    record: dict[str, Any] = json.loads((GOLDEN / f"{name}.record.json").read_text(encoding="utf-8"))
    if not result:
        record.pop("result", None)
    return record


def replay_bytes(data: bytes, *args: str) -> Any:
    """``clubs replay - ARGS`` with ``data`` on standard input, in this process."""
    return clubs_in_process(["replay", "-", *args], data)


def as_bytes(record: Any) -> bytes:
    return json.dumps(record).encode("utf-8")


# -- terminal escapes --------------------------------------------------------------------------------------


def _seat_name(record: dict[str, Any]) -> None:
    record["seats"][1]["name"] = f"bob{ESCAPE}"


def _extension(record: dict[str, Any]) -> None:
    record["seats"][1][f"x-note{ESCAPE}"] = ESCAPE
    record[f"x-{ESCAPE}"] = {ESCAPE: [ESCAPE]}


def _unknown_field(record: dict[str, Any]) -> None:
    record[f"colour{ESCAPE}"] = 1


def _unknown_seat_field(record: dict[str, Any]) -> None:
    record["seats"][0][f"age{ESCAPE}"] = 1


def _unknown_option(record: dict[str, Any]) -> None:
    record["options"][f"speed{ESCAPE}"] = 1


def _option_value(record: dict[str, Any]) -> None:
    record["options"]["lead_after_exchange"] = ESCAPE


def _notation(record: dict[str, Any]) -> None:
    record["hands"][0]["actions"][3] = f"10S{ESCAPE}"


def _variant(record: dict[str, Any]) -> None:
    record["variant"] = f"whist(target={ESCAPE})"


def _game(record: dict[str, Any]) -> None:
    record["game"] = f"whist{ESCAPE}"


def _result_key(record: dict[str, Any]) -> None:
    record["result"] = {f"winner{ESCAPE}": 1}


def _format(record: dict[str, Any]) -> None:
    record["format"] = ESCAPE


ESCAPING_CASES = {
    "seat name (accepted, shown escaped)": (_seat_name, 0),
    "extension fields (accepted)": (_extension, 0),
    "unknown top-level field": (_unknown_field, 2),
    "unknown seat field": (_unknown_seat_field, 2),
    "unknown option": (_unknown_option, 2),
    "option value": (_option_value, 2),
    "action notation": (_notation, 2),
    "variant spec": (_variant, 2),
    "game name": (_game, 2),
    "result field": (_result_key, 2),
    "format": (_format, 2),
}


@pytest.mark.parametrize("case", list(ESCAPING_CASES))
@pytest.mark.parametrize("as_json", [False, True])
def test_text_from_a_record_is_printed_escaped_never_raw(case: str, as_json: bool) -> None:
    change, status = ESCAPING_CASES[case]
    record = golden("whist-unfinished", result=False)
    change(record)
    outcome = replay_bytes(as_bytes(record), *(["--json"] if as_json else []))
    assert outcome.status == status, outcome.stderr
    assert_safe_output(outcome)
    shown = outcome.stdout + outcome.stderr
    if case.startswith("seat name") and not as_json:
        assert "\\x1b" in shown  # the escape is shown, not acted on
    if status == 0 and as_json:
        assert json.loads(outcome.stdout)["seats"] == record["seats"]  # JSON stays exact: the same strings


def test_a_seat_name_is_shown_escaped_in_the_account() -> None:
    record = golden("whist-unfinished", result=False)
    _seat_name(record)
    outcome = replay_bytes(as_bytes(record))
    assert "2 bob\\x1b]0;owned\\x07\\x1b[2J\\x9b31m\\u202e (bot)" in outcome.stdout


def test_json_output_writes_control_and_format_characters_as_json_escapes() -> None:
    record = golden("whist-unfinished", result=False)
    record["seats"][0]["name"] = "ann\x7f\x9b\u202e\u2028"
    outcome = replay_bytes(as_bytes(record), "--json")
    assert outcome.status == 0
    assert "ann\\u007f\\u009b\\u202e\\u2028" in outcome.stdout
    assert json.loads(outcome.stdout)["seats"][0]["name"] == "ann\x7f\x9b\u202e\u2028"


# -- lengths and sizes ---------------------------------------------------------------------------------------


def test_a_huge_seat_name_is_cut_in_the_account_so_output_stays_small() -> None:
    # The account names seats on almost every line; a 2 MB name must not be repeated whole.
    record = golden("whist-seeded-draw", result=False)
    record["seats"][1]["name"] = "n"
    baseline = replay_bytes(as_bytes(record))
    record["seats"][1]["name"] = "n" * 2_000_000
    outcome = replay_bytes(as_bytes(record))
    assert outcome.status == 0
    assert len(outcome.stdout) < 3 * len(baseline.stdout)
    assert "(2,000,000 characters)" in outcome.stdout
    assert_safe_output(outcome)


def test_a_huge_action_is_named_not_echoed_in_the_error() -> None:
    record = golden("whist-unfinished")
    record["hands"][0]["actions"][3] = "Z" * 1_000_000
    outcome = replay_bytes(as_bytes(record))
    assert outcome.status == 2
    assert len(outcome.stderr) < 1000
    assert "(1,000,000 characters)" in outcome.stderr


@pytest.mark.parametrize(
    "spec",
    [
        "whist" + " " * 100_000 + "x",
        "whist(" + " " * 100_000 + "x",
        "whist(target=" + "9" * 100_000 + ")",
        "whist(" + "a=1," * 25_000 + ")",
        "(" * 100_000,
        "whist" + "-" * 100_000,
    ],
    ids=["spaces then a letter", "open parenthesis", "long number", "many options", "parentheses", "long name"],
)
def test_a_spec_of_100000_characters_is_read_in_one_pass_and_refused_briefly(spec: str) -> None:
    # The spec reader scans each character a bounded number of times: a backtracking pattern took 30 s for the
    # first spec at 40,000 characters. Through GAME, --variant and a record.
    for outcome in (
        clubs_in_process(["watch", spec]),
        clubs_in_process(["simulate", "whist", "--variant", spec]),
        replay_bytes(as_bytes({**golden("whist-unfinished"), "variant": spec})),
    ):
        assert outcome.status == 2
        assert outcome.stderr.startswith("error: ")
        assert len(outcome.stderr) < 1000
        assert_safe_output(outcome)


def test_a_record_over_the_size_limit_is_refused_from_its_size(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    record = golden("whist-unfinished")
    record["x-padding"] = "p" * 5000
    path.write_text(json.dumps(record), encoding="utf-8")
    small = clubs_in_process(["replay", str(path), "--max-size", "4K"])
    assert small.status == 2
    assert "more than the limit of 4,096 bytes" in small.stderr
    assert "--max-size" in small.stderr
    assert clubs_in_process(["replay", str(path), "--max-size", "64K"]).status == 0
    assert clubs_in_process(["replay", str(path)]).status == 0  # the default limit is far above a real record


def test_standard_input_over_the_size_limit_is_refused_without_reading_it_all() -> None:
    outcome = replay_bytes(b" " * 5000 + b"{}", "--max-size", "1K")
    assert outcome.status == 2
    assert "standard input holds more than the limit of 1,024 bytes" in outcome.stderr


@pytest.mark.parametrize("value", ["0", "-1", "1T1", "ten", "2T", "nan"])
def test_a_bad_max_size_is_a_usage_error(value: str) -> None:
    outcome = clubs_in_process(["replay", "-", "--max-size", value])
    assert outcome.status == 2
    assert "Invalid value for '--max-size'" in outcome.stderr


def test_the_default_limit_is_documented_as_16_mebibytes() -> None:
    assert MAX_RECORD_BYTES == 16 * 1024 * 1024
    doc = (Path(__file__).parent.parent / "docs" / "cli.md").read_text(encoding="utf-8")
    assert "16M" in doc and "--max-size" in doc


# -- files that are not files --------------------------------------------------------------------------------


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom", "/dev/null"])
def test_a_device_is_refused_before_a_byte_is_read(device: str) -> None:
    if not os.path.exists(device):  # pragma: no cover - every Linux has them
        pytest.fail(f"{device} is missing")
    outcome = clubs_in_process(["replay", device])
    assert outcome.status == 2
    assert "it is a character device; a record is read from a regular file" in outcome.stderr


def test_a_named_pipe_without_a_writer_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "record.fifo"
    os.mkfifo(fifo)
    proc = clubs_process(["replay", str(fifo)], timeout=60)  # opening must not wait for a writer
    assert proc.returncode == 2
    assert b"it is a named pipe (FIFO)" in proc.stderr


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_standard_input_from_an_endless_device_stops_at_the_limit(device: str) -> None:
    with open(device, "rb") as source:
        proc = clubs_process(["replay", "-", "--max-size", "64K"], stdin=source)
    assert proc.returncode == 2
    assert b"standard input holds more than the limit of 65,536 bytes" in proc.stderr


def test_a_folder_is_refused(tmp_path: Path) -> None:
    outcome = clubs_in_process(["replay", str(tmp_path)])
    assert outcome.status == 2
    assert "it is a folder" in outcome.stderr


# -- checking keeps pace with replaying ----------------------------------------------------------------------


def test_a_broken_first_hand_is_found_before_the_other_hands_are_read(monkeypatch: pytest.MonkeyPatch) -> None:
    # A record of 200,000 hands whose hand 1 breaks a rule: only the hands up to it are checked and replayed.
    record = golden("whist-seeded-draw")
    first = record["hands"][0]
    broken = {"actions": ["keep", "keep", "keep", "ZZ"]}
    record["hands"] = [first, broken] + [{"actions": []}] * 200_000
    record.pop("result")
    checked: list[int] = []
    real = record_format._check_hand

    def counting(info: Any, entry: Any, index: int, has_seed: bool) -> Any:
        checked.append(index)
        return real(info, entry, index, has_seed)

    monkeypatch.setattr(record_format, "_check_hand", counting)
    with pytest.raises(InvalidRecordError, match=r"hand 2, action 4, seat \d: 'ZZ'"):
        replay(record)
    assert max(checked) == 1


def test_the_header_is_checked_without_reading_any_hand() -> None:
    record = golden("whist-seeded-draw")
    record["hands"] = ["not a hand"] * 10
    checked = check_header(record)  # refuses nothing yet: hands are checked when read
    with pytest.raises(InvalidRecordError, match=r"hands\[3\]: expected an object"):
        _ = checked.hands[3]


# -- exact results -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (["totals", 1], False),
        (["totals", 1], -0.0),
        (["totals", 0], 4.0),
        (["hands", 1, "scores", 0], True),
        (["draw"], 0),
        (["over"], 0),
        (["hands", 0, "dealer"], False),
        (["to_act"], -0.0),
    ],
    ids=[
        "false for 0 in a list",
        "-0.0 for 0",
        "4.0 for 4",
        "true for 1 in a nested list",
        "0 for false",
        "0 for false (over)",
        "false for 0 in an object",
        "-0.0 for 0 (to act)",
    ],
)
def test_a_stated_result_is_compared_by_json_type_and_value(path: list[Any], value: Any) -> None:
    record = golden("whist-unfinished")
    computed = json.loads(json.dumps(result_json(replay(copy.deepcopy(record)))))
    target: Any = computed
    for key in path[:-1]:
        target = target[key]
    original = target[path[-1]]
    assert original == value and type(original) is not type(value)  # Python's == would let it through
    target[path[-1]] = value
    record["result"] = computed
    with pytest.raises(InvalidRecordError, match="the record says"):
        replay(record)


# -- fuzzing -------------------------------------------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
GOLDEN_NAMES = sorted(p.name.removesuffix(".record.json") for p in GOLDEN.glob("*.record.json"))


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside ``value`` (object keys and list indexes)."""
    out = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            out.extend(_paths(item, (*prefix, key)))
    elif isinstance(value, list):
        for i, item in enumerate(value[:6]):
            out.extend(_paths(item, (*prefix, i)))
    return out


@st.composite
def altered_records(draw: st.DrawFn) -> Any:
    """A golden record with one value anywhere in it replaced by arbitrary JSON (or a key added)."""
    record = golden(draw(st.sampled_from(GOLDEN_NAMES)))
    path = draw(st.sampled_from(_paths(record)[1:]))
    parent: Any = record
    for key in path[:-1]:
        parent = parent[key]
    if draw(st.booleans()) and isinstance(parent, dict):
        parent[draw(st.text(max_size=12))] = draw(JSON_VALUES)
    else:
        parent[path[-1]] = draw(JSON_VALUES)
    return record


@pytest.mark.long
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(record=altered_records(), as_json=st.booleans())
def test_fuzz_any_altered_record_ends_in_status_0_or_2_with_safe_bounded_output(record: Any, as_json: bool) -> None:
    outcome = replay_bytes(as_bytes(record), *(["--json"] if as_json else []))
    assert outcome.status in (0, 2)
    assert_safe_output(outcome)
    if outcome.status == 2:
        assert outcome.stdout == ""
        assert outcome.stderr.startswith("error: ")
        assert len(outcome.stderr) < 1500, outcome.stderr


@pytest.mark.long
@settings(max_examples=150, deadline=None)
@given(value=JSON_VALUES)
def test_fuzz_arbitrary_json_is_refused_cleanly(value: Any) -> None:
    outcome = replay_bytes(json.dumps(value).encode("utf-8"))
    assert outcome.status == 2
    assert_safe_output(outcome)
    assert len(outcome.stderr) < 1500, outcome.stderr


@settings(max_examples=150, deadline=None)
@given(data=st.binary(max_size=300))
def test_fuzz_arbitrary_bytes_are_refused_cleanly(data: bytes) -> None:
    outcome = replay_bytes(data)
    assert outcome.status == 2
    assert_safe_output(outcome)
    assert len(outcome.stderr) < 1500, outcome.stderr


def test_a_number_too_large_for_a_float_is_refused_so_json_output_stays_json() -> None:
    with pytest.raises(InvalidRecordError, match="too large to be read exactly"):
        parse_record(b'{"x-big": 1e400}')


@pytest.mark.parametrize(
    ("seat", "words"),
    [
        ({"name": "Cleo", "kind": "bot", "bot": ""}, "seats[1].bot: expected the bot that played the seat"),
        ({"name": "Cleo", "kind": "bot", "bot": "x" * 201}, "at most 200 characters"),
        ({"name": "Cleo", "kind": "bot", "bot": 7}, "seats[1].bot: expected the bot that played the seat"),
        (
            {"name": "Cleo", "kind": "human", "bot": "normal"},
            'seats[1].bot: a seat names its bot only with "kind": "bot"',
        ),
        ({"name": "Cleo", "bot": "normal"}, 'only with "kind": "bot"'),
    ],
)
def test_a_seats_bot_must_name_a_bot_and_only_at_a_bots_seat(tmp_path: Path, seat: dict[str, Any], words: str) -> None:
    record = golden("whist-1997-explicit", result=False)
    record["seats"][1] = seat
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record))
    done = clubs_in_process(["replay", str(path)])
    assert done.status != 0 and words in done.stderr, done.stderr
    record["seats"][1] = {"name": "Cleo", "kind": "bot", "bot": "pimc(samples=8)"}
    path.write_text(json.dumps(record))
    assert clubs_in_process(["replay", str(path)]).status == 0
