"""``clubs simulate --html``: one self-contained page per game, looked at in a real Chromium as a picture: every plot
drawn, nothing fetched from anywhere, the figures on the page the ones of the run."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image

from cli_helpers import clubs_in_process

RUNS = [
    # (arguments, plots on the page: the three every game has, then the balance report's own)
    (["whist", "--matches", "6"], 3 + 4),
    (["partnership", "--matches", "8"], 3 + 3),
    (["free", "--matches", "6"], 3 + 4),
    (["northstar", "--players", "3", "--matches", "6", "--variant", "northstar-double(players=3)"], 3 + 3),
]


@pytest.mark.parametrize(("args", "plots"), RUNS)
def test_the_html_report_shows_every_plot_and_needs_nothing_else(
    page: Any, tmp_path: Path, args: list[str], plots: int
) -> None:
    target = tmp_path / "report.html"
    out = clubs_in_process(["simulate", *args, "--seed", "3", "--html", str(target)])
    assert out.status == 0, out.stderr
    assert f"HTML report written to '{target}'" in out.stderr
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(request.url))
    page.goto(target.as_uri())
    assert page.locator("figure svg").count() == plots
    assert fetched == [target.as_uri()]  # self-contained: no script, style, font or image from elsewhere
    table = page.locator("pre").first.inner_text()
    assert table.startswith(f"{args[args.index('--matches') + 1]} matches of")
    for k in range(plots):
        box = page.locator("figure svg").nth(k).bounding_box()
        assert box is not None and box["width"] > 300 and box["height"] > 100
    image = Image.open(io.BytesIO(page.screenshot(full_page=True))).convert("RGB")
    shot = np.asarray(image)  # bytes, as the picture holds them: compared, never added up
    # A drawn page: the bars' blue fills a visible share of it, and it is not one colour.
    r, g, b = shot[..., 0], shot[..., 1], shot[..., 2]
    blue = int(((b > 140) & (r < 110) & (g > 90) & (g < 150)).sum())
    assert blue > 2000, f"only {blue} pixels of bars"
    colours = image.getcolors(1 << 24)  # each distinct colour (all of them: there are no more than 2**24)
    assert colours is not None and len(colours) > 50


def test_an_unwritable_html_file_is_refused_before_the_run(tmp_path: Path) -> None:
    out = clubs_in_process(["simulate", "whist", "--matches", "2", "--html", str(tmp_path / "no" / "r.html")])
    assert out.status == 2 and "--html" in out.stderr and out.stdout == ""


def test_clubs_merge_writes_the_same_page_as_one_run(tmp_path: Path) -> None:
    parts = []
    for k in (1, 2):
        part = tmp_path / f"p{k}.json"
        done = clubs_in_process(
            ["simulate", "free", "--matches", "6", "--seed", "3", "--shard", f"{k}/2", "--out", str(part), "--report"]
        )
        assert done.status == 0, done.stderr
        parts.append(str(part))
    merged, whole = tmp_path / "merged.html", tmp_path / "whole.html"
    assert clubs_in_process(["merge", *parts, "--html", str(merged)]).status == 0
    assert clubs_in_process(["simulate", "free", "--matches", "6", "--seed", "3", "--html", str(whole)]).status == 0
    assert merged.read_text() == whole.read_text()
