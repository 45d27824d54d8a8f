"""Where the test suite's time goes: the per-test times of a JUnit report (``make unit`` writes
``build/test-times.xml``) summed by folder and by file, to choose what to make faster.

Usage: ``python tools/test_times.py [build/test-times.xml] [--top N]``. The times are each test's own, summed over
every worker: with two workers the suite's wall time is about half the total.
"""

from __future__ import annotations

import argparse
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path


def test_times(report: Path) -> Counter[str]:
    """Each test file's summed time in seconds, from the report's test cases (``classname`` names the module)."""
    by_file: Counter[str] = Counter()
    for case in ET.parse(report).getroot().iter("testcase"):
        module = case.get("classname", "?")
        by_file[module.replace(".", "/") + ".py"] += float(case.get("time", "0"))
    return by_file


def main(argv: list[str]) -> int:
    """Print the totals by folder, then the slowest files."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report", nargs="?", default="build/test-times.xml", type=Path)
    parser.add_argument("--top", type=int, default=30, help="how many of the slowest files to list (default 30)")
    args = parser.parse_args(argv)
    if not args.report.is_file():
        print(f"{args.report}: no such report; run `make unit` first", file=sys.stderr)
        return 2
    by_file = test_times(args.report)
    total = sum(by_file.values())
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
    sys.exit(main(sys.argv[1:]))
