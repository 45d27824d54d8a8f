"""A simulation in parts (``clubs simulate --shard I/N --out FILE``, ``clubs merge``): the merged parts give exactly
the result of one run, for any split, and a damaged or mixed-up part is refused with its name."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_helpers import clubs_in_process
from clubsuite.errors import InvalidOptionsError
from clubsuite.sim import simulate
from clubsuite.sim.parts import merge_parts, parse_shard, part_from_json, shard_range, simulate_part

RUNS = [
    # (spec, bots, matches, duplicate, report): three seats, four seats in fixed partnerships, a report's facts.
    ("whist", ("heuristic", "random", "random"), 13, True, False),
    ("partnership", ("heuristic", "random"), 10, False, False),
    ("free", ("heuristic", "random", "random"), 7, True, True),
    ("northstar(players=3)", ("heuristic", "random", "random"), 6, False, True),
]


@pytest.mark.parametrize(("spec", "bots", "matches", "duplicate", "report"), RUNS)
def test_merged_parts_give_exactly_the_result_of_one_run_for_every_split(
    spec: str, bots: tuple[str, ...], matches: int, duplicate: bool, report: bool
) -> None:
    whole = simulate(spec, bots, matches, seed=11, hand_facts=report, duplicate=duplicate)
    for parts in (1, 2, 3, matches):
        made = [
            simulate_part(spec, bots, matches, 11, p, parts, hand_facts=report, duplicate=duplicate)
            for p in range(1, parts + 1)
        ]
        # Through the file format, in reverse order: a part file is all that travels between machines.
        read = [(f"part {m.part}", part_from_json(json.loads(json.dumps(m.to_json())), "x")) for m in made]
        merged = merge_parts(read[::-1])
        assert merged == whole, f"{parts} parts"
        assert merged.to_json() == whole.to_json()
        assert merged.format_table() == whole.format_table()


def test_the_parts_of_a_run_are_consecutive_slices_that_cover_it_once() -> None:
    for matches in (1, 7, 120):
        for parts in range(1, min(matches, 9) + 1):
            slices = [shard_range(matches, p, parts) for p in range(1, parts + 1)]
            assert [k for s in slices for k in s] == list(range(matches))
            assert max(len(s) for s in slices) - min(len(s) for s in slices) <= 1


@pytest.mark.parametrize("text", ["", "2", "0/3", "4/3", "a/3", "1/b", "1/-2", "-1/2", "1/0", "1//2"])
def test_a_shard_that_is_not_part_i_of_n_counted_from_1_is_refused(text: str) -> None:
    with pytest.raises(InvalidOptionsError, match="--shard"):
        parse_shard(text)


def test_more_parts_than_matches_are_refused() -> None:
    with pytest.raises(InvalidOptionsError, match="a simulation of 3 matches has 1 to 3 parts"):
        shard_range(3, 1, 4)


def _cli(*args: str) -> tuple[int, str, str]:
    out = clubs_in_process(list(args))
    return out.status, out.stdout, out.stderr


def _parts(tmp_path: Path, *extra: str, seed: str = "4", parts: int = 3) -> list[str]:
    files = []
    for p in range(1, parts + 1):
        f = str(tmp_path / f"s{seed}-{p}.json")
        status, out, err = _cli(
            "simulate", "free", "--bots", "heuristic,random,random", "--matches", "8", "--seed", seed,
            "--shard", f"{p}/{parts}", "--out", f, *extra,
        )  # fmt: skip
        assert status == 0, err
        assert f"part {p} of {parts}" in out
        files.append(f)
    return files


@pytest.mark.parametrize("fmt", [(), ("--json",)])
def test_clubs_merge_prints_what_the_whole_run_prints(tmp_path: Path, fmt: tuple[str, ...]) -> None:
    files = _parts(tmp_path, "--report", "--duplicate")
    status, merged, err = _cli("merge", *files[::-1], *fmt)
    assert status == 0, err
    status, whole, err = _cli(
        "simulate", "free", "--bots", "heuristic,random,random", "--matches", "8", "--seed", "4", "--report",
        "--duplicate", *fmt,
    )  # fmt: skip
    assert status == 0, err
    assert merged == whole
    assert "Balance report" in merged or "report" in json.loads(merged)


def test_merge_refuses_a_missing_part_a_part_given_twice_and_parts_of_different_runs(tmp_path: Path) -> None:
    one, two, three = _parts(tmp_path)
    other = _parts(tmp_path, seed="5")
    cases = [
        ((one, two), "part 3 of 3 missing"),
        ((one, two, two, three), "are both part 2 of 3"),
        ((one, other[1], three), "are parts of different runs: their 'seed' differ"),
    ]
    for files, message in cases:
        status, out, err = _cli("merge", *files)
        assert status == 2 and out == ""
        assert message in err


def _tampered(tmp_path: Path, source: str, change: str) -> str:
    data = json.loads(Path(source).read_text())
    match0 = data["outcomes"][0]
    if change == "seats":
        match0["seats"] = match0["seats"][::-1]
    elif change == "winners":
        match0["winner_seats"] = [7]
    elif change == "seed":
        match0["match_seed"] += 1
    elif change == "outcomes":
        data["outcomes"].pop()
    elif change == "format":
        data["format"] = "something else"
    elif change == "bots":
        data["bots"] = ["heuristic", "no-such-bot", "random"]
    elif change == "thinking":
        match0["thinking"] = [[1, -2.0, 0.0]] * 3
    target = tmp_path / f"bad-{change}.json"
    target.write_text(json.dumps(data))
    return str(target)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ("seats", "its seats are not the seating of match 0"),
        ("winners", "its winners are not seats"),
        ("seed", "its match seed is not the one the run's seed gives"),
        ("outcomes", "holds 2 matches, not 1"),
        ("format", "its 'format' is not 'clubsuite-simulation-part'"),
        ("bots", "no-such-bot"),
        ("thinking", "its thinking times are not [decisions, seconds, slowest, cpu seconds]"),
    ],
)
def test_merge_refuses_a_damaged_part_naming_the_file_and_the_problem(
    tmp_path: Path, change: str, message: str
) -> None:
    files = _parts(tmp_path)
    bad = _tampered(tmp_path, files[0], change)
    status, out, err = _cli("merge", bad, *files[1:])
    assert status == 2 and out == ""
    assert "bad-" + change in err and message in err
    assert "Traceback" not in err


def test_report_facts_of_the_wrong_type_are_refused_naming_the_field(tmp_path: Path) -> None:
    files = _parts(tmp_path, "--report")
    data = json.loads(Path(files[0]).read_text())
    data["outcomes"][0]["hand_facts"][0][0] = "x"  # FreeHandFacts.winner is a seat number
    Path(files[0]).write_text(json.dumps(data))
    status, _, err = _cli("merge", *files)
    assert status == 2 and "field winner: x is not a whole number" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--shard", "1/2"), "give --out FILE too"),
        (("--shard", "1/9", "--out", "p.json"), "a simulation of 8 matches has 1 to 8 parts"),
        (("--shard", "x", "--out", "p.json"), "expected I/N"),
    ],
)
def test_simulate_refuses_a_bad_split_before_playing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: tuple[str, ...], message: str
) -> None:
    monkeypatch.chdir(tmp_path)
    status, out, err = _cli("simulate", "whist", "--matches", "8", *args)
    assert status == 2 and out == "" and message in err
    assert not (tmp_path / "p.json").exists()


def test_an_unwritable_part_file_is_refused_before_playing(tmp_path: Path) -> None:
    status, out, err = _cli("simulate", "whist", "--matches", "2", "--out", str(tmp_path / "missing" / "p.json"))
    assert status == 2 and out == "" and "--out" in err


def test_a_part_file_written_without_shard_holds_the_whole_run(tmp_path: Path) -> None:
    f = str(tmp_path / "all.json")
    status, out, _ = _cli("simulate", "whist", "--matches", "3", "--seed", "2", "--out", f, "--json")
    assert status == 0 and json.loads(out)["part"] == 1 and json.loads(out)["parts"] == 1
    merged = _cli("merge", f, "--json")
    whole = _cli("simulate", "whist", "--matches", "3", "--seed", "2", "--json")
    assert merged == whole


def test_a_part_file_written_before_cpu_time_was_measured_still_merges(tmp_path: Path) -> None:
    """Part files of ``--timing`` runs now hold each seat's CPU seconds as a fourth figure; one from before (three
    figures) is read with no CPU time, and the merged thinking adds the others' CPU time only."""
    files = _parts(tmp_path, "--timing", parts=2)
    old = json.loads(Path(files[0]).read_text())
    assert all(len(t) == 4 for o in old["outcomes"] for t in o["thinking"])
    for o in old["outcomes"]:
        o["thinking"] = [t[:3] for t in o["thinking"]]
    Path(files[0]).write_text(json.dumps(old))
    status, out, err = _cli("merge", *files, "--json")
    assert status == 0, err
    thinking = [b["thinking"] for b in json.loads(out)["bots"]]
    new = json.loads(Path(files[1]).read_text())["outcomes"]
    measured = [o["thinking"][o["seats"][0]] for o in new]  # entry 0 sat at seats[0]
    cpu, decisions = sum(t[3] for t in measured), sum(t[0] for t in measured)
    assert thinking[0]["decisions"] > decisions  # both parts' decisions count...
    assert thinking[0]["cpu_ms_per_decision"] == pytest.approx(1000 * cpu / decisions)  # ...the CPU mean only theirs'
    for o in new:
        o["thinking"] = [t[:3] for t in o["thinking"]]
    Path(files[1]).write_text(json.dumps({**json.loads(Path(files[1]).read_text()), "outcomes": new}))
    status, out, err = _cli("merge", *files, "--json")
    assert status == 0, err
    assert all(b["thinking"]["cpu_ms_per_decision"] is None for b in json.loads(out)["bots"])  # not measured
