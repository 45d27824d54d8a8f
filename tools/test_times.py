"""Where the test suite's time goes: the per-test times of a JUnit report (``make unit`` writes
``build/test-times.xml``) summed by folder and by file, to choose what to make faster.

Usage: ``python tools/test_times.py [build/test-times.xml] [--top N] [--cpu]``. The times are each test's own, summed
over every worker: with two workers the suite's wall time is about half the total. ``--cpu`` sums each test's CPU
seconds instead (its process's and those it started: kept where the run had ``CLUBS_TEST_CPU=1``,
``tests/cpu_times.py``): on a machine the suite keeps busy, a test's wall time grows with the tests beside it, and
its CPU time is what it costs the others.
"""

from __future__ import annotations

import argparse
import os
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

CPU_PROPERTY = "cpu_seconds"
"""The property a test's CPU seconds are kept in (``tests/cpu_times.py``)."""


def test_times(report: Path, cpu: bool = False) -> Counter[str]:
    """Each test file's summed time in seconds, from the report's test cases (``classname`` names the module): their
    wall time, or their CPU time where ``cpu``."""
    by_file: Counter[str] = Counter()
    for case in ET.parse(report).getroot().iter("testcase"):
        module = case.get("classname", "?")
        by_file[module.replace(".", "/") + ".py"] += case_cpu(case) if cpu else float(case.get("time", "0"))
    return by_file


def case_cpu(case: ET.Element) -> float:
    """A test case's CPU seconds (its last ``cpu_seconds`` property); 0 where the run kept none."""
    values = [p.get("value", "0") for p in case.iter("property") if p.get("name") == CPU_PROPERTY]
    return float(values[-1]) if values else 0.0


def main(argv: list[str]) -> int:
    """Print the totals by folder, then the slowest files."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report", nargs="?", default="build/test-times.xml", type=Path)
    parser.add_argument("--top", type=int, default=30, help="how many of the slowest files to list (default 30)")
    parser.add_argument("--cpu", action="store_true", help="sum CPU seconds (a run with CLUBS_TEST_CPU=1), not wall")
    args = parser.parse_args(argv)
    if not args.report.is_file():
        print(f"{args.report}: no such report; run `make unit` first", file=sys.stderr)
        return 2
    by_file = test_times(args.report, args.cpu)
    total = sum(by_file.values())
    if args.cpu and not total:
        print(f"{args.report}: no CPU times kept; run with CLUBS_TEST_CPU=1", file=sys.stderr)
        return 2
    by_folder: Counter[str] = Counter()
    for name, seconds in by_file.items():
        by_folder[name.rpartition("/")[0] or "."] += seconds
    print(f"{total:8.0f} s in all ({len(by_file)} files)")
    for folder, seconds in by_folder.most_common():
        print(f"{seconds:8.0f} s  {100 * seconds / total:5.1f} %  {folder}/")
    print()
    for name, seconds in by_file.most_common(args.top):
        print(f"{seconds:8.1f} s  {name}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except BrokenPipeError:  # read by `head`, which stopped reading: the rest is not wanted, and no traceback either
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(141)
