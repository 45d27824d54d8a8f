"""A simulation's report as one self-contained HTML file with its plots (``clubs simulate ... --html FILE``).

Every game gets the same figures from the result (the win rate of each bot or partnership, each bot's win rate
from each seat, and how its points per hand spread from match to match), each win rate with its 95% Wilson
interval; a game with a balance report adds its own figures (:attr:`clubsuite.sim.report.ReportPart.charts`) and
the report's tables. The plots are drawn with Matplotlib (the extra ``plots``) as inline SVG, text drawn as
paths, so the file needs nothing else to be read: no script, no font, no network.
"""

from __future__ import annotations

import html
import io
from collections.abc import Sequence
from typing import TYPE_CHECKING

from clubsuite import __version__
from clubsuite.errors import InvalidOptionsError
from clubsuite.sim.report import Bars, Report, report_part
from clubsuite.sim.stats import SimResult, wilson_interval

if TYPE_CHECKING:
    from matplotlib.figure import Figure

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 60rem; padding: 0 1rem; color: #1d2125; }
h1 { font-size: 1.6rem; } h2 { font-size: 1.2rem; margin-top: 2rem; border-bottom: 1px solid #ccd; }
pre { background: #f5f6f8; padding: 0.8rem; overflow-x: auto; font-size: 0.85rem; }
figure { margin: 1.2rem 0; } figcaption { font-size: 0.9rem; color: #555; }
svg { max-width: 100%; height: auto; }
"""


def _use_matplotlib() -> None:
    """Matplotlib set to the file-only backend before pyplot is imported, or a clear refusal when the extra is not
    installed."""
    try:
        import matplotlib
    except ImportError:
        raise InvalidOptionsError("--html needs Matplotlib to draw the plots: pip install 'clubsuite[plots]'") from None
    matplotlib.use("Agg")
    matplotlib.rcParams["svg.fonttype"] = "path"
    matplotlib.rcParams["svg.hashsalt"] = "clubsuite"


def _svg(figure: Figure) -> str:
    """A figure as inline SVG (without the XML prologue)."""
    out = io.StringIO()
    figure.savefig(out, format="svg", bbox_inches="tight", metadata={"Date": None})  # the same run, the same page
    text = out.getvalue()
    return text[text.index("<svg") :]


def bars_svg(chart: Bars) -> str:
    """A horizontal bar chart with its intervals as error bars."""
    _use_matplotlib()
    import matplotlib.pyplot as plt

    n = len(chart.labels)
    figure, axes = plt.subplots(figsize=(7.5, 0.45 * n + 1.2))
    positions = list(range(n))[::-1]
    below = [v - lo for v, lo in zip(chart.values, chart.low, strict=True)]
    above = [hi - v for v, hi in zip(chart.values, chart.high, strict=True)]
    axes.barh(positions, chart.values, xerr=[below, above], color="#4a78a8", ecolor="#1d2125", capsize=3)
    axes.set_yticks(positions, chart.labels)
    axes.set_xlabel(chart.axis)
    axes.set_title(chart.title, fontsize=11)
    axes.grid(axis="x", alpha=0.3)
    svg = _svg(figure)
    plt.close(figure)
    return svg


def histogram_svg(title: str, axis: str, series: Sequence[tuple[str, Sequence[float]]]) -> str:
    """The spread of some values, one outline per series."""
    _use_matplotlib()
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(7.5, 3.2))
    values = [v for _, vs in series for v in vs]
    low, high = (min(values), max(values)) if values else (0.0, 1.0)
    bins = [low + (high - low) * k / 30 for k in range(31)] if high > low else 10
    for label, vs in series:
        axes.hist(vs, bins=bins, histtype="step", linewidth=1.6, label=label)
    axes.set_xlabel(axis)
    axes.set_ylabel("matches")
    axes.set_title(title, fontsize=11)
    axes.legend(fontsize=8)
    svg = _svg(figure)
    plt.close(figure)
    return svg


def _entries(result: SimResult) -> list[tuple[str, tuple[int, ...]]]:
    """The sides of the result: each partnership (its entries), or each bot entry."""
    if result.teams:
        return [(t.label, t.entries) for t in result.team_stats]
    return [(e.label, (i,)) for i, e in enumerate(result.entries)]


def standard_charts(result: SimResult) -> list[Bars]:
    """Every game's charts: the win rate of each side, and of each side from each seat it held."""
    sides = _entries(result)
    overall, by_seat = [], []
    for label, entries in sides:
        first = entries[0]
        wins = sum(o.won(first) for o in result.outcomes)
        low, high = wilson_interval(wins, result.matches)
        overall.append((label, 100 * wins / result.matches, 100 * low, 100 * high))
        for seat in range(len(result.bots)):
            played = [o for o in result.outcomes if o.seats[first] == seat]
            if played:
                won = sum(o.won(first) for o in played)
                low, high = wilson_interval(won, len(played))
                by_seat.append((f"{label}, seat {seat}", 100 * won / len(played), 100 * low, 100 * high))

    def chart(title: str, rows: list[tuple[str, float, float, float]], note: str) -> Bars:
        return Bars(
            title,
            "matches won (%)",
            tuple(r[0] for r in rows),
            tuple(r[1] for r in rows),
            tuple(r[2] for r in rows),
            tuple(r[3] for r in rows),
            note,
        )

    who = "team" if result.teams else "bot"
    return [
        chart(f"Win rate of each {who}", overall, "95% Wilson intervals"),
        chart(
            f"Win rate of each {who} by the seat it held",
            by_seat,
            "seats as the game numbers them; each side holds every seat equally often over whole cycles; 95% Wilson "
            "intervals",
        ),
    ]


def points_spread(result: SimResult) -> list[tuple[str, list[float]]]:
    """For each side, its points per hand in each match."""
    return [
        (label, [o.score(entries[0]) / o.hands for o in result.outcomes if o.hands])
        for label, entries in _entries(result)
    ]


def html_report(result: SimResult, report: Report | None = None) -> str:
    """The whole page."""
    figures = [bars_svg(c) + _caption(c) for c in standard_charts(result)]
    figures.append(
        histogram_svg("Points per hand, match by match", "mean points per hand in a match", points_spread(result))
        + "<figcaption>How each side's points per hand spread over the matches.</figcaption>"
    )
    game_figures: list[str] = []
    report_text = ""
    if report is not None:
        from clubsuite.engine import find_game

        info, _ = find_game(result.game)
        part = report_part(info)
        if part is not None and part.charts is not None:
            game_figures = [bars_svg(c) + _caption(c) for c in part.charts(report)]
        report_text = report.format_text()
    title = f"{result.matches:,} matches of {result.canonical_spec}"
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{html.escape(title)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{html.escape(title)}</h1>",
        f"<p>Seed {result.seed}; bots {html.escape(', '.join(result.bots))}"
        f"{'; duplicate deals' if result.duplicate else ''}. Made by clubsuite {html.escape(__version__)}.</p>",
        "<h2>Results</h2>",
        f"<pre>{html.escape(result.format_table())}</pre>",
        *(f"<figure>{f}</figure>" for f in figures),
    ]
    if report is not None:
        parts += ["<h2>Balance report</h2>", *(f"<figure>{f}</figure>" for f in game_figures)]
        parts.append(f"<pre>{html.escape(report_text)}</pre>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _caption(chart: Bars) -> str:
    return f"<figcaption>{html.escape(chart.note)}</figcaption>" if chart.note else ""
