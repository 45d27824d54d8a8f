"""``bench/differential.py``: every variant with a kernel checked against the engine, matches and decisions counted,
a mismatch reported with its seed and the exit status 1."""

from __future__ import annotations

from typing import Any

import pytest

from bench_helpers import load, run_json
from clubsuite.native import KernelMismatchError
from native_helpers import kernel_or_skip


def _script(monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setitem(__import__("sys").modules, "differential", None)
    return load("differential", register=True)


@pytest.mark.long
def test_every_variant_with_a_kernel_is_checked_decision_by_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    for game in ("whist", "partnership", "free", "northstar"):
        kernel_or_skip(f"clubsuite.games.{game}._core")
    module = _script(monkeypatch)
    figures = run_json(module, ["--matches", "10", "--seed", "4", "--json"])
    assert [f["spec"] for f in figures] == list(module.VARIANTS)
    assert {f["spec"].split("(")[0].split("-")[0] for f in figures} == {"whist", "partnership", "free", "northstar"}
    for f in figures:
        assert f["matches"] == 10 and f["decisions"] > 10 * 40 and f["mismatch"] is None


def test_a_mismatch_is_reported_with_its_seed_and_exit_status_1(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    kernel_or_skip("clubsuite.games.whist._core")
    kernel_or_skip("clubsuite.games.partnership._core")
    module = _script(monkeypatch)
    from clubsuite.games.whist import differential

    def wrong(options: object, seeds: list[int]) -> int:
        raise KernelMismatchError(f"match seed {seeds[0]}: the legal cards")

    monkeypatch.setattr(differential, "check_random_matches", wrong)  # the workers are forked with it
    assert module.main(["--matches", "2", "--seed", "1"]) == 1
    out = capsys.readouterr().out
    assert "whist: match seed" in out and "the legal cards" in out
    assert "partnership" in out and "agree at every decision" in out


def test_only_the_variants_asked_for_are_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    kernel_or_skip("clubsuite.games.free._core")
    module = _script(monkeypatch)
    figures = run_json(module, ["--matches", "5", "--only", "free", "--only", "northstar-duel", "--json"])
    assert [f["spec"] for f in figures] == ["free", "northstar-duel"]
    with pytest.raises(SystemExit):
        module.main(["--only", "checkers"])
