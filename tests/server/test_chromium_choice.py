"""Which Chromium the browser tests launch (``browserkit.chromium``): headless, Debian's headless shell where it is
installed, else the full browser; headed, always the full browser; neither found nor installable, a skip that names
both packages (a failure under ``CLUBS_REQUIRE_BROWSER=1``)."""

from __future__ import annotations

import browserkit
import pytest


def installed(monkeypatch: pytest.MonkeyPatch, *commands: str) -> None:
    """Only ``commands`` are on the path, nothing is installed, and nothing was found before."""
    monkeypatch.setattr(browserkit.shutil, "which", lambda name: f"/usr/bin/{name}" if name in commands else None)
    monkeypatch.setattr(browserkit, "_installed", lambda package, _: (None, f"{package} cannot be installed here"))
    monkeypatch.setattr(browserkit, "_found", {})


def test_headless_tests_run_the_headless_shell_where_it_is_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    installed(monkeypatch, "chromium", "chromium-headless-shell")
    assert browserkit.chromium(headless=True) == "/usr/bin/chromium-headless-shell"
    assert browserkit.chromium(headless=False) == "/usr/bin/chromium"


def test_without_the_headless_shell_the_full_browser_runs_headless(monkeypatch: pytest.MonkeyPatch) -> None:
    installed(monkeypatch, "chromium-browser")
    assert browserkit.chromium(headless=True) == "/usr/bin/chromium-browser"


def test_headed_tests_never_run_the_headless_shell(monkeypatch: pytest.MonkeyPatch) -> None:
    installed(monkeypatch, "chromium-headless-shell")
    monkeypatch.delenv("CLUBS_REQUIRE_BROWSER", raising=False)
    with pytest.raises(pytest.skip.Exception, match="chromium: chromium cannot be installed here"):
        browserkit.chromium(headless=False)


def test_with_no_chromium_at_all_the_reason_names_both_packages(monkeypatch: pytest.MonkeyPatch) -> None:
    installed(monkeypatch)
    monkeypatch.setenv("CLUBS_REQUIRE_BROWSER", "1")
    with pytest.raises(pytest.fail.Exception) as failed:
        browserkit.chromium(headless=True)
    assert "chromium-headless-shell: chromium-headless-shell cannot be installed here" in str(failed.value)
    assert "chromium: chromium cannot be installed here" in str(failed.value)
    assert "CLUBS_REQUIRE_BROWSER=1" in str(failed.value)
