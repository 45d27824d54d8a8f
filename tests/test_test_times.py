"""The suite's own yardsticks: each test's CPU seconds, its process's and those it started (``tests/cpu_times.py``),
and their sums by file (``tools/test_times.py``)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

import cpu_times

TOOL = Path(__file__).resolve().parents[1] / "tools" / "test_times.py"

BURN = "import time\nwhile time.process_time() < 0.3: pass\n"
"""A program that uses 0.3 CPU seconds of its own, however fast or loaded the machine."""
COUNTED = 0.25
"""At least this much of it is counted: the system counts CPU time in ticks (10 ms here), and rounds the child's."""


def test_a_process_the_test_started_and_waited_for_counts_in_its_cpu_time() -> None:
    before = cpu_times.tree_cpu_seconds()
    subprocess.run([sys.executable, "-c", BURN], check=True)
    assert cpu_times.tree_cpu_seconds() - before >= COUNTED


def test_a_process_still_running_counts_in_its_cpu_time() -> None:
    program = "import sys\nsys.stdin.readline()\n" + BURN + "sys.stdin.read()\n"  # waits, burns, waits again
    child = subprocess.Popen([sys.executable, "-c", program], stdin=subprocess.PIPE)
    assert child.stdin is not None
    try:
        before = cpu_times.tree_cpu_seconds()
        child.stdin.write(b"go\n")
        child.stdin.flush()
        while cpu_times.tree_cpu_seconds() - before < COUNTED:  # until the burn shows, the child still alive
            assert child.poll() is None
    finally:
        child.communicate(b"")


def _tool() -> ModuleType:
    """``tools/test_times.py``, imported from its file (``tools`` is not a package)."""
    spec = importlib.util.spec_from_file_location("test_times_tool", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


REPORT = """<testsuites><testsuite>
<testcase classname="tests.a.test_x" name="one" time="2.5"><properties>
  <property name="seed" value="7"/><property name="cpu_seconds" value="1.25"/></properties></testcase>
<testcase classname="tests.a.test_x" name="two" time="1.0"><properties>
  <property name="cpu_seconds" value="0.5"/></properties></testcase>
<testcase classname="tests.test_y" name="three" time="4.0"/>
</testsuite></testsuites>"""


def test_the_report_is_summed_by_file_in_wall_or_cpu_seconds(tmp_path: Path) -> None:
    report = tmp_path / "times.xml"
    report.write_text(REPORT)
    tool = _tool()
    assert tool.test_times(report) == {"tests/a/test_x.py": 3.5, "tests/test_y.py": 4.0}
    assert tool.test_times(report, cpu=True) == {"tests/a/test_x.py": 1.75, "tests/test_y.py": 0.0}


def test_a_cpu_summary_of_a_run_that_kept_no_cpu_times_says_how_to_keep_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "times.xml"
    report.write_text(REPORT.replace("cpu_seconds", "other"))
    assert _tool().main([str(report), "--cpu"]) == 2
    assert "CLUBS_TEST_CPU=1" in capsys.readouterr().err
